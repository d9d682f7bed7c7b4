"""Sections as units of evidence: a document split at its headings, each part's words counted.

A question is often answered by one section of a long document whose headers share no word with
it. Each body is cut at its ``#``-``####`` headings (outside code fences); a section keeps its
heading, its line in the raw file, and the count of each token, heading words counting
``HEADING_EXTRA`` times more (a heading says what the section is about). Routing scores the sections of
its best candidates with BM25 over these counts, scaled by the share of the question's words the
section holds, so a document gains from the one section that holds the question's words together,
and the hit can say where to start reading.

A word of the question weighs, in a section's score, by how few of the candidates' sections hold it
(BM25's idf over those sections, not over whole bodies): what sets one section apart from the others
in contention, not what the whole bank rarely says. A word every candidate section holds (the topic
all of them share) hardly counts; one that a single section holds decides. Measured on the tunable
sets (1,239 questions) against the bodies' idf: Recall@1 864 to 876, Recall@3 1,090 to 1,088 (31
questions up, 22 down); the idf over every section of the bank gave 877/1,083, over the candidates'
whole bodies 850/1,081, and the geometric mean of the bodies' idf and this one 867/1,087.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from memorybank.core.fences import FenceTracker
from memorybank.core.lang import search_tokens, token_parts

HEADING_EXTRA = 2
"""A heading word counts as this many more occurrences in its section."""
SECTION_K1 = 1.2
SECTION_B = 0.5
"""Less length normalisation than whole bodies: a long section is often the thorough answer."""
READ_LIFT = 2.0
"""A section whose heading says it answers the kind of question asked (``favoured``) is this much
likelier to be the one to read; its score as evidence is unchanged."""
COVERAGE_FLOOR = 0.5
"""A section's score is scaled by this plus the rest times the share of the question's words it
holds (each word alike, whatever its rarity): a section that holds the whole question beats one
that repeats a few of its words, which BM25 alone lets win. Measured on tuning-2 with the families
of ``families``: Recall@1 0.59 to 0.63 (any floor from 0.2 to 0.5 alike; weighting the words by
rarity let one rare half of a split compound decide, and 0 cost tuning and held-out-2 a question
each)."""
HEADING = re.compile(r"^ {0,3}(#{1,4})[ \t]+(\S.*)$")
"""Up to three spaces may indent it, as in CommonMark (and ``core.parse``). Trailing spaces and
closing hashes are stripped in Python: a lazy group before ``\\s*$`` backtracks
quadratically on a heading padded with thousands of spaces."""


@dataclass(frozen=True, slots=True)
class SectionEntry:
    """One part of a body: from a heading (or the body's start) to the next heading."""

    heading: str
    """The heading (lowercased), without its ``#`` marks; empty for the text before the first one."""
    line: int
    """1-based line of the heading in the raw file (of the first body line for the lead text)."""
    counts: dict[str, int]
    """Token -> occurrences in the heading and the text (pieces of compounds included)."""
    heading_tokens: frozenset[str]
    length: int
    title: bool = False
    """The body's opening ``#`` heading (the document's title) and its lead text: it counts as
    evidence, but a reader is sent to the best section under it (``best_sections``)."""


def split_sections(lines: list[str], first_line: int) -> list[SectionEntry]:
    """The sections of a body given as its folded lines; ``first_line`` is the raw file's line
    number of the first one. Every token of the body is in exactly one section."""
    sections: list[SectionEntry] = []
    heading, line, heading_tokens, start = "", first_line, frozenset(), 0
    hidden = FenceTracker(comments=True)  # a heading in a code fence or an HTML comment is no heading
    titled = False
    for offset, text in enumerate(lines):
        if hidden.in_comment:
            hidden.feed(text)
            continue
        if not text or text[0] not in "#`~ <":  # no other line opens, closes or heads anything
            continue
        if hidden.feed(text):
            continue
        found = HEADING.match(text)
        if found is None:
            continue
        if offset > start or heading:
            sections.append(_entry(heading, line, heading_tokens, "\n".join(lines[start:offset]), titled))
        titled = not heading and len(found.group(1)) == 1 and not "".join(lines[:offset]).strip()
        heading = found.group(2).rstrip().rstrip("#").rstrip() or found.group(2).strip()
        line = first_line + offset
        heading_tokens = frozenset(search_tokens(heading, folded=True))
        start = offset + 1
    if start < len(lines) or heading:
        sections.append(_entry(heading, line, heading_tokens, "\n".join(lines[start:]), titled))
    return sections


def _entry(heading: str, line: int, heading_tokens: frozenset[str], text: str, title: bool) -> SectionEntry:
    tokens = search_tokens(heading, folded=True) + search_tokens(text, folded=True)
    counts = Counter(tokens)
    for token in [t for t in counts if "-" in t or "_" in t]:
        for part in token_parts(token):
            counts[part] += counts[token]
    return SectionEntry(heading, line, dict(counts), heading_tokens, len(tokens), title)


def best_sections(
    sections_of: Callable[[str], list[SectionEntry]],
    candidates: list[str],
    concepts: list[tuple[float, dict[str, float]]],
    favoured: tuple[str, ...] = (),
) -> dict[str, tuple[float, SectionEntry]]:
    """For each candidate document, its best section's BM25 score, each word weighted by its rarity
    among the candidates' sections (see the module's docstring), and the section to read: the best
    one, or when that is the title's lead (its words count as evidence, but the title line is no
    place to start), the best under it, a section whose heading begins with one of ``favoured``
    (the headings that answer the question's kind, ``intent.reading_roles``) counting ``READ_LIFT``
    times. Measured on the section gold (``section_quality``): 172 to 175 of 220 right for the
    title, 179 with the why's lift (four why-questions sent to the options considered), 182 with
    the what-if's (failures, exceptions, edge cases), none lost; routing unchanged.

    Args:
        sections_of: path -> its sections.
        candidates: the documents to score.
        concepts: (idf weight over bodies, indexed token -> weight of that form) per concept of
            the question; only the forms are used here.
        favoured: beginnings of heading words that make a section the one to read.
    """
    parts = {path: sections_of(path) for path in candidates}
    count = sum(len(entries) for entries in parts.values())
    average = (sum(e.length for entries in parts.values() for e in entries) / count if count else 0.0) or 1.0
    per_word = (1.0 - COVERAGE_FLOOR) / (len(concepts) or 1)
    held: list[list[tuple[SectionEntry, list[tuple[int, float]]]]] = []
    holding = [0] * len(concepts)
    for entries in parts.values():
        found = []
        for entry in entries:
            counts, frequencies = entry.counts, []
            for number, (_, variants) in enumerate(concepts):
                tf = 0.0
                for token, weight in variants.items():
                    occurrences = counts.get(token)
                    if occurrences:
                        tf += (occurrences + HEADING_EXTRA if token in entry.heading_tokens else occurrences) * weight
                if tf:
                    frequencies.append((number, tf))
                    holding[number] += 1
            found.append((entry, frequencies))
        held.append(found)
    rarity = [math.log(1.0 + (count - n + 0.5) / (n + 0.5)) * (SECTION_K1 + 1.0) for n in holding]
    best_of: dict[str, tuple[float, SectionEntry]] = {}
    for path, found in zip(parts, held):
        best, best_entry, read, read_entry = 0.0, None, 0.0, None
        for entry, frequencies in found:
            if not frequencies:
                continue
            norm = SECTION_K1 * (1.0 - SECTION_B + SECTION_B * entry.length / average)
            score = sum(rarity[number] * tf / (tf + norm) for number, tf in frequencies)
            score *= COVERAGE_FLOOR + per_word * len(frequencies)
            if score > best:
                best, best_entry = score, entry
            if favoured and any(token.startswith(favoured) for token in entry.heading_tokens):
                score *= READ_LIFT
            if score > read and not entry.title:
                read, read_entry = score, entry
        if best_entry is not None:
            best_of[path] = (best, read_entry or best_entry)
    return best_of
