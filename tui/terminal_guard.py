"""The workbench's bytes on the terminal are its own: a bank's text cannot drive the terminal.

Documents, inbox notes, commit messages and agents' tool arguments are written by others, and any
of them may hold an escape sequence: ``ESC ] 0 ; … BEL`` retitles the owner's terminal, ``ESC [ 2 J``
clears it, ``ESC ] 52`` writes to the clipboard, a bidirectional override reorders what the owner
reads. Textual passes a segment's text to the terminal as it is, so every line the app paints goes
through one filter on its way out (``Strip.render``, where styles become escape codes): the
control characters, C1 codes, line and paragraph separators and bidirectional controls of the text
are dropped. They take no cell on the screen, so the layout is the same with them gone; what the
sequence spelled (``[31m``, ``]0;title``) stays visible as plain text. The command line spells
them out instead (``memorybank.tui.cli.output.visible``).
"""

from __future__ import annotations

import re
from typing import Any

from memorybank.core.controls import STEERING
from rich.segment import Segment
from textual.strip import Strip

CONTROL = re.compile(f"[\t\n{STEERING}]")
"""What text must never send to the terminal: C0 and C1 controls (ESC, BEL, CR, tab, newline
included: Textual has already laid the text out in cells), separators and bidirectional controls."""

_RENDER = Strip.render


def _render(strip: Strip, console: Any) -> str:
    if strip._render_cache is None and any(control is None and CONTROL.search(text) for text, _, control in strip):
        clean = Strip([_clean(segment) for segment in strip], strip.cell_length)
        strip._render_cache = _RENDER(clean, console)
    return _RENDER(strip, console)


def _clean(segment: Segment) -> Segment:
    text, style, control = segment
    return segment if control is not None else Segment(CONTROL.sub("", text), style)


def install() -> None:
    """Filter every line the app paints (idempotent)."""
    Strip.render = _render  # type: ignore[method-assign]
