"""A row table that fits its width: fixed columns keep their size, flexible ones share the rest.

Long paths and excerpts are cut to their column instead of pushing the table sideways, so a result
list reads the same at 80 columns as at 200. Rows are kept and laid out again on every resize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import DataTable


@dataclass(frozen=True)
class Column:
    label: str
    width: int | None = None
    """Cells wide; None for a flexible column."""
    weight: int = 1
    """A flexible column's share of the width left over."""
    justify: str = "left"


class FittedTable(DataTable[Any]):
    """A row-cursor table laid out to its width."""

    def __init__(self, columns: list[Column], **kwargs: Any) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(**kwargs)
        self.specs = columns
        self._rows: list[tuple[list[str | Text], str]] = []
        self._laid_out_width = -1

    def widths(self, total: int) -> list[int]:
        """Each column's width for a table ``total`` cells wide (cell padding excluded)."""
        padding = 2 * self.cell_padding * len(self.specs)
        fixed = sum(c.width for c in self.specs if c.width is not None)
        weights = sum(c.weight for c in self.specs if c.width is None) or 1
        left = max(total - padding - fixed - 2, 8 * weights)  # 2: room for a vertical scrollbar
        shares = [c.width if c.width is not None else max(left * c.weight // weights, 6) for c in self.specs]
        return shares

    def set_rows(self, rows: list[tuple[list[str | Text], str]], *, keep: str | None = None) -> None:
        """Replace every row (cells, key); the cursor goes back to ``keep`` when it is still there."""
        self._rows = rows
        self._lay_out(keep)

    def _lay_out(self, keep: str | None = None) -> None:
        width = self.size.width or self.app.size.width
        if width == self._laid_out_width and self.columns:
            self.clear()  # same width: the columns stand, only the rows change (a keystroke's answer)
        else:
            self._laid_out_width = width
            self.clear(columns=True)
            for spec, size in zip(self.specs, self.widths(width)):
                self.add_column(Text(spec.label, justify=spec.justify), width=size)  # type: ignore[arg-type]
        for cells, key in self._rows:
            shown = [
                cell if isinstance(cell, Text) else Text(cell, no_wrap=True, overflow="ellipsis", justify=spec.justify)  # type: ignore[arg-type]
                for cell, spec in zip(cells, self.specs)
            ]
            self.add_row(*shown, key=key)
        if keep is not None and any(key == keep for _, key in self._rows):
            self.move_cursor(row=self.get_row_index(keep), animate=False)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._laid_out_width:
            current = None
            if self._rows and 0 <= self.cursor_row < len(self._rows):
                current = self._rows[self.cursor_row][1]
            self._lay_out(current)
