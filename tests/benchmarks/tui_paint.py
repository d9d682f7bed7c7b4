"""The workbench's two bars from SPEC section 11, measured with Pilot on a synthetic bank:
first paint within 1.5 s, route results within 100 ms of a keystroke.

    python -m tests.benchmarks.tui_paint [--docs 1000] [--runs 3]

First paint is measured from the moment a fresh interpreter is started (``python -m`` included,
so imports count) to the first frame of the workbench laid out; "counts" is when the header's
validation and inbox figures have arrived too. The keystroke figure is from a key event posted to
the app to the results table holding the answer for the new question (debounce, routing in a
worker, and the table update), for each character of a few typed questions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
QUESTIONS = ("cache invalidation rules", "retry backoff", "where is the deploy runbook")


async def _measure(root: str, started: float) -> dict[str, float]:
    from textual import events

    from tui.app import make_app
    from tui.panes.route import RoutePane
    from tui.screens.workbench import WorkbenchScreen
    from tui.widgets.bank_header import BankHeader

    app = make_app(root, poll_seconds=0)
    figures: dict[str, float] = {}
    async with app.run_test(size=(120, 36)) as pilot:
        while not (isinstance(app.screen, WorkbenchScreen) and app.screen.query_one(RoutePane).region.height):
            await asyncio.sleep(0.001)
        figures["first_paint_ms"] = (time.monotonic() - started) * 1000
        header = app.screen.query_one(BankHeader)
        while header.summary is None:
            await asyncio.sleep(0.001)
        figures["counts_ms"] = (time.monotonic() - started) * 1000
        await app.workers.wait_for_complete()
        await pilot.pause()

        route = app.screen.query_one(RoutePane)
        box = route.query_one("#route-question")
        box.focus()
        latencies: list[float] = []
        for question in QUESTIONS:
            box.value = ""
            await pilot.pause()
            for index, char in enumerate(question):
                typed = question[: index + 1].strip()
                sent = time.perf_counter()
                app.post_message(events.Key(char if char != " " else "space", char))
                while not (
                    route.result is not None
                    and route.result.question == typed
                    and route.query_one("#route-results").row_count == len(route.result.hits)
                ):
                    await asyncio.sleep(0.0005)
                    if time.perf_counter() - sent > 2:
                        raise SystemExit(f"no answer for {typed!r} within 2 s")
                latencies.append((time.perf_counter() - sent) * 1000)
                if char == " ":  # the question did not change, the previous answer still stands
                    latencies.pop()
        figures["keystroke_median_ms"] = statistics.median(latencies)
        figures["keystroke_p95_ms"] = sorted(latencies)[int(len(latencies) * 0.95) - 1]
        figures["keystroke_max_ms"] = max(latencies)
        figures["keystrokes"] = len(latencies)
        if os.environ.get("TUI_PAINT_DEBUG"):
            print([round(v) for v in latencies], file=sys.stderr)
    return figures


def child(root: str, started: float) -> None:
    print(json.dumps(asyncio.run(_measure(root, started))))


def run_once(root: Path) -> dict[str, float]:
    started = time.monotonic()
    code = f"from tests.benchmarks.tui_paint import child; child({str(root)!r}, {started!r})"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, env={**os.environ, "TZ": "UTC"}
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description="Measure the workbench's first paint and keystroke latency.")
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from tests.benchmarks.run import synthetic

    root = synthetic(args.docs)
    runs = [run_once(root) for _ in range(args.runs)]
    print(f"workbench on a {args.docs}-document synthetic bank, {args.runs} fresh processes (median of runs)")
    for key in runs[0]:
        values = [r[key] for r in runs]
        print(f"  {key:22} {statistics.median(values):8.1f}   (runs: {', '.join(f'{v:.1f}' for v in values)})")
    print("bars (SPEC 11): first paint < 1500 ms; route results < 100 ms after a keystroke")


if __name__ == "__main__":
    main()
