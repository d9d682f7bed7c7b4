"""The workbench's panes as the screen knows them before any is made: id, key, title, module.

A pane's module is imported the first time the pane is shown or asked for, so the first frame
imports none but the one it shows.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memorybank.tui.panes.base import Pane


@dataclass(frozen=True)
class PaneSpec:
    """A pane of the workbench: its tab id, the key that shows it, its title (the class's ``TITLE``)
    and where its class lives, imported the first time the pane is needed."""

    id: str
    key: str
    title: str
    where: str
    """``module:Class``."""

    @property
    def pane(self) -> type[Pane]:
        module, name = self.where.split(":")
        return getattr(importlib.import_module(module), name)


PANES: tuple[PaneSpec, ...] = (
    PaneSpec("route", "1", "Route", "memorybank.tui.panes.route:RoutePane"),
    PaneSpec("document", "2", "Document", "memorybank.tui.panes.document:DocumentPane"),
    PaneSpec("graph", "3", "Graph", "memorybank.tui.panes.graph:GraphPane"),
    PaneSpec("findings", "4", "Findings", "memorybank.tui.panes.findings:FindingsPane"),
    PaneSpec("drift", "5", "Drift", "memorybank.tui.panes.drift:DriftPane"),
    PaneSpec("search", "6", "Search", "memorybank.tui.panes.search:SearchPane"),
    PaneSpec("changes", "7", "Changes", "memorybank.tui.panes.changes:ChangesPane"),
    PaneSpec("inbox", "8", "Inbox", "memorybank.tui.panes.inbox:InboxPane"),
    PaneSpec("activity", "9", "Activity", "memorybank.tui.panes.activity:ActivityPane"),
)
"""Every pane, in tab order. A new pane is one more entry here and one module."""
SPECS = {spec.id: spec for spec in PANES}


ALT_DIGITS_AS_READ = (
    "inverted_exclamation_mark",
    "trade_mark_sign",
    "pound_sign",
    "cent_sign",
    "infinity",
    "section_sign",
    "pilcrow_sign",
    "bullet",
    "ª",
)
"""alt+1 to alt+9 as Textual reads them from a terminal that sends ESC and the digit (tmux, most
Linux terminals): it takes them for the macOS option characters ¡ ™ £ ¢ ∞ § ¶ • ª. Bound with
priority, so they switch panes from inside a text box too (where they would otherwise be typed)."""


def tab_label(spec: PaneSpec) -> str:
    """The key that shows a pane, highlighted and set against its title, so nine tabs fit 80 columns."""
    return f"[b $text-accent]{spec.key}[/]{spec.title}"
