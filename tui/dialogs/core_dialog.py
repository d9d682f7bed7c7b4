"""What the write dialogs share: one core call at a time off the event loop, and a refusal shown
verbatim inside the dialog, which stays open with everything typed in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from rich.text import Text
from textual import events, on
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Static

Result = TypeVar("Result")
T = TypeVar("T")

DIALOG_CSS = """
{name} {{
    align: center middle;
}}
{name} > Vertical {{
    width: 90;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    overflow-y: auto;  /* on a short terminal the form scrolls to its buttons instead of losing them */
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

    FIELDS: dict[str, str] = {}
    """Core's name for a parameter (as agents send it) to the label of the form's field: a refusal
    shown here names the field the person sees, ``Kind`` rather than `docKind`."""

    class Answered(Message, bubble=False):
        """A core call made by ``run_core`` finished, with its value or its error."""

        def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
            super().__init__()
            self.value = value
            self.error = error

    @on(events.Mount)
    def _clear_toasts(self) -> None:
        # The last action's message would sit over this form's fields for seconds: the owner has
        # moved on to the next one.
        self.app.clear_notifications()

    def __init__(self, bank: Bank) -> None:
        super().__init__()
        self.bank = bank
        self.pending: Callable[[Any], object] | None = None
        """What to do with the answer of the call in flight; keys that would start another call
        are ignored meanwhile."""

    def run_core(self, call: Callable[[], T], then: Callable[[T], object] | None = None) -> None:
        """Run ``call`` in a thread, then ``then(value)`` (by default the dialog closes with the
        value); a refusal is shown in the dialog, which stays as typed."""
        if self.pending is not None:
            return
        self.pending = then if then is not None else self.dismiss
        self.show_refusal(None)
        self.run_worker(
            lambda: self._call(call),
            thread=True,
            exclusive=True,
            exit_on_error=False,
            group="dialog-core",
            description=f"{type(self).__name__}: core call",
        )

    def _call(self, call: Callable[[], Any]) -> None:
        try:
            value = call()
        except Exception as error:  # shown in the dialog, never fatal
            self.post_message(self.Answered(error=error))
        else:
            self.post_message(self.Answered(value=value))

    def on_core_dialog_answered(self, message: CoreDialog.Answered) -> None:
        then, self.pending = self.pending, None
        if message.error is not None:
            self.show_refusal(message.error)
        elif then is not None:
            then(message.value)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def in_form_words(self, text: str) -> str:
        for name, label in self.FIELDS.items():
            text = text.replace(f"`{name}`", f"“{label}”")
        return text.replace("bank_route", "routing")

    def show_refusal(self, error: BaseException | None) -> None:
        box = self.query(".dialog-error").results(Static)
        for widget in box:
            if error is None:
                widget.update("")
                widget.remove_class("-shown")
            else:
                text = error.message if isinstance(error, BankError) else f"{type(error).__name__}: {error}"
                widget.update(Text(self.in_form_words(text)))
                widget.add_class("-shown")
