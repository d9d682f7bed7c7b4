"""Naming a section: which heading of a document a caller means by a name.

A name is compared with the headings' words, case and punctuation aside: equal first, then a part
of one heading (three letters at least, at the start of a word). The ``##`` headings a document
lists are looked at first, then its ``###`` and ``####`` ones (read from its text on demand).
Marks pin the level (``### Beta`` is never the ``## Beta``), a path names a heading inside another
(``ADR-004 > Decision``, where a decision log repeats ``### Decision`` under every entry), and a
line names one of several equal titles (``Log (line 40)``). A name that fits several headings is
refused with each one listed as it may be named, since a write must not guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memorybank.core.errors import SectionAmbiguous
from memorybank.core.model import Document, Section
from memorybank.core.parse import subsections

PARTIAL_LETTERS = 3
"""The fewest letters a part of a heading may name it by."""
PATH_MARK = ">"
"""Separates the headings of a path to a section."""
LISTED = 10
"""Headings an ambiguous name lists; the rest are counted."""

_WORDS = re.compile(r"\w+")
_MARKS = re.compile(r"^\s*(#{2,6})(?=[\s\w]|$)\s*")
_AT_LINE = re.compile(r"^(.*?)\s*\(line (\d+)\)\s*$", re.IGNORECASE)
"""``Notes (line 40)``, or the line alone: ``(line 40)`` (``line 40`` is read as that)."""
_LINE_ALONE = re.compile(r"^\s*line (\d+)\s*$", re.IGNORECASE)


def normalise_heading(text: str) -> str:
    """Lowercase words of a heading, punctuation dropped: how section names are compared."""
    return " ".join(_WORDS.findall(text.lower())).replace("_", " ")


def find_section(doc: Document, name: str, text: str | None = None) -> Section | None:
    """The section ``name`` means, or None. Without the document's ``text`` only its ``##``
    headings are looked at.

    Raises:
        SectionAmbiguous: the name fits several headings equally well.
    """
    if text is None:
        return _one(doc, name, doc.sections, (), ())
    wanted = normalise_heading(name)
    plain = PATH_MARK not in name and not _MARKS.match(name) and not _AT_LINE.match(name)
    equal = [s for s in doc.sections if normalise_heading(s.title) == wanted] if plain else []
    if len(equal) == 1:
        return equal[0]  # a ## heading named whole, the common case: the deeper ones are not read
    deeper = subsections(text)
    if PATH_MARK not in name:
        return _one(doc, name, doc.sections, deeper, deeper)
    literal = [s for s in (*doc.sections, *deeper) if normalise_heading(s.title) == wanted]
    if literal:  # a heading that holds the mark itself ("Input > Output")
        return literal[0]
    parts = [part.strip() for part in name.split(PATH_MARK) if part.strip()]
    found = _one(doc, parts[0], doc.sections, deeper, deeper) if parts else None
    for part in parts[1:]:
        if found is None:
            return None
        outer = found
        inside = [s for s in deeper if outer.line < s.line <= outer.end_line and s.level > outer.level]
        found = _one(doc, part, (), inside, deeper)
    return found


def _one(
    doc: Document, name: str, tops: Sequence[Section], inner: Sequence[Section], deeper: Sequence[Section]
) -> Section | None:
    """The one heading of ``tops`` (the ``##`` ones), else of ``inner``, that ``name`` means."""
    marks = _MARKS.match(name)
    if marks:
        level = len(marks.group(1))
        tops, inner = (tops, ()) if level == 2 else ((), [s for s in inner if s.level == level])
        name = name[marks.end() :]
    at = _AT_LINE.match(_LINE_ALONE.sub(r"(line \1)", name))
    line = int(at.group(2)) if at else None
    wanted = normalise_heading(at.group(1) if at else name)
    if not wanted and line is None:
        return None
    for group in (tops, inner):
        equal = [s for s in group if (not wanted or normalise_heading(s.title) == wanted) and line in (None, s.line)]
        if len(equal) > 1:
            shown = "; ".join(f'"{_path_of(s, doc, deeper)} (line {s.line})"' for s in equal[:LISTED])
            more = f" and {len(equal) - LISTED} more" if len(equal) > LISTED else ""
            raise SectionAmbiguous(
                f'Section "{name}" is the title of {len(equal)} headings of {doc.path}: {shown}{more}. Name the one '
                f'meant as it is listed here, by its path, its line ("line {equal[0].line}") or both.'
            )
        if equal:
            return equal[0]
    if line is not None or len(wanted) < PARTIAL_LETTERS:
        return None
    for group in (tops, inner):
        found = _partly_named(doc, name, wanted, group)
        if found is not None:
            return found
    return None


NARROWER = 40
"""Deeper sections a cut read lists at most."""


def narrower_sections(doc: Document, text: str, first: int, last: int) -> list[str]:
    """The ``###`` and ``####`` sections between lines ``first`` and ``last``, each by the name that
    opens it (``Parent > Child``): what a read cut at its byte budget can ask for instead of the
    whole part (at most ``NARROWER``)."""
    deeper = subsections(text)
    inside = [s for s in deeper if first <= s.line <= last][:NARROWER]
    return [_path_of(s, doc, deeper) for s in inside]


def _path_of(section: Section, doc: Document, deeper: Sequence[Section]) -> str:
    """``Parent > Child`` for a deeper section: the headings that hold it, outermost first."""
    if section.level == 2:
        return section.title
    holders = [s for s in (*doc.sections, *deeper) if s.level < section.level and s.line < section.line <= s.end_line]
    holders.sort(key=lambda s: s.level)
    return f" {PATH_MARK} ".join([*(s.title for s in holders), section.title])


def _partly_named(doc: Document, name: str, wanted: str, group: Sequence[Section]) -> Section | None:
    """The one heading ``wanted`` is a part of: holding it at the start of a word, and of several
    the one it begins (``решени`` names "Решение", not "Драйверы решения")."""
    titles = [(section, normalise_heading(section.title)) for section in group]
    holding = [(section, title) for section, title in titles if title.startswith(wanted) or f" {wanted}" in title]
    if len(holding) > 1:
        holding = [(section, title) for section, title in holding if title.startswith(wanted)] or holding
    if len(holding) > 1:
        listed = " | ".join(section.title for section, _ in holding)
        raise SectionAmbiguous(
            f'Section "{name}" is part of {len(holding)} headings of {doc.path}: {listed}. Give the one meant in full.'
        )
    return holding[0][0] if holding else None
