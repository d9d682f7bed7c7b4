"""An ``Input`` whose editing keys apply in the order they were typed, and which leaves alt+digit
to the workbench.

Textual runs a binding's action after the keys already queued behind it have been typed, while a
character is typed as its key arrives. So a fast ``ctrl+u`` then ``rel`` typed ``rel`` first and
then cleared everything (2 of 10 tries in tmux), and ``End ctrl+u z`` cleared only what was left of
the caret before End moved it. This one applies the cursor moves and deletions of its own bindings
as their keys arrive, in order with the characters around them.

Terminals that send alt+digit as ESC and the digit (tmux among them) reach Textual as the macOS
option characters ``¡™£¢∞§¶•ª``; an ``Input`` would claim them as text, hiding the workbench's
alt+1-9. This one lets them through to the bindings; where nothing binds them (a dialog) they are
still typed.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input

ALT_DIGITS = frozenset("¡™£¢∞§¶•ª")
"""alt+1 to alt+9 as Textual reads ESC+digit."""

EDITING = frozenset(
    {
        "cursor_left",
        "cursor_right",
        "cursor_left_word",
        "cursor_right_word",
        "home",
        "end",
        "delete_left",
        "delete_right",
        "delete_left_word",
        "delete_left_all",
        "delete_right_all",
    }
)
"""``Input``'s actions that move the cursor or delete, without arguments: applied as their key arrives."""

IN_ORDER = {
    key.strip(): binding.action
    for binding in Input.BINDINGS
    if isinstance(binding, Binding) and binding.action in EDITING
    for key in binding.key.split(",")
}
"""Each key ``Input`` binds to one of those actions (its own table, not a copy of it)."""


class SteadyInput(Input):
    """A text box that applies its editing keys in order with the characters around them."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in ALT_DIGITS:
            return False
        return super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        action = IN_ORDER.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            getattr(self, f"action_{action}")()
            return
        await super()._on_key(event)
