"""Proximity: how many of the question's words a document holds close together.

A document that answers a question usually says it in one place: the question's words stand
within a sentence or two of each other there (``two active records for the same pane`` in one
rule). A document that is about something else may hold the same words in different parts of a
long body, and BM25, over the body or a long section, cannot tell the two apart. So each candidate's
best window of ``WINDOW`` consecutive body words is found, and the share of the question's words
(each concept once, any of its forms) it holds scales the document's section evidence.

Closer still, two words the question puts side by side often stand side by side in the body that
answers it (``rounded twice``, ``лимит запросов``), in any form or language the word matching
knows. The share of the question's consecutive pairs of words (among those the bank holds) that a
candidate's body holds within ``PAIR_GAP`` words of each other, in either order, raises its whole
score by up to ``PAIR_BOOST`` (``pairs_held``): a softer form of the verbatim phrase that routing
rewards, which inflection, translation or one word between them would break.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from itertools import repeat

PAIR_GAP = 2
"""Two words at most this many places apart (one word between them) stand together."""
PAIR_BOOST = 0.2
"""A candidate holding every pair together scores this share more. Measured on the tunable sets
(1,359 questions): Recall@1 966 to 974, Recall@3 1,198 to 1,205 (30 questions up, 16 down); a
boost of 0.3 gave 973/1,202 and 0.5 974/1,208; a gap of 1 gave 971/1,202, 3 966/1,203 and 5
969/1,205 (at 0.3); weighting each pair by the rarer word's idf, 967/1,201."""
WINDOW = 30
"""Body words in one window: about two sentences, or a table row and its neighbours."""
FLOOR = 0.5
"""The section evidence of a document holding none of the question's words together keeps this
share of itself; holding all of them within one window, all of it. Measured on the tunable sets
against no proximity (Recall@1/Recall@3 hits of 879): 612/771 to 618/775, twelve questions first
that were not and six no longer first, six into the first three and two out; every floor from 0.3
to 0.7 and window from 15 to 50 words gained (614-622 at rank 1, 771-776 in the first three), so
neither is fitted to a few questions. Weighting the words by rarity gained nothing (614/770), and
an additive proximity term beside the section evidence flipped as many questions each way."""


def closeness(
    positions_of: Callable[[str], Mapping[str, list[int]]],
    paths: list[str],
    concepts: list[tuple[float, dict[str, float]]],
) -> dict[str, float]:
    """Per document, ``FLOOR`` plus the rest times the share of the question's concepts its best
    window holds.

    Args:
        positions_of: a document's word places by token (``BodyIndex.positions_of``).
        paths: the documents to look at.
        concepts: (idf, indexed form -> weight) per concept of the question (``body_evidence``).
    """
    count = len(concepts)
    if not count:
        return dict.fromkeys(paths, 1.0)
    found = {}
    for path in paths:
        positions = positions_of(path)
        events: list[tuple[int, int]] = []
        present = 0
        for number, (_, forms) in enumerate(concepts):
            before = len(events)
            for token in forms.keys() & positions.keys():
                events.extend(zip(positions[token], repeat(number)))
            present += len(events) > before
        if present > 1:  # one concept or none is together wherever it stands
            events.sort()
            present = _most_together(events, count, present)
        found[path] = FLOOR + (1.0 - FLOOR) * present / count
    return found


def _most_together(events: list[tuple[int, int]], count: int, present: int) -> int:
    """The most distinct concepts among (place, concept) events, sorted by place, that fall within
    one window; ``present`` concepts occur at all, so a window holding them all ends the search."""
    held = [0] * count
    inside = best = start = 0
    for place, concept in events:
        edge = place - WINDOW
        while events[start][0] <= edge:
            gone = events[start][1]
            held[gone] -= 1
            if not held[gone]:
                inside -= 1
            start += 1
        if not held[concept]:
            inside += 1
        held[concept] += 1
        if inside > best:
            best = inside
            if best == present:
                break
    return best


def pairs_held(
    positions_of: Callable[[str], Mapping[str, list[int]]],
    paths: list[str],
    concepts: list[tuple[float, dict[str, float]]],
) -> dict[str, float]:
    """Per document, the share of the question's consecutive concept pairs its body holds within
    ``PAIR_GAP`` words of each other (either order, any of their forms); documents holding none
    are left out.

    Args:
        positions_of: a document's word places by token (``BodyIndex.positions_of``).
        paths: the documents to look at.
        concepts: (idf, indexed form -> weight) per concept, in the question's order.
    """
    pairs = len(concepts) - 1
    if pairs < 1:
        return {}
    found = {}
    for path in paths:
        positions = positions_of(path)
        places = [
            sorted(p for token in forms.keys() & positions.keys() for p in positions[token]) for _, forms in concepts
        ]
        held = sum(1 for first, second in zip(places, places[1:]) if first and second and _near(first, second))
        if held:
            found[path] = held / pairs
    return found


def _near(first: list[int], second: list[int]) -> bool:
    """Whether a place of ``first`` and a different place of ``second`` (both sorted) lie within
    ``PAIR_GAP`` of each other."""
    for place in first:
        at = bisect.bisect_left(second, place - PAIR_GAP)
        while at < len(second) and second[at] <= place + PAIR_GAP:
            if second[at] != place:
                return True
            at += 1
    return False
