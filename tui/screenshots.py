"""Regenerate ``screenshots/``: one SVG of each pane of the workbench on the demo bank, at 120x36,
and of the inbox's dialogs.

    python -m memorybank.tui.screenshots [--dest screenshots] [--png]

The demo bank's history has fixed dates, its notes get fixed capture times and the inbox's clock is
set, so the pictures change only when the app does. ``--png`` also converts each SVG with a
headless Chromium when one is installed.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as _dt
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from memorybank.core import clock
from memorybank.core.demo import build_demo
from memorybank.tui.app import make_app
from memorybank.tui.panes.inbox import InboxPane
from memorybank.tui.panes.route import RoutePane
from memorybank.tui.panes.search import SearchPane
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

if TYPE_CHECKING:
    from memorybank.mcp_server.server import Activity, ToolCall

SIZE = (120, 36)
PROJECT = Path(__file__).resolve().parents[1]
INBOX_NOW = _dt.datetime(2026, 5, 24, 12, tzinfo=_dt.UTC)
"""The moment the pictures of the inbox are taken: the demo's notes are then 2 to 18 days old."""
CAPTURED = {
    "deploy-freeze-calendar.md": "2026-05-06T09:12:00Z",
    "eu-reverse-charge.md": "2026-05-19T14:30:00Z",
    "flaky-pdf-test.md": "2026-05-21T08:05:00Z",
    "retries-bunch-up.md": "2026-05-22T16:40:00Z",
}
"""When each demo note was captured, for the pictures (the demo stamps them with the time it is built)."""

Step = Callable[[Pilot], Awaitable[None]]


def pin_inbox_times(root: Path) -> None:
    """Give the demo's notes (and their proposals) fixed capture times, so the pictures and the
    snapshot tests of the inbox do not change with the day they are taken."""
    for name, stamp in CAPTURED.items():
        path = root / "_inbox" / name
        if path.exists():
            text = re.sub(r"(?m)^(\s*(?:captured_at|proposed_at):).*$", rf"\g<1> '{stamp}'", path.read_text("utf-8"))
            path.write_text(text, "utf-8")


class ReplayedServer:
    """Stands in for the hosted MCP server in pictures: a fixed address, and a fixed morning of tool
    calls replayed to the Activity pane once the app has started it."""

    url = "http://127.0.0.1:8765/mcp"

    def __init__(self) -> None:
        self.activity: Activity | None = None

    def start(self, activity: Activity) -> None:
        self.activity = activity

    def replay(self) -> None:
        assert self.activity is not None
        for call in sample_calls():
            self.activity(call)

    def stop(self) -> None:
        """Nothing listens, so nothing stops."""


def sample_calls() -> list[ToolCall]:
    """Two agents at work: reads, a capture, a refused discard and a proposal."""
    from memorybank.mcp_server.server import ToolCall

    at = INBOX_NOW.replace(hour=9, minute=30)

    def call(seconds: int, client: str, tool: str, arguments: str, outcome: str = "ok") -> ToolCall:
        return ToolCall(at + _dt.timedelta(seconds=seconds), client, tool, arguments, outcome == "ok", outcome)

    return [
        call(0, "claude-code", "bank_route", "question=how are invoices numbered"),
        call(4, "claude-code", "bank_read", "path=domain/invoicing-rules.md section=Numbering"),
        call(
            31,
            "cursor",
            "bank_discard",
            "path=domain/tax-model.md reason=old",
            "Refused (not-inbox): Only quarantined documents can be discarded; domain/tax-model.md is not in _inbox/. "
            "Documents in the bank proper are removed by hand, deliberately.",
        ),
        call(40, "cursor", "bank_create", "docKind=domain path=vat-exemptions.md title=VAT exemptions inbox=true"),
        call(52, "codex", "bank_promote", "path=_inbox/deploy-freeze-calendar.md to=ops/deploy-freeze-calendar.md"),
    ]


@contextmanager
def inbox_clock(now: _dt.datetime = INBOX_NOW) -> Iterator[None]:
    """Ages in the inbox counted from ``now`` instead of the real time."""
    with clock.pinned(now):
        yield


async def _settle(pilot: Pilot) -> None:
    for _ in range(3):
        for worker in list(pilot.app.workers):
            with suppress(Exception):
                await worker.wait()
        await pilot.pause()


async def _route(pilot: Pilot) -> None:
    pilot.app.screen.query_one(RoutePane).ask("how are invoices numbered")


async def _explain(pilot: Pilot) -> None:
    pilot.app.screen.query_one(RoutePane).ask("why do jobs live in postgres")
    await _settle(pilot)
    await pilot.press("escape", "x")


async def _document(pilot: Pilot) -> None:
    pilot.app.screen.open_document("engineering/payment-retries.md", section="Backoff and Jitter")


async def _graph(pilot: Pilot) -> None:
    pilot.app.screen.open_document("domain/invoicing-rules.md")
    await _settle(pilot)
    await pilot.press("3", "b")


async def _findings(pilot: Pilot) -> None:
    await pilot.press("escape", "4")


async def _drift(pilot: Pilot) -> None:
    await pilot.press("escape", "5")


async def _search(pilot: Pilot) -> None:
    await pilot.press("escape", "6")
    pilot.app.screen.query_one(SearchPane).ask("credit note")


async def _changes(pilot: Pilot) -> None:
    await pilot.press("escape", "7")


async def _palette(pilot: Pilot) -> None:
    await pilot.press("escape", "ctrl+p", *"graph")


async def _on_note(pilot: Pilot, name: str) -> None:
    await pilot.press("escape", "8")
    await _settle(pilot)
    pane = pilot.app.screen.query_one(InboxPane)
    pane.query_one("#inbox-notes").move_cursor(row=[e.path for e in pane.entries].index(f"_inbox/{name}"))
    await _settle(pilot)


async def _inbox(pilot: Pilot) -> None:
    await _on_note(pilot, "retries-bunch-up.md")


async def _promote(pilot: Pilot) -> None:
    await _on_note(pilot, "eu-reverse-charge.md")
    await pilot.press("p")


async def _promote_preview(pilot: Pilot) -> None:
    await _promote(pilot)
    await _settle(pilot)
    await pilot.press("enter")


async def _fold_preview(pilot: Pilot) -> None:
    from textual.widgets import Select

    await _on_note(pilot, "retries-bunch-up.md")
    await pilot.press("f")
    await _settle(pilot)
    pilot.app.screen.query_one("#fold-section", Select).value = "Backoff and Jitter"
    pilot.app.screen.query_one("#fold-mode", Select).value = "replace"
    pilot.app.screen.query_one(
        "#fold-content", TextArea
    ).text = "Delays carry 30% decorrelated jitter, so the retries of one minute spread out instead of firing together."
    await _settle(pilot)
    await pilot.press("ctrl+s")


async def _apply_proposal(pilot: Pilot) -> None:
    await _on_note(pilot, "deploy-freeze-calendar.md")
    await pilot.press("a")


async def _discard(pilot: Pilot) -> None:
    await _on_note(pilot, "flaky-pdf-test.md")
    await pilot.press("d")
    await _settle(pilot)
    pilot.app.screen.query_one("#discard-reason", Input).value = "A local font problem, not bank material."


async def _activity(pilot: Pilot) -> None:
    server = pilot.app.mcp  # type: ignore[attr-defined]
    server.replay()
    await _settle(pilot)
    await pilot.press("escape", "9")


async def _keys(pilot: Pilot) -> None:
    await _graph(pilot)
    await _settle(pilot)
    await pilot.press("question_mark")


SHOTS: tuple[tuple[str, Step], ...] = (
    ("route", _route),
    ("explain", _explain),
    ("document", _document),
    ("graph", _graph),
    ("findings", _findings),
    ("drift", _drift),
    ("search", _search),
    ("changes", _changes),
    ("palette", _palette),
    ("inbox", _inbox),
    ("inbox-promote", _promote),
    ("inbox-promote-preview", _promote_preview),
    ("inbox-fold-preview", _fold_preview),
    ("inbox-apply-proposal", _apply_proposal),
    ("inbox-discard", _discard),
    ("activity", _activity),
    ("keys", _keys),
)
"""Each picture: its file name and the steps that lead to it from a freshly opened workbench."""

HOSTED = {"activity"}
"""Pictures of a workbench hosting the MCP server (``--serve-mcp``)."""


async def _shoot(bank: Path, name: str, step: Step, dest: Path) -> Path:
    app = make_app(bank, poll_seconds=0, mcp=ReplayedServer() if name in HOSTED else None)  # type: ignore[arg-type]
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        for widget in app.screen.query(Input):
            widget.cursor_blink = False
        await _settle(pilot)
        await step(pilot)
        await _settle(pilot)
        for widget in app.screen.query(TextArea):
            widget.cursor_blink = False
        return Path(app.save_screenshot(filename=f"{name}.svg", path=str(dest)))


def to_png(svg: Path) -> Path | None:
    """Render an SVG with headless Chromium, when one is installed."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        return None
    png = svg.with_suffix(".png")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--hide-scrollbars",
            f"--screenshot={png}",
            "--window-size=1480,900",
            svg.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return png


def main() -> None:
    parser = argparse.ArgumentParser(description="Regenerate the README's screenshots from the demo bank.")
    parser.add_argument("--dest", type=Path, default=PROJECT / "screenshots")
    parser.add_argument("--png", action="store_true", help="also write PNGs (needs Chromium)")
    args = parser.parse_args()
    args.dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memorybank-shots-") as scratch:
        bank = build_demo(scratch)
        pin_inbox_times(bank)
        for index, (name, step) in enumerate(SHOTS):
            # Each picture starts from a fresh workbench: nothing remembered from the one before.
            os.environ["XDG_CONFIG_HOME"] = str(Path(scratch) / f"config-{index}")
            with inbox_clock():
                svg = asyncio.run(_shoot(bank, name, step, args.dest))
            png = to_png(svg) if args.png else None
            print(svg.relative_to(PROJECT) if svg.is_relative_to(PROJECT) else svg, "+ png" if png else "")


if __name__ == "__main__":
    main()
