"""The Graph pane: the derived_from walk from the current document, as a tree.

Up shows what the document rests on, down who rests on it (the blast radius of a change), both
shows the two. Depth and the node cap are adjustable; external edges are marked ↗, broken ones ✗,
each edge's ``fit`` is shown beside it, and a capped walk says so. Enter opens a node's document,
``r`` re-roots the walk on it.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.graph import (
    DEFAULT_DEPTH,
    DEFAULT_LIMIT,
    MAX_DEPTH,
    NO_SUCH_FILE,
    Graph,
    GraphNode,
    walk_graph,
)
from memorybank.tui.messages import DocumentChosen
from memorybank.tui.panes.base import PaletteCommand, Pane, count
from memorybank.tui.widgets.chooser import Chooser
from memorybank.tui.widgets.cut_tree import CutTree
from memorybank.tui.widgets.tree_cursor import place_cursor
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Label, Static, Tree
from textual.widgets.tree import TreeNode

CAPS = (10, 25, 60, 120, 300)
EMPTY = "No document yet: open one (Route, Search, ctrl+o) and its graph appears here."


def node_label(node: GraphNode, fit: str | None = None) -> Text:
    label = Text(node.title, style="bold" if node.depth == 0 else "")
    label.append(f"  {node.path}", style="dim")
    label.append(f"  {node.layer}", style="italic dim")
    if node.status and node.status != "active":
        label.append(f"  {node.status}", style="italic")
    if fit:
        label.append(f"  fit: {fit}", style="italic")
    return label


class GraphPane(Pane):
    """The derived_from neighbourhood of one document."""

    TITLE = "Graph"
    SUMMARY = "The derived_from walk up, down or both from the current document"
    BINDINGS = [
        Binding("u", "direction('up')", "Up"),
        Binding("d", "direction('down')", "Down"),
        Binding("b", "direction('both')", "Both"),
        Binding("plus,equals_sign", "depth(1)", "Depth", key_display="+/-"),
        Binding("minus", "depth(-1)", "Shallower", key_display="-", show=False),
        Binding("right_square_bracket", "cap(1)", "More nodes", key_display="]", show=False),
        Binding("left_square_bracket", "cap(-1)", "Fewer nodes", key_display="[", show=False),
        Binding("r", "reroot", "Re-root"),
    ]
    EXTRA_KEYS = (
        ("enter", "open the document (an edge out of the bank says where it leads)"),
        ("← · →", "fold or unfold a node, or go to its parent"),
    )
    COMMANDS_OFFERED = (
        PaletteCommand("Graph: walk up (what it derives from)", "Follow derived_from upstream", "direction('up')"),
        PaletteCommand("Graph: walk down (what derives from it)", "The blast radius of a change", "direction('down')"),
        PaletteCommand("Graph: walk both ways", "Upstream, then downstream", "direction('both')"),
        PaletteCommand("Graph: one level deeper", f"Depth up to {MAX_DEPTH}", "depth(1)"),
        PaletteCommand("Graph: one level shallower", "Depth down to 1", "depth(-1)"),
        PaletteCommand("Graph: re-root on the selected node", "Walk from the highlighted document", "reroot"),
    )

    class NodeChosen(DocumentChosen):
        """A node of the walk was chosen: open its document."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.root_path: str | None = None
        """The document the walk starts from; the screen sets it to the open document."""
        self.graph: Graph | None = None
        self._loose: dict[int, str] = {}
        """Tree node id -> what Enter says about an edge that leaves the bank or leads nowhere."""

    def compose(self) -> ComposeResult:
        with Horizontal(classes="query-row"):
            yield Label("Walk", classes="row-label")
            yield Chooser([("up ↑", "up"), ("down ↓", "down"), ("both ↕", "both")], "down", id="graph-direction")
            yield Label("depth", classes="row-label")
            yield Chooser([(str(d), d) for d in range(1, MAX_DEPTH + 1)], DEFAULT_DEPTH, id="graph-depth")
            yield Label("cap", classes="row-label")
            yield Chooser([(str(c), c) for c in CAPS], DEFAULT_LIMIT, id="graph-cap")
        yield Static(EMPTY, id="graph-summary", classes="pane-heading")
        tree: CutTree[str | None] = CutTree("graph", id="graph-tree")
        tree.guide_depth = 3
        tree.display = False  # until there is a document to walk from: no lone root under the sentence
        yield tree

    # -- settings -----------------------------------------------------------------------------

    @property
    def direction(self) -> str:
        return str(self.query_one("#graph-direction", Chooser).value)

    @property
    def depth(self) -> int:
        return int(self.query_one("#graph-depth", Chooser).value)

    @property
    def cap(self) -> int:
        return int(self.query_one("#graph-cap", Chooser).value)

    def set_root(self, path: str) -> None:
        """Walk from this document (the screen calls this when a document is opened)."""
        if path != self.root_path:
            self.root_path = path
            self._shown_generation = -2  # walk again next time the pane is shown
            if self.active:
                self.reload()

    @on(Chooser.Changed)
    def _setting_changed(self) -> None:
        self.reload()

    def reload(self) -> None:
        if self.root_path is None:
            return
        root, direction, depth, cap = self.root_path, self.direction, self.depth, self.cap
        self._shown_generation = self.generation
        self.run_core(
            lambda: walk_graph(self.bank, root, direction=direction, depth=depth, limit=cap),
            self._walked,
            failed=self._failed,
        )

    def _failed(self, error: BaseException) -> None:
        self.graph = None
        tree = self.query_one("#graph-tree", Tree)
        tree.clear()
        tree.root.set_label("")  # a root that is gone is not shown under the message saying so
        tree.root.data = None
        tree.display = False
        self.query_one("#graph-summary", Static).update(getattr(error, "message", str(error)))

    def _walked(self, graph: Graph) -> None:
        self.graph = graph
        self._summary(graph)
        self._tree(graph)

    # -- showing ----------------------------------------------------------------------------------

    def _summary(self, graph: Graph) -> None:
        text = Text()
        where = {"up": "upstream of", "down": "downstream of", "both": "around"}[graph.direction]
        text.append(count(len(graph.nodes) - 1, "document"), style="bold")
        text.append(f" {where} {graph.root}  ·  depth {graph.depth}, cap {graph.limit}")
        if graph.by_layer:
            text.append("  ·  " + ", ".join(f"{n} {layer}" for layer, n in graph.by_layer.items()), style="dim")
        if graph.external:
            text.append(f"  ·  ↗ {len(graph.external)} external")
        if graph.broken:
            text.append(f"  ·  ✗ {len(graph.broken)} broken", style="bold red")
        if graph.truncated:
            text.append("  ·  capped: raise the cap to see the rest", style="bold")
        self.query_one("#graph-summary", Static).update(text)

    def _tree(self, graph: Graph) -> None:
        tree = self.query_one("#graph-tree", Tree)
        if not tree.display:  # the first walk: the tree takes the focus its absence sent elsewhere
            tree.display = True
            if self.active:
                tree.focus()
        tree.clear()
        fits = {(e.source, e.target): e.fit for e in graph.edges}
        root = graph.nodes[0]
        tree.root.set_label(node_label(root))
        tree.root.data = root.path
        tree.root.expand()
        children: dict[tuple[str, str], list[GraphNode]] = {}
        for node in graph.nodes[1:]:
            children.setdefault((node.reached_from or "", node.via), []).append(node)
        neighbours = {(n.source, n.raw): n for n in graph.neighbours}

        self._loose.clear()

        def loose(parent: TreeNode[str | None], path: str) -> None:
            for edge in graph.external:  # a derived_from of ``path``: upstream, whatever the walk's direction
                if edge.source == path:
                    label = Text("↗ ", style="bold")
                    label.append(edge.raw)
                    found = neighbours.get((edge.source, edge.raw))
                    if found is not None and found.title:
                        label.append(f"  {found.title}", style="italic")
                    missing = found is not None and found.unreadable == NO_SUCH_FILE
                    label.append(
                        "  no such file" if missing else "  outside the bank", style="red" if missing else "dim"
                    )
                    leaf = parent.add_leaf(label, data=None)
                    where = found.file if found is not None else edge.raw
                    why = (
                        found.unreadable
                        if found is not None and found.unreadable
                        else "its header is shown, not walked"
                    )
                    self._loose[leaf.id] = f"{path} derives from {where}, outside the bank: {why}."
            for edge in graph.broken:
                if edge.source == path:
                    label = Text("✗ ", style="bold red")
                    label.append(edge.raw)
                    label.append("  broken: no such document", style="italic")
                    leaf = parent.add_leaf(label, data=None)
                    self._loose[leaf.id] = f"{path} derives from {edge.raw}, which is no document of this bank."

        def grow(parent: TreeNode[str | None], path: str, via: str) -> None:
            for node in children.get((path, via), ()):
                edge = (path, node.path) if via == "up" else (node.path, path)
                branch = parent.add(node_label(node, fits.get(edge)), data=node.path, expand=True)
                loose(branch, node.path)
                grow(branch, node.path, via)
                if not branch.children:
                    branch.allow_expand = False

        loose(tree.root, root.path)
        if graph.direction == "both":
            for via, title in (("up", "↑ derives from"), ("down", "↓ derived by")):
                group = tree.root.add(Text(title, style="bold"), data=None, expand=True)
                grow(group, root.path, via)
                if not group.children:  # no arrow over nothing
                    group.allow_expand = False
                    group.label.append("  nothing", style="italic dim")
        else:
            grow(tree.root, root.path, graph.direction)
        if len(tree.root.children) == 0:
            tree.root.add_leaf(Text("nothing: no derived_from edge leads " + graph.direction, style="italic dim"))
        place_cursor(tree, tree.root)

    @on(Tree.NodeSelected, "#graph-tree")
    def _chosen(self, event: Tree.NodeSelected[str | None]) -> None:
        if event.node.data:
            self.post_message(self.NodeChosen(event.node.data))
        elif event.node.id in self._loose:  # an edge out of the bank opens nothing: say where it leads
            self.notify(self._loose[event.node.id], title="Not in the bank")

    # -- actions --------------------------------------------------------------------------------

    def action_direction(self, direction: str) -> None:
        self.query_one("#graph-direction", Chooser).value = direction

    def action_depth(self, step: int) -> None:
        self.query_one("#graph-depth", Chooser).value = min(max(self.depth + step, 1), MAX_DEPTH)

    def action_cap(self, step: int) -> None:
        index = CAPS.index(self.cap) if self.cap in CAPS else 2
        self.query_one("#graph-cap", Chooser).value = CAPS[min(max(index + step, 0), len(CAPS) - 1)]

    def action_reroot(self) -> None:
        node = self.query_one("#graph-tree", Tree).cursor_node
        if node is not None and node.data:
            self.set_root(node.data)
            self.reload()

    def focus_default(self) -> None:
        tree = self.query_one("#graph-tree", Tree)
        self.focus_now(tree if tree.display else self.query_one("#graph-direction"))
