"""What every pane of the workbench shares: the bank, reloading when the disk changed, and one
way to run a core call off the event loop and get its answer (or its refusal) back.

Each call names what to do with its own answer (``run_core(call, then=...)``), so answers come back
typed and no pane dispatches on request strings. A pane never reaches into another pane. The workbench screen sets ``generation`` when the bank
changed on disk and ``active`` when the pane's tab is shown; the pane reloads itself when both
say so, so a pane nobody looks at costs nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import count as count_up
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from memorybank.tui.widgets.steady_input import IN_ORDER
from textual import events
from textual.binding import Binding
from textual.containers import Vertical
from textual.keys import format_key
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input

if TYPE_CHECKING:  # the table module is imported by the panes that show one, not at start-up
    from textual.widgets import DataTable

T = TypeVar("T")


def is_text_box(widget: Widget | None) -> bool:
    """Whether keys typed into ``widget`` are text (an Input, a TextArea)."""
    if isinstance(widget, Input):
        return True
    # A TextArea exists only once its module is imported (by the panes that edit): the first frame
    # does without it.
    text_area = sys.modules.get("textual.widgets._text_area")
    return text_area is not None and isinstance(widget, text_area.TextArea)


@dataclass(frozen=True)
class Pending(Generic[T]):
    """A core call in flight: what to do with its answer, or with its failure."""

    ticket: int
    then: Callable[[T], object]
    failed: Callable[[BaseException], object] | None
    busy: Widget | None


@dataclass(frozen=True)
class PaletteCommand:
    """An action of a pane, offered in the command palette."""

    title: str
    help: str
    action: str
    """The pane's action to run (``explain`` runs ``action_explain``)."""


class Pane(Vertical):
    """A pane of the workbench over one bank."""

    TITLE: ClassVar[str] = ""
    """The tab label."""
    SUMMARY: ClassVar[str] = ""
    """One line for the command palette: what the pane answers."""
    COMMANDS_OFFERED: ClassVar[tuple[PaletteCommand, ...]] = ()
    """The pane's actions, as the command palette lists them."""
    EXTRA_KEYS: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Keys the pane's widgets answer (Enter on a row, ↑↓), listed first in its keys dialog."""

    generation: reactive[int] = reactive(-1, init=False)
    """The bank generation the workbench last saw; set by the screen."""
    active: reactive[bool] = reactive(False, init=False)
    """Whether the pane's tab is the one shown; set by the screen."""

    class Answered(Message, bubble=False):
        """A core call made by ``run_core`` finished; the pane hands its value to that call's ``then``."""

        def __init__(self, channel: str, ticket: int, value: Any = None, error: BaseException | None = None) -> None:
            super().__init__()
            self.channel = channel
            self.ticket = ticket
            """Which call this answers: only the latest call on a channel is heard."""
            self.value = value
            self.error = error

    def __init__(self, bank: Bank, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bank = bank
        self._shown_generation = -2
        self._calls: dict[str, Pending[Any]] = {}
        """The latest call on each channel, waiting for its answer."""
        self._tickets = count_up()
        self._failed_on: str | None = None
        """The channel whose last answer was an error toast: its next answer clears it."""
        self._waiting: list[Callable[[], object]] = []
        """What ``when_mounted`` was asked to do once the pane is mounted."""
        self.composed = False
        """Whether the pane's widgets exist and have been laid out on screen once."""

    def on_mount(self) -> None:
        # Textual sends no Resize to a widget the compositor first placed while filling in its map
        # for a region asked of it (the tab a pane was just mounted in refreshes itself), before the
        # layout that shows the pane: that layout then finds nothing new. Each layout is a second look.
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def on_resize(self) -> None:
        self._laid_out()

    def _laid_out(self, _screen: object = None) -> None:
        # The first size a pane gets is when it is first shown: before that a tree asked to place
        # its cursor scrolls for a height of zero, so what was waiting runs now.
        if not self.composed and self.size.height > 0:
            self.composed = True
            self.screen.screen_layout_refresh_signal.unsubscribe(self)
            waiting, self._waiting = self._waiting, []
            for call in waiting:
                call()
            self._maybe_reload()

    def when_mounted(self, call: Callable[[], object]) -> None:
        """Run ``call`` now if the pane's widgets exist and are laid out, else once they are (when the
        pane is first shown): the screen makes a pane the first time it is needed, and its widgets
        are composed after that."""
        if self.composed:
            call()
        else:
            self._waiting.append(call)

    # -- reloading -------------------------------------------------------------------------

    def watch_generation(self) -> None:
        self._maybe_reload()

    def watch_active(self, active: bool) -> None:
        if active:
            self._maybe_reload()

    def _maybe_reload(self) -> None:
        # Before the first index (generation -1) there is nothing to ask the core about: a reload
        # then would answer for an empty bank, or read the whole bank on the event loop.
        if self.active and self.generation >= 0 and self.generation != self._shown_generation and self.composed:
            self._shown_generation = self.generation
            self.reload()

    def reload(self) -> None:
        """Ask the core again for what the pane shows (the bank changed, or the pane is shown)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A pane's priority bindings are the keys that move the focus into its text box (``/`` to a
        path filter): they run as the key is read, not once it has bubbled up from the list it was
        given to, so the keys read with it (``/adr`` typed fast) reach the box rather than that list.
        In a text box such a key is a character, and its action stands aside."""
        if not is_text_box(self.screen.focused):
            return True
        return not any(isinstance(b, Binding) and b.priority and b.action == action for b in self.BINDINGS)

    def opened_by_second_enter(self, results: DataTable, shown: bool) -> bool:
        """Enter Enter read at once: the second reaches the text box before the first has moved the
        focus to ``results``, and opens the highlighted row as Enter there would. True when it did."""
        if self.screen.focused is results and shown:
            results.action_select_cursor()
            return True
        return False

    def focus_default(self) -> None:
        """Give the focus to the pane's main control (its first focusable widget by default)."""
        for widget in self.query("*").results(Widget):
            if widget.focusable:
                self.focus_now(widget)
                return

    def focus_now(self, widget: Widget) -> None:
        """Give ``widget`` the focus in this frame, if this pane is the one in front. ``focus()``
        waits its turn behind the keys already queued: a burst of keys would reach the pane just
        left, and a pane left meanwhile would take the focus (and its tab) back."""
        if self.active and widget.is_mounted:
            widget.screen.set_focus(widget)

    # -- core calls off the event loop -----------------------------------------------------

    def forget(self, channel: str = "read") -> None:
        """Drop whatever is pending on a channel (the pane was cleared)."""
        pending = self._calls.pop(channel, None)
        if pending is not None and pending.busy is not None:
            pending.busy.loading = False

    def run_core(
        self,
        call: Callable[[], T],
        then: Callable[[T], object],
        *,
        failed: Callable[[BaseException], object] | None = None,
        busy: Widget | None = None,
        channel: str = "read",
    ) -> None:
        """Run ``call`` (one core call) in a thread, then ``then(value)`` back on the event loop.

        Each answer goes to the callback given with its own call, typed by it, so a pane never
        sorts answers by a request string. Each channel hears only its latest call: an answer to
        an older one is dropped, so typing fast never shows an older answer over a newer one.
        Writes go on their own channel so a reload never swallows their outcome. A failure is
        notified (a core refusal verbatim), then ``failed(error)`` clears what the call would have
        shown. ``busy`` shows a loading indicator meanwhile.
        """
        self.forget(channel)
        ticket = next(self._tickets)
        self._calls[channel] = Pending(ticket, then, failed, busy)
        if busy is not None:
            busy.loading = True
        self.run_worker(
            partial(self._call_core, channel, ticket, call),
            thread=True,
            exclusive=True,
            exit_on_error=False,
            group=f"core-{channel}",
            description=f"{self.TITLE}: {channel}",
        )

    def _call_core(self, channel: str, ticket: int, call: Callable[[], Any]) -> None:
        """The worker's body: one core call, and one message back with its value or its error."""
        try:
            value = call()
        except Exception as error:
            self.post_message(self.Answered(channel, ticket, error=error))
        else:
            self.post_message(self.Answered(channel, ticket, value=value))

    def on_pane_answered(self, message: Pane.Answered) -> None:
        pending = self._calls.get(message.channel)
        if pending is None or pending.ticket != message.ticket:
            return  # a newer call on this channel replaced it
        self.forget(message.channel)
        if message.error is not None:
            self.show_error(message.error)
            self._failed_on = message.channel
            if pending.failed is not None:
                pending.failed(message.error)
        else:
            if self._failed_on == message.channel:  # the error is answered: its toast no longer stands
                self.app.clear_notifications()
                self._failed_on = None
            pending.then(message.value)

    def show_error(self, error: BaseException) -> None:
        """A core error's message verbatim; anything else as one line, never a traceback."""
        if isinstance(error, BankError):
            self.notify(error.message, title=self.TITLE, severity="error", timeout=8)
        else:
            self.notify(
                f"{type(error).__name__}: {error}", title=f"{self.TITLE}: unexpected error", severity="error", timeout=8
            )

    # -- the command palette ---------------------------------------------------------------

    @classmethod
    def offered(cls) -> Iterator[PaletteCommand]:
        """``COMMANDS_OFFERED``, each title ending in the key that runs it where one does: the palette
        teaches the keys (``Graph: walk up (u)``)."""
        keys: dict[str, str] = {}
        for klass in cls.__mro__:  # the pane's own binding before one it inherits
            for binding in klass.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding):
                    keys.setdefault(binding.action, format_key(binding.key.split(",")[0]))
        for command in cls.COMMANDS_OFFERED:
            key = keys.get(command.action)
            yield replace(command, title=f"{command.title} ({key})") if key else command

    def palette_commands(self) -> Iterator[PaletteCommand]:
        yield from self.offered()


def count(n: int, noun: str) -> str:
    """``1 document``, ``2 documents``: counts as a person writes them."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


LINE_KEYS = ("ctrl+a", "ctrl+e")
"""The box's keys to its line's start and end: sent on like its deleting keys (a list has no use for
them), so ``ctrl+a ctrl+k`` clears the question from its results as it does in the box."""


def type_into(box: Input, others: tuple[Widget, ...], event: events.Key) -> None:
    """Send to ``box`` what was typed while one of ``others`` (its list, its filter) had the focus and
    no key stands for: a character goes on the text, the box's deleting keys (Backspace, ctrl+w,
    ctrl+u...) and line keys (ctrl+a, ctrl+e) edit it. Whoever comes back to a pane and types is
    typing a question, not one-key actions. A key of the same burst, handed to the list before the first character moved the focus
    into the box, is text too (the box takes every character it is given itself, so a character
    that reaches the pane while the box has the focus was handed elsewhere): left to the app, ``x``
    of "tax" opened the score's explanation, and ``ctrl+u`` cleared the letters typed after it."""
    typing = box.has_focus
    if not typing and (not any(other.has_focus for other in others) or event.key in box.screen.active_bindings):
        return
    deleting = IN_ORDER.get(event.key, "")
    if deleting.startswith("delete") or event.key in LINE_KEYS:
        box.screen.set_focus(box)
        getattr(box, f"action_{deleting}")()
    elif event.is_printable and event.character:
        box.screen.set_focus(box)
        box.insert_text_at_cursor(event.character)
    else:
        return
    event.stop()
    event.prevent_default()
