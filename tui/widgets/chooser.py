"""A drop-down choice made of one widget: the filters of Route, Findings and Graph.

Textual's ``Select`` composes its current value, its arrows and its whole option list the moment it
is mounted; on the Route pane, the first pane shown, that made it close to a fifth of the work
before the workbench's first frame. ``Chooser`` draws the current choice itself and makes the list
only when it is opened: a small screen over the workbench, placed under the chosen value (or above
it at the foot of the screen), as wide as its longest label. A letter highlights the next option
starting with it; Enter or a click chooses; Esc, a click outside or a resize closes it unchanged.

It answers as ``Select`` does where the panes use it: ``value`` (set by code or by the user) and a
``Changed`` message carrying the chooser and its new value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.binding import Binding
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

ARROW = "▼"
ROWS = 12
"""Options listed at once; more scroll."""


class Chooser(Widget, can_focus=True):
    """One value among a few, shown as a one-line box with an arrow; Enter, space, ↓ or a click lists them."""

    DEFAULT_CSS = """
    Chooser {
        height: 3;
        width: 1fr;
        padding: 0 2;
        border: tall $border-blurred;
        background: $surface;
        color: $foreground;
        pointer: pointer;
    }
    Chooser:focus {
        border: tall $border;
        background-tint: $foreground 5%;
    }
    """

    BINDINGS = [Binding("enter,space,down", "open", "Choose", show=False)]

    value: reactive[Any] = reactive("", init=False)
    """The value chosen (one of the options' values)."""

    class Changed(Message):
        """The value changed, by the user or by code."""

        def __init__(self, chooser: Chooser, value: Any) -> None:
            super().__init__()
            self.chooser = chooser
            self.value = value

        @property
        def control(self) -> Chooser:
            return self.chooser

    def __init__(self, options: Sequence[tuple[str, Any]], value: Any, *, id: str | None = None) -> None:
        super().__init__(id=id)
        if not options:
            raise ValueError("a chooser needs at least one option")
        self.options = list(options)
        self.set_reactive(Chooser.value, value if any(v == value for _, v in options) else options[0][1])

    @property
    def label(self) -> str:
        return next((label for label, value in self.options if value == self.value), str(self.value))

    def render(self) -> Text:
        room = max(self.content_size.width - 2, 1)  # the arrow and the space before it
        label = Text(self.label, no_wrap=True)
        label.truncate(room, overflow="ellipsis", pad=True)  # in cells: a wide character counts two
        return Text.assemble(label, " ", (ARROW, "dim"))

    def validate_value(self, value: Any) -> Any:
        if not any(v == value for _, v in self.options):
            raise ValueError(f"{value!r} is not one of the chooser's values")
        return value

    def watch_value(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        def chosen(index: int | None) -> None:
            if index is not None:
                self.value = self.options[index][1]
            if self.is_mounted:
                self.focus()

        self.app.push_screen(ChooserMenu(self), chosen)


class ChooserMenu(ModalScreen[int | None]):
    """The chooser's options, listed under it; the index of the one chosen is the screen's result."""

    DEFAULT_CSS = """
    ChooserMenu {
        background: transparent;
        align: left top;
    }
    ChooserMenu > OptionList {
        height: auto;
        max-height: 14;
        border: tall $border;
        background: $surface;
        padding: 0;
    }
    ChooserMenu > OptionList > .option-list--option {
        padding: 0 1;
    }
    """

    BINDINGS = [Binding("escape", "dismiss_menu", "Close", show=False)]
    OVERLAY = True
    """Closed, not covered, when a palette opens (see ``MemoryBankApp``)."""

    def __init__(self, chooser: Chooser) -> None:
        super().__init__()
        self.chooser = chooser

    def compose(self):
        yield OptionList(*(Option(Text(label)) for label, _ in self.chooser.options))

    def on_mount(self) -> None:
        self._opened_at = self.app.size
        menu = self.query_one(OptionList)
        region = self.chooser.region
        count = len(self.chooser.options)
        # The longest label whole: border and padding, and a scroll bar's room when the list scrolls.
        widest = max(cell_len(label) for label, _ in self.chooser.options) + 4 + (2 if count > ROWS else 0)
        screen_width, screen_height = self.app.size
        width = min(max(region.width, widest), screen_width)
        rows = min(count, ROWS) + 2
        x = max(min(region.x, screen_width - width), 0)
        # Under the chosen value (over the chooser's bottom edge), or above it when the screen ends.
        below, above = region.bottom - 1, region.y + 1 - rows
        y = below if below + rows <= screen_height or above < 0 else above
        menu.styles.width = width
        menu.styles.offset = Offset(x, y)
        values = [value for _, value in self.chooser.options]
        menu.highlighted = values.index(self.chooser.value)
        menu.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # outside the list
            self.dismiss(None)

    def on_resize(self, event: events.Resize) -> None:
        if event.size != self._opened_at and self.app.screen is self:  # the chooser moved: the list closes
            self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        """A letter or digit highlights the next option whose label starts with it."""
        if not (event.is_printable and event.character and event.character.isalnum()):
            return
        menu = self.query_one(OptionList)
        labels = [label.casefold() for label, _ in self.chooser.options]
        start = (menu.highlighted or 0) + 1
        for step in range(len(labels)):
            index = (start + step) % len(labels)
            if labels[index].startswith(event.character.casefold()):
                menu.highlighted = index
                break
        event.stop()

    def action_dismiss_menu(self) -> None:
        self.dismiss(None)
