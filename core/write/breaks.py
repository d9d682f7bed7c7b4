"""The links a write breaks, said as it is made: those it writes to a file or a heading that is not
there, those from anywhere in the bank to a heading it renames or removes, and those whose anchor
now lands on another heading (renaming the first of two ``### Notes`` hands ``#notes`` to the
second). Which heading became which is read by aligning the headings before and after the write
by their titles (``difflib``): a heading renamed in place keeps its identity, so the links that
named it are told its new anchor; one removed is said to be gone.

``broken-link`` and ``broken-anchor`` find both later, over the whole bank; the writer is told now,
while the change is in hand, with the lines to fix. Links the document already had are left to
validation: an edit is not blamed for what it did not write.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from memorybank.core.anchors import Heading, anchors, link_fragment, offers, outline
from memorybank.core.bank import Bank
from memorybank.core.model import Link
from memorybank.core.parse import parse_document
from memorybank.core.write.gates import missing_target_warning

SHOWN = 10
"""Links named per lost heading; the rest are counted."""


def link_warnings(bank: Bank, path: str, before: str, after: str) -> list[str]:
    """What a write of ``path`` from ``before`` to ``after`` breaks, one warning per problem."""
    names = bank.paths.names
    old_doc, _ = parse_document(path, before.encode("utf-8"), bank_names=names)
    new_doc, _ = parse_document(path, after.encode("utf-8"), bank_names=names)
    offered, old = outline(before)
    own, new = outline(after)
    had = Counter(link.raw for link in old_doc.links)
    warnings = []
    for link in new_doc.links:
        if had[link.raw]:
            had[link.raw] -= 1
            continue
        path_part, fragment = link_fragment(link.raw)
        target = path if not path_part else link.resolved
        if target is None:
            continue  # a URL, or a path outside the project
        if target != path and target not in bank:
            missing = missing_target_warning(bank, link)
            warnings += [missing] if missing else []
            continue
        if fragment and not offers(own if target == path else anchors(bank.text(target)), fragment):
            warnings.append(f"Line {link.line} links to a heading {target} does not have: {link.raw}")
    lost = offered - own
    moved = _moved_anchors(old, new, own)
    if lost or moved:
        warnings += _anchor_warnings(bank, path, new_doc.links, lost, moved)
    return warnings


def _moved_anchors(
    old: list[Heading], new: list[Heading], own: frozenset[str]
) -> dict[str, tuple[str | None, str | None]]:
    """The heading anchors a write takes from the heading they named: per anchor, the earlier anchor
    of the heading it lands on now ("" for a heading the write adds, None when no heading offers it
    any more), and the anchor the heading it named has now (None when that heading is gone)."""
    if [h.anchors for h in old] == [h.anchors for h in new]:
        return {}  # text under the headings changed, never which heading an anchor names
    became = _align(old, new)
    offered = {anchor: j for j, heading in enumerate(new) for anchor in heading.anchors}
    was = {j: i for i, j in became.items()}
    moved: dict[str, tuple[str | None, str | None]] = {}
    for i, heading in enumerate(old):
        j = became.get(i)
        home = new[j].anchors[-1] if j is not None else None  # its custom id when it has one
        for anchor in heading.anchors:
            if j is not None and anchor in new[j].anchors:
                continue
            holder = offered.get(anchor)
            if holder is not None:
                moved[anchor] = (old[was[holder]].anchors[0] if holder in was else "", home)
            elif anchor not in own:
                moved[anchor] = (None, home)
    return moved


def _align(old: list[Heading], new: list[Heading]) -> dict[int, int]:
    """Which heading of ``new`` each heading of ``old`` became: the same title over the same text
    first, in order; then, between those, equal titles in order and a run of as many headings
    renamed in place, one for one. A heading found in none is gone."""
    became: dict[int, int] = {}
    whole = SequenceMatcher(None, [(h.base, h.text) for h in old], [(h.base, h.text) for h in new], autojunk=False)
    for tag, i1, i2, j1, j2 in whole.get_opcodes():
        if tag == "equal":
            became.update(zip(range(i1, i2), range(j1, j2), strict=True))
        elif tag == "replace":
            titles = SequenceMatcher(None, [h.base for h in old[i1:i2]], [h.base for h in new[j1:j2]], autojunk=False)
            for part, a1, a2, b1, b2 in titles.get_opcodes():
                if part == "equal" or (part == "replace" and a2 - a1 == b2 - b1):
                    became.update(zip(range(i1 + a1, i1 + a2), range(j1 + b1, j1 + b2), strict=True))
    return became


def _anchor_warnings(
    bank: Bank,
    path: str,
    own_links: tuple[Link, ...],
    lost: frozenset[str],
    moved: dict[str, tuple[str | None, str | None]],
) -> list[str]:
    """Per heading anchor the write drops or moves, the links that still point at it."""
    concerned = lost | moved.keys()
    users: dict[str, list[str]] = {}
    for source, link in _links_to(bank, path, own_links):
        _, fragment = link_fragment(link.raw)
        anchor = fragment if fragment in concerned else fragment.lower()
        if fragment and anchor in concerned:
            users.setdefault(anchor, []).append(f"{source}:{link.line}")
    found = []
    for fragment, places in users.items():
        shown = ", ".join(places[:SHOWN]) + (f" and {len(places) - SHOWN} more" if len(places) > SHOWN else "")
        many = len(places) != 1
        links = f"{len(places)} link{'s' if many else ''}"
        taken, home = moved.get(fragment, (None, None))
        them = "them" if many else "it"
        if home:
            advice = f"Point {them} at #{home}."
        elif fragment in moved:
            advice = (
                f"The heading {'they' if many else 'it'} named was removed: point {them} elsewhere or drop the anchor."
            )
        else:
            advice = f"Point {them} at the heading's new anchor."
        if fragment in lost:
            said = f"No heading of {path} has the anchor #{fragment} any more, and {links} still point{'' if many else 's'} at it"
        else:
            other = f" (the one that was #{taken})" if taken else " (one the edit added)"
            said = f"The anchor #{fragment} of {path} now lands on another heading{other}, and {links} point{'' if many else 's'} at it"
        found.append(f"{said}: {shown}. {advice}")
    return found


def _links_to(bank: Bank, path: str, own_links: tuple[Link, ...]) -> list[tuple[str, Link]]:
    """The links that reach ``path``: its own to itself (``#x``), and those of the bank's other
    documents (templates and notes aside, as validation does)."""
    found = [(path, link) for link in own_links if not link.raw.partition("#")[0]]
    for doc in bank:
        if doc.path == path or doc.is_template or doc.is_inbox:
            continue
        found += [(doc.path, link) for link in doc.links if link.resolved == path and "#" in link.raw]
    return found
