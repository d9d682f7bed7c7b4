"""The measured side of ``tui_paint``: a fresh process that starts the workbench and times it.

The process is timed from its start, and this module is imported before the workbench's first frame:
it imports only what the measurement needs before that frame, so the figures carry none of the
parent's tooling (the bare-Textual floor it is read against pays none either).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import time

QUESTIONS = ("cache invalidation rules", "retry backoff", "where is the deploy runbook")
PLAN = "engineering/zz-bench-plan.md"
LONG = "product/zz-bench-long-title.md"
JUMP_QUERY = "no-front"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _wait(predicate, limit: float = 30.0, step: float = 0.002) -> None:
    """Poll until ``predicate`` holds. Figures are read from frame stamps, not from when this
    notices, so the step costs no precision; a short one would spend the CPU being measured."""
    started = time.perf_counter()
    while not predicate():
        await asyncio.sleep(step)
        if time.perf_counter() - started > limit:
            raise SystemExit("timed out")


async def _measure(root: str, started: float) -> dict[str, float]:
    # Only what the first frame needs is imported before it: the rest would count as the workbench's.
    from memorybank.tui.app import make_app
    from memorybank.tui.screens.workbench import WorkbenchScreen
    from memorybank.tui.widgets.bank_header import BankHeader
    from textual.screen import Screen

    figures: dict[str, float] = {}
    frames: list[float] = []  # the end of every frame the screens drew
    frame_cpu: dict[float, float] = {}  # the process's CPU seconds at each of them
    # The start is awaited on events set where it happens, not polled: a poll wakes the process
    # hundreds of times a second, CPU that the workbench itself never spends.
    reached = {moment: asyncio.Event() for moment in ("first_paint", "pane", "read", "indexed")}

    def stamp(moment: str) -> None:
        if not reached[moment].is_set():
            figures[f"{moment}_ms"] = (time.monotonic() - started) * 1000
            figures[f"{moment}_cpu_s"] = cpu()
            reached[moment].set()

    drawn = Screen._compositor_refresh

    def draw(screen: Screen) -> None:
        drawn(screen)
        frames.append(time.perf_counter())
        frame_cpu[frames[-1]] = cpu()
        if isinstance(screen, WorkbenchScreen):
            stamp("first_paint")
            if screen.focused is not None and screen.focused.id == "route-question":  # the pane in front, ready
                stamp("pane")

    indexed, summarised = WorkbenchScreen.indexed, WorkbenchScreen.on_workbench_screen_summary_ready

    def read(screen: WorkbenchScreen) -> None:
        indexed(screen)  # every document read: the header moves on to validating them
        stamp("read")

    def counted(screen: WorkbenchScreen, message) -> None:
        summarised(screen, message)
        if screen.query_one(BankHeader).summary is not None:
            stamp("indexed")

    Screen._compositor_refresh = draw  # type: ignore[method-assign]
    WorkbenchScreen.indexed = read  # type: ignore[method-assign]
    WorkbenchScreen.on_workbench_screen_summary_ready = counted  # type: ignore[method-assign]
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=(120, 36)) as pilot:
        for moment in reached.values():
            await asyncio.wait_for(moment.wait(), 120)
        await app.workers.wait_for_complete()
        await pilot.pause()
        figures["warm_cpu_s"] = cpu()
        import statistics

        from memorybank.tui.panes.route import RoutePane
        from textual import events
        from textual.command import CommandList, CommandPalette
        from textual.widgets import Input, TextArea

        # -- route, keystroke to results ------------------------------------------------------
        route = app.screen.query_one(RoutePane)
        fills: list[float] = []  # when the table was last filled with an answer
        fill = RoutePane._fill

        def filling(pane, result) -> None:
            fill(pane, result)
            fills.append(time.perf_counter())

        RoutePane._fill = filling  # type: ignore[method-assign]
        box = route.query_one("#route-question", Input)
        box.focus()
        latencies: list[float] = []
        latencies_cpu: list[float] = []
        for question in QUESTIONS:
            box.value = ""
            await pilot.pause()
            for index, char in enumerate(question):
                typed = question[: index + 1].strip()
                sent, sent_cpu = time.perf_counter(), cpu()
                app.post_message(events.Key(char if char != " " else "space", char))
                await _wait(
                    lambda typed=typed: (
                        route.result is not None
                        and route.result.question == typed
                        and route.query_one("#route-results").row_count == len(route.result.hits)
                    ),
                    2,
                    step=0.001,
                )
                filled = fills[-1]
                await _wait(lambda filled=filled: frames[-1] > filled, 2, step=0.001)  # the answer drawn
                shown = next(end for end in frames if end > filled)
                if char != " ":  # a space does not change the question: the previous answer stands
                    latencies.append((shown - sent) * 1000)
                    latencies_cpu.append((frame_cpu[shown] - sent_cpu) * 1000)
        latencies.sort()
        figures["keystroke_median_ms"] = statistics.median(latencies)
        figures["keystroke_p95_ms"] = latencies[int(len(latencies) * 0.95) - 1]
        figures["keystroke_max_ms"] = latencies[-1]
        latencies_cpu.sort()
        figures["keystroke_cpu_median_ms"] = statistics.median(latencies_cpu)
        figures["keystroke_cpu_p95_ms"] = latencies_cpu[int(len(latencies_cpu) * 0.95) - 1]
        if os.environ.get("TUI_PAINT_DEBUG"):
            print([round(v) for v in latencies], file=sys.stderr)

        # -- opening the 2,000-line plan --------------------------------------------------------
        pane = app.screen.pane("document")  # made the first time it is needed: made here, before the timing
        await _wait(lambda: pane.is_mounted)
        source = pane.query_one("#doc-source", TextArea)
        shown: list[float] = []  # when the pane last filled its view

        def filled(original):
            def fill(*args):
                original(*args)
                shown.append(time.perf_counter())

            return fill

        pane._show = filled(pane._show)

        spent: list[float] = []  # CPU milliseconds of each measured operation, by the same frames

        async def visible(sent: float, marks: list[float], ready, sent_cpu: float | None = None) -> float:
            """From ``sent`` to the end of the first frame drawn after the last mark."""
            sent_cpu = cpu() if sent_cpu is None else sent_cpu
            await _wait(lambda: ready() and marks and marks[-1] > sent and frames and frames[-1] > marks[-1], 60)
            frame = next(f for f in frames if f > marks[-1])
            spent.append((frame_cpu[frame] - sent_cpu) * 1000)
            return (frame - sent) * 1000

        rendered, numbered, rendered_cpu, numbered_cpu = [], [], [], []
        for _ in range(5):
            for other in (LONG, PLAN):
                await pilot.pause()
                sent = time.perf_counter()
                app.screen.open_document(other)
                took = await visible(sent, shown, lambda other=other: pane.opened and pane.opened.doc.path == other)
                if other == PLAN:
                    rendered.append(took)
                    rendered_cpu.append(spent[-1])
            await pilot.pause()
            sent = time.perf_counter()
            app.screen.open_document(PLAN, line=1500)
            numbered.append(await visible(sent, shown, lambda: pane.opened and pane.source_mode and source.text))
            numbered_cpu.append(spent[-1])
            app.screen.open_document(LONG)
            await _wait(lambda: pane.opened is not None and pane.opened.doc.path == LONG)
        figures["doc_open_rendered_ms"] = statistics.median(rendered)
        figures["doc_open_rendered_cpu_ms"] = statistics.median(rendered_cpu)
        figures["doc_open_source_ms"] = statistics.median(numbered)
        figures["doc_open_source_cpu_ms"] = statistics.median(numbered_cpu)
        app.screen.open_document(PLAN)
        await _wait(lambda: pane.opened is not None and pane.opened.doc.path == PLAN)
        figures["doc_lines"] = float(len(pane.opened.lines))

        # -- the jump palette -------------------------------------------------------------------
        listed: list[float] = []  # when the palette last refreshed its list
        refresh_list = CommandPalette._refresh_command_list

        def refreshed(palette, *args):
            refresh_list(palette, *args)
            listed.append(time.perf_counter())

        CommandPalette._refresh_command_list = refreshed  # type: ignore[method-assign]
        sent, sent_cpu = time.perf_counter(), cpu()
        await pilot.press("ctrl+o")
        figures["jump_open_ms"] = await visible(sent, listed, lambda: isinstance(app.screen, CommandPalette), sent_cpu)
        figures["jump_open_cpu_ms"] = spent[-1]
        palette = app.screen
        field = palette.query_one(Input)
        keys: list[float] = []
        for index, char in enumerate(JUMP_QUERY):
            await pilot.pause()
            sent = time.perf_counter()
            app.post_message(events.Key(char if char != "-" else "minus", char))
            typed = JUMP_QUERY[: index + 1]
            keys.append(
                await visible(
                    sent,
                    listed,
                    lambda typed=typed: field.value == typed and not any(w.is_running for w in palette.workers),
                )
            )
        figures["jump_key_median_ms"] = statistics.median(keys)
        figures["jump_key_max_ms"] = max(keys)
        figures["jump_key_cpu_median_ms"] = statistics.median(spent[-len(keys) :])
        figures["jump_key_cpu_max_ms"] = max(spent[-len(keys) :])
        figures["jump_hits"] = float(palette.query_one(CommandList).option_count)
    return figures


def child(root: str, started: float) -> None:
    print(json.dumps(asyncio.run(_measure(root, started))))
