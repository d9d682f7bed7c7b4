"""Markdown rendered once per width into lines, of which only those on screen are drawn.

Textual's ``Markdown`` widget mounts a widget per block (a table alone is dozens), and a ``Static``
holding Rich's markdown renders it again for every layout pass; on an 80-line window of a plan
either took a tenth of a second or more. This view renders the markdown with Rich once for its
width, keeps the lines, and ``render_line`` hands back the one asked for.
"""

from __future__ import annotations

from rich.markdown import Markdown
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class MarkdownView(ScrollView, can_focus=True):
    """A scrollable, read-only rendering of some markdown and an optional note under it."""

    DEFAULT_CSS = """
    MarkdownView {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;  /* the width rendered for never loses a column to the scrollbar */
    }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = ""
        """The markdown shown."""
        self._note: Text | None = None
        self._lines: list[Strip] = []
        self._blank = Strip([])
        self._style = Style()
        self._width = -1

    def update(self, source: str, note: Text | None = None) -> None:
        """Show ``source``, and ``note`` under it."""
        self.source, self._note = source, note
        self._width = -1
        self._lay_out()

    def _lay_out(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return
        self._width = width
        console = self.app.console
        options = console.options.update_width(width)
        lines: list[list] = []
        if self.source:
            lines += console.render_lines(Markdown(self.source, hyperlinks=False), options, pad=False)
        if self._note is not None:
            lines += [[]] + console.render_lines(self._note, options, pad=False)
        style = self.rich_style
        self._style = style
        # Styled and padded to the width now, once, so drawing a line is a list lookup.
        self._lines = [Strip(line).apply_style(style).crop_extend(0, width, style) for line in lines]
        self._blank = Strip.blank(width, style)
        self.virtual_size = Size(width, len(self._lines))
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y + scroll_y
        if index >= len(self._lines):
            return self._blank
        line = self._lines[index]
        return line if scroll_x == 0 else line.crop_extend(scroll_x, scroll_x + self._width, self._style)
