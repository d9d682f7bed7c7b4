"""A yes/no dialog for actions that write to the bank: it says exactly what will happen first."""

from __future__ import annotations

from memorybank.tui.dialogs.guard import StrayKeyGuard
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ConfirmDialog(StrayKeyGuard, ModalScreen[bool]):
    """Ask before doing something that changes files; dismisses with True to go ahead."""

    DEFAULT_CSS = """
    ConfirmDialog {
        align: center middle;
    }
    ConfirmDialog > Vertical {
        width: 72;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $panel;
        padding: 1 2;
    }
    ConfirmDialog .dialog-title {
        text-style: bold;
        margin-bottom: 1;
    }
    ConfirmDialog .dialog-body {
        height: auto;
    }
    ConfirmDialog Horizontal {
        height: auto;
        align-horizontal: right;
        margin-top: 1;
    }
    ConfirmDialog Button {
        margin-left: 2;
    }
    """
    """Self-contained, so the dialog renders the same wherever it is pushed."""

    BINDINGS = [
        Binding("escape,n", "answer(False)", "Cancel"),
        Binding("y", "answer(True)", "Confirm"),
    ]

    def __init__(self, title: str, body: str, *, confirm: str = "Confirm") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.confirm_label = confirm

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body", markup=False)
            with Horizontal():
                yield Button("Cancel (n)", id="no")
                yield Button(f"{self.confirm_label} (y)", id="yes", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "yes")
