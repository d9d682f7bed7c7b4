"""Sections as units of evidence: a document split at its headings, each part's words counted.

A question is often answered by one section of a long document whose headers share no word with
it. Each body is cut at its ``#``-``####`` headings (outside code fences); a section keeps its
heading, its line in the raw file, and the count of each token, heading words counting
``HEADING_EXTRA`` times more (a heading says what the section is about). Routing scores the sections of
its best candidates with BM25 over these counts, scaled by the share of the question's words the
section holds, so a document gains from the one section that holds the question's words together,
and the hit can say where to start reading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from memorybank.core.lang import search_tokens, token_parts

HEADING_EXTRA = 2
"""A heading word counts as this many more occurrences in its section."""
SECTION_K1 = 1.2
SECTION_B = 0.5
"""Less length normalisation than whole bodies: a long section is often the thorough answer."""
COVERAGE_FLOOR = 0.5
"""A section's score is scaled by this plus the rest times the share of the question's words it
holds (each word alike, whatever its rarity): a section that holds the whole question beats one
that repeats a few of its words, which BM25 alone lets win. Measured on tuning-2 with the families
of ``families``: Recall@1 0.59 to 0.63 (any floor from 0.2 to 0.5 alike; weighting the words by
rarity let one rare half of a split compound decide, and 0 cost tuning and held-out-2 a question
each)."""
HEADING = re.compile(r"^(#{1,4})[ \t]+(\S.*)$")
"""Trailing spaces and closing hashes are stripped in Python: a lazy group before ``\\s*$`` backtracks
quadratically on a heading padded with thousands of spaces."""
_FENCE = re.compile(r"^\s*(```|~~~)")


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


def split_sections(lines: list[str], first_line: int) -> list[SectionEntry]:
    """The sections of a body given as its folded lines; ``first_line`` is the raw file's line
    number of the first one. Every token of the body is in exactly one section."""
    sections: list[SectionEntry] = []
    heading, line, heading_tokens, start = "", first_line, frozenset(), 0
    fenced = False
    for offset, text in enumerate(lines):
        if not text or text[0] not in "#`~ ":
            continue
        if _FENCE.match(text):
            fenced = not fenced
            continue
        found = None if fenced else HEADING.match(text)
        if found is None:
            continue
        if offset > start or heading:
            sections.append(_entry(heading, line, heading_tokens, "\n".join(lines[start:offset])))
        heading = found.group(2).rstrip().rstrip("#").rstrip() or found.group(2).strip()
        line = first_line + offset
        heading_tokens = frozenset(search_tokens(heading, folded=True))
        start = offset + 1
    if start < len(lines) or heading:
        sections.append(_entry(heading, line, heading_tokens, "\n".join(lines[start:])))
    return sections


def _entry(heading: str, line: int, heading_tokens: frozenset[str], text: str) -> SectionEntry:
    tokens = search_tokens(heading, folded=True) + search_tokens(text, folded=True)
    counts = Counter(tokens)
    for token in [t for t in counts if "-" in t or "_" in t]:
        for part in token_parts(token):
            counts[part] += counts[token]
    return SectionEntry(heading, line, dict(counts), heading_tokens, len(tokens))


def best_sections(
    sections_of: Callable[[str], list[SectionEntry]],
    candidates: list[str],
    concepts: list[tuple[float, dict[str, float]]],
) -> dict[str, tuple[float, SectionEntry]]:
    """For each candidate document, its best section and that section's BM25 score.

    Args:
        sections_of: path -> its sections.
        candidates: the documents to score.
        concepts: (idf weight, indexed token -> weight of that form) per concept of the question.
    """
    found: dict[str, tuple[float, SectionEntry]] = {}
    parts = {path: sections_of(path) for path in candidates}
    count = sum(len(entries) for entries in parts.values())
    average = (sum(e.length for entries in parts.values() for e in entries) / count if count else 0.0) or 1.0
    per_word = (1.0 - COVERAGE_FLOOR) / (len(concepts) or 1)
    for path, entries in parts.items():
        best, best_entry = 0.0, None
        for entry in entries:
            counts = entry.counts
            norm = SECTION_K1 * (1.0 - SECTION_B + SECTION_B * entry.length / average)
            score, matched = 0.0, 0
            for idf, variants in concepts:
                tf = 0.0
                for token, weight in variants.items():
                    count = counts.get(token)
                    if count:
                        tf += (count + HEADING_EXTRA if token in entry.heading_tokens else count) * weight
                if tf:
                    score += idf * tf * (SECTION_K1 + 1.0) / (tf + norm)
                    matched += 1
            score *= COVERAGE_FLOOR + per_word * matched
            if score > best:
                best, best_entry = score, entry
        if best_entry is not None:
            found[path] = (best, best_entry)
    return found
