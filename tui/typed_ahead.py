"""Keys typed before the workbench could take them, handed to it again one by one.

Each key goes through the app again once the one before it has been handled and drawn, so it meets
the bindings and the focus that key left: the palette ctrl+o opens takes the letters typed after
it. One refresh is not always enough on a loaded machine: the frame may be drawn before ctrl+o has
bubbled back to the app that runs its binding (the next letter then went to the question box), or
after the palette is shown but before it has focused its input (the letter then reached no
widget). So a key waits while a message is still queued on its way (at the app, the screen, or the
focused widget and those above it) and while a screen just pushed has not yet taken its focus.
"""

from __future__ import annotations

import time
import weakref

from textual import events
from textual.app import App
from textual.screen import Screen

MOST_SECONDS = 2.0
"""How long a key waits for the one before it to settle; past this it is sent as it stands."""


_HANDING: weakref.WeakSet[App[object]] = weakref.WeakSet()


def handing_over(app: App[object]) -> bool:
    """True while keys typed ahead are still being handed to ``app``."""
    return app in _HANDING


def type_again(app: App[object], keys: list[tuple[str, str | None]], home: type[Screen] | None = None) -> None:
    """Send ``keys`` through ``app`` in order, each once the one before it has settled. ``home`` is
    the screen that may hold no focus (the workbench before its first pane takes it)."""
    if keys:
        _HANDING.add(app)
        _send(app, keys, home, time.monotonic() + MOST_SECONDS)


def _send(app: App[object], keys: list[tuple[str, str | None]], home: type[Screen] | None, until: float) -> None:
    if not keys or app.return_code is not None or not app.screen_stack:  # all handed over, or closing
        _HANDING.discard(app)
        return
    if time.monotonic() < until and not _settled(app, home):
        app.call_after_refresh(_send, app, keys, home, until)
        return
    app.post_message(events.Key(*keys[0]))
    app.call_after_refresh(_send, app, keys[1:], home, time.monotonic() + MOST_SECONDS)


def _settled(app: App[object], home: type[Screen] | None) -> bool:
    """Nothing queued on the way from the app to the focused widget, and a pushed screen focused."""
    screen = app.screen
    focused = screen.focused
    if focused is None and not (home is not None and isinstance(screen, home)):
        return False
    chain = focused.ancestors_with_self if focused is not None else (screen, app)  # up to the app
    return all(pump.message_queue_size == 0 for pump in chain)
