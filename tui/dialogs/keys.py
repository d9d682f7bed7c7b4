"""The keys of the pane on screen first, then the keys that work everywhere: ``?`` shows this instead
of Textual's list of every binding in the focus chain, and it fits 80 columns."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

EVERYWHERE: tuple[tuple[str, str], ...] = (
    ("1-9 · alt+1-9", "show a pane (1-9 once Esc has left a text box)"),
    ("ctrl+o", "jump to a document"),
    ("alt+← · alt+→", "back and forward through the documents opened"),
    ("ctrl+p", "every pane, action and document"),
    ("ctrl+t", "theme (remembered)"),
    ("ctrl+r", "re-check the disk now"),
    ("? · F1", "these keys; Esc closes"),
    ("ctrl+q", "quit"),
)
"""The workbench's own keys, described as the README's key table does."""


def pane_keys(bindings: Iterable[Binding], display) -> list[tuple[str, str]]:
    """A pane's bindings as (keys, what they do); keys bound to one action are shown together, and
    a key another binding of the same action already shows (``-`` under ``+/-``) is not repeated."""
    rows: dict[str, tuple[list[str], str]] = {}
    covered: dict[str, set[str]] = {}  # per action, the keys its rows show (``+/-`` shows + and -)
    for binding in bindings:
        if binding.action.startswith("leave_") or binding.action == "switch_focus" or not binding.description:
            continue  # Esc out of a box: the pane's hint says so
        action = binding.action.split("(")[0]
        shown = display(binding)
        if shown in covered.get(action, set()):
            continue
        keys, _ = rows.setdefault(action + binding.description, ([], binding.description))
        if shown not in keys:
            keys.append(shown)
            covered.setdefault(action, set()).update(shown.split("/"))
    return [(" · ".join(keys), description) for keys, description in rows.values()]


def table(rows: Iterable[tuple[str, str]]) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True, min_width=14)
    grid.add_column()
    for keys, description in rows:
        grid.add_row(keys, description)
    return grid


class KeysDialog(ModalScreen[None]):
    """One pane's keys, then the workbench's."""

    OVERLAY = True
    """Closed, not covered, when a palette opens: it holds nothing typed."""

    DEFAULT_CSS = """
    KeysDialog {
        align: center middle;
    }
    KeysDialog > VerticalScroll {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: round $primary;
        background: $panel;
        padding: 0 1;
    }
    KeysDialog .keys-title {
        text-style: bold;
        color: $text-accent;
        margin-top: 1;
    }
    """
    BINDINGS = [
        Binding("escape,question_mark,f1,q", "close", "Close"),
    ]

    def __init__(self, pane: str, keys: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.pane = pane
        self.keys = keys
        self.notes = notes

    def compose(self) -> ComposeResult:
        with VerticalScroll() as keys:
            # On the frame, so it stays in sight when a long list scrolls (the Document pane's at 80x24).
            keys.border_subtitle = "Esc closes · ↑ ↓ scroll"
            yield Static(f"{self.pane} pane", classes="keys-title")
            if self.keys:
                yield Static(table(self.keys))
            if self.notes:
                yield Static(Text(self.notes, style="italic"))
            yield Static("Everywhere", classes="keys-title")
            yield Static(table(EVERYWHERE))

    def action_close(self) -> None:
        self.dismiss(None)
