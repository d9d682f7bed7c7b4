"""What the write dialogs share: one core call at a time off the event loop, and a refusal shown
verbatim inside the dialog, which stays open with everything typed in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from rich.text import Text
from textual import on
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from core.bank import Bank
from core.errors import BankError

Result = TypeVar("Result")

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 90;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: thick $primary;
    background: $panel;
    padding: 0 1;
}}
{name} .dialog-title {{
    text-style: bold;
    width: 1fr;
}}
{name} .dialog-note {{
    color: $text-muted;
    margin-bottom: 1;
}}
{name} .dialog-error {{
    display: none;
    color: $text-error;
    background: $error-muted;
    padding: 0 1;
}}
{name} .dialog-error.-shown {{
    display: block;
}}
{name} .field {{
    height: 1;
    margin-bottom: 1;
}}
{name} .field-label {{
    width: 17;
    color: $text-muted;
}}
{name} .field Input, {name} .field Select {{
    width: 1fr;
}}
{name} .dialog-hint {{
    color: $text-muted;
    margin-top: 1;
}}
{name} .dialog-buttons {{
    height: auto;
    align-horizontal: right;
    margin-top: 1;
}}
{name} .dialog-buttons Button {{
    margin-left: 1;
}}
"""
"""The form dialogs' shared look; each dialog formats it with its own class name."""


class CoreDialog(ModalScreen[Result], Generic[Result]):
    """A modal over one bank that runs core calls in a worker and shows their refusals."""

    class Answered(Message, bubble=False):
        """A core call made by ``run_core`` finished, with its value or its error."""

        def __init__(self, request: str, value: Any = None, error: BaseException | None = None) -> None:
            super().__init__()
            self.request = request
            self.value = value
            self.error = error

    def __init__(self, bank: Bank) -> None:
        super().__init__()
        self.bank = bank
        self.pending: str | None = None
        """The request in flight; keys that would start another one are ignored meanwhile."""

    def run_core(self, request: str, call: Callable[[], Any]) -> None:
        """Run ``call`` in a thread; ``on_answer`` or ``on_refusal`` hears back."""
        if self.pending is not None:
            return
        self.pending = request
        self.show_refusal(None)
        self.run_worker(
            lambda: self._call(request, call),
            thread=True,
            exclusive=True,
            exit_on_error=False,
            group="dialog-core",
            description=f"{type(self).__name__}: {request}",
        )

    def _call(self, request: str, call: Callable[[], Any]) -> None:
        try:
            value = call()
        except Exception as error:  # shown in the dialog, never fatal
            self.post_message(self.Answered(request, error=error))
        else:
            self.post_message(self.Answered(request, value=value))

    def on_core_dialog_answered(self, message: CoreDialog.Answered) -> None:
        self.pending = None
        if message.error is not None:
            self.on_refusal(message.request, message.error)
        else:
            self.on_answer(message.request, message.value)

    def on_answer(self, request: str, value: Any) -> None:
        """A core call succeeded: by default the dialog closes with its value."""
        self.dismiss(value)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_refusal(self, request: str, error: BaseException) -> None:
        """A core call was refused (or failed): say why, keep the dialog as it is."""
        self.show_refusal(error)

    def show_refusal(self, error: BaseException | None) -> None:
        box = self.query(".dialog-error").results(Static)
        for widget in box:
            if error is None:
                widget.update("")
                widget.remove_class("-shown")
            else:
                text = error.message if isinstance(error, BankError) else f"{type(error).__name__}: {error}"
                widget.update(Text(text))
                widget.add_class("-shown")
