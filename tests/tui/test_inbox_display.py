"""What the Inbox says about a note: a fold proposal names where it would fold (in the list, beside
the note and in the dialogs that decide it), and the documents where it belongs keep the ends of
their paths."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp_types import Implementation
from memorybank.mcp_server.server import build_server
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.reject import RejectDialog
from memorybank.tui.proposals import Proposal

from tests.tui.conftest import screen_text, settle, until
from tests.tui.test_inbox import open_inbox, triage_root  # noqa: F401 (a fixture)

pytestmark = pytest.mark.anyio

INTO, SECTION = "engineering/testing-policy.md", "What Must Be Tested"


def test_a_fold_proposal_reads_as_its_document_section_and_mode():
    raw = {"action": "fold", "into": INTO, "section": SECTION, "mode": "append", "proposed_by": "cursor"}
    proposal = Proposal.of(raw)
    assert proposal.badge == f"fold→{INTO} § {SECTION}"
    assert proposal.headline == f"fold → {INTO} § {SECTION} (append)"
    assert Proposal.of({"action": "discard"}).headline == "discard"


async def propose_fold(root) -> None:
    """An agent (cursor) proposes over MCP to fold the parser-coverage note into the testing policy."""
    async with Client(build_server(root), client_info=Implementation(name="cursor", version="1")) as client:
        folded = await client.call_tool(
            "bank_fold", {"path": "_inbox/parser-coverage.md", "into": INTO, "section": SECTION, "mode": "append"}
        )
        assert not folded.is_error, folded.content


async def test_the_inbox_shows_where_a_fold_proposal_would_fold(triage_root):  # noqa: F811
    await propose_fold(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_inbox(pilot, "_inbox/parser-coverage.md")
        await settle(pilot)
        shown = "\n".join(screen_text(app))
        assert "fold→…/testing-policy.md" in shown or f"fold→{INTO}" in shown  # the list's cell
        assert "testing-policy.md" in shown.split("Proposal by cursor", 1)[1]  # beside the note
        await pilot.press("r")
        assert await until(pilot, lambda: isinstance(app.screen, RejectDialog))
        await settle(pilot)
        assert f"{INTO} § {SECTION}" in "\n".join(screen_text(app))


async def test_applying_a_fold_proposal_with_a_folds_and_says_so(triage_root):  # noqa: F811
    """The one-key flow for an agent's fold proposal: before, the app crashed once the fold landed."""
    from memorybank.tui.dialogs.preview import PreviewDialog
    from memorybank.tui.screens.workbench import WorkbenchScreen

    await propose_fold(triage_root)
    app = make_app(triage_root, poll_seconds=0)
    async with app.run_test(size=(120, 36)) as pilot:
        pane = await open_inbox(pilot, "_inbox/parser-coverage.md")
        await pilot.press("a")
        assert await until(pilot, lambda: isinstance(app.screen, PreviewDialog))
        await pilot.press("y")
        assert await until(
            pilot,
            lambda: (
                isinstance(app.screen, WorkbenchScreen)
                and "_inbox/parser-coverage.md" not in [e.path for e in pane.entries]
            ),
        )
        assert await until(pilot, lambda: any("Applied: folded into" in str(n.message) for n in app._notifications))
        assert app.is_running
    assert not (triage_root / "_inbox/parser-coverage.md").exists()


def test_where_it_belongs_cuts_a_long_path_in_the_middle_so_siblings_stay_apart():
    import io

    from memorybank.tui.panes.inbox_view import PathLine
    from rich.console import Console
    from rich.text import Text

    console = Console(width=34, file=io.StringIO(), record=True, color_system=None)
    for path in (
        "issues/0004-s3-blob-storage/iterations/spec/spec-v1.md",
        "issues/0004-s3-blob-storage/iterations/plan/plan-v2.md",
    ):
        console.print(PathLine(Text("1 "), path))
    rows = console.export_text().splitlines()
    assert rows[0].endswith("/spec-v1.md") and rows[1].endswith("/plan-v2.md") and "0004" in rows[0]
    assert all(len(row) <= 34 for row in rows)


def test_where_it_belongs_cuts_two_candidates_of_one_name_apart():
    """ai-setup at 80 columns listed …/template-improvements-1.md twice (issues 0001 and 0004)."""
    import io

    from memorybank.tui.panes.inbox_view import PathLine
    from rich.console import Console
    from rich.text import Text

    listed = tuple(
        f"issues/{issue}/iterations/analysis/template-improvements-1.md"
        for issue in ("0001-plugin-contract", "0004-s3-blob-storage")
    )
    console = Console(width=33, file=io.StringIO(), record=True, color_system=None)
    for number, path in enumerate(listed, 1):
        console.print(PathLine(Text(f"{number} "), path, listed))
    rows = console.export_text().splitlines()
    assert rows[0] != rows[1].replace("2 ", "1 ", 1) and all(len(row) <= 33 for row in rows), rows
    assert "0001" in rows[0] and "0004" in rows[1]


async def test_space_marks_a_note_and_moves_on_and_every_key_list_says_so(demo_source):
    """Space marks the highlighted note and moves to the next one; the key help, the pane's hint
    and the README said only "mark"."""
    from pathlib import Path

    from memorybank.tui.panes.inbox import KEYS, InboxPane
    from textual.widgets import DataTable

    from tests.tui.conftest import SIZE

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "8")
        pane = app.screen.query_one(InboxPane)
        assert await until(pilot, lambda: len(pane.entries) > 1)
        table = pane.query_one("#inbox-notes", DataTable)
        first = pane.entries[0].path
        await pilot.press("space")
        await settle(pilot)
        assert pane.marked == {first} and table.cursor_row == 1
        await pilot.press("question_mark")
        await settle(pilot)
        keys = " ".join(" ".join(screen_text(app)).split())
        assert "␣ Mark or unmark the note, then go to the next" in keys
    assert "space marks and moves on" in KEYS
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `space`"))
    assert "moves to the next note" in row
