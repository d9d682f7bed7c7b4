"""Rejecting an agent's proposal: the proposal is cleared from the note, which stays in the inbox;
an optional note tells the agent why."""

from __future__ import annotations

from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.write.proposals import reject_proposal
from memorybank.tui.dialogs.core_dialog import DIALOG_CSS, CoreDialog
from memorybank.tui.proposals import Proposal
from memorybank.tui.widgets.steady_input import SteadyInput
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

HINT = "Enter rejects (the note stays in the inbox) · Esc keeps the proposal"


class RejectDialog(CoreDialog[dict[str, Any] | None]):
    """Reject a note's proposal; dismisses with the proposal cleared, or None when kept."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RejectDialog")
    BINDINGS = [Binding("escape", "cancel", "Keep it")]

    def __init__(self, bank: Bank, *, note: str, proposal: Proposal) -> None:
        super().__init__(bank)
        self.note = note
        self.proposal = proposal

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Reject the proposal on {self.note}?", classes="dialog-title", markup=False)
            yield Static(self.proposal.describe(), classes="dialog-note", markup=False)
            yield Horizontal(
                Label("Note (optional)", classes="field-label"),
                SteadyInput(id="reject-note", compact=True, placeholder="why, for the agent that proposed it"),
                classes="field",
            )
            yield Static("", classes="dialog-error")
            yield Static(HINT, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep it (esc)", id="cancel", compact=True)
                yield Button("Reject (enter)", id="reject", variant="warning", compact=True)

    def on_mount(self) -> None:
        self.query_one("#reject-note", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#reject")
    def action_reject(self) -> None:
        note = self.query_one("#reject-note", Input).value
        self.run_core(lambda: reject_proposal(self.bank, path=self.note, note=note))
