"""The one-widget drop-down (Route's layer filter): it lists its options only when opened, chooses
with the keys or the mouse, leaves the value alone when dismissed, and says when the value changed."""

from __future__ import annotations

import pytest
from memorybank.tui.widgets.chooser import Chooser, ChooserMenu
from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Input, OptionList

pytestmark = pytest.mark.anyio

OPTIONS = [("all layers", "all"), ("knowledge", "knowledge"), ("decision", "decision"), ("delivery", "delivery")]


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.changes: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input(id="before")
        yield Chooser(OPTIONS, "all", id="layer")

    @on(Chooser.Changed, "#layer")
    def _changed(self, event: Chooser.Changed) -> None:
        assert event.control is self.query_one(Chooser)
        self.changes.append(event.value)


async def test_it_draws_the_current_choice_and_makes_no_list_until_opened():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        chooser = app.query_one(Chooser)
        assert "all layers" in str(chooser.render()) and "▼" in str(chooser.render())
        assert not app.query(OptionList)  # no option list composed up front
        chooser.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooserMenu)
        menu = app.screen.query_one(OptionList)
        assert menu.has_focus and menu.highlighted == 0  # the current choice is highlighted
        assert menu.region.y == chooser.region.bottom - 1  # under the chosen value, which stays in sight


async def test_keys_choose_and_the_change_is_announced_once():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        chooser = app.query_one(Chooser)
        chooser.focus()
        await pilot.press("space", "down", "down", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, ChooserMenu)
        assert chooser.value == "decision" and "decision" in str(chooser.render())
        assert app.changes == ["decision"]
        assert chooser.has_focus  # back where the user was


async def test_a_letter_in_the_list_highlights_the_next_option_starting_with_it():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        app.query_one(Chooser).focus()
        await pilot.press("enter", "d")
        menu = app.screen.query_one(OptionList)
        assert menu.highlighted == 2  # decision
        await pilot.press("d")
        assert menu.highlighted == 3  # delivery: the next one
        await pilot.press("d", "enter")
        await pilot.pause()
        assert app.query_one(Chooser).value == "decision" and app.changes == ["decision"]


async def test_a_resize_closes_the_list_it_would_have_left_behind():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        app.query_one(Chooser).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChooserMenu)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not isinstance(app.screen, ChooserMenu) and app.query_one(Chooser).value == "all"


async def test_escape_and_a_click_outside_leave_the_value_alone():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        chooser = app.query_one(Chooser)
        chooser.focus()
        await pilot.press("down", "down", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, ChooserMenu) and chooser.value == "all"
        await pilot.click(Chooser)
        await pilot.pause()
        assert isinstance(app.screen, ChooserMenu)
        await pilot.click(offset=(55, 18))  # far from the list
        await pilot.pause()
        assert not isinstance(app.screen, ChooserMenu) and chooser.value == "all"
        assert app.changes == []


async def test_a_value_set_by_code_is_announced_and_an_unknown_one_refused():
    app = Host()
    async with app.run_test(size=(60, 20)) as pilot:
        chooser = app.query_one(Chooser)
        chooser.value = "delivery"
        await pilot.pause()
        assert app.changes == ["delivery"]
        with pytest.raises(ValueError, match="not one of"):
            chooser.value = "inbox"
        assert chooser.value == "delivery"


async def test_a_list_near_the_bottom_opens_upwards_inside_the_screen():
    class Low(Host):
        def compose(self) -> ComposeResult:
            yield Input(id="before")
            yield Input(id="filler")
            yield Chooser(OPTIONS, "all", id="layer")

    app = Low()
    async with app.run_test(size=(60, 10)) as pilot:
        chooser = app.query_one(Chooser)
        chooser.focus()
        await pilot.press("enter")
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        assert menu.region.bottom <= 10 and menu.region.height == len(OPTIONS) + 2


async def test_the_list_is_wide_enough_for_its_longest_label_and_stays_on_screen():
    long = "unresolved-rule-reference-of-a-kind"

    class Narrow(App[None]):
        CSS = "Chooser { width: 14; dock: right; }"

        def compose(self) -> ComposeResult:
            yield Chooser([("all", "all"), (long, "long")], "all", id="rule")

    app = Narrow()
    async with app.run_test(size=(60, 20)) as pilot:
        app.query_one(Chooser).focus()
        await pilot.press("enter")
        await pilot.pause()
        menu = app.screen.query_one(OptionList)
        assert menu.region.width >= len(long) + 4 and menu.region.right <= 60
        assert menu.region.height == 2 + 2  # one row per option: the long label is not wrapped


@pytest.mark.parametrize("opener", ["chooser", "keys"])
async def test_a_palette_opened_over_a_list_or_the_keys_closes_them_and_offers_the_workbenchs_commands(
    demo_source, opener
):
    from memorybank.tui.app import make_app
    from memorybank.tui.screens.workbench import WorkbenchScreen
    from textual.command import CommandPalette

    from tests.tui.conftest import SIZE, settle

    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if opener == "chooser":
            app.screen.query_one("#route-layer", Chooser).focus()
            await pilot.press("enter")
        else:
            await pilot.press("escape", "question_mark")
        await settle(pilot)
        assert getattr(app.screen, "OVERLAY", False)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert isinstance(app.screen_stack[-2], WorkbenchScreen)  # the overlay is gone, not under the palette
        await pilot.press(*"Document: go")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, WorkbenchScreen) and app.screen.query_one("#panes").active == "document"
        await pilot.press("escape", "ctrl+o")  # the jump palette as well
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette) and isinstance(app.screen_stack[-2], WorkbenchScreen)


async def test_a_wide_label_is_cut_in_cells_to_the_chooser():
    from rich.cells import cell_len

    class Wide(App[None]):
        CSS = "Chooser { width: 14; }"

        def compose(self) -> ComposeResult:
            yield Chooser([("决策记录的层级名称", "decision"), ("all", "all")], "decision")

    app = Wide()
    async with app.run_test(size=(40, 10)):
        chooser = app.query_one(Chooser)
        shown = chooser.render().plain
        assert cell_len(shown) == chooser.content_size.width and "…" in shown and shown.endswith("▼")
