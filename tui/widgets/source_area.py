"""The Document pane's source view: a read-only, wrapped, numbered ``TextArea`` that keeps its
place when the terminal is resized.

A wrapped text area scrolls by rows, and a resize rewraps every line: the same row offset then
points at another line, so a reader who widened the terminal found themselves dozens of lines
away. This one notes the line at the top of the view before rewrapping and scrolls back to it.
"""

from __future__ import annotations

from textual.geometry import Offset
from textual.widgets import TextArea


class SourceArea(TextArea):
    """``TextArea`` whose first line on screen stays first across a resize."""

    def show_at_top(self, row: int) -> None:
        """Scroll so the ``row``-th line held is the first row on screen (a wrapped line takes several)."""
        row = max(min(row, self.document.line_count - 1), 0)
        self.scroll_to(y=self.wrapped_document.location_to_offset((row, 0)).y, animate=False)

    def _on_resize(self) -> None:
        top = self.wrapped_document.offset_to_location(Offset(0, self.scroll_offset.y))
        super()._on_resize()
        self.scroll_to(y=self.wrapped_document.location_to_offset((top[0], 0)).y, animate=False)
