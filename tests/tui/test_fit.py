"""What an owner saw cut or hidden at 80x24 (issue 18): each screen read as text, as a person would."""

from __future__ import annotations

import shutil

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.findings import FindingsPane
from textual.widgets import Select, Tree

from tests.conftest import REAL_BANKS
from tests.tui.conftest import SIZE, screen_text, settle

pytestmark = pytest.mark.anyio


FORUM = next((p for p in REAL_BANKS if p.parent.name == "Pegorino82__lfcru_forum"), None)


@pytest.mark.skipif(FORUM is None, reason="the real banks are not beside the project")
async def test_findings_open_with_the_first_group_header_in_view(tmp_path):
    """The tree was filled while it was still short (six real banks, depending on timing), so
    bringing the cursor into view scrolled it one line down, the first rule's header hidden. A
    terminal that starts short and grows makes the timing certain; the bank needs more findings
    than fit, or Textual scrolls back by itself."""
    assert FORUM is not None
    bank = shutil.copytree(FORUM, tmp_path / "memory_bank")
    app = make_app(bank, poll_seconds=0)
    async with app.run_test(size=(80, 15)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "4")
        await settle(pilot)
        await pilot.resize_terminal(*SIZE)
        await settle(pilot)
        tree = app.screen.query_one(FindingsPane).query_one("#findings-tree", Tree)
        assert tree.scroll_offset.y == 0
        assert any("▼ ✗" in row for row in screen_text(app)[:9])


async def test_the_rule_filter_lists_whole_rule_names(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "4")
        await settle(pilot)
        select = app.screen.query_one("#findings-rule", Select)
        select.focus()
        await pilot.press("enter")
        await pilot.press(*["down"] * 12)
        await settle(pilot)
        rows = screen_text(app)
        assert any("unresolved-rule-reference" in row for row in rows) or any(
            "must-not-define-violated" in row for row in rows
        )
        assert not any("unresolved-rule-ref\n" in row for row in rows)


async def test_the_graph_footer_keeps_its_keys_and_an_empty_graph_shows_no_lone_root(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "3")
        await settle(pilot)
        rows = screen_text(app)
        assert "? Keys" in rows[-1]
        assert not any("▶ graph" in row for row in rows)


async def test_drift_without_anchors_says_its_whole_sentence(reference_bank):
    app = make_app(reference_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5")
        await settle(pilot)
        note = str(app.screen.query_one("#drift-summary").render()).split()
        shown = " ".join(" ".join(screen_text(app)).split())
        assert " ".join(note[-6:]) in shown  # the last words of the note are on screen
        assert "? Keys" in screen_text(app)[-1]
