"""The last look before a write: the dry run's outcome, scrollable, then go ahead (y) or back (n).

Every inbox action passes through it: a promotion, a proposal, a fold, a batch of proposals. It
shows what the core said it would do; it decides nothing.
"""

from __future__ import annotations

from memorybank.tui.dialogs.guard import StrayKeyGuard
from rich.console import RenderableType
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class PreviewDialog(StrayKeyGuard, ModalScreen[bool]):
    """A dry run's outcome; dismisses with True to write it."""

    DEFAULT_CSS = """
    PreviewDialog {
        align: center middle;
    }
    PreviewDialog > Vertical {
        width: 96;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        background: $panel;
        padding: 0 1;
    }
    PreviewDialog .dialog-title {
        text-style: bold;
        width: 1fr;
    }
    PreviewDialog VerticalScroll {
        height: auto;
        max-height: 70vh;
        background: $surface;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    PreviewDialog .dialog-buttons {
        height: auto;
        align-horizontal: right;
    }
    PreviewDialog Button {
        margin-left: 1;
    }
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Write it"),
        Binding("escape,n", "answer(False)", "Back"),
    ]

    def __init__(self, title: str, body: RenderableType, *, confirm: str = "Write it", back: str = "Back") -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.confirm_label = confirm
        self.back_label = back

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="preview-body"):
                yield Static(self.body, id="preview-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.back_label} (n)", id="no", compact=True)
                yield Button(f"{self.confirm_label} (y)", id="yes", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#preview-body", VerticalScroll).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer(event.button.id == "yes")
