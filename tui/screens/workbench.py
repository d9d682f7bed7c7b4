"""The workbench screen: the bank header, one tab per pane, the footer; it coordinates the panes.

Panes post what the user chose (a document to open, a graph to walk); this screen decides what
happens and sets attributes on the panes concerned. It also hands every pane the bank generation
when the disk changed, and refreshes the header's counts in a worker.

The first frame holds the header (with the first index's progress), the tabs and the footer; the
pane in front is made right after it, and keys typed meanwhile are kept and given to it once it has
the focus. A pane's module is imported, and the pane made and mounted in its tab, the first time it
is shown or asked for (``pane``). What the screen hands a pane before then (the open document for
the graph, agents' calls for Activity) waits on the screen and is given to the pane when it is made.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from memorybank.core.bank import Bank
from memorybank.tui.history import History, Visit
from memorybank.tui.messages import BankWritten, DocumentChosen
from memorybank.tui.panes.base import Pane, is_text_box
from memorybank.tui.screens.pane_specs import ALT_DIGITS_AS_READ, PANES, SPECS, tab_label
from memorybank.tui.settings import Settings
from memorybank.tui.typed_ahead import release
from memorybank.tui.widgets.bank_header import DEGRADED_HELP, BankHeader, BankSummary, summarise
from memorybank.tui.widgets.pane_tabs import PaneTabs
from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, TabbedContent, TabPane

if TYPE_CHECKING:
    from memorybank.mcp_server.server import ToolCall


PROGRESS_SECONDS = 0.25
"""How often the header's count of documents read moves while the first index runs: often enough
to be seen moving, seldom enough that drawing it takes nothing from the index."""

KEPT_CALLS = 500
"""Agents' calls kept for an Activity pane not made yet (the pane keeps as many)."""
STARTING = {spec.id for spec in PANES} - {"document", "graph"}  # a run opens no document to show


class WorkbenchScreen(Screen[None]):
    """The owner's workbench over one bank."""

    BINDINGS = [
        # Priority: a digit switches as soon as it arrives, before a key typed after it reaches the
        # pane it leaves; in a text box it is a digit (``check_action``).
        *(Binding(spec.key, f"pane_key('{spec.id}')", spec.title, show=False, priority=True) for spec in PANES),
        *(
            Binding(f"alt+{spec.key}", f"show_pane('{spec.id}')", spec.title, show=False, priority=True)
            for spec in PANES
        ),
        *(
            Binding(key, f"show_pane('{spec.id}')", spec.title, show=False, priority=True)
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
        """Remembered between runs (the app loads them): the last pane shown, unless it needs a document."""
        self.first_pane = self.settings.pane if self.settings.pane in STARTING else PANES[0].id
        self.serving = serving
        """The URL of the MCP server the app hosts, if any."""
        self._activity: deque[ToolCall] = deque(activity, maxlen=KEPT_CALLS)
        """Tool calls agents made, oldest first, for the Activity pane when it is made."""
        self._graph_root: str | None = None
        """The document the graph walks from, for the Graph pane when it is made."""
        self._panes: dict[str, Pane] = {}
        """The panes made so far, by id."""
        self._left_focus: dict[str, Widget] = {}  # per pane, the widget focused when it was left
        self._tabs_mounted = False
        self._first_shown = False
        """The first pane was made and focused; the keys typed before it (held by the app) follow."""
        self._warmed = False
        self._progress: Timer | None = None
        self.history = History()
        """The documents opened, for back and forward."""

    def compose(self) -> ComposeResult:
        yield BankHeader(id="bank-header")
        yield PaneTabs({spec.id: tab_label(spec) for spec in PANES}, initial=self.first_pane, id="panes")
        yield Footer()

    def on_mount(self) -> None:
        self._tabs_mounted = True
        self.query_one(BankHeader).serving = self.serving or ""
        self.query_one("ContentTabs").can_focus = False  # no Tab stop that takes none of a pane's keys
        self.set_focus(None)  # nor the first keys typed: they wait for the pane in front
        if self.bank.last_refresh is None:  # the app is indexing it: show how far it got
            self._progress = self.set_interval(PROGRESS_SECONDS, self._show_progress, name="index progress")
            self._show_progress()
        else:
            self.generation = self.bank.generation

    def on_screen_resume(self) -> None:
        if not self._first_shown and not self._panes:  # first shown: the pane after the first frame
            self.call_after_refresh(self._show_first_pane)

    async def _show_first_pane(self) -> None:
        """Mount the pane in front after the first frame and focus it; the keys typed so far follow."""
        tabs = self.query_one("#panes", TabbedContent)
        if tabs.active not in self._panes:
            await self.query_one(f"#{tabs.active}", TabPane).mount(self._make(tabs.active))
        self._activate(tabs.active)
        pane = self.pane(tabs.active)
        if not self._holds_focus(pane):
            pane.focus_default()
        self._first_shown = True
        self.call_later(self._hand_over_early_keys)

    def _hand_over_early_keys(self) -> None:
        release(self.app)  # the keys the app held since this screen was pushed, in order

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
        """The pane with this id: made, and mounted in its tab, the first time it is asked for.
        A pane just made composes in the next frames; ``Pane.when_mounted`` waits for that."""
        pane = self._panes.get(pane_id)
        if pane is None:
            pane = self._make(pane_id)
            if self._tabs_mounted:
                self.query_one(f"#{pane_id}", TabPane).mount(pane)
        return pane

    def _make(self, pane_id: str) -> Pane:
        pane = self._panes[pane_id] = SPECS[pane_id].pane(self.bank, id=f"{pane_id}-pane")
        self._hand_over(pane_id, pane)
        return pane

    def _hand_over(self, pane_id: str, pane: Any) -> None:
        """What the screen kept for a pane not made yet."""
        if self.generation >= 0:
            pane.generation = self.generation
        if pane_id == "activity":
            pane.serve(self.serving)
            for call in self._activity:
                pane.record(call)
        elif pane_id == "graph" and self._graph_root is not None:
            pane.set_root(self._graph_root)
        elif pane_id == "document" and self.settings.outline_width is not None:
            width = self.settings.outline_width
            pane.when_mounted(lambda: setattr(pane, "outline_width", width))

    @property
    def active_pane(self) -> Pane:
        return self.pane(self.query_one("#panes", TabbedContent).active)

    def show_pane(self, pane_id: str, *, focus: bool = True) -> None:
        """Bring a pane to the front (keys, the palette and opened documents come through here).

        The focus goes back where it was when the pane was left (the question box stays the question
        box, so letters typed next never reach the results' one-key actions); the pane's main control
        the first time. Asking for the pane already in front leaves the focus alone."""
        tabs = self.query_one("#panes", TabbedContent)
        if tabs.active != pane_id:
            left = self.focused
            if left is not None and tabs.active in self._panes and self._panes[tabs.active] in left.ancestors:
                self._left_focus[tabs.active] = left
            tabs.active = pane_id
            self._activate(pane_id)
        elif focus and self._holds_focus(self.pane(pane_id)):
            return
        if focus:
            pane = self.pane(pane_id)
            if not self._holds_focus(pane):  # a key already queued must not reach the pane left
                self.set_focus(None)
            pane.when_mounted(partial(self._focus_in, pane_id, pane))
            self.call_after_refresh(self._keep_focus_in, pane)

    def _holds_focus(self, pane: Pane) -> bool:
        return self.focused is not None and pane in self.focused.ancestors

    def _focus_in(self, pane_id: str, pane: Pane) -> None:
        """Where the focus was when the pane was left, if that widget can still take it; else the
        pane's main control."""
        left = self._left_focus.pop(pane_id, None)
        if left is not None and left.is_mounted and left.can_focus and not left.disabled and pane in left.ancestors:
            pane.focus_now(left)
        else:
            pane.focus_default()

    def _keep_focus_in(self, pane: Pane) -> None:
        """Focus the pane again once it is laid out, unless the user already moved into it (or on)."""
        if pane.is_mounted and pane.active and not self._holds_focus(pane):
            pane.focus_default()

    def action_show_pane(self, pane_id: str) -> None:
        self.show_pane(pane_id)

    def action_pane_key(self, pane_id: str) -> None:
        self.show_pane(pane_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A pane's digit is refused in a text box, so it goes on as a digit."""
        typing = is_text_box(self.focused) and not getattr(self.focused, "read_only", False)
        return not (action == "pane_key" and typing)

    async def on_key(self, event: events.Key) -> None:
        """A key that reached no widget (the focus was on its way into the pane just shown): the
        pane in front answers it, as it would have with the focus. (Before the first pane has the
        focus, the app holds the keys: ``tui.typed_ahead``.)"""
        if self.focused is not None or not self._first_shown:
            return
        pane = self.active_pane
        for binding in pane._bindings.key_to_bindings.get(event.key, ()):
            if await self.app.run_action(binding.action, pane):
                event.stop()
                return

    @on(TabbedContent.TabActivated, "#panes")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if self._first_shown:  # the first tab activated, as the tabs mount: shown after the first frame
            self._activate(event.pane.id or "")

    def _activate(self, pane_id: str) -> None:
        shown = self.pane(pane_id)
        for pane in self._panes.values():
            pane.active = pane is shown
        self.settings.update(pane=pane_id)

    def watch_generation(self, generation: int) -> None:
        for pane in self._panes.values():
            pane.generation = generation
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
        self._warm_router()  # after the counts, so the two do not share the CPU
        if message.summary is not None:
            if header.summary is None and not message.summary.contract:
                self.notify(DEGRADED_HELP, title="Degraded: no contract", severity="warning", timeout=15)
            header.summary = message.summary
        else:
            self.notify(str(getattr(message.error, "message", message.error)), title="Header", severity="error")

    def _warm_router(self) -> None:
        """Build the router's indexes off the event loop once, so the first question typed in Route
        is answered as fast as the others, whichever pane is shown."""
        if not self._warmed:
            self._warmed = True
            self.run_worker(self._route_once, thread=True, exit_on_error=False, group="warm")

    def _route_once(self) -> None:
        from memorybank.core.warm import warm

        warm(self.bank)
        # The documents and the router's indexes now live as long as the app. Left in the collected
        # heap, each full collection walked all of them, 80-170 ms on 5,000 documents, inside
        # whichever keystroke triggered it; frozen, a collection walks only what came after.
        gc.freeze()

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
        self._activity.append(call)
        activity: Any = self._panes.get("activity")
        if activity is not None:
            activity.record(call)

    def on_document_pane_outline_resized(self, message: Any) -> None:
        self.settings.update(outline_width=message.width)

    def on_document_pane_graph_requested(self, message: Any) -> None:
        self._set_graph_root(message.path)
        self.show_pane("graph")

    def _set_graph_root(self, path: str) -> None:
        self._graph_root = path
        graph: Any = self._panes.get("graph")
        if graph is not None:
            graph.set_root(path)

    def open_document(
        self, path: str, *, section: str | None = None, line: int | None = None, remember: bool = True
    ) -> None:
        """Show a document in the Document pane; the graph follows it. Each opening is a step that
        back and forward (alt+← / alt+→) walk, as in a browser."""
        self._note_place()
        if remember:
            self.history.visit(Visit(path, section, line))
        document: Any = self.pane("document")
        document.when_mounted(partial(document.open, path, section=section, line=line))
        self._set_graph_root(path)
        self.show_pane("document")

    def _note_place(self) -> None:
        document: Any = self._panes.get("document")
        place = document.place() if document is not None and document.is_mounted else None
        if place is not None:
            self.history.stand(Visit(*place))

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
                f"{spec.title}: go to the pane ({spec.key})", pane.SUMMARY, partial(self.show_pane, spec.id)
            )
        for spec in PANES:
            made = self._panes.get(spec.id)
            for command in made.palette_commands() if made is not None else spec.pane.offered():
                yield SystemCommand(command.title, command.help, partial(self.run_pane_action, spec.id, command.action))

    def run_pane_action(self, pane_id: str, action: str) -> None:
        self.show_pane(pane_id)
        pane = self.pane(pane_id)
        pane.when_mounted(lambda: self.call_after_refresh(self.app.run_action, action, pane))
