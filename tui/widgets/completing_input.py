"""An input that completes from a list (bank paths, folders, kinds): the rest of the first match
is shown dimmed, and Tab or → takes it.

For comma-separated fields (``derived_from``, ``canonical_for``) only the item being typed is
completed, so a second path completes like the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memorybank.tui.widgets.steady_input import SteadyInput
from textual.binding import Binding
from textual.suggester import Suggester


class Completions(Suggester):
    """Suggest the shortest candidate that starts with what was typed (after the last comma when
    ``multi``), or with ``ranked`` the first in the order given; candidates are matched without
    regard to case."""

    def __init__(self, candidates: Iterable[str], *, multi: bool = False, ranked: bool = False) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.listed = list(dict.fromkeys(candidates))
        """The candidates in the order given (the most likely first)."""
        self.candidates = self.listed if ranked else sorted(self.listed, key=lambda c: (len(c), c))
        self.multi = multi
        self.ranked = ranked

    async def get_suggestion(self, value: str) -> str | None:
        head, item = "", value
        if self.multi and "," in value:
            cut = value.rindex(",") + 1
            head, item = value[:cut], value[cut:]
        typed = item.lstrip()
        if not typed:
            return None
        folded = typed.casefold()
        for candidate in self.candidates:
            if len(candidate) > len(typed) and candidate.casefold().startswith(folded):
                return head + item[: len(item) - len(typed)] + typed + candidate[len(typed) :]
        return None


class CompletingInput(SteadyInput):
    """An ``Input`` whose Tab takes the completion shown, and moves on when there is none.

    With ``offer``, Tab in an empty box puts the first candidate in it, and Tab on a candidate left
    as it was offered puts the next: the choices are there to browse without typing a letter.

    A form's box arrives filled with what the form proposes: the focus puts the cursor at its end
    rather than selecting it, so the first key typed adds to it instead of wiping it (an ``Input``
    has no undo)."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    def __init__(
        self,
        value: str = "",
        *,
        candidates: Iterable[str] = (),
        multi: bool = False,
        offer: bool = False,
        ranked: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("select_on_focus", False)
        super().__init__(value, suggester=Completions(candidates, multi=multi, ranked=ranked), **kwargs)
        self.offer = offer

    def set_candidates(self, candidates: Iterable[str]) -> None:
        """Complete from another list (the form learned more about the bank)."""
        assert isinstance(self.suggester, Completions)
        self.suggester = Completions(candidates, multi=self.suggester.multi, ranked=self.suggester.ranked)

    def action_complete(self) -> None:
        assert isinstance(self.suggester, Completions)
        listed = self.suggester.listed
        if self.offer and listed and (not self.value.strip() or self.value in listed):
            at = listed.index(self.value) + 1 if self.value in listed else 0
            self.value = listed[at % len(listed)]
            self.cursor_position = len(self.value)
        elif self._suggestion and self.cursor_at_end and len(self._suggestion) > len(self.value):
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()
