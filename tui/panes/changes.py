"""The Changes pane: which documents were added, modified, renamed or deleted since a ref or a date.

"What did my colleagues (or the agents) change since Monday": a git ref (``HEAD~5``, ``main``, a
tag) or an ISO date, answered by ``core.changes.changes_since`` in a worker. Uncommitted edits and
untracked documents count. Enter opens a document that still exists. A bank with no commits to count
back from (outside git, or before its first commit) opens on the last week by modification time.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.changes import Changes, changes_since
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from memorybank.tui.widgets.steady_input import SteadyInput
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label, Static

DEFAULT_SINCE = "HEAD~5"
WITHOUT_HISTORY_DAYS = 7
"""Where there are no commits, the default reaches back this many days by modification time (HEAD~5
there would list every document as changed)."""
MARKS = {
    "added": ("+", "bold green"),
    "modified": ("~", "bold yellow"),
    "renamed": ("→", "bold cyan"),
    "deleted": ("−", "bold red"),
}


class ChangesPane(Pane):
    """The bank's delta since a point in history."""

    TITLE = "Changes"
    SUMMARY = "Documents added, modified, renamed or deleted since a git ref or a date"
    BINDINGS = [
        Binding("escape", "leave_since", "Changes", show=False),
        Binding("slash", "since", "Since…", key_display="/", priority=True),
    ]
    EXTRA_KEYS = (("Enter", "open the document"),)
    COMMANDS_OFFERED = (
        PaletteCommand("Changes: since a ref or a date", "HEAD~5, main, v1.2, 2026-05-01, 7d", "since"),
    )

    class ChangeChosen(DocumentChosen):
        """A changed document was chosen: open it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changes: Changes | None = None
        self._to_results = False
        """The since value was just submitted: the results take the focus once listed."""
        self._chosen_since = False
        """A since value was submitted: the box says what the user chose, no longer the default."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield Label("Since", classes="row-label")
            yield SteadyInput(
                DEFAULT_SINCE, placeholder="a git ref (HEAD~5, main), a date (2026-05-01) or 7d", id="changes-since"
            )
        yield Static("Reading git history…", id="changes-summary", classes="pane-heading whole")
        yield FittedTable(
            [
                Column("", 1),
                Column("Document", weight=3, path=True),
                Column("Title", weight=2),
                Column("Layer", 9),
                Column("Status", 8),
            ],
            id="changes-table",
        )

    @on(Input.Submitted, "#changes-since")
    def _submitted(self) -> None:
        self._to_results = True  # once listed; a refused value keeps the focus in the box, to fix it
        self._chosen_since = True
        self.reload()

    def reload(self) -> None:
        since, chosen = self.query_one("#changes-since", Input).value.strip(), self._chosen_since
        self.run_core(
            lambda: recent_changes(self.bank, since, chosen=chosen),
            self._listed,
            failed=self._failed,
            busy=self.query_one("#changes-summary", Static),
        )

    def _failed(self, error: BaseException) -> None:
        self._to_results = False
        self.changes = None
        self.query_one("#changes-table", FittedTable).set_rows([])
        self.query_one("#changes-summary", Static).update(getattr(error, "message", str(error)))

    def _listed(self, changes: Changes) -> None:
        self.changes = changes
        self.query_one("#changes-since", Input).value = changes.since  # the date the default became
        if self._to_results:
            self._to_results = False
            self.focus_now(self.query_one("#changes-table", DataTable))
        counts: dict[str, int] = {}
        rows: list[tuple[list[str | Text], str]] = []
        for index, change in enumerate(changes.changes):
            counts[change.change_kind] = counts.get(change.change_kind, 0) + 1
            mark, style = MARKS.get(change.change_kind, ("?", ""))
            path = change.path if not change.renamed_from else f"{change.renamed_from} → {change.path}"
            rows.append(([Text(mark, style=style), path, change.title, change.layer, change.status or ""], str(index)))
        self.query_one("#changes-table", FittedTable).set_rows(rows)
        summary = Text(f"{count(len(changes.changes), 'document')} changed", style="bold")
        if counts:
            summary.append(": " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
        summary.append(
            f"  ·  since {changes.since}" + ("" if changes.mode == "git" else " (modification times)"), style="dim"
        )
        if changes.note:
            summary.append(f"\n{changes.note}", style="italic")
        self.query_one("#changes-summary", Static).update(summary)

    @on(DataTable.RowSelected, "#changes-table")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        if self.changes is None:
            return
        change = self.changes.changes[event.cursor_row]
        if change.change_kind == "deleted" or change.path not in self.bank:
            self.notify(f"{change.path} no longer exists.", title="Changes", severity="warning")
            return
        self.post_message(self.ChangeChosen(change.path))

    def action_since(self) -> None:
        self.focus_now(self.query_one("#changes-since", Input))

    def action_leave_since(self) -> None:
        self.focus_now(self.query_one("#changes-table", DataTable))

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#changes-table", DataTable))


def recent_changes(bank: Bank, since: str, *, chosen: bool) -> Changes:
    """``changes_since``; the default ref, not chosen, read as the last week where there is no commit
    to count back from (a ref typed on purpose is answered as typed)."""
    if since == DEFAULT_SINCE and not chosen:
        from memorybank.core.repository import find_repository

        repo = find_repository(bank.root)
        if repo is None or not repo.has_commits():
            since = (clock.now() - timedelta(days=WITHOUT_HISTORY_DAYS)).date().isoformat()
    return changes_since(bank, since)
