"""Regenerate ``screenshots/``: one SVG of each pane of the workbench on the demo bank, at 120x36.

    python -m tui.screenshots [--dest screenshots] [--png]

The demo bank's history has fixed dates, so the pictures change only when the app does. ``--png``
also converts each SVG with a headless Chromium when one is installed.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from tui.app import make_app
from tui.demo import build_demo
from tui.panes.route import RoutePane
from tui.panes.search import SearchPane

SIZE = (120, 36)
PROJECT = Path(__file__).resolve().parents[1]

Step = Callable[[Pilot], Awaitable[None]]


async def _settle(pilot: Pilot) -> None:
    for _ in range(3):
        for worker in list(pilot.app.workers):
            try:
                await worker.wait()
            except Exception:  # noqa: BLE001 - a cancelled worker was replaced by a newer one
                pass
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
)
"""Each picture: its file name and the steps that lead to it from a freshly opened workbench."""


async def _shoot(bank: Path, name: str, step: Step, dest: Path) -> Path:
    app = make_app(bank, poll_seconds=0)
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
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--hide-scrollbars", f"--screenshot={png}", "--window-size=1480,900", svg.resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)
    return png


def main() -> None:
    parser = argparse.ArgumentParser(description="Regenerate the README's screenshots from the demo bank.")
    parser.add_argument("--dest", type=Path, default=PROJECT / "screenshots")
    parser.add_argument("--png", action="store_true", help="also write PNGs (needs Chromium)")
    args = parser.parse_args()
    args.dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memorybank-shots-") as scratch:
        bank = build_demo(scratch)
        for name, step in SHOTS:
            svg = asyncio.run(_shoot(bank, name, step, args.dest))
            png = to_png(svg) if args.png else None
            print(svg.relative_to(PROJECT) if svg.is_relative_to(PROJECT) else svg, "+ png" if png else "")


if __name__ == "__main__":
    main()
