"""Triage at volume: mark several notes, then apply their proposals together.

A mixin of the Inbox pane (it reads the pane's notes and marks and redraws its table): the batch is
previewed as one dialog, every proposal dry-run against today's bank, and applied as one core
operation (``core.write.proposals.apply_proposals``), a refused one left in the inbox with its reason.
"""

from __future__ import annotations

from typing import Any

from memorybank.tui.dialogs.preview import PreviewDialog
from memorybank.tui.messages import BankWritten
from memorybank.tui.panes.base import count
from memorybank.tui.previews import batch_preview
from memorybank.tui.triage import ProposalBatch, run_proposals
from memorybank.tui.widgets.fitted_table import FittedTable


class BulkTriage:
    """Marking notes and applying the marked notes' proposals together."""

    entries: list[Any]
    marked: set[str]

    def action_mark(self) -> None:
        entry = self.selected
        if entry is None:
            return
        self.marked ^= {entry.path}
        table = self.query_one("#inbox-notes", FittedTable)
        row = table.cursor_row
        table.set_rows([(self._cells(e), e.path) for e in self.entries], keep=entry.path)
        table.move_cursor(row=min(row + 1, len(self.entries) - 1), animate=False)
        self._summarise()

    def action_apply_marked(self) -> None:
        marked = [e.path for e in self.entries if e.path in self.marked]
        paths = [e.path for e in self.entries if e.proposal and (not marked or e.path in self.marked)]
        if not paths:
            which = "No marked note" if marked else "No note"
            self.notify(f"{which} carries a proposal.", title="Inbox", severity="warning")
            return
        self.run_core(lambda: run_proposals(self.bank, paths), self._confirm_batch, channel="write")

    def _confirm_batch(self, batch: ProposalBatch) -> None:
        passed = batch.passed
        if not passed:
            self.app.push_screen(
                PreviewDialog("No proposal can be applied today", batch_preview(batch), confirm="Close", back="Back")
            )
            return
        refused = f" ({len(batch.refused)} refused today, left in the inbox)" if batch.refused else ""

        def answered(go: bool | None) -> None:
            if go:
                self.run_core(
                    lambda: run_proposals(self.bank, passed, dry_run=False, shown=batch.plan),
                    self._batch_applied,
                    channel="write",
                )

        self.app.push_screen(
            PreviewDialog(
                f"Apply {count(len(passed), 'proposal')}?{refused}",
                batch_preview(batch),
                confirm=f"Apply {len(passed)}",
            ),
            answered,
        )

    def _batch_applied(self, batch: ProposalBatch) -> None:
        self.marked.clear()
        done = len(batch.passed)
        message = f"Applied {count(done, 'proposal')}."
        for outcome in batch.refused:
            message += f"\n{outcome.path}: {outcome.refusal}"
        self.notify(
            message,
            title="Inbox",
            severity="warning" if batch.refused else "information",
            timeout=8 if batch.refused else 4,
        )
        self.post_message(BankWritten())
