"""The workbench as a whole: the header, every pane by key and by palette, jump to a document,
keys help and themes, the welcome screen, and a write made by another process showing up."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.dialogs.keys import KeysDialog
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.panes.route import RoutePane
from memorybank.tui.screens.welcome import WelcomeScreen
from memorybank.tui.screens.workbench import PANES, WorkbenchScreen
from memorybank.tui.widgets.bank_header import BankHeader
from textual.command import CommandInput, CommandPalette
from textual.widgets import Input

from tests.tui.conftest import SIZE, Notes, screen_text, settle, until

pytestmark = pytest.mark.anyio


async def test_the_header_counts_documents_findings_the_inbox_and_the_contract(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        summary = app.screen.query_one(BankHeader).summary
        assert (summary.name, summary.documents, summary.errors, summary.warnings) == ("Harbor", 36, 1, 2)
        assert (summary.inbox, summary.proposals, summary.contract) == (4, 1, True)
        line = str(app.screen.query_one(BankHeader).render())
        assert line.startswith(" Harbor ") and "contract ✓" in line and "inbox 4 (1 proposal)" in line


async def test_a_bank_without_dna_is_shown_degraded_and_says_why_and_what_to_do(tmp_path, monkeypatch):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("---\ntitle: A\npurpose: p\n---\n# A\n")
    app = make_app(tmp_path, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app, monkeypatch)
        await settle(pilot)
        assert app.screen.query_one(BankHeader).summary.contract is False
        assert "degraded" in str(app.screen.query_one(BankHeader).render())
        said = [m for m, _ in notes.messages if "no contract" in m]
        assert said and "dna/governance.md" in said[0] and "not applied" in said[0]


async def test_placeholders_and_hints_speak_the_banks_language_and_name_the_search_pane(tmp_path):
    (tmp_path / "domain").mkdir()
    (tmp_path / "domain" / "porog.md").write_text(
        "---\ntitle: Пороги фильтрации\npurpose: Где живут пороги.\ncanonical_for:\n  - порог_фильтра\n---\n# П\n"
    )
    app = make_app(tmp_path, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "пороги фильтрации" in app.screen.query_one("#route-question", Input).placeholder
        await pilot.press("escape", "6")
        await settle(pilot)
        assert "порог_фильтра" in app.screen.query_one("#search-query", Input).placeholder
        await pilot.press("escape", "1")
        app.screen.query_one(RoutePane).ask("zzzz qqqq")
        await settle(pilot)
        detail = str(app.screen.query_one("#route-detail").render())
        assert "bank_search" not in detail and "alt+6 (or Esc, then 6) searches" in detail


async def test_an_empty_project_name_is_answered_beside_the_field(tmp_path):
    app = make_app(tmp_path / "memory_bank", poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert "Give the project a name" in str(app.screen.query_one("#name-problem").render())


async def test_notifications_never_cover_a_dialogs_buttons(tmp_path):
    app = make_app(tmp_path / "memory_bank", poll_seconds=0)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        app.notify("A long notification that takes a few lines of the screen to say what it has to say. " * 2)
        await settle(pilot)
        await settle(pilot)
        toasts = [t.region for t in app.screen.query("Toast")]
        buttons = [b.region for b in app.screen.query("Button")]
        assert toasts and buttons
        assert not any(t.overlaps(b) for t in toasts for b in buttons)


async def test_every_pane_is_reachable_by_its_key_and_by_the_palette(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tabs = app.screen.query_one("#panes")
        await pilot.press("escape")
        for spec in reversed(PANES):
            await pilot.press(spec.key)
            assert tabs.active == spec.id
            await pilot.press("escape")
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for spec in PANES:
            assert f"{spec.pane.TITLE}: go to the pane ({spec.key})" in titles
            for command in spec.pane.COMMANDS_OFFERED:
                assert command.title in titles or any(t.startswith(f"{command.title} (") for t in titles)
        assert "Graph: walk up (what it derives from) (u)" in titles  # the palette teaches the keys
        assert "Route: explain the selected result's score (ctrl+y)" in titles
        assert {"Jump to a document…", "Re-check the disk now", "Theme", "Keys", "Quit"} <= titles
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        app.screen.query_one(CommandInput).value = "Drift: go to the pane"
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, WorkbenchScreen) and tabs.active == "drift"


async def test_jump_to_a_document_from_its_own_palette(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        app.screen.query_one(CommandInput).value = "tax-model"
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one(DocumentPane).opened.doc.path == "domain/tax-model.md"


async def test_the_jump_list_shows_a_dozen_documents_at_80x24_one_line_each(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        rows = screen_text(app)
        listed = [row for row in rows if ".md · " in row]
        assert len(listed) >= 12, rows
        assert any("…" in row for row in listed)  # a purpose cut at the line's end, not wrapped
        app.screen.query_one(CommandInput).value = "tax"
        await settle(pilot)
        assert len([row for row in screen_text(app) if ".md · " in row]) >= 2


async def test_question_mark_shows_the_panes_own_keys_first_within_80_columns(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "3", "question_mark")
        await settle(pilot)
        assert isinstance(app.screen, KeysDialog)
        rows = [row.split("│")[1].strip() if row.count("│") >= 2 else "" for row in screen_text(app)]
        first = next(i for i, row in enumerate(rows) if row.startswith("Graph pane"))
        everywhere = next(i for i, row in enumerate(rows) if row.startswith("Everywhere"))
        graph_keys = " ".join(rows[first:everywhere])
        assert first < everywhere and "Re-root" in graph_keys and "Depth" in graph_keys
        assert all(len(row) <= 80 for row in screen_text(app))
        await pilot.press("escape")
        assert isinstance(app.screen, WorkbenchScreen)


async def test_ctrl_t_offers_themes(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        app.theme = "nord"
        await settle(pilot)
        assert app.theme == "nord"


async def test_with_no_bank_the_welcome_screen_creates_one_with_the_name_given(tmp_path):
    root = tmp_path / "memory_bank"
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WelcomeScreen)
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#name", Input).value = "Lighthouse"
        await pilot.press("enter")
        await settle(pilot, rounds=5)
        assert isinstance(app.screen, WorkbenchScreen)
        assert app.bank is not None and len(app.bank) == 24
        assert "Lighthouse" in (root / "README.md").read_text()


async def test_the_header_names_the_project_as_typed_on_the_welcome_screen_not_its_folder(tmp_path):
    """The header showed the folder holding memory_bank/ ("checkout-svc"), not the name typed."""
    root = tmp_path / "checkout-svc" / "memory_bank"
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#name", Input).value = "Checkout Service"
        await pilot.press("enter")
        await settle(pilot, rounds=5)
        header = app.screen.query_one(BankHeader)
        assert await until(pilot, lambda: header.summary is not None)
        assert header.summary.name == "Checkout Service"
        assert str(header.render()).startswith(" Checkout Service ")


async def test_the_welcome_screen_opens_the_demo(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    app = make_app(tmp_path / "nothing-here", poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot, rounds=6)
        assert isinstance(app.screen, WorkbenchScreen)
        assert app.bank.root.name == "memory_bank" and app.bank.root.parent.name == "harbor"


async def wait_for(pilot, condition, seconds: float) -> bool:
    """Poll the open app for up to ``seconds`` (real time: the disk re-check runs on a clock)."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        await pilot.pause(0.1)
        if condition():
            return True
    return condition()


async def test_an_agent_note_captured_through_memorybank_mcp_shows_up_within_three_seconds(demo_bank):
    """A real MCP client talks to `memorybank mcp` over stdio in another process; the open app sees
    the captured note in its header without a restart."""
    from mcp import Client, StdioServerParameters
    from mcp_types import Implementation

    server = StdioServerParameters(
        command=str(Path(sys.executable).parent / "memorybank"),
        args=["mcp", "--root", str(demo_bank)],
        cwd=str(demo_bank.parent),
    )
    app = make_app(demo_bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = app.screen.query_one(BankHeader)
        before = header.summary.inbox
        async with Client(server, client_info=Implementation(name="claude-code", version="1")) as client:
            result = await client.call_tool(
                "bank_create",
                {
                    "docKind": "engineering",
                    "path": "stripe-webhooks.md",
                    "title": "Stripe webhooks arrive twice",
                    "purpose": "Stripe retries webhooks, so payment events must be idempotent.",
                    "inbox": True,
                },
            )
            assert not result.is_error, result.content
        assert await wait_for(pilot, lambda: header.summary.inbox == before + 1, 3.0), (
            "the captured note did not appear within 3 s"
        )
        assert app.bank.document("_inbox/stripe-webhooks.md").frontmatter["captured_by"] == "claude-code"


async def test_a_file_written_by_another_process_shows_up_through_notifications_without_the_poll(demo_bank):
    """The poll is off; only the file-system notification can tell the app."""
    pytest.importorskip("watchfiles")
    app = make_app(demo_bank, poll_seconds=0, watch_files=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await wait_for(pilot, app.watching.is_set, 3.0)
        header = app.screen.query_one(BankHeader)
        before = header.summary.documents
        (demo_bank / "ops" / "on-call.md").write_text(
            "---\ntitle: On-call\ndoc_kind: ops\nstatus: draft\npurpose: Who answers the pager.\n---\n# On-call\n"
        )
        assert await wait_for(pilot, lambda: header.summary.documents == before + 1, 3.0), (
            "the new document did not appear within 3 s"
        )


async def test_a_panes_keys_show_each_key_once_and_say_what_enter_opens(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "5", "question_mark")  # Drift: +/- and ]/[ each with a hidden twin
        await settle(pilot)
        rows = [row[3:77].strip() for row in screen_text(app)]  # inside the dialog's border
        first = next(i for i, row in enumerate(rows) if row.startswith("Drift pane"))
        everywhere = next(i for i, row in enumerate(rows) if row.startswith("Everywhere"))
        drift = rows[first + 1 : everywhere]
        assert sum("30 days" in row for row in drift) == 2  # threshold and stale, once each
        assert any(row.startswith("Enter") and "open the document" in row for row in drift)
        assert not any(row.startswith("esc") for row in drift)


async def test_pane_keys_typed_in_one_burst_each_reach_the_pane_in_front(demo_source):
    """Keys that arrive before the focus has moved: a letter never lands in the pane just left
    (typed into Route's question, which brought Route back), and every digit switches."""
    from textual import events
    from textual.widgets import TabbedContent

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        route.ask("deploy")
        await settle(pilot)
        route.action_results()
        await settle(pilot)
        for key in ("2", "w", "3", "4", "5"):  # posted at once, as a burst reaches the app
            app.post_message(events.Key(key, key))
        await settle(pilot, rounds=4)
        assert app.screen.query_one("#panes", TabbedContent).active == "drift"
        assert route.question == "deploy"
        assert app.screen.focused is not None and app.screen.pane("drift") in app.screen.focused.ancestors
        await pilot.press("1")
        await settle(pilot)
        route.action_ask()
        await settle(pilot)
        await pilot.press("end", "2")  # in a text box a digit is a digit
        await settle(pilot)
        assert route.question == "deploy2" and app.screen.query_one("#panes", TabbedContent).active == "route"


async def test_a_pane_placed_on_screen_with_no_resize_event_still_lists_and_takes_the_focus(demo_source):
    """Textual sends no Resize to a widget its compositor first placed while filling in its map for
    a region asked of it before the layout that shows the widget (the tab a pane was just mounted in
    asks, as it refreshes itself): the Inbox shown so lists its notes and takes the focus all the
    same. It waited for that Resize, its notes never listed."""
    import asyncio

    from memorybank.tui.panes.inbox import InboxPane

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        with app.batch_update():  # no layout until the pane is mounted
            screen.show_pane("inbox")
            inbox = screen.query_one(InboxPane)
            for _ in range(2000):
                if inbox.is_mounted:
                    break
                await asyncio.sleep(0.01)
            screen._compositor._full_map_invalidated = True  # as a repaint of a widget off the visible map leaves it
            assert inbox.size.height > 0  # placed while the map is filled in, before a layout shows it
        assert await until(pilot, lambda: bool(inbox.entries))
        assert screen.focused is not None and inbox in screen.focused.ancestors


async def test_a_pane_shown_before_the_tabs_heard_of_a_focus_in_the_pane_left_stays_in_front_and_lists(demo_source):
    """Esc moved the focus to Route's results, and 8 was read before word of that focus reached the
    tabs (it travels up as messages): the Inbox stays in front and lists its notes. Route used to
    take its tab back then, leaving the Inbox made but hidden, its notes never listed."""
    from memorybank.tui.panes.inbox import InboxPane
    from textual.widgets import DataTable, TabbedContent

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.set_focus(screen.query_one("#route-results", DataTable))
        screen.show_pane("inbox")  # in the same turn: the focus's messages are all still queued
        inbox = screen.query_one(InboxPane)
        assert await until(pilot, lambda: bool(inbox.entries))
        assert screen.query_one("#panes", TabbedContent).active == "inbox" and inbox.active
        assert screen.focused is not None and inbox in screen.focused.ancestors


def header_alone():
    """An app showing the bank header alone, for its summary to be set by hand."""
    from memorybank.tui.widgets.bank_header import BankHeader
    from textual.app import App

    class One(App[None]):
        def compose(self):
            yield BankHeader()

    return One()


async def header_showing(pilot, summary) -> str:
    """The header line once ``summary`` is set on the app's header."""
    from memorybank.tui.widgets.bank_header import BankHeader

    header = pilot.app.query_one(BankHeader)
    header.summary = summary
    await pilot.pause()
    return str(header.render())


async def test_the_header_groups_thousands_as_the_indexing_progress_does(tmp_path):
    """ "indexing: 3,658 documents read" is followed by "5,002 documents", not "5002 documents"."""
    from memorybank.tui.widgets.bank_header import BankSummary

    async with header_alone().run_test(size=(120, 3)) as pilot:
        line = await header_showing(pilot, BankSummary("big", 5002, 1200, 12040, 0, 0, 0, True))
        assert "5,002 documents" in line and "1,200 errors" in line and "12,040 warnings" in line, line


async def test_at_80_columns_the_header_keeps_the_inbox_proposals_and_stale_notes(tmp_path):
    """A large bank at 80 columns: the counts lose their words before the inbox loses what waits."""
    from memorybank.tui.widgets.bank_header import BankSummary

    app = header_alone()
    async with app.run_test(size=(80, 3)) as pilot:
        line = await header_showing(pilot, BankSummary("ai", 420, 75, 394, 1, 1, 1, True))
        header = app.query_one(BankHeader)
        assert len(line) <= 80 and "…" not in line
        assert "✗ 75" in line and "⚠ 394" in line and "1 proposal" in line and "1 stale" in line, line
        await pilot.resize_terminal(60, 3)
        await pilot.pause()
        line = str(header.render())
        assert len(line) <= 60 and "contract ✓" in line, line


async def test_a_long_bank_name_gives_up_cells_before_the_mcp_port(tmp_path):
    """The port is what the owner points an agent at: the bank's name is cut first."""
    from memorybank.tui.widgets.bank_header import BankSummary

    app = header_alone()
    async with app.run_test(size=(80, 3)) as pilot:
        header = app.query_one(BankHeader)
        header.serving = "http://127.0.0.1:8765/mcp"
        line = await header_showing(pilot, BankSummary("asromanychev__ai-setup", 419, 74, 393, 0, 0, 0, True))
        assert len(line) <= 80 and line.rstrip().endswith(":8765"), line
        assert "asromanychev" in line and "contract ✓" in line, line
