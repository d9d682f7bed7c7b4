"""Keys typed ahead, handed over again: each waits for the one before it to reach its binding."""

from __future__ import annotations

import asyncio

import pytest
from memorybank.tui.typed_ahead import type_again
from textual.app import App, ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input

from tests.tui.conftest import until

pytestmark = pytest.mark.anyio


class Busy(Message):
    """Keeps the question box busy a while, as a loaded machine does."""


class Box(Input):
    async def on_busy(self, _message: Busy) -> None:
        await asyncio.sleep(0.3)


class Palette(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Input(id="palette")


class Typist(App[None]):
    BINDINGS = [("ctrl+o", "palette")]

    def compose(self) -> ComposeResult:
        yield Box(id="box")

    def action_palette(self) -> None:
        self.push_screen(Palette())


async def test_a_letter_waits_for_the_screen_the_key_before_it_opens():
    """ctrl+o is still queued behind the busy box when the next frame is drawn: the letters typed
    after it wait for the palette it opens instead of landing in the box."""
    app = Typist()
    async with app.run_test() as pilot:
        box = app.query_one(Box)
        box.focus()
        await pilot.pause()
        box.post_message(Busy())
        type_again(app, [("ctrl+o", None), ("r", "r"), ("e", "e"), ("f", "f")])
        assert await until(pilot, lambda: isinstance(app.screen, Palette), seconds=5)
        assert await until(pilot, lambda: app.screen.query_one("#palette", Input).value == "ref", seconds=5)
        assert box.value == ""
