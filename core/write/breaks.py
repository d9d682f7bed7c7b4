"""The links a write breaks, said as it is made: those it writes to a file or a heading that is not
there, and those from anywhere in the bank to a heading it renames or removes.

``broken-link`` and ``broken-anchor`` find both later, over the whole bank; the writer is told now,
while the change is in hand, with the lines to fix. Links the document already had are left to
validation: an edit is not blamed for what it did not write.
"""

from __future__ import annotations

from collections import Counter

from memorybank.core.anchors import anchors, link_fragment, offers
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
    if lost:
        warnings += _lost_anchor_warnings(bank, path, new_doc.links, lost)
    return warnings


def _lost_anchor_warnings(bank: Bank, path: str, own_links: tuple[Link, ...], lost: frozenset[str]) -> list[str]:
    """Per heading anchor the write drops, the links that still point at it."""
    users: dict[str, list[str]] = {}
    for source, link in _links_to(bank, path, own_links):
        _, fragment = link_fragment(link.raw)
        anchor = fragment if fragment in lost else fragment.lower()
        if fragment and anchor in lost:
            users.setdefault(anchor, []).append(f"{source}:{link.line}")
    found = []
    for fragment, places in users.items():
        shown = ", ".join(places[:SHOWN]) + (f" and {len(places) - SHOWN} more" if len(places) > SHOWN else "")
        many = len(places) != 1
        found.append(
            f"No heading of {path} has the anchor #{fragment} any more, and {len(places)} "
            f"link{'s' if many else ''} still point{'' if many else 's'} at it: {shown}. Point "
            f"{'them' if many else 'it'} at the heading's new anchor."
        )
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
