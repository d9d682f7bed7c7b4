"""The Document pane's outline: a document's sections, edges, frontmatter and links as a tree.

The tree is built once per document read. Opening the same, unchanged document again (a finding's
line in the document already open, the source view of the section being read) only moves the
cursor: the tree keeps its lines, so the next frame draws them from Textual's line cache.
"""

from __future__ import annotations

from typing import Any

from memorybank.core.model import Section
from memorybank.tui.panes.opened import Opened, field_value
from memorybank.tui.widgets.tree_cursor import place_cursor
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

LOOSE = {
    "external": "{} lies outside the bank; the Graph pane (3) shows its header.",
    "broken": "{} is no document of this bank: the edge or link is broken.",
}
"""What Enter on an edge that opens nothing says, by the kind of its outline node."""


class Outline:
    """The nodes a built outline chose between: the whole document's and each section's."""

    def __init__(self, opened: Opened, whole: TreeNode[Any], sections: dict[Section, TreeNode[Any]]) -> None:
        self.opened = opened
        self.whole = whole
        self.sections = sections

    def choose(self, tree: Tree[Any], section: Section | None) -> None:
        """Put the cursor on the section's node (the whole document's when None), opening the
        sections' group if the user folded it."""
        node = self.sections.get(section, self.whole) if section is not None else self.whole
        if node.parent is not None and not node.parent.is_expanded:
            node.parent.expand()
        place_cursor(tree, node)


def build_outline(tree: Tree[Any], opened: Opened) -> Outline:
    """Fill ``tree`` with the document's outline (the cursor is left for ``Outline.choose``)."""
    doc = opened.doc
    tree.clear()
    whole = tree.root.add_leaf(Text("Whole document", style="bold"), data=("whole", None))
    nodes: dict[Section, TreeNode[Any]] = {}
    sections = tree.root.add(f"Sections ({len(doc.sections)})", data=("group", None), expand=True)
    for section in doc.sections:
        # The line range first: a long title is cut at the pane's edge, never the range.
        label = Text(f"{section.line}–{section.end_line} ", style="dim")
        label.append(section.title, style="")
        nodes.setdefault(section, sections.add_leaf(label, data=("section", section)))
    up = tree.root.add(f"Derived from ↑ ({len(doc.derived_from)})", data=("group", None), expand=True)
    for edge in doc.derived_from:
        label = Text()
        if edge.external:
            label.append("↗ ", style="bold")
            label.append(edge.raw)
            label.append("  external", style="italic dim")
            up.add_leaf(label, data=("external", edge.raw))
        elif edge.resolved in opened.known:
            label.append(edge.resolved or edge.raw)
            if edge.fit:
                label.append(f"  fit: {edge.fit}", style="italic dim")
            up.add_leaf(label, data=("edge", edge.resolved))
        else:
            label.append("✗ ", style="bold red")
            label.append(edge.raw)
            label.append("  broken: no such document", style="italic")
            up.add_leaf(label, data=("broken", edge.raw))
    down = tree.root.add(f"Used by ↓ ({len(opened.incoming)})", data=("group", None), expand=True)
    for path in opened.incoming:
        down.add_leaf(path, data=("edge", path))
    front = tree.root.add(f"Frontmatter ({len(doc.frontmatter)})", data=("group", None), expand=True)
    if doc.parse_error:
        front.add_leaf(Text(f"✗ {doc.parse_error}", style="bold red"), data=("field", None))
    for key, value in doc.frontmatter.items():
        label = Text()
        label.append(f"{key}: ", style="bold")
        label.append_text(field_value(value))
        front.add_leaf(label, data=("field", key))
    if opened.links:
        links = tree.root.add(f"Links → ({len(opened.links)})", data=("group", None), expand=True)
        for target in opened.links:
            if target in opened.known:
                links.add_leaf(target, data=("edge", target))
            else:
                label = Text.assemble(("✗ ", "bold red"), target, ("  broken: no such document", "italic"))
                links.add_leaf(label, data=("broken", target))
    for group in tree.root.children:  # an empty group has nothing to open: no arrow
        if group.data == ("group", None) and not group.children:
            group.allow_expand = False
    return Outline(opened, whole, nodes)
