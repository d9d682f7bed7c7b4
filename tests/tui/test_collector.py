"""The full garbage collection runs in the pauses between keys, not inside one."""

from __future__ import annotations

import gc
import time

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.collector import DUE, NEVER, QUIET_SECONDS, QuietCollector

from tests.tui.conftest import SIZE, settle


def due() -> None:
    """As many collections of the middle generation as make a full one due."""
    for _ in range(DUE):
        gc.collect(1)


def test_a_due_full_collection_waits_for_a_pause_in_the_input():
    before = gc.get_threshold()
    collector = QuietCollector()
    collector.start()
    try:
        assert gc.get_threshold() == (before[0], before[1], NEVER)  # Python never runs it on its own
        due()
        collector.saw_input()
        assert not collector.collect_if_quiet() and gc.get_count()[2] >= DUE  # someone is typing
        collector.last_input = time.monotonic() - QUIET_SECONDS - 0.1
        assert collector.collect_if_quiet() and gc.get_count()[2] == 0  # a pause: collected
        assert not collector.collect_if_quiet()  # and not again until it is due again
    finally:
        collector.stop()
    assert gc.get_threshold() == before


@pytest.mark.anyio
async def test_the_workbench_keeps_the_full_collection_for_its_pauses_and_gives_it_back(demo_source):
    before = gc.get_threshold()
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert gc.get_threshold()[2] == NEVER
        typed = app.collector.last_input
        await pilot.press("a")
        assert app.collector.last_input > typed  # a key counts as input
    assert gc.get_threshold() == before
