"""The rendered view of a document: a table too wide for the view folds its words, never cuts them."""

from __future__ import annotations

import pytest
from memorybank.tui.widgets.markdown_view import MarkdownView
from textual.app import App, ComposeResult

pytestmark = pytest.mark.anyio

TABLE = (
    "| Concept | Kind | Representation | Relations | Notes |\n|---|---|---|---|---|\n"
    "| Repository | aggregate | Repo | Owns panes | Определяет границы |\n"
    "| candidate_unresolved | verdict | x | y | z |\n"
)


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield MarkdownView()


async def test_a_table_wider_than_the_view_folds_its_words_and_loses_none():
    app = Host()
    async with app.run_test(size=(44, 20)) as pilot:
        view = app.query_one(MarkdownView)
        view.update(TABLE)
        await pilot.pause()
        lines = [view.render_line(y).text for y in range(20)]
        assert not any("…" in line for line in lines)
        body = lines[next(n for n, line in enumerate(lines) if "──" in line) + 1 :]
        first = "".join(line[:8].strip() for line in body)  # the first column, row after row
        assert "Repository" in first and "candidate_unresolved" in first, first
