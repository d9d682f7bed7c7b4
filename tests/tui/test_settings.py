"""What the workbench remembers between runs (theme, last pane, the outline's width), kept in
``$XDG_CONFIG_HOME/memorybank/workbench.json``, and the split moved with < and >."""

from __future__ import annotations

import json

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.settings import Settings, config_path
from textual.widgets import Tree

from tests.tui.conftest import SIZE, settle

pytestmark = pytest.mark.anyio


async def test_theme_last_pane_and_split_are_remembered_in_the_config_directory(demo_source, private_settings):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.open_document("domain/invoicing-rules.md")
        await settle(pilot)
        pane = app.screen.query_one(DocumentPane)
        before = pane.query_one("#doc-outline", Tree).outer_size.width
        await pilot.press("greater_than_sign", "greater_than_sign")
        await settle(pilot)
        wider = pane.query_one("#doc-outline", Tree).outer_size.width
        assert wider == before + 8
        await pilot.press("less_than_sign")
        await settle(pilot)
        assert pane.query_one("#doc-outline", Tree).outer_size.width == wider - 4
        app.theme = "nord"
        await pilot.press("8")
        await settle(pilot)
    assert config_path().is_relative_to(private_settings)
    saved = json.loads(config_path().read_text())
    assert saved == {"theme": "nord", "pane": "inbox", "outline_width": wider - 4}

    again = make_app(demo_source, poll_seconds=0)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "nord"
        assert again.screen.query_one("#panes").active == "inbox"
        again.screen.open_document("domain/invoicing-rules.md")
        await settle(pilot)
        assert again.screen.query_one(DocumentPane).query_one("#doc-outline", Tree).outer_size.width == wider - 4


@pytest.mark.parametrize("left_on", ["document", "graph"])
async def test_a_run_left_on_a_pane_that_shows_one_document_starts_again_on_route(
    demo_source, private_settings, left_on
):
    config_path().parent.mkdir(parents=True)
    config_path().write_text(json.dumps({"pane": left_on}))
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "route"


def test_a_broken_or_foreign_settings_file_means_the_defaults(private_settings):
    config_path().parent.mkdir(parents=True)
    config_path().write_text("{not json")
    assert Settings.load() == Settings()
    config_path().write_text(json.dumps({"theme": 3.5, "pane": "inbox", "outline_width": "wide", "x": 1}))
    assert Settings.load() == Settings(pane="inbox")


async def test_presses_of_greater_than_quicker_than_a_layout_each_widen_the_outline(demo_source, private_settings):
    from textual import events

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.open_document("domain/invoicing-rules.md")
        await settle(pilot)
        outline = app.screen.query_one(DocumentPane).query_one("#doc-outline", Tree)
        before = outline.outer_size.width
        for _ in range(3):  # read at once, as a held key repeats
            app.post_message(events.Key("greater_than_sign", ">"))
        await settle(pilot)
        assert outline.outer_size.width == before + 12


async def test_an_outline_remembered_wide_leaves_the_text_half_of_a_narrow_terminal(demo_source, private_settings):
    config_path().parent.mkdir(parents=True)
    config_path().write_text(json.dumps({"outline_width": 36}))
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        app.screen.open_document("domain/invoicing-rules.md")
        await settle(pilot)
        pane = app.screen.query_one(DocumentPane)
        assert pane.query_one("#doc-outline", Tree).outer_size.width <= 30  # was 36, the text 22 wide
        await pilot.press("greater_than_sign", "greater_than_sign")
        await settle(pilot)
        assert pane.query_one("#doc-outline", Tree).outer_size.width <= 30
