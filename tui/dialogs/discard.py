"""Discarding a note: the reason is required (the core refuses an empty one), and the dialog is
the confirmation, saying what is deleted before Enter deletes it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from core.bank import Bank
from core.write.inbox import DiscardResult, discard
from tui.dialogs.core_dialog import DIALOG_CSS, CoreDialog
from tui.widgets.steady_input import SteadyInput

HINT = "Enter discards · Esc keeps the note"


class DiscardDialog(CoreDialog[DiscardResult | None]):
    """Discard one note with a reason; dismisses with the result, or None when kept."""

    DEFAULT_CSS = DIALOG_CSS.format(name="DiscardDialog")
    BINDINGS = [Binding("escape", "cancel", "Keep it")]

    def __init__(self, bank: Bank, *, note: str, title: str, reason: str = "") -> None:
        super().__init__(bank)
        self.note = note
        self.title_text = title
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"Discard {self.note}?", classes="dialog-title", markup=False)
            yield Static(
                f"“{self.title_text}”. The file is deleted; say why, for the record.",
                classes="dialog-note",
                markup=False,
            )
            yield Horizontal(
                Label("Reason", classes="field-label"),
                SteadyInput(
                    self.reason,
                    id="discard-reason",
                    compact=True,
                    placeholder="e.g. not bank material: a local setup problem",
                ),
                classes="field",
            )
            yield Static("", classes="dialog-error")
            yield Static(HINT, classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep it (esc)", id="cancel", compact=True)
                yield Button("Discard (enter)", id="discard", variant="error", compact=True)

    def on_mount(self) -> None:
        self.query_one("#discard-reason", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#discard")
    def action_discard(self) -> None:
        reason = self.query_one("#discard-reason", Input).value
        self.run_core(lambda: discard(self.bank, path=self.note, reason=reason))
