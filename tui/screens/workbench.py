"""The workbench screen: the bank header, one tab per pane, the footer; it coordinates the panes.

Panes post what the user chose (a document to open, a graph to walk); this screen decides what
happens and sets attributes on the panes concerned. It also hands every pane the bank generation
when the disk changed, and refreshes the header's counts in a worker.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from memorybank.core.bank import Bank
from memorybank.tui.history import History, Visit
from memorybank.tui.messages import BankWritten, DocumentChosen
from memorybank.tui.panes.activity import ActivityPane
from memorybank.tui.panes.base import Pane
from memorybank.tui.panes.changes import ChangesPane
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.panes.drift import DriftPane
from memorybank.tui.panes.findings import FindingsPane
from memorybank.tui.panes.graph import GraphPane
from memorybank.tui.panes.inbox import InboxPane
from memorybank.tui.panes.route import RoutePane
from memorybank.tui.panes.search import SearchPane
from memorybank.tui.settings import Settings
from memorybank.tui.widgets.bank_header import BankHeader, BankSummary, summarise
from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, TabbedContent, TabPane

if TYPE_CHECKING:
    from memorybank.mcp_server.server import ToolCall


@dataclass(frozen=True)
class PaneSpec:
    """A pane of the workbench: its tab id, the key that shows it, its class."""

    id: str
    key: str
    pane: type[Pane]


PANES: tuple[PaneSpec, ...] = (
    PaneSpec("route", "1", RoutePane),
    PaneSpec("document", "2", DocumentPane),
    PaneSpec("graph", "3", GraphPane),
    PaneSpec("findings", "4", FindingsPane),
    PaneSpec("drift", "5", DriftPane),
    PaneSpec("search", "6", SearchPane),
    PaneSpec("changes", "7", ChangesPane),
    PaneSpec("inbox", "8", InboxPane),
    PaneSpec("activity", "9", ActivityPane),
)
"""Every pane, in tab order. A new pane is one more entry here and one module."""


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


DEGRADED_HELP = (
    "This bank declares no contract (no dna/): reading, routing, search, the graph and the structural "
    "checks work, but the rules a contract sets (derived_from, cycles, value sets) are not applied. "
    "Add a dna/governance.md (a bank made by `memorybank init` starts with one) to apply them."
)
"""What "degraded" in the header means, said once when such a bank opens."""


def tab_label(spec: PaneSpec) -> str:
    """The key that shows a pane, highlighted and set against its title, so nine tabs fit 80 columns."""
    return f"[b $text-accent]{spec.key}[/]{spec.pane.TITLE}"


class WorkbenchScreen(Screen[None]):
    """The owner's workbench over one bank."""

    BINDINGS = [
        *(Binding(spec.key, f"show_pane('{spec.id}')", spec.pane.TITLE, show=False) for spec in PANES),
        *(
            Binding(f"alt+{spec.key}", f"show_pane('{spec.id}')", spec.pane.TITLE, show=False, priority=True)
            for spec in PANES
        ),
        *(
            Binding(key, f"show_pane('{spec.id}')", spec.pane.TITLE, show=False, priority=True)
            for key, spec in zip(ALT_DIGITS_AS_READ, PANES)
        ),
        Binding("ctrl+o", "jump", "Jump"),
        Binding("alt+left", "back", "Back", show=False),
        Binding("alt+right", "forward", "Forward", show=False),
    ]

    generation: reactive[int] = reactive(-1, init=False)
    """The bank generation last seen; the app sets it when the disk changed."""

    class SummaryReady(Message):
        """The header's counts were gathered."""

        def __init__(self, summary: BankSummary | None, error: BaseException | None = None) -> None:
            super().__init__()
            self.summary = summary
            self.error = error

    def __init__(
        self,
        bank: Bank,
        *,
        serving: str | None = None,
        activity: Iterable[ToolCall] = (),
        settings: Settings | None = None,
    ) -> None:
        super().__init__()
        self.bank = bank
        self.settings = settings if settings is not None else Settings()
        """Remembered between runs (the app loads them); the last pane shown is one."""
        self.first_pane = self.settings.pane if self.settings.pane in {s.id for s in PANES} else PANES[0].id
        self.serving = serving
        """The URL of the MCP server the app hosts, if any."""
        self._activity = list(activity)
        """Tool calls made before this screen existed, oldest first."""
        self._progress: Timer | None = None
        self.history = History()
        """The documents opened, for back and forward."""

    def compose(self) -> ComposeResult:
        yield BankHeader(id="bank-header")
        with TabbedContent(id="panes", initial=self.first_pane):
            for spec in PANES:
                with TabPane(tab_label(spec), id=spec.id):
                    yield spec.pane(self.bank, id=f"{spec.id}-pane")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(BankHeader).serving = self.serving or ""
        activity = self.query_one(ActivityPane)
        activity.serve(self.serving)
        for call in self._activity:
            activity.record(call)
        self._activate(self.first_pane)
        self.pane(self.first_pane).focus_default()
        document = self.query_one(DocumentPane)
        document.outline_width = self.settings.outline_width
        if self.bank.last_refresh is None:  # the app is indexing it: show how far it got
            self._progress = self.set_interval(0.1, self._show_progress, name="index progress")
            self._show_progress()
        else:
            self.generation = self.bank.generation

    def _show_progress(self) -> None:
        # The index fills the bank's mapping as it reads; its size is the progress (no lock, no load).
        self.query_one(BankHeader).busy = f"indexing: {self.bank.documents_read:,} documents read"

    def indexed(self) -> None:
        """The app's worker finished reading the disk (the first index, or a re-check that found changes)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        self.generation = self.bank.generation

    # -- panes ------------------------------------------------------------------------------

    def pane(self, pane_id: str) -> Pane:
        return self.query_one(f"#{pane_id}-pane", Pane)

    @property
    def active_pane(self) -> Pane:
        return self.pane(self.query_one("#panes", TabbedContent).active)

    def show_pane(self, pane_id: str, *, focus: bool = True) -> None:
        """Bring a pane to the front (keys, the palette and opened documents come through here)."""
        tabs = self.query_one("#panes", TabbedContent)
        if tabs.active != pane_id:
            tabs.active = pane_id
            self._activate(pane_id)
        if focus:
            pane = self.pane(pane_id)
            pane.focus_default()
            self.call_after_refresh(self._keep_focus_in, pane)

    def _keep_focus_in(self, pane: Pane) -> None:
        """Focus the pane again once it is laid out, unless the user already moved into it."""
        if self.focused is None or pane not in self.focused.ancestors_with_self:
            pane.focus_default()

    def action_show_pane(self, pane_id: str) -> None:
        self.show_pane(pane_id)

    @on(TabbedContent.TabActivated, "#panes")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._activate(event.pane.id or "")

    def _activate(self, pane_id: str) -> None:
        for spec in PANES:
            self.pane(spec.id).active = spec.id == pane_id
        self.settings.update(pane=pane_id)

    def watch_generation(self, generation: int) -> None:
        for spec in PANES:
            self.pane(spec.id).generation = generation
        self.query_one(BankHeader).busy = "validating"
        self._summarise()

    @work(thread=True, exclusive=True, exit_on_error=False, group="summary")
    def _summarise(self) -> None:
        try:
            self.post_message(self.SummaryReady(summarise(self.bank)))
        except Exception as error:
            self.post_message(self.SummaryReady(None, error))

    def on_workbench_screen_summary_ready(self, message: SummaryReady) -> None:
        header = self.query_one(BankHeader)
        header.busy = ""
        self.query_one(RoutePane).warm()  # after the counts, so the two do not share the CPU
        if message.summary is not None:
            if header.summary is None and not message.summary.contract:
                self.notify(DEGRADED_HELP, title="Degraded: no contract", severity="warning", timeout=15)
            header.summary = message.summary
        else:
            self.notify(str(getattr(message.error, "message", message.error)), title="Header", severity="error")

    # -- what the panes ask for ---------------------------------------------------------------

    @on(DocumentChosen)
    def _document_chosen(self, message: DocumentChosen) -> None:
        message.stop()
        self.open_document(message.path, section=message.section, line=message.line)

    @on(BankWritten)
    def _bank_written(self, message: BankWritten) -> None:
        message.stop()
        self.generation = self.bank.generation

    def record_call(self, call: ToolCall) -> None:
        """An agent's tool call reached the hosted MCP server (the app hands it down)."""
        self.query_one(ActivityPane).record(call)

    @on(DocumentPane.OutlineResized)
    def _outline_resized(self, message: DocumentPane.OutlineResized) -> None:
        self.settings.update(outline_width=message.width)

    @on(DocumentPane.GraphRequested)
    def _graph_requested(self, message: DocumentPane.GraphRequested) -> None:
        self.query_one(GraphPane).set_root(message.path)
        self.show_pane("graph")

    def open_document(
        self, path: str, *, section: str | None = None, line: int | None = None, remember: bool = True
    ) -> None:
        """Show a document in the Document pane; the graph follows it. Each opening is a step that
        back and forward (alt+← / alt+→) walk, as in a browser."""
        if remember:
            self.history.visit(Visit(path, section, line))
        self.query_one(DocumentPane).open(path, section=section, line=line)
        self.query_one(GraphPane).set_root(path)
        self.show_pane("document")

    def action_back(self) -> None:
        self._go(self.history.back())

    def action_forward(self) -> None:
        self._go(self.history.forward())

    def _go(self, visit: Visit | None) -> None:
        if visit is None:
            self.notify("Nothing further that way.", title="History", timeout=2)
            return
        self.open_document(visit.path, section=visit.section, line=visit.line, remember=False)

    def action_jump(self) -> None:
        self.app.action_jump()  # type: ignore[attr-defined]

    # -- the command palette ------------------------------------------------------------------

    def palette_commands(self) -> Iterator[SystemCommand]:
        """Every pane and every pane's action, for the app's command palette."""
        for spec in PANES:
            pane = spec.pane
            yield SystemCommand(
                f"{pane.TITLE}: go to the pane ({spec.key})", pane.SUMMARY, partial(self.show_pane, spec.id)
            )
        for spec in PANES:
            for command in self.pane(spec.id).palette_commands():
                yield SystemCommand(command.title, command.help, partial(self.run_pane_action, spec.id, command.action))

    def run_pane_action(self, pane_id: str, action: str) -> None:
        self.show_pane(pane_id)
        self.call_after_refresh(self.app.run_action, action, self.pane(pane_id))
