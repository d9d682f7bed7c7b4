"""``broken-anchor``: a link to a heading of a document that has no such heading.

A heading renamed in one document leaves every ``doc.md#old-heading`` pointing at its top, and no
other rule sees it: the file is still there. Anchors are read as ``core.anchors`` reads them.
"""

from __future__ import annotations

from collections.abc import Iterator

from memorybank.core.anchors import anchors, link_fragment, offers
from memorybank.core.validate.registry import RULES, Context, Finding, rule


@rule("broken-anchor", "warning", "A link names a heading its target document does not have.")
def broken_anchor(ctx: Context) -> Iterator[Finding]:
    """A relative link whose ``#fragment`` matches no heading of the document it reaches.

    Why: a heading renamed or removed leaves every link to it landing at the top of the document,
    and nothing else says so: the file still exists. Templates and ``_inbox/`` notes are skipped,
    as for ``broken-link``; a line-number fragment (``#L12``) is not a heading's.
    Example: ``[the identifiers](feature-flow.md#stable-identifiers)`` after ``## Stable
    Identifiers`` became ``## Stable Identifier Taxonomy``.
    Fix: point the link at the heading's new anchor, or give the heading back its old words.
    """
    me = RULES["broken-anchor"]
    bank = ctx.bank
    offered: dict[str, frozenset[str]] = {}
    for doc in bank:
        if doc.is_template or doc.is_inbox or not ctx.in_scope(doc.path):
            continue
        for link in doc.links:
            path_part, fragment = link_fragment(link.raw)
            if not fragment:
                continue
            target = doc.path if not path_part else link.resolved
            if target is None or target not in bank:
                continue
            if target not in offered:
                offered[target] = anchors(bank.text(target))
            if not offers(offered[target], fragment):
                yield me.finding(doc.path, f"Link names a heading {target} does not have: {link.raw}", link.line)
