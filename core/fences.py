"""Fenced code blocks, and HTML comments when asked: the lines of a markdown body that are not prose."""

from __future__ import annotations

import re

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


class FenceTracker:
    """Tracks fenced code blocks line by line, matching the opening fence's character and length.

    A fence closes only on a line of the same character at least as long as the opener, so a
    three-backtick block nested in a four-backtick one does not end it.

    With ``comments``, an HTML comment is hidden text too, as a renderer shows it: from a line
    starting (at most three spaces in) with ``<!--`` to the line holding ``-->`` (CommonMark's HTML
    block of the second kind). What finds a document's headings, sections, anchors and links asks
    for it, so a section commented out is no section; what must see every line (the firewall, the
    shape of a write) does not.
    """

    __slots__ = ("char", "comments", "in_comment", "length")

    def __init__(self, comments: bool = False) -> None:
        self.char = ""
        self.length = 0
        self.comments = comments
        self.in_comment = False

    @property
    def inside(self) -> bool:
        return bool(self.char)

    def feed(self, line: str) -> bool:
        """Consume one line; True when the line is part of a fence (its delimiters included), or
        of an HTML comment when the tracker reads them."""
        if self.in_comment:
            self.in_comment = "-->" not in line
            return True
        if self.char:
            # A closer is at most three spaces in (a tab is four), then the fence's character, then
            # spaces or tabs only (a no-break space after it is text, as CommonMark reads it).
            stripped = line.rstrip(" \t\r")
            indent = len(stripped) - len(stripped.lstrip(" "))
            stripped = stripped[indent:]
            if (
                stripped
                and indent <= 3
                and stripped[0] == self.char
                and len(stripped) >= self.length
                and stripped == self.char * len(stripped)
            ):
                self.char = ""
                self.length = 0
            return True
        if self.comments and (opened := comment_opens(line)) is not None:
            self.in_comment = opened
            return True
        match = _FENCE_OPEN.match(line)
        if match:
            fence, info = match.group(1), match.group(2)
            if fence[0] == "`" and "`" in info:
                return False
            self.char = fence[0]
            self.length = len(fence)
            return True
        return False


def comment_opens(line: str) -> bool | None:
    """For a line starting (at most three spaces in) with ``<!--``: True when the comment runs on
    past it, False when it closes on it; None for any other line."""
    if not line[:7].lstrip(" ").startswith("<!--") or len(line) - len(line.lstrip(" ")) > 3:
        return None
    return "-->" not in line[line.index("<!--") + 4 :]
