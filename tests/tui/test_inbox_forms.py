"""The Inbox's forms take what they show: Enter on a destination whose file name is only suggested
previews that file, not the folder typed so far."""

from __future__ import annotations

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.preview import PreviewDialog
from textual.widgets import Input

from tests.tui.conftest import SIZE, screen_text, settle, until
from tests.tui.test_inbox import promote_form, triage_root  # noqa: F401 (a fixture)

pytestmark = pytest.mark.anyio


async def test_enter_on_a_folder_with_a_file_name_suggested_previews_that_file(triage_root):  # noqa: F811
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        form = await promote_form(pilot, "_inbox/parser-coverage.md")
        field = form.query_one("#promote-to", Input)
        field.value = ""
        field.focus()
        await settle(pilot)
        await pilot.press(*"engineering/")
        assert await until(pilot, lambda: field._suggestion.endswith(".md"))
        suggested = field._suggestion
        await pilot.press("enter")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        assert field.value == suggested and suggested in app.screen.title_text


async def test_on_a_short_terminal_the_form_scrolls_to_its_buttons(triage_root):  # noqa: F811
    """At 60x20 the promote form is taller than the screen: its Preview button is reached by
    scrolling, not cut off below it."""
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(60, 20)) as pilot:
        button = (await promote_form(pilot, "_inbox/parser-coverage.md")).query_one("#preview")
        button.focus()
        await settle(pilot)
        assert any("Preview (enter)" in row for row in screen_text(app))
