"""Ask for the project's name before seeding a new bank."""

from __future__ import annotations

from memorybank.tui.widgets.steady_input import SteadyInput
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


class NamePrompt(ModalScreen[str | None]):
    """A one-field form; dismisses with the name, or None when cancelled."""

    DEFAULT_CSS = """
    NamePrompt {
        align: center middle;
    }
    NamePrompt > Vertical {
        width: 64;
        max-width: 95%;
        height: auto;
        border: thick $primary;
        background: $panel;
        padding: 1 2;
    }
    NamePrompt .dialog-title {
        text-style: bold;
    }
    NamePrompt #name-problem {
        color: $text-warning;
        height: auto;
    }
    NamePrompt Horizontal {
        height: auto;
        align-horizontal: right;
    }
    NamePrompt Button {
        margin-left: 2;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Create a memory bank", classes="dialog-title")
            yield Static(f"In {self.where}. The name goes into the root index.", markup=False)
            yield SteadyInput(placeholder="Project name", id="name")
            yield Static("", id="name-problem")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button("Create", id="create", variant="primary")

    @on(Input.Submitted)
    @on(Button.Pressed, "#create")
    def _create(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        if not name:  # said beside the field, where the eyes are, not in a toast that fades
            self.query_one("#name-problem", Static).update("Give the project a name: it heads the root index.")
            self.query_one("#name", Input).focus()
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
