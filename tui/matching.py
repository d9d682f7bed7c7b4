"""A fuzzy matcher whose cost is linear in the candidate's length, for jumping to documents.

Textual's own matcher explores every way the query's letters can be placed in a candidate, which
is super-linear: one 1,000-character title froze the palette for tens of seconds. This one makes
at most two passes over a candidate: a substring search, else a greedy left-to-right placement of
the letters followed by one right-to-left pass that tightens the window (fzf's first algorithm).
Scores are in (0, 1]; a whole substring beats scattered letters, an early and compact match beats a
late and spread one.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SHOWN_LIMIT = 160
"""Characters of a candidate shown in a result row (the match is still made on the whole text)."""


@dataclass(frozen=True)
class Match:
    """Where a query matched a candidate, and how well."""

    score: float
    positions: tuple[int, ...]
    """Indexes of the matched characters in the candidate."""


def _word_start(text: str, index: int) -> bool:
    return index == 0 or not text[index - 1].isalnum()


def match(query: str, text: str, lowered: str | None = None) -> Match | None:
    """How ``query`` (already lower-case, spaces ignored) matches ``text``; None when it does not.

    ``lowered`` is ``text.lower()``, passed when the caller keeps it across queries.
    """
    query = query.replace(" ", "")
    if not query:
        return Match(1.0, ())
    haystack = lowered if lowered is not None else text.lower()
    found = haystack.find(query)
    if found >= 0:
        bonus = 0.1 if _word_start(haystack, found) else 0.0
        score = 0.7 + bonus + 0.2 / (1 + found / 8)
        return Match(min(score, 1.0), tuple(range(found, found + len(query))))
    # Greedy: each letter at its first place after the previous one.
    position = -1
    for char in query:
        position = haystack.find(char, position + 1)
        if position < 0:
            return None
    end = position
    # Backward: from the last letter, each earlier letter at its last place before the next one.
    placed = [end]
    for char in reversed(query[:-1]):
        position = haystack.rfind(char, 0, position)
        placed.append(position)
    placed.reverse()
    span = end - placed[0] + 1
    starts = sum(1 for p in placed if _word_start(haystack, p))
    score = 0.5 * len(query) / span + 0.1 * starts / len(query) + 0.1 / (1 + placed[0] / 16)
    return Match(min(score, 0.69), tuple(placed))


@dataclass(frozen=True)
class Candidate:
    """Something to jump to: the text matched and shown, and the value handed back."""

    text: str
    value: str
    help: str = ""
    lowered: str = ""

    @classmethod
    def of(cls, text: str, value: str, help: str = "") -> Candidate:
        return cls(text, value, help, text.lower())


def best(query: str, candidates: Iterable[Candidate], limit: int = 40) -> list[tuple[Match, Candidate]]:
    """The ``limit`` best matches of ``query``, best first (ties keep the candidates' order)."""
    query = query.lower().strip()
    scored = []
    for index, candidate in enumerate(candidates):
        found = match(query, candidate.text, candidate.lowered)
        if found is not None:
            scored.append((found.score, -index, found, candidate))
    top = heapq.nlargest(limit, scored, key=lambda item: (item[0], item[1]))
    return [(found, candidate) for _, _, found, candidate in top]


def shown(text: str, positions: Sequence[int]) -> tuple[str, tuple[int, ...]]:
    """The text as a row shows it (cut to ``SHOWN_LIMIT``), and the matched positions inside it."""
    if len(text) <= SHOWN_LIMIT:
        return text, tuple(positions)
    cut = text[: SHOWN_LIMIT - 1] + "…"
    return cut, tuple(p for p in positions if p < SHOWN_LIMIT - 1)
