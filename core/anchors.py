"""Heading anchors: the ``#fragment`` a renderer gives each heading of a document, read as GitHub and
most renderers make them: the heading's text lower-cased, punctuation dropped, spaces made hyphens,
a repeated heading numbered ``-1``, ``-2``; an HTML ``id``/``name`` or a ``{#custom-id}`` counts too.
Validation's ``broken-anchor`` and the writes that say which links they break read them here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from memorybank.core.parse import FenceTracker, split_frontmatter
from memorybank.core.setext import setext_level

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
_CUSTOM_ID = re.compile(r"\{#([^}\s]+)\}\s*$")
_HTML_ID = re.compile(r"""<[a-zA-Z][^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""")
_LINK_MARKUP = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_LINE_FRAGMENT = re.compile(r"L\d+(?:-L?\d+)?")


def link_fragment(raw: str) -> tuple[str, str]:
    """A link target's path part and the heading it names ("" when it names none, or names a line:
    ``#L12``)."""
    path_part, hash_sign, fragment = raw.partition("#")
    fragment = unquote(fragment).strip()
    if not hash_sign or _LINE_FRAGMENT.fullmatch(fragment):
        fragment = ""
    return path_part, fragment


def offers(offered: frozenset[str], fragment: str) -> bool:
    """Whether a document offering ``offered`` anchors has the one a link names (in any case)."""
    return fragment in offered or fragment.lower() in offered


def slug(heading: str) -> str:
    """The anchor a renderer gives a heading: ``## Stable Identifiers`` is ``stable-identifiers``."""
    text = _LINK_MARKUP.sub(r"\1", heading).strip().lower()
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> frozenset[str]:
    """Every anchor a document's text offers: its headings' slugs and the ids it names itself."""
    ids, found, _ = _read(text)
    return frozenset(ids | {anchor for heading in found for anchor in heading.anchors})


@dataclass(frozen=True)
class Heading:
    """A heading as anchors see it: its slug before numbering (what tells equal titles), the
    anchors it offers (its numbered slug, and its ``{#custom-id}`` when it has one) and the text
    under it up to the next heading."""

    base: str
    anchors: tuple[str, ...]
    text: str


def outline(text: str) -> tuple[frozenset[str], list[Heading]]:
    """Every anchor a document's text offers (as ``anchors``) and its headings in order, from one
    reading of it."""
    ids, found, lines = _read(text)
    ends = [heading.first for heading in found[1:]] + [len(lines)]
    headings = [
        Heading(heading.base, heading.anchors, "\n".join(lines[heading.after : end]).strip())
        for heading, end in zip(found, ends, strict=True)
    ]
    return frozenset(ids | {anchor for heading in headings for anchor in heading.anchors}), headings


@dataclass(frozen=True)
class _Found:
    base: str
    anchors: tuple[str, ...]
    first: int
    """The line the heading starts on (a setext heading's title)."""
    after: int
    """The line after it."""


def _read(text: str) -> tuple[set[str], list[_Found], list[str]]:
    """The ids a text names outside headings, its headings, and its body's lines."""
    split = split_frontmatter(text)
    body = split.body(text) if split.closed else text
    found: set[str] = set()
    headings: list[_Found] = []
    slugs: set[str] = set()
    tracker = FenceTracker(comments=True)
    lines = body.split("\n")
    previous = ""
    for at, line in enumerate(lines):
        if tracker.feed(line):
            previous = ""
            continue
        found.update(m.group(1) for m in _HTML_ID.finditer(line))
        heading = _HEADING.match(line)
        title = heading.group(2) if heading else None
        first = at
        if title is None and setext_level(previous, line):
            title, first = previous.strip(), at - 1  # Title over a line of = or -
        previous = line
        if title is None:
            continue
        custom = _CUSTOM_ID.search(title)
        own: tuple[str, ...] = ()
        if custom:
            own = (custom.group(1),)
            title = title[: custom.start()]
        base = candidate = slug(title)
        number = 0
        while candidate in slugs:  # as GitHub numbers them: the first free base-1, base-2, ...
            number += 1
            candidate = f"{base}-{number}"
        slugs.add(candidate)
        headings.append(_Found(base, (candidate, *own), first, at + 1))
    return found, headings, lines
