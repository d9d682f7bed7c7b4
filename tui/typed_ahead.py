"""Keys typed before the workbench could take them, held, then handed to it again one by one.

From the moment the workbench is pushed until its first pane has the focus, every key that reaches
the app is held (``hold``, ``held``). Once the pane is ready (``release``) each key goes through the
app again once the one before it has been handled and drawn, so it meets the bindings and the focus
that key left: the palette ctrl+o opens takes the letters typed after it. Keys that reach the app
while the held ones are still being handed over wait behind them, so what is typed keeps its order
however long the handover takes.

One refresh is not always enough on a loaded machine: the frame may be drawn before ctrl+o has
bubbled back to the app that runs its binding (the next letter then went to the question box), or
after the palette is shown but before it has focused its input (the letter then reached no
widget). So a key waits while a message is still queued on its way (at the app, the screen, or the
focused widget and those above it) and while a screen just pushed has not yet taken its focus.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from dataclasses import dataclass, field

from textual import events
from textual.app import App
from textual.screen import Screen

MOST_SECONDS = 5.0
"""How long a key waits for the one before it to settle; past this it is sent as it stands. While the
first index is read on a busy machine, the palette ctrl+o opens took more than two seconds to take
its focus now and then, and the letters sent after two seconds reached no widget."""

Typed = tuple[str, "str | None"]


@dataclass
class _Handover:
    home: type[Screen] | None
    """The screen that may hold no focus (the workbench before its first pane takes it)."""
    keys: deque[Typed] = field(default_factory=deque)
    sending: bool = False
    sent: weakref.WeakSet[events.Key] = field(default_factory=weakref.WeakSet)
    """The keys this handover posted, which the app lets through."""


_HANDOVERS: weakref.WeakKeyDictionary[App[object], _Handover] = weakref.WeakKeyDictionary()


def handing_over(app: App[object]) -> bool:
    """True while keys typed ahead are held for ``app`` or still being handed to it."""
    return app in _HANDOVERS


def hold(app: App[object], home: type[Screen] | None = None) -> None:
    """Keep every key that reaches ``app`` from now until ``release``."""
    _HANDOVERS.setdefault(app, _Handover(home))


def held(app: App[object], event: events.Key) -> bool:
    """For the app, on each key from the terminal: True if the key was kept, to be handed over in
    its turn (keys are held, or the held ones are still being handed over)."""
    handover = _HANDOVERS.get(app)
    if handover is None or event in handover.sent:
        return False
    if event.key == "ctrl+j" and not handover.sending:  # Enter typed before raw mode came as a line feed
        handover.keys.append(("enter", "\r"))
    else:
        handover.keys.append((event.key, event.character))
    return True


def release(app: App[object]) -> None:
    """Hand the keys held for ``app`` over, one by one; keys that come meanwhile follow them."""
    handover = _HANDOVERS.get(app)
    if handover is not None and not handover.keys:  # nothing typed ahead
        del _HANDOVERS[app]
    elif handover is not None and not handover.sending:
        handover.sending = True  # sent by the app: a key sent from a screen stops there, short of the
        app.call_later(_send, app, handover, time.monotonic() + MOST_SECONDS)  # app's bindings


def type_again(app: App[object], keys: list[Typed], home: type[Screen] | None = None) -> None:
    """Send ``keys`` through ``app`` in order, each once the one before it has settled."""
    hold(app, home)
    _HANDOVERS[app].keys.extend(keys)
    release(app)


def _send(app: App[object], handover: _Handover, until: float) -> None:
    if app.return_code is not None or not app.screen_stack:  # closing: nothing more to hand over
        _HANDOVERS.pop(app, None)
        return
    if time.monotonic() < until and not _settled(app, handover.home):
        app.call_after_refresh(_send, app, handover, until)
        return
    if not handover.keys:  # the last key was handled: keys go straight to the app again
        _HANDOVERS.pop(app, None)
        return
    event = events.Key(*handover.keys.popleft())
    handover.sent.add(event)
    app.post_message(event)
    app.call_after_refresh(_send, app, handover, time.monotonic() + MOST_SECONDS)


def _settled(app: App[object], home: type[Screen] | None) -> bool:
    """Nothing queued on the way from the app to the focused widget, and a pushed screen focused."""
    screen = app.screen
    focused = screen.focused
    if focused is None and not (home is not None and isinstance(screen, home)):
        return False
    chain = focused.ancestors_with_self if focused is not None else (screen, app)  # up to the app
    return all(pump.message_queue_size == 0 for pump in chain)
