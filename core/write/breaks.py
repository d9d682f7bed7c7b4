"""The links a write breaks, said as it is made: those it writes to a file or a heading that is not
there, those from anywhere in the bank to a heading it renames or removes, and those whose anchor
now lands on another heading (renaming the first of two ``### Notes`` hands ``#notes`` to the
second). Where the heading a link meant was renamed, its new anchor is named: the heading whose
text under it is the same.

``broken-link`` and ``broken-anchor`` find both later, over the whole bank; the writer is told now,
while the change is in hand, with the lines to fix. Links the document already had are left to
validation: an edit is not blamed for what it did not write.
"""

from __future__ import annotations

from collections import Counter

from memorybank.core.anchors import anchors, link_fragment, offers, sections_by_anchor
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
    own = anchors(after)
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
    lost = anchors(before) - own
    moved = _moved_anchors(before, after, own)
    if lost or moved:
        warnings += _anchor_warnings(bank, path, new_doc.links, lost, moved)
    return warnings


def _moved_anchors(before: str, after: str, own: frozenset[str]) -> dict[str, tuple[str | None, str | None]]:
    """Anchors the write takes from the heading they named: per anchor, the earlier anchor of the
    heading it lands on now (None when that heading is new or the anchor is gone), and the new
    anchor of the heading it named (None when none has the same text under it)."""
    was, now = sections_by_anchor(before), sections_by_anchor(after)
    if was == now:
        return {}
    where_now: dict[str, list[str]] = {}
    for anchor, text in now.items():
        where_now.setdefault(text, []).append(anchor)
    where_was: dict[str, list[str]] = {}
    for anchor, text in was.items():
        where_was.setdefault(text, []).append(anchor)
    moved: dict[str, tuple[str | None, str | None]] = {}
    for anchor, text in was.items():
        if not text or now.get(anchor) == text:
            continue
        homes = [other for other in where_now.get(text, []) if other != anchor]
        home = homes[0] if len(homes) == 1 else None
        if anchor not in own:
            moved[anchor] = (None, home)
            continue
        earlier = [other for other in where_was.get(now[anchor], []) if other != anchor] if now[anchor] else []
        taken = earlier[0] if len(earlier) == 1 else None
        if home or taken:  # else the text under the heading was edited: the anchor still names it
            moved[anchor] = (taken, home)
    return moved


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
        taken, new_home = moved.get(fragment, (None, None))
        them = "them" if many else "it"
        advice = f"Point {them} at #{new_home}." if new_home else f"Point {them} at the heading's new anchor."
        if fragment in lost:
            said = f"No heading of {path} has the anchor #{fragment} any more, and {links} still point{'' if many else 's'} at it"
        else:
            other = f" (the one that was #{taken})" if taken else ""
            said = f"The anchor #{fragment} of {path} now lands on another heading{other}, and {links} point{'' if many else 's'} at it"
            advice = advice if new_home else f"Check {them} still mean{'' if many else 's'} it."
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
