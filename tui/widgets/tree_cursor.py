"""Placing a tree's cursor on a node that was just added, before the tree has been laid out.

``Tree.move_cursor`` needs the node's line, which Textual computes only when it next renders; a
move deferred until then races with focus changes that also move the cursor. Counting the visible
lines ourselves lets the cursor land at once, through the public ``move_cursor_to_line``.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Tree
from textual.widgets.tree import TreeNode


def visible_line(tree: Tree[Any], target: TreeNode[Any]) -> int | None:
    """The line ``target`` is shown on, or None when a collapsed ancestor hides it."""
    line = 0

    def walk(node: TreeNode[Any]) -> int | None:
        nonlocal line
        if node is target:
            return line
        line += 1
        if node.is_expanded:
            for child in node.children:
                found = walk(child)
                if found is not None:
                    return found
        return None

    if tree.show_root:
        return walk(tree.root)
    for child in tree.root.children:
        found = walk(child)
        if found is not None:
            return found
    return None


def place_cursor(tree: Tree[Any], node: TreeNode[Any]) -> None:
    """Put the cursor on ``node`` now (and scroll it into view)."""
    line = visible_line(tree, node)
    if line is not None:
        tree.cursor_line = -1  # a cursor already on that line would keep pointing at a node now gone
        tree.move_cursor_to_line(line)
