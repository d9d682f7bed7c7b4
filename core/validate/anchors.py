"""``broken-anchor``: a link to a heading of a document that has no such heading.

A heading renamed in one document leaves every ``doc.md#old-heading`` pointing at its top, and no
other rule sees it: the file is still there. Anchors are read as GitHub and most renderers make
them: the heading's text lower-cased, punctuation dropped, spaces made hyphens, a repeated heading
numbered ``-1``, ``-2``; an HTML ``id``/``name`` or a ``{#custom-id}`` counts too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from memorybank.core.parse import FenceTracker, split_frontmatter
from memorybank.core.validate.registry import RULES, Context, Finding, rule

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_CUSTOM_ID = re.compile(r"\{#([^}\s]+)\}\s*$")
_HTML_ID = re.compile(r"""<[a-zA-Z][^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""")
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_PARAGRAPH = re.compile(r"^ {0,3}[^\s#>|*+=-]")
"""A line a setext underline makes a heading: text, not a list item, quote, table row or heading."""
_LINK_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def slug(heading: str) -> str:
    """The anchor a renderer gives a heading: ``## Stable Identifiers`` is ``stable-identifiers``."""
    text = _LINK_MARKUP.sub(r"\1", heading).strip().lower()
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> frozenset[str]:
    """Every anchor a document's text offers: its headings' slugs and the ids it names itself."""
    split = split_frontmatter(text)
    body = split.body(text) if split.closed else text
    found: set[str] = set()
    slugs: set[str] = set()
    tracker = FenceTracker()
    lines = body.split("\n")
    previous = ""
    for line in lines:
        if tracker.feed(line):
            previous = ""
            continue
        found.update(m.group(1) for m in _HTML_ID.finditer(line))
        heading = _HEADING.match(line)
        title = heading.group(2) if heading else None
        if title is None and _SETEXT.match(line) and _PARAGRAPH.match(previous):
            title = previous.strip()  # Title over a line of = or -
        previous = line
        if title is None:
            continue
        custom = _CUSTOM_ID.search(title)
        if custom:
            found.add(custom.group(1))
            title = title[: custom.start()]
        base = candidate = slug(title)
        number = 0
        while candidate in slugs:  # as GitHub numbers them: the first free base-1, base-2, ...
            number += 1
            candidate = f"{base}-{number}"
        slugs.add(candidate)
    return frozenset(found | slugs)


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
            path_part, hash_sign, fragment = link.raw.partition("#")
            fragment = unquote(fragment).strip()
            if not hash_sign or not fragment or re.fullmatch(r"L\d+(?:-L?\d+)?", fragment):
                continue
            target = doc.path if not path_part else link.resolved
            if target is None or target not in bank:
                continue
            if target not in offered:
                offered[target] = anchors(bank.text(target))
            if fragment not in offered[target] and fragment.lower() not in offered[target]:
                yield me.finding(doc.path, f"Link names a heading {target} does not have: {link.raw}", link.line)
