"""A route hit: one document's place in the answer, what scored it and where to start reading."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from memorybank.core.headers import CLOSED_WORK, OTHER_STATUS, STATUS_WEIGHTS, Fields
from memorybank.core.model import Document, RouteHit, ScoreBreakdown, Section
from memorybank.core.parse import subsections
from memorybank.core.search import round_half_up
from memorybank.core.why import explain


def enclosing(doc: Document, line: int, text: Callable[[], str] | None = None) -> Section | None:
    """The ``##`` section holding a line (what ``bank_read`` and the workbench open by name); with
    the document's ``text``, a line under no ``##`` heading (a plan of ``###`` steps straight under
    its title) is placed in the innermost ``###`` or ``####`` section holding it, which they open
    by name too."""
    for section in doc.sections:
        if section.line <= line <= section.end_line:
            return section
    if text is None:
        return None
    holding = [s for s in subsections(text()) if s.line <= line <= s.end_line]
    return holding[-1] if holding else None


class Evidence(NamedTuple):
    """What a document's body and the bank's links added to its header score, in points."""

    body: float = 0.0
    words: tuple[str, ...] = ()
    section: float = 0.0
    place: Section | None = None
    """The section holding the best section's start: its ``##`` one, or the innermost ``###`` or
    ``####`` one when no ``##`` heading holds it."""
    linked: float = 0.0
    linked_words: tuple[str, ...] = ()


def hit_of(
    doc: Document,
    acc: Fields,
    score: float,
    evidence: Evidence,
    weights: dict[str, float],
    *,
    intent: float = 1.0,
    together: float = 1.0,
    draft_of: str | None = None,
    named: bool = False,
    series_place: tuple[int, bool, bool] = (0, False, False),
    quoted: tuple[str, ...] = (),
) -> RouteHit:
    body, words, section_points, place, linked, linked_words = evidence
    closed = CLOSED_WORK if doc.delivery_status in ("done", "cancelled") else 1.0
    breakdown = ScoreBreakdown(
        acc.canonical,
        acc.key,
        acc.purpose,
        acc.purpose_words,
        acc.title,
        acc.title_words,
        acc.heading,
        round_half_up(body, 2),
        words,
        acc.total,
        weights.get(doc.layer, 1.0),
        STATUS_WEIGHTS.get(doc.status, OTHER_STATUS),
        closed,
        round_half_up(section_points, 2),
        intent,
        draft_of=draft_of,
        linked=round_half_up(linked, 2),
        linked_words=linked_words,
        together=round_half_up(together, 4),
        named=named,
        place=series_place[0],
        place_last=series_place[1],
        place_package=series_place[2],
        heading_section=acc.section if acc.heading else None,
    )
    section, line, level = acc.section, acc.section_line, 2
    if place is not None:
        section, line, level = place.title, place.line, place.level
    return RouteHit(
        doc.path,
        doc.title,
        doc.purpose,
        doc.doc_kind,
        doc.layer,
        doc.status,
        score,
        explain(breakdown, section, quoted),
        section,
        line,
        breakdown,
        progress=doc.delivery_status or doc.decision_status,
        section_level=level,
    )


def finished(hit: RouteHit, lift: float, twins: tuple[str, ...]) -> RouteHit:
    """The hit with the header points its family lent it in its breakdown, and its copies."""
    if lift:
        hit = replace(hit, breakdown=replace(hit.breakdown, family=round_half_up(lift, 2)))
    return replace(hit, copies=twins) if twins else hit
