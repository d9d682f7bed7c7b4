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

A file name can say the same (``named_versions``): ``brief-v2.md`` or ``brief-review-3.md`` beside
``brief.md`` or below its folder is a version of that brief or a review of one, whatever its words,
and counts ``DRAFT_WEIGHT`` of its score too, wherever it ranks. What was agreed is in the working
copy; a version holds one step towards it and a review what was still wrong with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping

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


def damp_named(scores: dict[str, float], versions: Mapping[str, str]) -> dict[str, str]:
    """Multiply (in place) the score of each of ``scores`` that ``named_versions`` found by
    ``DRAFT_WEIGHT``; returns those, version -> working copy."""
    found = {path: versions[path] for path in versions.keys() & scores.keys()}
    for path in found:
        scores[path] *= DRAFT_WEIGHT
    return found


_NAMED = re.compile(r"(.+?)-(?:v|review-)\d+\.md", re.IGNORECASE)
NAMED_DEPTH = 3
"""Folders looked in for a named version's working copy: its own and the two above it
(``issues/0006/iterations/brief/brief-v2.md`` finds ``issues/0006/brief.md``). Further up, a file
of the same name is another package's or the bank's own. Measured on the tunable sets (only
``asromanychev__ai-setup`` names its versions so): Recall@1 762 to 766, Recall@3 969 to 974, 9
questions up and none down; versions alone (``-v2``) gained 3 at rank 1 and none in the top 3."""


def named_versions(paths: Collection[str]) -> dict[str, str]:
    """The documents whose file name says they are a version or a review of a document in their
    folder or at most two above it (``brief-v2.md``, ``brief-review-3.md`` of ``brief.md``):
    version -> working copy."""
    found: dict[str, str] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        named = _NAMED.fullmatch(name)
        if named is None:
            continue
        base = named.group(1) + ".md"
        for _ in range(NAMED_DEPTH):
            candidate = f"{folder}/{base}" if folder else base
            if candidate in paths:
                found[path] = candidate
                break
            if not folder:
                break
            folder = folder.rpartition("/")[0]
    return found
