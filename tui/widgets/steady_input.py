"""An ``Input`` whose ctrl+u clears at once, so keys typed right after it are kept, and which
leaves alt+digit to the workbench.

Textual runs a binding's action after the keys already queued behind it have been typed, so a
fast ``ctrl+u`` then ``rel`` typed ``rel`` first and then cleared everything (2 of 10 tries in
tmux). Handling ctrl+u as the key arrives keeps the order the user typed in.

Terminals that send alt+digit as ESC and the digit (tmux among them) reach Textual as the macOS
option characters ``¡™£¢∞§¶•ª``; an ``Input`` would claim them as text, hiding the workbench's
alt+1-9. This one lets them through to the bindings; where nothing binds them (a dialog) they are
still typed.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

ALT_DIGITS = frozenset("¡™£¢∞§¶•ª")
"""alt+1 to alt+9 as Textual reads ESC+digit."""


class SteadyInput(Input):
    """A text box that applies ctrl+u in order with the keys around it."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in ALT_DIGITS:
            return False
        return super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+u":
            event.stop()
            event.prevent_default()
            self.action_delete_left_all()
            return
        await super()._on_key(event)
