"""Bank text is shown as written, never read as markup: a title or a heading holding ``[/api]``,
``[b]`` or ``[@click=app.quit]`` neither crashes the workbench (and the MCP server it hosts) nor
loses its brackets nor runs an action."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.create import create
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.fold import FoldDialog
from textual.command import CommandPalette
from textual.widgets import Input, Select

from tests.tui.conftest import SIZE, screen_text, settle, until, write_doc
from tests.tui.test_inbox import open_inbox, triage_root  # noqa: F401 (a fixture)

pytestmark = pytest.mark.anyio

TITLE = "Routes under [/api] need auth [b]now[/b] [@click=app.quit]quit[/]"
HEADING = "Tooling Contract (see [/scripts] folder) `[C-1]`"


def hostile(root) -> None:
    write_doc(
        root,
        "engineering/api-routes.md",
        f"title: '{TITLE}'\npurpose: Which routes check the token.\ndoc_kind: engineering",
        f"# Routes\n\n## {HEADING}\n\nEvery route checks the token.\n",
    )
    create(Bank.open(root), path="_inbox/api.md", title=TITLE, purpose="A note.", body="x", inbox=True, client="bot")


async def test_the_jump_list_shows_a_title_with_brackets_as_written(triage_root):  # noqa: F811
    hostile(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("escape", "ctrl+o")
        assert await until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette))
        assert await until(pilot, lambda: "[/api] need auth [b]now[/b]" in "\n".join(screen_text(pilot.app)))
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.is_running


async def test_the_fold_form_lists_a_heading_with_brackets_as_written(triage_root):  # noqa: F811
    hostile(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        await pilot.press("f")
        assert await until(pilot, lambda: isinstance(pilot.app.screen, FoldDialog))
        pilot.app.screen.query_one("#fold-into", Input).value = "engineering/api-routes.md"
        await settle(pilot)
        section = pilot.app.screen.query_one("#fold-section", Select)
        assert section.value == HEADING
        assert "[/scripts] folder)" in "\n".join(screen_text(pilot.app))
        assert pilot.app.is_running


async def test_every_pane_shows_the_hostile_title_without_failing(triage_root):  # noqa: F811
    hostile(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press(*"api routes auth")
        await settle(pilot)
        await pilot.press("escape")
        for key in "23456789":
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("ctrl+p", *"api")
        await settle(pilot)
        assert pilot.app.is_running
