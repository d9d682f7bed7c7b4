"""A tree whose lines, when cut at the pane's edge, end in "…": a finding's message, a drift row or
an outline's frontmatter error that runs past the edge says so instead of stopping mid-word.

← and → fold and unfold as in a file manager: ← folds an open node, or goes to its parent; → opens
a folded one, or goes to its first child. (Textual's tree scrolls sideways on them; a line cut with
"…" has nothing to scroll to.) h, j, k and l move as in vi, G to the last line."""

from __future__ import annotations

from typing import TypeVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Tree

T = TypeVar("T")

BEYOND = 100_000
"""Columns past the edge a line is fetched to (the rest of any line there is)."""


class CutTree(Tree[T]):
    """``Tree``, with "…" in the last cell of a line that goes on past the edge."""

    DEFAULT_CSS = """
    CutTree {
        overflow-x: hidden;
    }
    """
    """No sideways scroll bar: a line past the edge ends in "…", and ← and → fold."""

    BINDINGS = [
        Binding("left,h", "fold", "Fold or go to the parent", show=False),
        Binding("right,l", "unfold", "Unfold or go to the first child", show=False),
        Binding("j", "cursor_down", "Down", show=False),  # as in less and vi
        Binding("k", "cursor_up", "Up", show=False),
        Binding("G", "last", "Last", show=False),
    ]

    def action_last(self) -> None:
        self.move_cursor_to_line(self.last_line)

    def on_resize(self) -> None:
        # Grown (or laid out) with its cursor inside the first screenful: show the top. Scrolled
        # while the tree was still short, the first lines (a group's header) stayed hidden.
        if 0 <= self.cursor_line < self.scrollable_content_region.height and self.scroll_offset.y:
            self.scroll_home(animate=False)

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
        # Whether the text goes on past the view is read from the line's text, not from more crops:
        # each Strip made costs its caches, and a tree pads every line to its widest.
        if shown < 2 or whole.cell_length <= shown or cell_len(whole.text.rstrip()) <= shown:
            line = whole.crop(0, width)
            return line.extend_cell_length(width, style) if line.cell_length < width else line
        kept = whole.crop(0, shown - 1)
        segments = list(kept)
        return Strip.join([kept, Strip([Segment("…", segments[-1].style if segments else style)], 1)])

    def action_fold(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded and node.children:
            node.collapse()
        elif node.parent is not None and (node.parent is not self.root or self.show_root):
            self.move_cursor(node.parent)

    def action_unfold(self) -> None:
        node = self.cursor_node
        if node is None or not node.children:
            return
        if not node.is_expanded:
            node.expand()
        else:
            self.move_cursor(node.children[0])
