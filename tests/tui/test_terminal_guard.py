"""A bank's text never drives the owner's terminal: what the workbench paints is filtered where
Textual turns lines into terminal bytes."""

from __future__ import annotations

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.document import DocumentPane
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tests.tui.conftest import SIZE, settle, write_doc

pytestmark = pytest.mark.anyio

LOUD = "red \x1b[31mALERT\x1b[0m, retitled \x1b]0;owned\x07, cleared \x1b[2J, \u202eeroverride"


def painted(app) -> str:
    """Every byte the app would write to the terminal for a full repaint of its screen."""
    return app.screen._compositor.render_update(full=True).render_segments(app.console)


async def test_escape_sequences_in_a_document_reach_the_screen_as_plain_text(demo_bank):
    write_doc(demo_bank, "domain/loud.md", "title: Loud \x1b]0;title\x07\ndoc_kind: note", f"# Loud\n\n{LOUD}\n")
    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.open_document("domain/loud.md")
        await settle(pilot)
        assert app.screen.query_one(DocumentPane).path == "domain/loud.md"
        for view in ("rendered", "source"):
            shown = painted(app)
            assert "ALERT" in shown and "]0;owned" in shown, view  # the text is there, inert
            for sequence in ("\x1b[31mALERT", "\x1b]0;", "\x07", "\x1b[2J", "\u202e"):
                assert sequence not in shown, (view, sequence)
            await pilot.press("s")
            await settle(pilot)


def test_a_line_keeps_its_styles_and_width_when_its_text_is_filtered():
    line = Strip([Segment("a\x1b]0;x\x07b", Style(bold=True)), Segment("\tc")])
    shown = line.render(_console())
    assert shown == "\x1b[1ma]0;xb\x1b[0mc" and line.cell_length == 7


def _console():
    from rich.console import Console

    return Console(color_system="truecolor", force_terminal=True)
