"""The workbench's start: the first frame holds the header with its progress and the tabs, imports
nothing else, and the pane in front follows it with every key typed meanwhile; the first index is
read from the parse cache every command shares, in the worker behind the header's progress, and
runs each piece of work once."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys

import memorybank.core.parse
import memorybank.core.validate
import pytest
from memorybank.tui.app import make_app
from memorybank.tui.typed_ahead import handing_over
from memorybank.tui.widgets.bank_header import BankHeader

from tests.conftest import FIXTURES, PROJECT
from tests.tui.conftest import SIZE, settle, until

pytestmark = pytest.mark.anyio

PAST = 1_700_000_000


@pytest.fixture
def aged_bank(tmp_path, monkeypatch):
    """The reference bank with every file dated in the past (the cache keeps only settled files)."""
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "reference"
    shutil.copytree(FIXTURES / "reference", root)
    for path in root.rglob("*"):
        os.utime(path, (PAST, PAST))
    return root


PATIENT = 120.0
"""How long a key typed ahead may wait for the one before it in the tests that type ahead, and how
long they wait for its effect: the product's valve (``MOST_SECONDS``) sends a key as it stands
after a few seconds, which on a loaded machine can come before the palette took its focus; these
tests check the order, not the valve, so they never reach it."""


@pytest.fixture
def patient(monkeypatch):
    monkeypatch.setattr("memorybank.tui.typed_ahead.MOST_SECONDS", PATIENT)


@pytest.fixture
def counted(monkeypatch):
    """How often documents were parsed and the validation rules run, by name."""
    counts = {"parsed": 0, "validated": 0}
    parse, rules = memorybank.core.parse.parse_document, memorybank.core.validate._all_findings

    def parsing(*args, **kwargs):
        counts["parsed"] += 1
        return parse(*args, **kwargs)

    def validating(*args, **kwargs):
        counts["validated"] += 1
        return rules(*args, **kwargs)

    monkeypatch.setattr(memorybank.core.parse, "parse_document", parsing)
    monkeypatch.setattr(memorybank.core.validate, "_all_findings", validating)
    return counts


async def start(root):
    """Start the workbench, let its first index finish, and return the header's counts."""
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        return app.screen.query_one(BankHeader).summary


@pytest.mark.parametrize("first_pane", ["route", "findings"])
async def test_the_first_index_parses_and_validates_once(aged_bank, counted, private_settings, first_pane):
    (private_settings / "memorybank").mkdir(parents=True)
    (private_settings / "memorybank" / "workbench.json").write_text(json.dumps({"pane": first_pane}))
    summary = await start(aged_bank)
    assert summary is not None and summary.documents > 0
    assert counted == {"parsed": len(list(aged_bank.rglob("*.md"))), "validated": 1}


async def test_a_second_start_reads_the_bank_from_the_parse_cache(aged_bank, counted):
    first = await start(aged_bank)
    counted.update(parsed=0, validated=0)
    assert await start(aged_bank) == first
    assert counted == {"parsed": 0, "validated": 0}, "documents and findings came from the cache"


FIRST_FRAME = """
import asyncio, json, sys
from memorybank.tui.app import make_app
from memorybank.tui.panes.base import Pane
from memorybank.tui.screens.workbench import WorkbenchScreen
from memorybank.tui.widgets.bank_header import BankHeader
from textual.screen import Screen

seen = {}
drawn = Screen._compositor_refresh

def draw(screen):
    drawn(screen)
    if isinstance(screen, WorkbenchScreen) and not seen:
        seen.update(
            modules=sorted(sys.modules),
            panes=[pane.id for pane in screen.query(Pane)],
            header=str(screen.query_one(BankHeader).render()),
        )

Screen._compositor_refresh = draw

async def main():
    async with make_app(sys.argv[1], poll_seconds=0).run_test(size=(80, 24)):
        while not seen:
            await asyncio.sleep(0.01)

asyncio.run(main())
print(json.dumps(seen))
"""

NOT_BEFORE_THE_FIRST_FRAME = (
    "memorybank.tui.panes.route",
    "textual.widgets._data_table",
    "textual.widgets._text_area",
    *(f"memorybank.tui.panes.{pane}" for pane in ("document", "graph", "findings", "drift", "search", "changes")),
    "memorybank.tui.panes.inbox",
    "memorybank.tui.panes.activity",
    "memorybank.tui.triage",
    "memorybank.core.route",
    "memorybank.core.validate",
    "memorybank.core.write.inbox",
    "memorybank.core.write.recovery",
    "memorybank.core.parse",
    "memorybank.core.index",
    "memorybank.core.model",
    "memorybank.mcp_server",
    "mcp",
    "pydantic",
    "git",
    "markdown_it",
    "pymorphy3",
    "watchfiles",
    "yaml",
    "filelock",
)
"""What the first frame does not need: the panes (the one in front is made right after it), the
router, the validator, the write path, the parser and what it reads YAML with (the index imports
them, after the first frame), the MCP SDK and the libraries only the panes or the index use."""


def test_the_first_frame_shows_the_header_indexing_and_the_tabs_and_imports_nothing_else(aged_bank, tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, str(aged_bank)], capture_output=True, text=True, cwd=PROJECT, env=env
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["panes"] == []  # the pane in front is made and mounted right after the first frame
    assert "memorybank" in seen["header"] and ("indexing" in seen["header"] or "reading the bank" in seen["header"])
    imported = set(seen["modules"])
    assert [m for m in NOT_BEFORE_THE_FIRST_FRAME if m in imported] == []


@pytest.mark.usefixtures("patient")
async def test_keys_typed_before_the_first_pane_is_ready_reach_its_question_box_in_order(aged_bank, monkeypatch):
    """The pane in front is mounted after the first frame: what is typed meanwhile (digits too,
    which would otherwise switch panes) waits for the question box and lands in it in order, and
    Enter then asks the question as it would have."""
    from memorybank.tui.panes.route import RoutePane
    from memorybank.tui.screens.workbench import WorkbenchScreen
    from textual import events

    mounted = WorkbenchScreen.on_mount

    def typed_at_once(screen):
        mounted(screen)
        for char in "FT-020 x":  # reaches the screen before the pane is made
            screen.app.post_message(events.Key("space" if char == " " else char, char))
        # Enter, as a terminal not yet in raw mode delivers it (a line feed): the question is asked
        screen.app.post_message(events.Key("ctrl+j", "\n"))

    monkeypatch.setattr(WorkbenchScreen, "on_mount", typed_at_once)
    app = make_app(aged_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        route = app.screen.query_one(RoutePane)
        assert route.query_one("#route-question").value == "FT-020 x"
        assert app.screen.query_one("#panes").active == "route"
        assert app.focused is route.query_one("#route-results")
        assert not handing_over(app)


@pytest.mark.usefixtures("patient")
async def test_ctrl_o_typed_before_the_first_pane_opens_the_jump_palette_with_what_follows(aged_bank, monkeypatch):
    """Each key typed ahead is handed over once the one before it was handled: the palette ctrl+o
    opens takes the letters typed after it, as it would a moment later."""
    from memorybank.tui.screens.workbench import WorkbenchScreen
    from textual import events
    from textual.command import CommandPalette
    from textual.widgets import Input

    mounted = WorkbenchScreen.on_mount

    def typed_at_once(screen):
        mounted(screen)
        screen.app.post_message(events.Key("ctrl+o", None))
        for char in "ref":
            screen.app.post_message(events.Key(char, char))

    monkeypatch.setattr(WorkbenchScreen, "on_mount", typed_at_once)
    app = make_app(aged_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await until(pilot, lambda: CommandPalette.is_open(app), PATIENT)
        assert await until(pilot, lambda: app.screen.query_one(Input).value == "ref", PATIENT)


async def test_a_question_asked_before_the_first_index_waits_for_it_instead_of_finding_nothing(aged_bank, monkeypatch):
    """Route says the bank is being read, never "no match" from half a bank; the answer follows."""
    import threading

    from memorybank.core.bank import Bank
    from memorybank.tui.panes.route import READING, RoutePane

    refresh, gate = Bank.refresh, threading.Event()

    def held(bank, *args, **kwargs):
        gate.wait(10)  # the first index takes its time
        return refresh(bank, *args, **kwargs)

    monkeypatch.setattr(Bank, "refresh", held)
    app = make_app(aged_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        route = app.screen.query_one(RoutePane)
        route.ask("pricing decision")
        await pilot.pause()
        assert str(route.query_one("#route-detail").render()) == READING and route.result is None
        gate.set()
        assert await until(pilot, lambda: route.result is not None and route.result.hits)


async def test_a_pane_is_made_when_first_shown_and_gets_what_the_screen_kept_for_it(aged_bank):
    app = make_app(aged_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert set(screen._panes) == {"route"}
        path = next(doc.path for doc in app.bank if not doc.is_inbox)
        screen.open_document(path)
        await settle(pilot)
        assert set(screen._panes) == {"route", "document"}
        assert screen.pane("document").opened.doc.path == path
        await pilot.press("3")
        await settle(pilot)
        graph = screen.pane("graph")
        assert graph.root_path == path and graph.composed and screen.query_one("#panes").active == "graph"


def test_each_pane_is_listed_under_its_own_title():
    from memorybank.tui.screens.workbench import PANES

    assert [spec.title for spec in PANES] == [spec.pane.TITLE for spec in PANES]


async def test_once_the_router_is_warm_the_long_lived_heap_is_left_out_of_collections(aged_bank):
    """The documents and the router's indexes live as long as the app: after the first index and the
    router's warm-up they are frozen, so a full collection inside a keystroke walks only what came
    after them (on 5,000 documents each one took 80-170 ms)."""
    gc.unfreeze()
    app = make_app(aged_bank, poll_seconds=0)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await settle(pilot)
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


@pytest.mark.usefixtures("patient")
async def test_keys_typed_while_the_early_ones_are_handed_over_wait_behind_them(aged_bank, monkeypatch):
    """The owner goes on typing as the first pane takes the focus: the letters still on their way to
    the app when the early keys are handed over follow them, into the palette ctrl+o opened, and
    none lands in the question box the focus just reached."""
    from memorybank.tui.panes.route import RoutePane
    from memorybank.tui.screens.workbench import WorkbenchScreen
    from textual import events
    from textual.command import CommandPalette
    from textual.widgets import Input

    mounted = WorkbenchScreen.on_mount
    hand_over = WorkbenchScreen._hand_over_early_keys

    def typed_at_once(screen):
        mounted(screen)
        screen.app.post_message(events.Key("ctrl+o", None))
        screen.app.post_message(events.Key("r", "r"))

    def typed_on(screen):
        for char in "ef":  # reach the app after the pane took the focus, before the early keys
            screen.app.post_message(events.Key(char, char))
        hand_over(screen)

    monkeypatch.setattr(WorkbenchScreen, "on_mount", typed_at_once)
    monkeypatch.setattr(WorkbenchScreen, "_hand_over_early_keys", typed_on)
    app = make_app(aged_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await until(pilot, lambda: CommandPalette.is_open(app), PATIENT)
        typed = app.screen.query_one(Input)
        assert await until(pilot, lambda: typed.value == "ref", PATIENT), typed.value
        app.pop_screen()
        assert app.screen.query_one(RoutePane).query_one("#route-question").value == ""
