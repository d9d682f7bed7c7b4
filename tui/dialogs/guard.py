"""A confirmation that stray typing cannot give.

The inbox and the route pane act on single letters, and the dialog a letter opens takes the keys
that follow it: a sentence typed into the wrong pane ("already done") used to reach a confirmation
whose ``y`` key wrote. Here any other letter, digit or space that reaches the dialog disarms it and
takes the focus off its buttons (so the sentence's next space or Enter presses none): the next ``y``
only re-arms it and says so, and the one after that writes. While it is disarmed, ``n`` is taken for
part of the sentence too (closing the dialog would hand the rest of it to the pane, whose letters
act): Esc goes back. A person who reads the preview and answers ``y`` or ``n`` is never slowed down.
"""

from __future__ import annotations

from textual import events

ANSWER_KEYS = frozenset({"y", "n"})


class StrayKeyGuard:
    """Mixed into a modal confirmation: ``confirmed()`` is True unless stray typing came first."""

    armed: bool = True

    def on_key(self, event: events.Key) -> None:
        if event.key == "n" and not self.armed:  # the sentence's n: closing would hand the rest to the pane
            event.prevent_default()
            event.stop()
            return
        if event.is_printable and event.key not in ANSWER_KEYS:
            # Off the buttons too: the space or Enter of the sentence would press the one focused.
            self.set_focus(None)  # type: ignore[attr-defined]
            if self.armed:
                self.notify(  # type: ignore[attr-defined]
                    "Typing reached this confirmation, so nothing was written: press y twice to write, Esc to go back.",
                    title="Not written",
                    severity="warning",
                )
            self.armed = False

    def action_answer(self, answer: bool) -> None:
        """y, n, Esc or a button: going back always works, writing only when armed."""
        if not answer or self.confirmed():
            self.dismiss(answer)  # type: ignore[attr-defined]

    def confirmed(self) -> bool:
        """Whether a ``y`` now writes; a disarmed dialog is armed by it instead."""
        if self.armed:
            return True
        self.armed = True
        self.notify("Press y again to write it; Esc goes back.", title="Not written")  # type: ignore[attr-defined]
        return False
