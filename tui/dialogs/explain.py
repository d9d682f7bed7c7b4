"""The score breakdown of one route result: which fields matched and which multipliers applied."""

from __future__ import annotations

from memorybank.core.drafts import DRAFT_WEIGHT
from memorybank.core.route import RouteHit
from memorybank.core.series import PACKAGE_LIFT, SERIES_LIFT
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static


def breakdown_table(hit: RouteHit) -> Table:
    """The parts of a hit's score as the core reported them, in the order they combine."""
    b = hit.breakdown
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False, expand=True)
    table.add_column("part")
    table.add_column("value", justify="right")
    table.add_column("what matched", overflow="fold")
    table.add_row("canonical_for", f"{b.canonical:.2f}", b.canonical_key or "")
    table.add_row("purpose", f"{b.purpose:.2f}", ", ".join(b.purpose_words))
    table.add_row("title", f"{b.title:.2f}", ", ".join(b.title_words))
    table.add_row("best heading", f"{b.heading:.2f}", b.heading_section or "")
    table.add_row(Text("header sum", style="bold"), Text(f"{b.raw:.2f}", style="bold"), "")
    table.add_row("× layer", f"{b.layer_weight:.2f}", hit.layer)
    table.add_row("× status", f"{b.status_weight:.2f}", hit.status or "(none)")
    if b.closed_work != 1:
        table.add_row("× closed work", f"{b.closed_work:.2f}", "delivery done or cancelled")
    if b.family:
        table.add_row("+ family headers", f"{b.family:.2f}", "its package folder's best header match")
    table.add_row("+ body", f"{b.body:.2f}", ", ".join(b.body_words))
    # Points with no section named came from the text above the first ## heading.
    opening = "the opening, above the first ## heading" if b.section else ""
    table.add_row("+ best section", f"{b.section:.2f}", hit.section or opening)
    if b.linked:
        table.add_row("+ links to it", f"{b.linked:.2f}", ", ".join(b.linked_words))
    if b.together != 1:
        table.add_row("× words together", f"{b.together:.2f}", "word pairs of the question side by side")
    if b.intent != 1:
        table.add_row("× intent", f"{b.intent:.2f}", "the kind of answer asked for")
    if b.place:
        asked = f"the last, number {b.place}," if b.place_last else f"number {b.place}"
        source, lift = ("package's best", PACKAGE_LIFT) if b.place_package else ("series' best", SERIES_LIFT)
        table.add_row(f"→ {source}", f"× {lift:.2f}", f"the question asks for {asked} of its series")
    if b.draft_of:
        table.add_row("× draft", f"{DRAFT_WEIGHT:.2f}", f"a draft of {b.draft_of}")
    table.add_row(Text("score", style="bold"), Text(f"{hit.score:.2f}", style="bold"), "")
    if b.named:  # it leads whatever its score: a higher score may follow it
        table.add_row("→ first", "", "the question names it, so it leads whatever its score")
    return table


class ExplainDialog(ModalScreen[None]):
    """Why a document ranked where it did for a question."""

    OVERLAY = True
    """Closed, not covered, when a palette opens: it holds nothing typed."""

    DEFAULT_CSS = """
    ExplainDialog {
        align: center middle;
    }
    ExplainDialog > VerticalScroll {
        width: 76;
        max-width: 98%;
        height: auto;
        max-height: 95%;
        border: thick $primary;
        background: $panel;
        padding: 0 1;
    }
    ExplainDialog .dialog-title {
        text-style: bold;
    }
    ExplainDialog .explain-why {
        color: $text-muted;
        margin-bottom: 1;
    }
    ExplainDialog Button {
        margin-top: 1;
    }
    """

    BINDINGS = [Binding("escape,enter,x,q", "close", "Close")]

    def __init__(self, question: str, hit: RouteHit) -> None:
        super().__init__()
        self.question = question
        self.hit = hit

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(f"{self.hit.path}  ·  “{self.question}”", classes="dialog-title", markup=False)
            yield Static(self.hit.why or "-", classes="explain-why", markup=False)
            yield Static(breakdown_table(self.hit))
            yield Button("Close", id="close", variant="primary")

    def on_button_pressed(self) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()
