"""Drafts: a document nearly the same as another one of the answer is a version of it, and the
working copy leads.

A bank that keeps its drafts (``issues/0006/iterations/brief/brief-v1.md`` below
``issues/0006/brief.md``) holds versions of one text that differ in a line or two. They match a
question alike, so the first of them is as likely a superseded draft as the working copy, and the
others take the places of the next answers. Byte-for-byte copies are folded into one hit
(``core.duplicates``); near ones are different texts, so they stay, but the working copy leads:
among the documents that could enter an answer, two whose bodies share at least ``NEAR`` of their
distinct words, one in the other's folder or below it, are versions of one text: the one nearer
the bank's root (drafts are kept in a folder below the working copy) or, at the same depth, the
better placed is the working copy, and the other counts ``DRAFT_WEIGHT`` of its score. Documents
of sibling folders are never versions of each other, however alike: the READMEs of feature
packages written from one template share 0.8-0.95 of their words and are about different features.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

NEAR = 0.8
"""Share of their distinct body words (Jaccard) two versions of one text hold in common. Measured on
the tunable sets: drafts of one brief or plan share 0.82-1.0, a feature and its implementation
plan 0.2-0.5; 0.7 and 0.8 move the same questions, 0.9 one fewer."""
DRAFT_WEIGHT = 0.5
"""A draft's score is multiplied by this, so the working copy leads it. Measured on the tunable sets
with ``NEAR`` 0.8 (held-out-6 ``asromanychev__ai-setup``: four questions whose working copy sat
second behind its draft came first, none fell; 0.8 moved the same questions)."""
MIN_WORDS = 20
"""A body with fewer distinct words is never called a version of another (stubs are alike by
chance). No tunable question depends on it."""
POOL = 5
"""Documents looked at beyond the answer's length: a working copy a little below the cut still
leads its draft."""


def drafts(
    ranked: list[str], words_of: Callable[[str], frozenset[str]], copies: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    """Which documents of ``ranked`` (best first) are drafts of another one of them.

    Args:
        ranked: the documents that could enter the answer, best first.
        words_of: a document's distinct body words.
        copies: per document, its byte-for-byte copies (folded elsewhere, never called drafts).

    Returns:
        Draft -> the working copy it is a version of.
    """
    words = {path: words_of(path) for path in ranked}
    places = {path: (path.count("/"), place) for place, path in enumerate(ranked)}
    leaders = sorted(ranked, key=places.__getitem__)  # nearest the root first, then best placed
    found: dict[str, str] = {}
    for path in ranked:
        mine = words[path]
        if len(mine) < MIN_WORDS:
            continue
        for other in leaders:
            if places[other] >= places[path]:
                break  # the rest are deeper, or as deep and placed lower
            folder = other.rpartition("/")[0]
            if folder and not path.startswith(folder + "/"):
                continue  # versions are kept in the working copy's folder or below it
            theirs = words[other]
            if other in copies.get(path, ()) or min(len(mine), len(theirs)) < NEAR * max(len(mine), len(theirs)):
                continue  # a copy is folded, not damped; sizes this far apart cannot reach NEAR
            if len(mine & theirs) >= NEAR * len(mine | theirs):
                found[path] = other
                break
    return found


def damp_drafts(
    scores: dict[str, float],
    ranked: list[str],
    words_of: Callable[[str], frozenset[str]],
    copies: Mapping[str, tuple[str, ...]],
) -> dict[str, str]:
    """Multiply (in place) the score of each draft among ``ranked`` by ``DRAFT_WEIGHT``, so its
    working copy leads; returns draft -> working copy (see ``drafts``)."""
    found = drafts(ranked, words_of, copies)
    for path in found:
        scores[path] *= DRAFT_WEIGHT
    return found
