"""What a question names exactly: an identifier it quotes or a run of its words in their order.

A body holding either is the strongest sign it answers exactly this question, so its body evidence
is doubled (``reward_specific_matches``); and the section to read in a document that quotes the
identifier asked about is the one that writes it (``section_quoting``): "BL-30" sends the reader to
the backlog's section listing BL-30, not to the section where the words "bl" and "30" score best.
"""

from __future__ import annotations

import heapq
import re

from memorybank.core.section_index import SectionEntry

PHRASE_WORDS = 4
"""A run of this many consecutive question words found verbatim in a body is specific evidence."""
SPECIFIC_REWARD = 2.0
SPECIFIC_CANDIDATES = 30
_IDENTIFIER = re.compile(r"[a-z0-9]+(?:[_.-][a-z0-9]+)+|[a-z]+[0-9]+[a-z0-9]*", re.ASCII)


def reward_specific_matches(bodies: dict[str, float], leading: list[str], question: str, texts: dict[str, str]) -> None:
    """Double the body evidence of a document whose body holds what the question names exactly:
    an identifier it quotes (``registry_unknown_field``, ``FT-042``) or its words in its order
    (``two active records for the same pane``), whatever stands between the words. Both are the
    strongest sign that the body answers exactly this. Only the best candidates are checked (from
    ``leading``, the documents at or above the cut of the best), so the cost stays flat."""
    lowered = question.lower()
    words = re.findall(r"\w+", lowered)
    runs = [words[i : i + PHRASE_WORDS] for i in range(len(words) - PHRASE_WORDS + 1)]
    phrases = [re.compile(r"\W+".join(map(re.escape, run))) for run in runs if sum(1 for w in run if len(w) > 3) >= 2]
    quoted = identifiers(question)
    if not phrases and not quoted:
        return
    for path in heapq.nlargest(SPECIFIC_CANDIDATES, leading, key=bodies.__getitem__):
        body = texts.get(path, "")
        if any(i in body for i in quoted) or any(p.search(body) for p in phrases):
            bodies[path] *= SPECIFIC_REWARD


def identifiers(question: str) -> list[str]:
    """The identifiers a question quotes (``bl-30``, ``checked_out``, ``ft-042``), lowercased."""
    return [t for t in _IDENTIFIER.findall(question.lower()) if len(t) > 4]


def section_quoting(entries: list[SectionEntry], quoted: tuple[str, ...]) -> SectionEntry | None:
    """The section of a body that writes most often the identifiers a question quotes
    (``identifiers``), or None when the body writes none of them whole. The title's lead is never
    the one (its line is no place to start reading; ``section_index.best_sections``)."""
    best, most = None, 0
    for entry in entries:
        if entry.title:
            continue
        count = sum(entry.counts.get(token, 0) for token in quoted)
        if count > most:
            best, most = entry, count
    return best
