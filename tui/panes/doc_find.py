"""Finding text in the open document, as ``/`` does in less: ``/`` asks for it, Enter goes to the
first line holding it after where the reader stands, ``n`` and ``N`` to the next and the one
before, wrapping round the file. A match is shown in the numbered source, its line under the
cursor; case and ``ё``/``е`` are ignored, as search does.

A base of the Document pane (Textual gathers the bindings of every widget class a pane is made
of), so the pane keeps to reading and showing; the box is mounted the first time it is asked for.
"""

from __future__ import annotations

from typing import Any

from memorybank.tui.widgets.steady_input import SteadyInput
from textual import on
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input


def folded(text: str) -> str:
    """Text as a find compares it: case and ``ё``/``е`` aside."""
    return text.casefold().replace("ё", "е")


def next_match(lines: tuple[str, ...], needle: str, after: int, step: int) -> tuple[int, int, int] | None:
    """The 1-based line of the next line holding ``needle`` from line ``after`` in direction
    ``step`` (1 or -1), wrapping round; with the match's rank among all and their count."""
    wanted = folded(needle)
    holding = [number for number, line in enumerate(lines, start=1) if wanted in folded(line)]
    if not holding:
        return None
    ahead = [n for n in holding if (n > after if step > 0 else n < after)]
    line = (ahead[0] if step > 0 else ahead[-1]) if ahead else (holding[0] if step > 0 else holding[-1])
    return line, holding.index(line) + 1, len(holding)


class FindInDocument(Widget):
    """``/``, ``n`` and ``N`` for the Document pane (see the module). A widget class only so that
    Textual takes its bindings and handlers in; the pane is the widget."""

    BINDINGS = [
        Binding("slash", "find", "Find", key_display="/"),
        Binding("n", "find_next(1)", "Next match", show=False),
        Binding("N", "find_next(-1)", "Previous match", show=False),
    ]
    needle = ""
    """The text last looked for."""

    async def action_find(self: Any) -> None:
        if self.opened is None:
            return
        boxes = self.query("#doc-find")
        box = boxes.first() if boxes else None
        if box is None:
            box = SteadyInput(
                self.needle, placeholder="find in this document (Enter; then n / N)", id="doc-find", compact=True
            )
            box.styles.dock = "bottom"
            await self.mount(box)  # mounted before the next key is handled: what is typed goes in it
        box.display = True
        box.value = self.needle
        box.focus()

    @on(Input.Submitted, "#doc-find")
    def _find_submitted(self: Any, event: Input.Submitted) -> None:
        event.stop()
        self.needle = event.value.strip()
        self._close_find()
        if self.needle:
            self.action_find_next(1)

    def on_key(self: Any, event: Any) -> None:
        if event.key == "escape" and self.screen.focused is not None and self.screen.focused.id == "doc-find":
            event.stop()
            self._close_find()

    def _close_find(self: Any) -> None:
        box = self.query_one("#doc-find", Input)
        box.display = False
        view = "#doc-source" if self.source_mode else "#doc-rendered"
        self.query_one(view).focus()

    def action_find_next(self: Any, step: int) -> None:
        if self.opened is None:
            return
        if not self.needle:
            self.notify("Press / and type what to find.", title="Find", timeout=3)
            return
        place = self._source_place()
        here = place[0] if place else (self.line or (self.section.line if self.section else 0))
        found = next_match(self.opened.lines, self.needle, here, step)
        if found is None:
            self.notify(f"No “{self.needle}” in this document.", title="Find", severity="warning", timeout=3)
            return
        line, rank, total = found
        self.section, self.line, self.source_mode = None, line, True
        self._show()
        self.query_one("#doc-source").focus()
        self.notify(f"“{self.needle}”: line {line}, {rank} of {total}.", title="Find", timeout=2)
