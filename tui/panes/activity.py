"""The Activity pane: every MCP tool call agents made to the server this workbench hosts, newest
first, with the client, the arguments in short and the outcome or the refusal the model read.

The workbench hosts a server only when started with ``memorybank tui --serve-mcp PORT``; otherwise
the pane says how to. The screen hands each call down with ``record``; the pane keeps the most
recent ones.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from memorybank.tui.panes.base import Pane, count
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

if TYPE_CHECKING:  # the MCP SDK is imported only when a server is hosted
    from memorybank.mcp_server.server import ToolCall

KEPT = 500
"""Calls the pane remembers; older ones drop off the end."""
NOT_SERVING = (
    "No MCP server is hosted here. Start the workbench with `memorybank tui --serve-mcp 8765` and "
    "point your agent at http://127.0.0.1:8765/mcp: each tool call it makes shows up here, newest first."
)


def clock(call: ToolCall) -> str:
    """The call's time of day, in the local time zone."""
    return call.time.astimezone().strftime("%H:%M:%S")


class ActivityPane(Pane):
    """What agents did through the hosted MCP server."""

    TITLE = "Activity"
    SUMMARY = "Every tool call agents made to the MCP server this workbench hosts, newest first"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.address: str | None = None
        """The hosted server's URL; None when nothing is hosted. Set by the screen."""
        self.calls: deque[ToolCall] = deque(maxlen=KEPT)
        """Newest first."""
        self._keys: deque[str] = deque(maxlen=KEPT)
        """A stable row key per call, so the cursor stays on its call as new ones arrive."""
        self._recorded = 0

    def compose(self) -> ComposeResult:
        yield Static(NOT_SERVING, id="activity-summary", classes="pane-heading")
        yield FittedTable(
            [
                Column("Time", 8),
                Column("Client", 12),
                Column("Tool", 17),
                Column("Arguments", weight=3),
                Column("Outcome", weight=2),
            ],
            id="activity-calls",
        )
        yield Static("", id="activity-detail", classes="detail")

    def on_mount(self) -> None:
        self._fill()

    def serve(self, address: str | None) -> None:
        """Say which server the calls come from (the screen calls this once)."""
        self.address = address
        if self.is_mounted:
            self._fill()

    def record(self, call: ToolCall) -> None:
        """One more call, at the top."""
        self.calls.appendleft(call)
        self._recorded += 1
        self._keys.appendleft(str(self._recorded))
        if self.is_mounted:
            self._fill()

    def _fill(self) -> None:
        table = self.query_one("#activity-calls", FittedTable)
        at_top = table.cursor_row <= 0
        rows = []
        for key, call in zip(self._keys, self.calls):
            outcome = (
                Text("ok", style="green")
                if call.ok
                else Text(f"✗ {call.outcome}", style="red", no_wrap=True, overflow="ellipsis")
            )
            rows.append(([clock(call), call.client, call.tool, call.arguments, outcome], key))
        keep = None
        if not at_top and table.row_count:
            keep = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.set_rows(rows, keep=keep)
        self._summarise()
        self._describe()

    def _summarise(self) -> None:
        summary = self.query_one("#activity-summary", Static)
        if self.address is None:
            summary.update(NOT_SERVING)
            return
        text = Text("Serving MCP at ", style="bold")
        text.append(self.address, style="bold underline")
        refused = sum(1 for c in self.calls if not c.ok)
        text.append(f"  ·  {count(len(self.calls), 'call')}")
        if refused:
            text.append(f", {refused} refused", style="red")
        if not self.calls:
            text.append("  ·  waiting for an agent", style="dim italic")
        summary.update(text)

    @on(DataTable.RowHighlighted, "#activity-calls")
    def _describe(self) -> None:
        detail = self.query_one("#activity-detail", Static)
        table = self.query_one("#activity-calls", FittedTable)
        if not 0 <= table.cursor_row < len(self.calls):
            detail.display = False
            return
        call = self.calls[table.cursor_row]
        text = Text()
        text.append(f"{call.tool}", style="bold")
        text.append(f"  by {call.client} at {call.time.astimezone().isoformat(timespec='seconds')}\n", style="dim")
        text.append(call.arguments or "(no arguments)")
        text.append("\n")
        text.append("ok" if call.ok else call.outcome, style="green" if call.ok else "red")
        detail.update(text)
        detail.display = True

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#activity-calls", DataTable))
