"""A row table that fits its width: fixed columns keep their size, flexible ones share the rest.

Long paths and excerpts are cut to their column instead of pushing the table sideways, so a result
list reads the same at 80 columns as at 200. Rows are kept and laid out again on every resize.

Every row is one line of ``Text``, so a cell is drawn straight from its text instead of through
Rich's general layout (a padding and a style wrapper around it, each re-splitting the lines): the
same segments, in a fraction of the time. The Route pane redraws every cell on every keystroke.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memorybank.tui.widgets.path_cut import cut_apart, cut_path
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable


@dataclass(frozen=True)
class _Draw:
    """What every cell of one draw reads, read once: reactive attributes cost a lookup each."""

    style: Style
    pad: int
    fixed_rows: int
    fixed_columns: int
    show_cursor: bool
    css_foreground: bool
    css_background: bool
    console: Any
    options: Any
    components: dict[tuple[str, ...], _Component] = field(default_factory=dict)
    """The component styles asked for so far in this draw (the header's, the zebra rows')."""


class _Component:
    """A component's styles with their Rich style worked out once: DataTable asks for the header's
    and the row's on every line, and each time Textual blends the colours of every ancestor."""

    __slots__ = ("rich_style", "styles")

    def __init__(self, styles: Any) -> None:
        self.styles = styles
        self.rich_style = styles.rich_style

    def __getattr__(self, name: str) -> Any:
        return getattr(self.styles, name)


@dataclass(frozen=True)
class Column:
    label: str
    width: int | None = None
    """Cells wide; None for a flexible column."""
    weight: int = 1
    """A flexible column's share of the width left over."""
    justify: str = "left"
    path: bool = False
    """A bank path: cut in the middle so the file name stays (``issues/0004-…/brief-v3.md``); the
    ends of sibling paths are what tells them apart."""
    fit: bool = False
    """A flexible column that takes the width of its longest cell before its flexible siblings
    share the rest (each keeping its ``least``): whole titles, where they can be whole."""
    least: int = 6
    """The fewest cells a flexible column is given."""
    cut: Callable[[str, int], str] | None = None
    """How a cell too long for its column is shortened (else it ends in an ellipsis)."""


def _shortened(cell: Any, width: int, spec: Column) -> Any:
    """A cell as its column shows it: a path cut in the middle, or cut as the column says (a
    styled cell keeps its style); anything else as it is, for the ellipsis to end."""
    if isinstance(cell, Text):
        if spec.cut is None or cell.cell_len <= width:
            return cell
        return Text(spec.cut(cell.plain, width), style=cell.style, no_wrap=True, overflow="ellipsis")
    if spec.path:
        return cut_path(cell, width)
    if spec.cut is not None and cell_len(cell) > width:
        return spec.cut(cell, width)
    return cell


class FittedTable(DataTable[Any]):
    """A row-cursor table laid out to its width. Home and End go to the first and the last row: a row
    table has no columns to scroll to. (Not G: in Route and Search, typing in the results goes on
    the question, every letter of it.)"""

    BINDINGS = [
        Binding("home", "first_row", "First", show=False),
        Binding("end", "last_row", "Last", show=False),
    ]

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def __init__(self, columns: list[Column], **kwargs: Any) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(**kwargs)
        self.specs = columns
        self._rows: list[tuple[list[str | Text], str]] = []
        self._laid_out_width = -1
        self._sizes: list[int] = []
        self._drawing: _Draw | None = None

    def widths(self, total: int) -> list[int]:
        """Each column's width for a table ``total`` cells wide (cell padding excluded)."""
        specs = self.specs
        padding = 2 * self.cell_padding * len(specs)
        left = max(total - padding - sum(c.width for c in specs if c.width is not None) - 2, 0)  # 2: a scrollbar
        sizes: dict[int, int] = {i: c.width for i, c in enumerate(specs) if c.width is not None}
        flexible = [i for i, c in enumerate(specs) if c.width is None]
        fits = {i: self._longest(i) for i in flexible if specs[i].fit}
        rest = [i for i in flexible if i not in fits]
        room = left - sum(specs[i].least for i in rest)
        if fits and sum(fits.values()) <= room:  # every cell of the fitted columns whole
            sizes.update(fits)
            left -= sum(fits.values())
        elif fits:  # the fitted columns share what the others leave them
            weights = sum(specs[i].weight for i in fits) or 1
            sizes.update({i: max(room * specs[i].weight // weights, specs[i].least) for i in fits})
            left = sum(specs[i].least for i in rest)
        weights = sum(specs[i].weight for i in rest) or 1
        sizes.update({i: max(left * specs[i].weight // weights, specs[i].least) for i in rest})
        return [sizes[i] for i in range(len(specs))]

    def _longest(self, column: int) -> int:
        """Cells of the widest cell of a column, its label included."""
        cells = (cells[column] for cells, _ in self._rows)
        return max([cell_len(self.specs[column].label), *(cell_len(getattr(c, "plain", c)) for c in cells)])

    def set_rows(self, rows: list[tuple[list[str | Text], str]], *, keep: str | None = None) -> None:
        """Replace every row (cells, key); the cursor goes back to ``keep`` when it is still there."""
        self._rows = rows
        self._lay_out(keep)

    def _lay_out(self, keep: str | None = None, width: int | None = None) -> None:
        width = width or self.size.width or self.app.size.width
        sizes = self.widths(width)
        if width == self._laid_out_width and sizes == self._sizes and self.columns:
            self.clear()  # the columns stand, only the rows change (a keystroke's answer)
        else:
            self._laid_out_width, self._sizes = width, sizes
            self.clear(columns=True)
            for spec, size in zip(self.specs, self._sizes):
                self.add_column(Text(spec.label, justify=spec.justify), width=size)  # type: ignore[arg-type]
        paths = {  # each column of paths cut as a whole, so that no two paths show alike
            column: iter(cut_apart([cells[column] for cells, _ in self._rows], size))
            for column, (spec, size) in enumerate(zip(self.specs, self._sizes))
            if spec.path and all(isinstance(cells[column], str) for cells, _ in self._rows)
        }
        for cells, key in self._rows:
            shown = [
                _shortened(cell, size, spec)
                if isinstance(cell, Text)
                else Text(
                    next(paths[column]) if column in paths else _shortened(cell, size, spec),
                    no_wrap=True,
                    overflow="ellipsis",
                    justify=spec.justify,  # type: ignore[arg-type]
                )
                for column, (cell, spec, size) in enumerate(zip(cells, self.specs, self._sizes))
            ]
            self.add_row(*shown, key=key)
        if keep is not None and any(key == keep for _, key in self._rows):
            self.move_cursor(row=self.get_row_index(keep), animate=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        # DataTable asks for the node's style on every line (each time walking every ancestor) and
        # its cells for the same settings: within one draw none of them can change.
        self._drawing = self._draw()
        try:
            return super().render_lines(crop)
        finally:
            self._drawing = None

    def _draw(self) -> _Draw:
        return _Draw(
            style=super().rich_style,
            pad=self.cell_padding,
            fixed_rows=self.fixed_rows,
            fixed_columns=self.fixed_columns,
            show_cursor=self.show_cursor,
            css_foreground=self.cursor_foreground_priority == "css",
            css_background=self.cursor_background_priority == "css",
            console=self.app.console,
            options=self.app.console_options,
        )

    @property
    def rich_style(self) -> Style:
        return self._drawing.style if self._drawing is not None else super().rich_style

    def get_component_styles(self, *names: str) -> Any:
        drawing = self._drawing
        if drawing is None:
            return super().get_component_styles(*names)
        found = drawing.components.get(names)
        if found is None:
            found = drawing.components[names] = _Component(super().get_component_styles(*names))
        return found

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> list[list[Segment]]:
        """DataTable's cell (same cache, same styles), drawn directly when it is one line of text."""
        draw = self._drawing or self._draw()
        pad = draw.pad
        if row_index < 0 or column_index < 0 or width < 2 * pad:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = self._row_locations.get_key(row_index)
        key = (
            row_key,
            self._column_locations.get_key(column_index),
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._update_count,
            self._pseudo_class_state,
        )
        cached = self._cell_render_cache.get(key)
        if cached is not None:
            return cached
        cell = self._get_row_renderables(row_index).cells[column_index]
        if not isinstance(cell, Text) or self.rows[row_key].height != 1 or "\n" in cell.plain:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        component, post = self._get_styles_to_render_cell(
            False,
            False,
            row_index < draw.fixed_rows or column_index < draw.fixed_columns,
            hover,
            cursor,
            draw.show_cursor,
            self._show_hover_cursor,
            draw.css_foreground,
            draw.css_background,
        )
        pre = base_style + Style.from_meta({"row": row_index, "column": column_index}) + component
        console, options = draw.console, draw.options
        inner = width - 2 * pad
        lines = cell.wrap(
            console,
            inner,
            justify=cell.justify or options.justify or "default",
            overflow=cell.overflow or options.overflow or "fold",
            tab_size=(console.tab_size if cell.tab_size is None else cell.tab_size) or 8,
            no_wrap=True,
        )
        # Joined as Rich joins them: the join carries each line's own style into spans.
        text = Segment.adjust_line_length(list(Text("\n").join(lines).render(console)), inner)
        margin = [Segment(" " * pad)] if pad else []
        line = list(Segment.apply_style([*margin, *text, *margin], style=pre, post_style=post))
        self._cell_render_cache[key] = [line]
        return [line]

    def on_resize(self, event: events.Resize) -> None:
        self._refit(event.size.width)

    def on_show(self) -> None:
        # A table in a pane that was not in front during a resize did not hear of it.
        self.call_after_refresh(lambda: self._refit(self.size.width))

    def _refit(self, width: int) -> None:
        """Lay the columns out again for ``width`` (a resize event's own, which the widget's size
        may not show yet)."""
        if width and width != self._laid_out_width:
            current = None
            if self._rows and 0 <= self.cursor_row < len(self._rows):
                current = self._rows[self.cursor_row][1]
            self._lay_out(current, width)
