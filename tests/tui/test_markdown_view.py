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


async def test_a_table_whose_words_fit_side_by_side_folds_its_words_and_loses_none():
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        view = app.query_one(MarkdownView)
        view.update(TABLE)
        await pilot.pause()
        lines = [view.render_line(y).text for y in range(20)]
        assert not any("…" in line for line in lines)
        header = next(line for line in lines if "Concept" in line)
        assert all(name in header for name in ("Kind", "Representation", "Relations", "Notes")), header
        body = lines[next(n for n, line in enumerate(lines) if "──" in line) + 1 :]
        first = "".join(line[:19].strip() for line in body)  # the first column, row after row
        assert "Repository" in first and "candidate_unresolved" in first, first


async def test_a_table_too_wide_for_its_words_shows_one_row_at_a_time_every_word_whole():
    """At 44 columns the five columns' longest words do not fit side by side: folded, "Relations"
    read down the screen a few letters a line. Each row is shown as name/value pairs instead."""
    app = Host()
    async with app.run_test(size=(44, 20)) as pilot:
        view = app.query_one(MarkdownView)
        view.update(TABLE)
        await pilot.pause()
        lines = [view.render_line(y).text.rstrip() for y in range(20)]
        assert not any("…" in line for line in lines)
        lines = lines[next(n for n, line in enumerate(lines) if line.startswith("row 1 of 2")) :]
        assert [line.split()[0] for line in lines[1:6]] == ["Concept", "Kind", "Representation", "Relations", "Notes"]
        assert "Repository" in lines[1] and "Определяет границы" in lines[5]
        assert any(line.startswith("row 2 of 2") for line in lines) and any(
            "candidate_unresolved" in line for line in lines
        )
