"""A tree whose lines, when cut at the pane's edge, end in "…": a finding's message, a drift row or
an outline's frontmatter error that runs past the edge says so instead of stopping mid-word."""

from __future__ import annotations

from typing import TypeVar

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Tree

T = TypeVar("T")


class CutTree(Tree[T]):
    """``Tree``, with "…" in the last cell of a line that goes on past the edge."""

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        shown = self.scrollable_content_region.width  # what the vertical scroll bar leaves in sight
        scroll_x, scroll_y = self.scroll_offset
        style = self.rich_style
        line = self._render_line(y + scroll_y, scroll_x, scroll_x + width, style)
        beyond = self._render_line(y + scroll_y, scroll_x + shown, scroll_x + shown + 100_000, style)
        if shown < 2 or not beyond.text.strip():
            return line
        kept = line.crop(0, shown - 1)
        segments = list(kept)
        return Strip.join([kept, Strip([Segment("…", segments[-1].style if segments else style)], 1)])
