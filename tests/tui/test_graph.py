"""The Graph pane: the walk from the open document, up, down or both, deeper, capped; external
and broken edges marked; a node opens its document."""

from __future__ import annotations

import pytest
from memorybank.tui.app import make_app
from memorybank.tui.panes.document import DocumentPane
from memorybank.tui.panes.graph import GraphPane
from textual.widgets import Tree

from tests.tui.conftest import SIZE, settle

pytestmark = pytest.mark.anyio


def labels(tree: Tree) -> list[str]:
    found: list[str] = []

    def walk(node):
        found.append(str(node.label))
        for child in node.children:
            walk(child)

    walk(tree.root)
    return found


async def graph_of(app, pilot, path: str) -> GraphPane:
    app.screen.open_document(path)
    await settle(pilot)
    await pilot.press("escape", "3")
    await settle(pilot)
    return app.screen.query_one(GraphPane)


async def test_walking_down_then_up_then_both_from_the_open_document(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "domain/invoicing-rules.md")
        assert graph.graph.direction == "down" and graph.graph.root == "domain/invoicing-rules.md"
        down = {n.path for n in graph.graph.nodes}
        assert {"domain/tax-model.md", "engineering/architecture.md", "engineering/payment-retries.md"} <= down
        await pilot.press("u")
        await settle(pilot)
        assert graph.graph.direction == "up"
        assert [n.path for n in graph.graph.nodes] == [
            "domain/invoicing-rules.md",
            "product/plans-and-limits.md",
            "product/context.md",
        ]
        await pilot.press("b", "minus")
        await settle(pilot)
        assert graph.graph.direction == "both" and graph.graph.depth == 1
        tree_text = labels(graph.query_one("#graph-tree", Tree))
        assert "↑ derives from" in tree_text and "↓ derived by" in tree_text


async def test_the_cap_truncates_and_says_so(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "dna/principles.md")
        graph.query_one("#graph-cap").value = 10
        graph.query_one("#graph-depth").value = 6
        await settle(pilot)
        assert graph.graph.truncated and len(graph.graph.nodes) == 10
        assert "capped" in str(graph.query_one("#graph-summary").render())


async def test_external_and_broken_edges_are_marked_and_fit_is_shown(reference_bank):
    app = make_app(reference_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "domain/rules.md")
        text = labels(graph.query_one("#graph-tree", Tree))
        assert any(t.startswith("✗ ../missing/nowhere.md") and "broken" in t for t in text)
        assert any(t.startswith("↗ ../../../outside-bank/upstream.md") for t in text)
        summary = str(graph.query_one("#graph-summary").render())
        assert "1 external" in summary and "1 broken" in summary


async def test_enter_on_an_edge_out_of_the_bank_says_where_it_leads(reference_bank, monkeypatch):
    app = make_app(reference_bank, poll_seconds=0)
    said: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **_: said.append(str(message)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "domain/rules.md")
        tree = graph.query_one("#graph-tree", Tree)
        everything, stack = [], [tree.root]
        while stack:
            node = stack.pop()
            everything.append(node)
            stack.extend(node.children)
        for start in ("↗ ", "✗ "):
            leaf = next(n for n in everything if str(n.label).startswith(start))
            tree.select_node(leaf)
            await settle(pilot)
        assert any("derives from" in s and "outside the bank" in s for s in said)
        assert any("which is no document of this bank" in s for s in said)
        assert isinstance(app.screen.query_one(GraphPane), GraphPane)


async def test_choosing_a_node_opens_it_and_r_re_roots_the_walk(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "domain/invoicing-rules.md")
        tree = graph.query_one("#graph-tree", Tree)
        await pilot.press("down", "r")
        await settle(pilot)
        assert graph.root_path == "domain/tax-model.md"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one("#panes").active == "document"
        assert app.screen.query_one(DocumentPane).opened.doc.path == "domain/tax-model.md"
        assert tree is graph.query_one("#graph-tree", Tree)


async def test_walking_both_ways_from_a_leaf_shows_an_empty_side_without_an_arrow(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "dna/principles.md")  # the top of the bank: nothing above it
        await pilot.press("b")
        await settle(pilot)
        groups = {str(node.label): node for node in graph.query_one("#graph-tree", Tree).root.children}
        up = next(node for label, node in groups.items() if label.startswith("↑ derives from"))
        down = next(node for label, node in groups.items() if label.startswith("↓ derived by"))
        assert not up.children and not up.allow_expand and str(up.label).endswith("nothing")
        assert down.children and down.allow_expand


async def test_a_root_removed_on_disk_leaves_no_tree_under_the_message_and_comes_back_with_it(demo_bank):
    from tests.tui.conftest import screen_text, until

    app = make_app(demo_bank, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = await graph_of(app, pilot, "domain/invoicing-rules.md")
        moved = demo_bank / "domain" / "invoicing-rules.md"
        text = moved.read_bytes()
        moved.unlink()
        app.recheck()
        assert await until(pilot, lambda: graph.graph is None)
        rows = screen_text(app)
        assert any("Not a document of this bank: domain/invoicing-rules.md" in row for row in rows)
        assert not any("Invoicing Rules" in row for row in rows)
        moved.write_bytes(text)
        app.recheck()
        assert await until(pilot, lambda: graph.graph is not None)
        assert graph.query_one("#graph-tree", Tree).display
