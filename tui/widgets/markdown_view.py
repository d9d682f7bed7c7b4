"""Markdown rendered once per width into lines, of which only those on screen are drawn.

Textual's ``Markdown`` widget mounts a widget per block (a table alone is dozens), and a ``Static``
holding Rich's markdown renders it again for every layout pass; on an 80-line window of a plan
either took a tenth of a second or more. This view renders the markdown with Rich once for its
width, keeps the lines, and ``render_line`` hands back the one asked for.

Given the head of the markdown too (a screenful or two, cut where it stays valid markdown), it
renders the head for the first frame and the whole right after it: the body shows in the frame
after it is asked for, and rendering what is below the view waits until that frame is out.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, TableElement
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class _FoldedTable(TableElement):
    """A markdown table whose cells fold a word too long for its column onto the next line instead
    of cutting it with "…": at 80 columns a five-column table kept "Repo…" of "Repository".

    A table whose longest words do not fit side by side in the width (a plan's twelve-column
    schedule) is shown one row at a time instead, each cell under its column's name, as ``psql``'s
    expanded mode does: folded into columns a few cells wide, its headers read down the screen a
    letter a line and its words broke mid-word."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for table in super().__rich_console__(console, options):
            if isinstance(table, Table):
                unbounded = options.update_width(1_000_000)  # Measurement.get caps the minimum at the width
                for column in table.columns:
                    column.overflow = "fold"
                if len(table.columns) > 2 and Measurement.get(console, unbounded, table).minimum > options.max_width:
                    yield from _as_records(table)
                    continue
            yield table


def _as_records(table: Table) -> RenderResult:
    """Each row of a table as a two-column list: the column's name, then the row's cell."""
    names = [column.header for column in table.columns]
    rows = list(zip(*(list(column.cells) for column in table.columns), strict=False))
    for number, row in enumerate(rows, 1):
        record = Table.grid(padding=(0, 1))
        record.add_column(style="bold", max_width=24, overflow="fold")
        record.add_column(overflow="fold")
        for name, cell in zip(names, row, strict=False):
            record.add_row(name, cell)
        yield Text(f"row {number} of {len(rows)}", style="dim")
        yield record
        yield Text("")


class _Markdown(Markdown):
    """Rich's markdown, with tables that fold what they cannot fit."""

    elements = {**Markdown.elements, "table_open": _FoldedTable}


class MarkdownView(ScrollView, can_focus=True):
    """A scrollable, read-only rendering of some markdown and an optional note under it."""

    DEFAULT_CSS = """
    MarkdownView {
        height: 1fr;
        overflow-x: hidden;
        scrollbar-gutter: stable;  /* the width rendered for never loses a column to the scrollbar */
    }
    """

    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False),  # as in less and vi
        Binding("k", "scroll_up", "Up", show=False),
        Binding("G", "scroll_end", "End", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.source = ""
        """The markdown shown."""
        self._note: Text | None = None
        self._lines: list[Strip] = []
        self._blank = Strip([])
        self._style = Style()
        self._width = -1
        self._updates = 0
        self.partial = False
        """Whether only the head of ``source`` is rendered yet (the whole follows after a frame)."""

    def update(self, source: str, note: Text | None = None, *, head: str | None = None) -> None:
        """Show ``source``, and ``note`` under it; with ``head`` (the start of ``source``), show the
        head in the next frame and the whole after it."""
        self.source, self._note = source, note
        self._updates += 1
        self._width = -1
        self.partial = False
        if head is not None and self._lay_out(head, None):
            self.partial, self._width = True, -1
            self.call_after_refresh(self._finish, self._updates)
        else:
            self._lay_out()

    def scroll_past(self, prefix: str, *, above: int = 0) -> None:
        """Scroll so what follows the markdown ``prefix`` of the source shown is at the top, with
        ``above`` rows before it: the rendered place of a raw line, found by rendering what precedes it."""
        width = self.scrollable_content_region.width
        if width <= 0:
            self.call_after_refresh(self.scroll_past, prefix, above=above)
            return
        console = self.app.console
        rows = len(console.render_lines(_Markdown(prefix, hyperlinks=False), console.options.update_width(width)))
        # Once the new lines' height is laid out: until then the scroll would stop at the old end.
        self.call_after_refresh(self.scroll_to, y=max(rows - above, 0), animate=False)

    def _finish(self, update: int) -> None:
        if update == self._updates and self.partial:  # not replaced, nor laid out whole on a resize since
            self._lay_out()

    def _lay_out(self, source: str | None = None, note: Text | None = None) -> bool:
        """Render ``source`` (the whole by default) for the current width; False if nothing was to do."""
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._width:
            return False
        if source is None:
            source, note, self.partial = self.source, self._note, False
        self._width = width
        console = self.app.console
        options = console.options.update_width(width)
        lines: list[list] = []
        if source:
            lines += console.render_lines(_Markdown(source, hyperlinks=False), options, pad=False)
        if note is not None:
            lines += [[]] + console.render_lines(note, options, pad=False)
        style = self.rich_style
        self._style = style
        # Styled and padded to the width now, once, so drawing a line is a list lookup.
        self._lines = [Strip(line).apply_style(style).crop_extend(0, width, style) for line in lines]
        self._blank = Strip.blank(width, style)
        self.virtual_size = Size(width, len(self._lines))
        self.refresh()
        return True

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y + scroll_y
        if index >= len(self._lines):
            return self._blank
        line = self._lines[index]
        return line if scroll_x == 0 else line.crop_extend(scroll_x, scroll_x + self._width, self._style)
