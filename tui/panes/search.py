"""The Search pane: where a word or a phrase occurs in the bank's bodies, with the line.

Routing answers "which document should I read"; search answers "where is this written". Results
come as you type (debounced); Enter opens the document at the hit's line.
"""

from __future__ import annotations

import re
from typing import Any

from memorybank.core.search import LIST_LIMIT, MAX_LIMIT, SearchResult, search
from memorybank.tui.examples import example_term
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count, type_into
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from memorybank.tui.widgets.steady_input import SteadyInput
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import DataTable, Input, Static

DEBOUNCE_SECONDS = 0.08
LIMIT = MAX_LIMIT
"""Documents listed at first; ↓ past the last lists as many more, up to ``LIST_LIMIT``."""
EMPTY = "Type a word, a phrase or an identifier: the lines that hold it appear as you type."


class SearchPane(Pane):
    """Bodies, searched."""

    TITLE = "Search"
    SUMMARY = "Where a word or phrase occurs in the bodies, with the line"
    BINDINGS = [
        Binding("down", "results", "Results", show=False),
        Binding("escape", "switch_focus", "Box/results", show=False),
    ]
    COMMANDS_OFFERED = (PaletteCommand("Search: search the bodies", "Put the cursor in the search box", "ask"),)

    class HitChosen(DocumentChosen):
        """A search hit was chosen: open its document at the line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.result: SearchResult | None = None
        self._timer: Timer | None = None
        self.limit = LIMIT
        """Documents asked for: more once the cursor goes past the last listed."""
        self._next_row: str | None = None

    def compose(self) -> ComposeResult:
        yield SteadyInput(placeholder="Search the bodies, e.g. SKIP LOCKED", id="search-query", select_on_focus=False)
        yield Static(EMPTY, id="search-summary", classes="pane-heading")
        yield FittedTable(
            [Column("Document", weight=3, path=True), Column("Line", 5, justify="right"), Column("Excerpt", weight=4)],
            id="search-results",
        )
        yield Static("", id="search-detail", classes="detail")

    @property
    def query_text(self) -> str:
        return self.query_one("#search-query", Input).value.strip()

    def ask(self, text: str) -> None:
        self.query_one("#search-query", Input).value = text
        self.reload()

    @on(Input.Changed, "#search-query")
    def _typed(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE_SECONDS, self.reload)

    @on(Input.Submitted, "#search-query")
    def _submitted(self) -> None:
        shown = self.result is not None and self.result.query == self.query_text and bool(self.result.hits)
        if self.opened_by_second_enter(self.query_one("#search-results", DataTable), shown):
            return
        self.reload()
        self.action_results()

    def reload(self) -> None:
        example = example_term(self.bank)
        if example:
            self.query_one("#search-query", Input).placeholder = f"Search the bodies, e.g. {example}"
        text = self.query_text
        if not text:
            self.forget()
            self.result = None
            self._fill(None)
            return
        if self.result is None or self.result.query != text:
            self.limit = LIMIT  # a new query starts at the first page again
        limit = self.limit
        self.run_core(lambda: search(self.bank, text, limit=limit), self._found, failed=self._failed)

    def _found(self, result: SearchResult) -> None:
        self.result = result
        self._fill(result)

    def _failed(self, error: BaseException) -> None:
        self.result = None
        self._fill(None)

    def _fill(self, result: SearchResult | None) -> None:
        table = self.query_one("#search-results", FittedTable)
        summary = self.query_one("#search-summary", Static)
        if result is None:
            table.set_rows([])
            summary.update(EMPTY)
            self._describe()
            return
        words = query_words(result.query)
        table.set_rows(
            [
                ([hit.path, str(hit.line or ""), around_match(hit.excerpt.strip(), words)], str(index))
                for index, hit in enumerate(result.hits)
            ],
            keep=self._next_row,  # more listed: the cursor goes on to the first of them
        )
        self._next_row = None
        shown = len(result.hits)
        text = Text(count(shown, "document"), style="bold")
        if result.matched > shown:  # the list is the best of more
            text = Text(f"the first {shown} of {result.matched} documents", style="bold")
            more = "↓ past the last lists more, or " if shown < LIST_LIMIT else ""
            text.append(f"  ·  {more}add a word to narrow them", style="italic")
        if result.broadened:
            text.append("  ·  no document holds it as written; these hold some of its words", style="italic")
        if result.hint and not result.hits:
            text.append(f"  ·  {workbench_hint(result.hint)}", style="italic")
        summary.update(text)
        self._describe()

    @on(DataTable.RowHighlighted, "#search-results")
    def _describe(self) -> None:
        """The highlighted hit's title and whole excerpt, which the table cuts."""
        detail = self.query_one("#search-detail", Static)
        table = self.query_one("#search-results", FittedTable)
        hits = self.result.hits if self.result else ()
        if not 0 <= table.cursor_row < len(hits):
            detail.display = False
            return
        hit = hits[table.cursor_row]
        text = Text()
        text.append(hit.title, style="bold")
        text.append(f"  {hit.path}:{hit.line}\n" if hit.line else f"  {hit.path}\n", style="dim")
        excerpt = hit.excerpt.strip()
        text.append_text(
            marked(excerpt, query_words(self.result.query)) if excerpt else Text("(a match in the headers only)")
        )
        detail.update(text)
        detail.display = True

    def on_key(self, event: events.Key) -> None:
        table = self.query_one("#search-results", DataTable)
        result = self.result
        if (
            event.key == "down"
            and table.has_focus
            and result is not None
            and table.cursor_row == len(result.hits) - 1
            and result.matched > len(result.hits)
            and self.limit < LIST_LIMIT
        ):
            event.stop()
            self._next_row = str(table.cursor_row + 1)
            self.limit = min(self.limit + LIMIT, LIST_LIMIT)
            self.reload()
            return
        type_into(self.query_one("#search-query", Input), (table,), event)

    @on(DataTable.RowSelected, "#search-results")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        if self.result is None:
            return
        hit = self.result.hits[event.cursor_row]
        self.post_message(self.HitChosen(hit.path, line=hit.line or None))

    def action_switch_focus(self) -> None:
        if self.query_one("#search-query", Input).has_focus:
            self.action_results()
        else:
            self.action_ask()

    def action_ask(self) -> None:
        self.query_one("#search-query", Input).focus()

    def action_results(self) -> None:
        self.focus_now(self.query_one("#search-results", DataTable))  # a key queued behind it finds the results

    def focus_default(self) -> None:
        self.focus_now(self.query_one("#search-query", Input))


def workbench_hint(hint: str) -> str:
    """The search's hint in the workbench's words: its Route pane, not the agents' ``bank_route``."""
    from memorybank.core.search import EMPTY_HINT

    if hint == EMPTY_HINT:
        return "No document body contains these terms. For a topic, ask on Route (alt+1, or Esc, then 1)."
    return hint


LEAD = 12
"""Characters of context kept before the first match when an excerpt is moved to show it."""


def query_words(query: str) -> list[str]:
    """The words of a query worth marking (two characters or more), lower-cased."""
    return [word for word in re.findall(r"\w[\w.-]*", query.lower()) if len(word) >= 2]


def marked(excerpt: str, words: list[str]) -> Text:
    """The excerpt with every literal occurrence of the query's words in bold."""
    text = Text(excerpt, no_wrap=True, overflow="ellipsis")
    text.highlight_words(words, "bold reverse", case_sensitive=False)
    return text


def around_match(excerpt: str, words: list[str]) -> Text:
    """The excerpt from shortly before its first match (``…`` marking what was left out), so a
    column that cuts the line still shows what matched, with the matches marked."""
    lowered = excerpt.lower()
    first = min((i for i in (lowered.find(word) for word in words) if i >= 0), default=-1)
    if first > LEAD:
        start = first - LEAD
        back = excerpt.rfind(" ", max(start - LEAD, 0), start)  # begin on a word: one starting just before,
        ahead = excerpt.find(" ", start, first)  # else one starting after the cut
        start = back + 1 if back >= 0 else ahead + 1 if ahead >= 0 else start
        excerpt = "…" + excerpt[start:]
    return marked(excerpt, words)
