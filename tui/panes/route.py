"""The Route pane: ask a question, see which documents answer it as you type.

Each keystroke sends the question to ``core.route.route`` at once: on the event loop while the
router answers within ``INLINE_SECONDS``, else in a worker, where, while one question is being
routed, newer keystrokes wait and only the latest question is routed next. Either way a burst of
typing never routes a question per key. The highlighted result's purpose and ``why`` are shown under the table; ``x`` opens the
score breakdown, ``p`` pins the result as the question's expected answer in
``dna/route-checks.md`` (a gated write, previewed and confirmed first), Enter opens the document at
its best section.
"""

from __future__ import annotations

import time
from functools import partial
from typing import TYPE_CHECKING, Any

from memorybank.core.layer_names import LAYERS
from memorybank.tui.examples import example_title
from memorybank.tui.messages import BankWritten, DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, type_into
from memorybank.tui.widgets.chooser import Chooser
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from memorybank.tui.widgets.steady_input import SteadyInput
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Static

if TYPE_CHECKING:  # the router and the write path load with the first question or the first pin, not the first frame
    from memorybank.core.bank import Bank
    from memorybank.core.route import RouteHit, RouteResult
    from memorybank.core.write.checks import PinResult

LIMIT = 10
ALL_LAYERS = "all"
EMPTY = (
    "Type a question: results appear as you type. Enter or ↓ moves to them, Enter opens one.\n"
    "Esc goes from the question to the results and back; in the results, 1-9 switch panes and ? lists "
    "the keys. ctrl+p finds any command or document."
)

INLINE_SECONDS = 0.025
"""A router that answered the last question within this time answers the next one on the event
loop, as it is typed: the key's echo and its answer share a frame, and no thread competes with the
drawing for the interpreter (on 5,000 documents a route in a worker took 11-18 ms against 8 alone,
the frame of the answer before it being drawn meanwhile). A slower answer (a bigger bank, a loaded
machine) sends the next question to a worker, so typing never waits on the router; the first
question, and the first after the bank changed, go to a worker too (the router rebuilds its indexes
then), and a fast answer there brings the questions back."""

READING = "Reading the bank: the answer comes as soon as every document is read."
"""What a question typed before the first index is done meets, instead of a match from half a bank."""


class RoutePane(Pane):
    """Questions in, ranked documents out."""

    TITLE = "Route"
    SUMMARY = "Ask a question and see which documents answer it"
    BINDINGS = [
        # Not letters: whatever is typed in the results goes on the question ("tax", "pdf").
        Binding("ctrl+y", "explain", "Explain (why)"),
        Binding("ctrl+s", "pin", "Pin answer"),
        Binding("down", "results", "Results", show=False),
        Binding("escape", "switch_focus", "Question/results", show=False),
    ]
    EXTRA_KEYS = (
        ("type", "ask: results come as you type"),
        ("Enter", "from the question to the results (as ↓ does); on a result, open it at its best section"),
        ("Esc", "between the question and the results"),
        ("Tab", "to the layer filter: Enter lists the layers, a letter picks one, Enter chooses"),
    )
    COMMANDS_OFFERED = (
        PaletteCommand("Route: ask a question", "Put the cursor in the question box", "ask"),
        PaletteCommand(
            "Route: explain the selected result's score",
            "Which fields matched and which multipliers applied",
            "explain",
        ),
        PaletteCommand(
            "Route: pin the selected result as the expected answer",
            "Record it in dna/route-checks.md (previewed, then confirmed)",
            "pin",
        ),
    )

    class HitChosen(DocumentChosen):
        """A route result was chosen: open its document at its best section."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.result: RouteResult | None = None
        self._routing: tuple[str, str | None, int] | None = None
        """The question being routed in the worker (with its layer and the bank generation)."""
        self._pending = False
        """The question changed while one was being routed."""
        self._inline = False
        """The router answered the last question within ``INLINE_SECONDS`` on this generation."""
        self._answered: tuple[str, str | None, int] | None = None
        """The question (with its layer and generation) whose answer is shown."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield SteadyInput(
                placeholder="Ask where something lives, e.g. invoice numbering",
                id="route-question",
                select_on_focus=False,  # coming back to the pane must not arm the question for replacing
            )
            layers = [("all layers", ALL_LAYERS)] + [(layer, layer) for layer in LAYERS if layer != "inbox"]
            yield Chooser(layers, ALL_LAYERS, id="route-layer")
        yield FittedTable(
            [
                Column("Score", 6, justify="right"),
                # The path is what tells two results apart: it is whole where it can be, the
                # section (named again below the table) takes what is left.
                Column("Document", weight=3, path=True, fit=True),
                Column("Layer", 9),
                Column("Status", 8),
                Column("Best section", weight=2, least=12),
            ],
            id="route-results",
        )
        yield Static(EMPTY, id="route-detail", classes="detail")

    # -- asking --------------------------------------------------------------------------------

    @property
    def question(self) -> str:
        return self.query_one("#route-question", Input).value.strip()

    @property
    def layer_filter(self) -> str | None:
        """The layer chosen beside the question (None: all). Not ``layer``, which is Textual's CSS layer."""
        value = self.query_one("#route-layer", Chooser).value
        return None if value == ALL_LAYERS else value

    def ask(self, question: str) -> None:
        """Put a question in the box (the palette and tests use this) and route it now."""
        self.query_one("#route-question", Input).value = question
        self.route_now()

    def on_key(self, event: events.Key) -> None:
        box = self.query_one("#route-question", Input)
        type_into(box, (self.query_one("#route-results", DataTable), self.query_one("#route-layer", Chooser)), event)

    @on(Input.Changed, "#route-question")
    def _typed(self) -> None:
        self.route_now()  # a burst's changes all find the box holding its last key: it is routed once

    @on(Chooser.Changed, "#route-layer")
    def _layer_changed(self) -> None:
        self.route_now()

    @on(Input.Submitted, "#route-question")
    def _submitted(self) -> None:
        shown = self.result is not None and bool(self.result.hits)
        if self.opened_by_second_enter(self.query_one("#route-results", DataTable), shown):
            return
        self.route_now()
        self.action_results()

    def reload(self) -> None:
        example = example_title(self.bank)
        if example:
            self.query_one("#route-question", Input).placeholder = f"Ask where something lives, e.g. {example}"
        self.route_now()

    def route_now(self) -> None:
        question, layer = self.question, self.layer_filter
        if not question or self.generation < 0:  # before the first index, the pane routes once it is done
            self.forget()
            self._routing, self._pending = None, False
            self.result, self._answered = None, None
            self._fill(None)
            if question:
                self.query_one("#route-detail", Static).update(Text(READING, style="italic"))
            return
        asked = (question, layer, self.bank.generation)
        if self._routing is not None:
            self._pending = self._routing != asked
            return
        if asked == self._answered:  # already shown (a burst's later changes, Enter on a question)
            return
        self._routing = asked
        if self._inline and asked[2] == self._answered_generation:
            try:
                answer = timed(self.bank, question, layer)
            except Exception as error:
                self.show_error(error)
                self._failed(error)
            else:
                self._routed(answer)
            return
        self.run_core(partial(timed, self.bank, question, layer), self._routed, failed=self._failed)

    @property
    def _answered_generation(self) -> int | None:
        return self._answered[2] if self._answered else None

    def _routed(self, answer: tuple[RouteResult, float]) -> None:
        self.result, seconds = answer
        self._inline = seconds <= INLINE_SECONDS
        self._answered = self._routing
        self._fill(self.result)
        self._next()

    def _failed(self, error: BaseException) -> None:
        self.result, self._answered = None, None
        self._fill(None)
        self._next()

    def _next(self) -> None:
        """A question's answer (or refusal) came back: route the latest one if it changed meanwhile."""
        self._routing = None
        if self._pending:
            self._pending = False
            self.route_now()

    pinned: frozenset[str] = frozenset()
    """The documents ``dna/route-checks.md`` pins as the shown question's answer (marked ★)."""

    def _fill(self, result: RouteResult | None) -> None:
        keep = self.selected.path if self.selected else None
        self.pinned = pinned_answers(self.bank, result.question) if result and result.hits else frozenset()
        rows = [
            (
                [
                    f"{'★' if hit.path in self.pinned else ''}{hit.score:.2f}",
                    hit.path,
                    hit.layer,
                    hit.status or "-",
                    hit.section or "",
                ],
                hit.path,
            )
            for hit in (result.hits if result else ())
        ]
        self.query_one("#route-results", FittedTable).set_rows(rows, keep=keep)
        self._describe()

    # -- the highlighted result ------------------------------------------------------------------

    @property
    def selected(self) -> RouteHit | None:
        if not self.result or not self.result.hits:
            return None
        table = self.query_one("#route-results", DataTable)
        row = table.cursor_row
        return self.result.hits[row] if 0 <= row < len(self.result.hits) else None

    @on(DataTable.RowHighlighted, "#route-results")
    def _highlighted(self) -> None:
        self._describe()

    def _describe(self) -> None:
        detail = self.query_one("#route-detail", Static)
        hit = self.selected
        if self.result is None:
            detail.update(EMPTY)
        elif hit is None:
            detail.update(Text(no_match_hint(self.result.hint), style="italic"))
        else:
            text = Text()
            text.append(hit.title, style="bold")
            text.append(f"  {hit.path}\n", style="dim")
            text.append(f"{hit.purpose}\n" if hit.purpose else "")
            if hit.progress:  # what a status question asks: in progress, done, accepted
                text.append("progress  ", style="bold")
                text.append(f"{hit.progress}\n")
            text.append("why  ", style="bold")
            text.append(hit.why or "-")
            if hit.copies:  # the same file at other paths, folded into this hit
                text.append("\nsame file  ", style="bold")
                text.append(", ".join(hit.copies), style="dim")
            if self.result.why_intent:
                text.append("\nA “why” question: decision records were favoured.", style="italic dim")
            if self.result.hint:  # a word read as the bank's, or one no document mentions
                text.append(f"\n{self.result.hint}", style="italic")
            if hit.path in self.pinned:
                rank = [h.path for h in self.result.hits].index(hit.path) + 1
                text.append(
                    f"\n★ pinned as this question's answer (dna/route-checks.md); it ranks #{rank}", style="bold"
                )
            detail.update(text)

    @on(DataTable.RowSelected, "#route-results")
    def _chosen(self) -> None:
        hit = self.selected
        if hit is not None:
            self.post_message(self.HitChosen(hit.path, section=hit.section))

    # -- actions --------------------------------------------------------------------------------

    def focus_default(self) -> None:
        """The results when there are some (so 1-9 keep switching panes), else the question box."""
        if self.question and self.result is not None and self.result.hits:
            self.focus_now(self.query_one("#route-results", DataTable))
        else:
            self.focus_now(self.query_one("#route-question", Input))

    def action_switch_focus(self) -> None:
        """Esc: from the question (or the layer filter) to the results, from the results to the question."""
        if self.query_one("#route-question", Input).has_focus or self.query_one("#route-layer", Chooser).has_focus:
            self.action_results()
        else:
            self.action_ask()

    def action_ask(self) -> None:
        self.query_one("#route-question", Input).focus()

    def action_results(self) -> None:
        self.focus_now(self.query_one("#route-results", DataTable))  # a key queued behind it finds the results

    def action_explain(self) -> None:
        hit = self.selected
        if hit is None:
            self.notify("Select a result first.", title="Explain", severity="warning")
            return
        from memorybank.tui.dialogs.explain import ExplainDialog

        self.app.push_screen(ExplainDialog(self.question, hit))

    def action_pin(self) -> None:
        hit, question = self.selected, self.question
        if hit is None:
            self.notify("Ask a question and select the document that answers it.", title="Pin", severity="warning")
            return
        from memorybank.core.write.checks import pin_route_check

        self.run_core(
            lambda: pin_route_check(self.bank, question=question, expected=hit.path, dry_run=True),
            self._confirm_pin,
            channel="write",
        )

    def _confirm_pin(self, preview: PinResult) -> None:
        lines = [f"Question:  {preview.question}", f"Answer:    {preview.expected}", ""]
        if preview.created_file:
            where = f"registers it in {preview.registered_in}" if preview.registered_in else "no index of dna/ lists it"
            lines.append(f"Creates {preview.path}; {where}.")
        elif preview.replaced:
            lines.append(f"Replaces the answer pinned before for this question in {preview.path}.")
        else:
            lines.append(f"Adds a row to {preview.path}.")

        from memorybank.core.write.checks import pin_route_check
        from memorybank.tui.dialogs.confirm import ConfirmDialog

        def answered(confirmed: bool | None) -> None:
            if confirmed:
                self.run_core(
                    lambda: pin_route_check(self.bank, question=preview.question, expected=preview.expected),
                    self._pinned,
                    channel="write",
                )

        self.app.push_screen(ConfirmDialog("Pin the expected answer?", "\n".join(lines), confirm="Pin"), answered)

    def _pinned(self, pinned: PinResult) -> None:
        self.notify(f"{pinned.expected} pinned for “{pinned.question}” in {pinned.path}.", title="Pinned")
        self.post_message(BankWritten())


def timed(bank: Any, question: str, layer: str | None) -> tuple[RouteResult, float]:
    """``core.route.route`` for the pane, with the seconds it took (the router is imported by the
    first question, in a worker)."""
    from memorybank.core.route import route

    started = time.perf_counter()
    result = route(bank, question, limit=LIMIT, layer=layer)
    return result, time.perf_counter() - started


def no_match_hint(hint: str | None) -> str:
    """The router's hint, in the workbench's words: its Search pane, not the agents' ``bank_search``."""
    from memorybank.core.route import EMPTY_HINT

    if not hint:
        return "No document answers this question."
    if hint == EMPTY_HINT:
        return "No document matches these words. alt+6 (or Esc, then 6) searches the bodies for a literal term; or widen the question."
    return hint


def pinned_answers(bank: Bank, question: str) -> frozenset[str]:
    """The documents the bank's route checks expect for ``question`` (case and spacing aside)."""
    from memorybank.core.errors import BankError
    from memorybank.core.evaluate import load_checks

    wanted = " ".join(question.casefold().split())
    try:
        with bank.lock:  # parsed once per state of the bank, not at every answer
            checks = bank.extension("route.pinned", lambda bank, _previous: load_checks(bank))
    except BankError:  # a check file that cannot be read marks nothing; validate reports it
        return frozenset()
    return frozenset(p for c in checks if " ".join(c.question.casefold().split()) == wanted for p in c.expected)
