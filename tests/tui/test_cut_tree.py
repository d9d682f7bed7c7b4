"""The panes' trees (outline, graph, findings, drift): ← and → fold and unfold as in a file manager,
and a line cut at the edge ends in "…"."""

from __future__ import annotations

import pytest
from memorybank.tui.widgets.cut_tree import CutTree
from textual.app import App, ComposeResult

pytestmark = pytest.mark.anyio


class Host(App[None]):
    def compose(self) -> ComposeResult:
        tree: CutTree[str] = CutTree("root")
        tree.show_root = False
        tree.guide_depth = 2
        group = tree.root.add("Sections", expand=True)
        first = group.add("Purpose", expand=False)
        first.add_leaf("Scope")
        group.add_leaf("Rules")
        tree.root.add("Frontmatter", expand=False).add_leaf("title")
        tree.root.add_leaf("x" * 200)
        yield tree


async def test_left_folds_an_open_node_then_goes_to_its_parent():
    app = Host()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(CutTree)
        tree.focus()
        tree.move_cursor_to_line(1)  # Purpose, under the open Sections
        await pilot.pause()
        assert str(tree.cursor_node.label) == "Purpose"
        await pilot.press("left")  # Purpose is folded already: up to its parent
        assert str(tree.cursor_node.label) == "Sections" and tree.cursor_node.is_expanded
        await pilot.press("left")  # an open node folds, the cursor stays
        assert str(tree.cursor_node.label) == "Sections" and not tree.cursor_node.is_expanded
        await pilot.press("left")  # a top node of a rootless tree has nowhere to go
        assert str(tree.cursor_node.label) == "Sections"


async def test_right_unfolds_a_folded_node_then_goes_to_its_first_child():
    app = Host()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(CutTree)
        tree.focus()
        tree.move_cursor_to_line(1)
        await pilot.pause()
        await pilot.press("right")
        assert str(tree.cursor_node.label) == "Purpose" and tree.cursor_node.is_expanded
        await pilot.press("right")
        assert str(tree.cursor_node.label) == "Scope"
        await pilot.press("right")  # a leaf: nothing happens, nothing scrolls
        assert str(tree.cursor_node.label) == "Scope" and tree.scroll_x == 0


async def test_a_line_past_the_edge_ends_in_an_ellipsis():
    app = Host()
    async with app.run_test(size=(40, 12)) as pilot:
        tree = app.query_one(CutTree)
        await pilot.pause()
        lines = [strip.text for strip in tree.render_lines(tree.region.reset_offset)]
        long = next(line for line in lines if "xxx" in line)
        assert long.rstrip().endswith("…") and len(long) == tree.size.width


async def test_j_k_h_l_and_G_move_as_in_vi():
    app = Host()
    async with app.run_test(size=(60, 12)) as pilot:
        tree = app.query_one(CutTree)
        tree.focus()
        tree.move_cursor_to_line(0)
        await pilot.pause()
        await pilot.press("j", "j")
        assert str(tree.cursor_node.label) == "Rules"
        await pilot.press("k")
        assert str(tree.cursor_node.label) == "Purpose"
        await pilot.press("l")  # unfolds Purpose
        assert tree.cursor_node.is_expanded
        await pilot.press("h")  # folds it again
        assert str(tree.cursor_node.label) == "Purpose" and not tree.cursor_node.is_expanded
        await pilot.press("G")
        assert str(tree.cursor_node.label) == "x" * 200
