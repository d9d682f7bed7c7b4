"""Setext headings: a line of text over a line of ``=`` (level 1) or ``-`` (level 2).

CommonMark reads ``Title`` over ``-----`` as a heading, not as text and a rule, when the line above
is paragraph text; sections, anchors and the shape gates all read them so.
"""

from __future__ import annotations

import re

_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_PARAGRAPH = re.compile(r"^ {0,3}[^\s#>|*+=-]")
"""A line a setext underline makes a heading: text, not a list item, a quote, a table row or a heading."""


def setext_level(previous: str, line: str) -> int:
    """1 or 2 when ``line`` underlines ``previous`` into a heading (``=`` or ``-``), else 0."""
    underline = _SETEXT.match(line)
    if underline is None or not previous.strip() or not _PARAGRAPH.match(previous):
        return 0
    return 1 if underline.group(1)[0] == "=" else 2
