"""A tree whose lines, when cut at the pane's edge, end in "…": a finding's message, a drift row or
an outline's frontmatter error that runs past the edge says so instead of stopping mid-word."""

from __future__ import annotations

from typing import TypeVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Tree

T = TypeVar("T")

BEYOND = 100_000
"""Columns past the edge a line is fetched to (the rest of any line there is)."""


class CutTree(Tree[T]):
    """``Tree``, with "…" in the last cell of a line that goes on past the edge."""

    _draw: tuple[int, int, Style] | None = None
    """Width, columns in sight and base style, read once per draw instead of once per line."""

    def render_lines(self, crop: Region) -> list[Strip]:
        # What the vertical scroll bar leaves in sight.
        self._draw = (self.size.width, self.scrollable_content_region.width, self.rich_style)
        try:
            return super().render_lines(crop)
        finally:
            self._draw = None

    def render_line(self, y: int) -> Strip:
        width, shown, style = self._draw or (self.size.width, self.scrollable_content_region.width, self.rich_style)
        scroll_x, scroll_y = self.scroll_offset
        # One fetch of the line from the scroll position on (the tree caches the whole line), cut here.
        whole = self._render_line(y + scroll_y, scroll_x, scroll_x + BEYOND, style)
        line = whole.crop(0, width)
        if shown < 2 or whole.cell_length <= shown or not whole.crop(shown, BEYOND).text.strip():
            return line.extend_cell_length(width, style) if line.cell_length < width else line
        kept = line.crop(0, shown - 1)
        segments = list(kept)
        return Strip.join([kept, Strip([Segment("…", segments[-1].style if segments else style)], 1)])
