"""Setext headings and thematic breaks: a line of text over a line of ``=`` (level 1) or ``-``
(level 2) is a heading, while ``---`` after a blank line, a list item, a quote or HTML is a rule.

CommonMark reads them so, and the parser's sections, the anchors and the gates that keep a write
from adding a section unseen all read them here, alike.
"""

from __future__ import annotations

import re

RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
"""A thematic break (``---``, ``***``, ``___``): after a blank line, the rule an author closes a section with."""
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
"""A line of ``=`` or ``-`` under a line of text: that text is a heading (``=`` level 1, ``-`` level 2)."""
_PARAGRAPH = re.compile(r"^ {0,3}(?![-*+] |\d+[.)] |>|#|\||<|```|~~~)\S")
"""A line a ``=`` or ``-`` line under it turns into a heading: paragraph text, not a list item, a
quote, a heading, a table row or HTML (under those, ``---`` is a rule)."""


def setext_level(previous: str, line: str) -> int:
    """1 or 2 when ``line`` underlines ``previous`` into a heading (``=`` or ``-``), else 0."""
    underline = _SETEXT.match(line)
    if underline is None or not _PARAGRAPH.match(previous) or RULE.match(previous):
        return 0
    return 1 if underline.group(1)[0] == "=" else 2
