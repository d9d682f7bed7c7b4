"""How a pane hears back from the core: each call names its own ``then``, typed by it; a newer call
on a channel silences an older one; a failure is notified and handed to ``failed``."""

from __future__ import annotations

import threading

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from memorybank.tui.panes.base import Pane
from textual.app import App, ComposeResult

from tests.tui.conftest import Notes, settle

pytestmark = pytest.mark.anyio


class Host(App[None]):
    def __init__(self, bank: Bank) -> None:
        super().__init__()
        self.bank = bank

    def compose(self) -> ComposeResult:
        yield Pane(self.bank, id="pane")


async def test_each_answer_goes_to_its_own_callback_and_a_newer_call_silences_an_older_one(demo_source, monkeypatch):
    app = Host(Bank.open(demo_source))
    async with app.run_test() as pilot:
        notes = Notes(app, monkeypatch)
        pane = app.query_one(Pane)
        heard: list[object] = []
        release = threading.Event()

        def slow() -> int:
            release.wait(10)
            return 1

        pane.run_core(slow, lambda value: heard.append(("old", value)))
        pane.run_core(lambda: len(pane.bank), lambda count: heard.append(("new", count)))
        release.set()
        await settle(pilot)
        assert heard == [("new", len(pane.bank))]

        def refused() -> None:
            raise BankError("Refusing: the path is taken.")

        pane.run_core(refused, heard.append, failed=lambda error: heard.append(("failed", str(error))), channel="write")
        await settle(pilot)
        assert heard[-1][0] == "failed"
        assert "Refusing: the path is taken." in notes.errors()
