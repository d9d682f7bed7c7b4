"""The result tables draw each one-line cell directly: what they draw must be what DataTable draws."""

from __future__ import annotations

import pytest
from memorybank.tui.widgets.fitted_table import Column, FittedTable
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable

pytestmark = pytest.mark.anyio

ROWS = [
    (["0.93", "engineering/deploy-runbook.md", "engineering", "active", "Rollback"], "a"),
    (["1.00", "a/" + "very-long-directory-name/" * 6 + "x.md", "product", "-", ""], "b"),
    ([Text("0.5", style="bold red"), Text.assemble(("dna/", "dim"), "rules.md"), "dna", "draft", "§ 2"], "c"),
    (["12.25", "知识/决策记录-中文标题.md", "决策", "активный", "Раздел с эмодзи 🚀 и длинным названием"], "d"),
    (["", "tab\there.md", "", "", " leading and trailing  "], "e"),
]
COLUMNS = [
    Column("score", 6, justify="right"),
    Column("path", weight=3),
    Column("layer", 12),
    Column("status", 8),
    Column("section", weight=2),
]


class Tables(App[None]):
    def compose(self) -> ComposeResult:
        yield FittedTable(COLUMNS, id="table")


def cells(lines) -> list[list[tuple[str, Style | None]]]:
    """Each line as (character, style) pairs, so segment boundaries do not matter."""
    return [[(char, segment.style) for segment in line for char in segment.text] for line in lines]


@pytest.mark.parametrize("size", [(120, 12), (80, 12), (44, 12)])
async def test_each_cell_is_drawn_as_data_table_draws_it(size, monkeypatch):
    general = DataTable._render_cell
    through_rich: list[int] = []

    def counted(table, row, *args):
        if row >= 0:
            through_rich.append(row)
        return general(table, row, *args)

    monkeypatch.setattr(DataTable, "_render_cell", counted)
    app = Tables()
    async with app.run_test(size=size) as pilot:
        table = app.query_one(FittedTable)
        table.set_rows(ROWS)
        await pilot.pause()
        base = table.rich_style
        checked = 0
        for row in range(len(ROWS)):
            for column, width in enumerate(c.get_render_width(table) for c in table.ordered_columns):
                for cursor, hover in ((False, False), (True, False), (False, True), (True, True)):
                    table._cell_render_cache.clear()
                    fast = table._render_cell(row, column, base, width, cursor, hover)
                    assert through_rich == []  # drawn directly, not handed to DataTable
                    table._cell_render_cache.clear()
                    slow = general(table, row, column, base, width, cursor, hover)
                    assert cells(fast) == cells(slow), (row, column, width, cursor, hover)
                    checked += 1
        assert checked == len(ROWS) * len(COLUMNS) * 4
        long = cells(table._render_cell(1, 1, base, table.ordered_columns[1].get_render_width(table)))
        assert "…" in "".join(char for char, _ in long[0])  # a path wider than its column is cut, visibly


async def test_a_cell_that_is_not_one_line_of_text_is_left_to_data_table():
    app = Tables()
    async with app.run_test(size=(100, 12)) as pilot:
        table = app.query_one(FittedTable)
        table.set_rows([([Text("two\nlines"), "p", "l", "s", "x"], "k")])
        await pilot.pause()
        width = table.ordered_columns[0].get_render_width(table)
        drawn = table._render_cell(0, 0, table.rich_style, width)
        table._cell_render_cache.clear()
        assert cells(drawn) == cells(DataTable._render_cell(table, 0, 0, table.rich_style, width))


def test_a_fitted_column_takes_its_longest_cell_first_and_shares_when_it_cannot():
    """Whole titles while the other flexible columns keep their least; past that, the fitted
    column takes what the others leave it."""
    table = FittedTable([Column("Age", 5), Column("Title", weight=3, fit=True), Column("Proposal", weight=2, least=8)])
    table._rows = [(["1d", "Retries bunch up at the top of the hour", "promote→ops/x.md"], "a")]
    # 80 cells: 6 of padding, 5 fixed and 2 for a scrollbar leave 67; the title's 39 first.
    assert table.widths(80) == [5, 39, 28]
    assert table.widths(60) == [5, 39, 8]  # the proposal down to its least
    assert table.widths(50) == [5, 29, 8]  # the title no longer whole: it takes what is left
    table._rows = [(["1d", "Short", ""], "a")]
    assert table.widths(80) == [5, 5, 62]  # as wide as its label, no wider


def test_a_proposal_badge_keeps_its_action_and_cuts_its_destination():
    from memorybank.tui.panes.inbox_view import short_badge

    badge = "promote→ops/deploy-freeze-calendar.md"
    assert short_badge(badge, 40) == badge
    assert short_badge(badge, 30) == "promote→deploy-freez…lendar.md"
    assert short_badge(badge, 19) == "promote"  # a destination in 11 cells says nothing
    assert short_badge(badge, 12) == "promote"
    assert short_badge("discard", 5) == "disc…"
