"""The derived_from graph: what a document rests on (up), who rests on it (down), or both.

A breadth-first walk from one document over ``derived_from`` edges, bounded twice: by depth and by a
node cap that counts the root, so a hub document cannot pull in the whole bank (the answer says
``truncated`` instead). Every document is expanded at most once per direction, so cycles are
harmless. Edges that leave the bank are *external* (a sibling bank in a monorepo, say), edges that
lead nowhere inside it are *broken*; external targets are read one hop, header only, and never
walked, indexed or validated.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.frontmatter import lenient_frontmatter
from memorybank.core.model import Document
from memorybank.core.parse import decode, split_frontmatter, string_list
from memorybank.core.paths import is_url
from memorybank.core.regular import Unreadable, read_regular

DIRECTIONS: tuple[str, ...] = ("up", "down", "both")
DEFAULT_DEPTH = 2
MAX_DEPTH = 6
DEFAULT_LIMIT = 60
"""Default node cap, the root included."""
MAX_LIMIT = 300
NEIGHBOUR_LIMIT = 25
"""External targets read per walk, at most."""
CEILING_LEVELS = 3
"""How many directory levels above the bank root a neighbour may live and still be read."""
HEADER_BYTES = 64 * 1024
"""Bytes read from a neighbour: enough for any frontmatter, never a whole large file."""

OUTSIDE_CEILING = f"outside the {CEILING_LEVELS} directory levels above this bank, so it was not read"
NOT_MARKDOWN = "not a markdown file"
NO_SUCH_FILE = "no such file: this edge leads out of the bank to nothing"
A_URL = "a URL, not a file; it was not fetched"


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One document the walk reached."""

    path: str
    title: str
    doc_kind: str
    layer: str
    status: str
    depth: int
    """Hops from the root (0 for the root itself), the smallest the walk found."""
    via: str
    """``up`` or ``down``: the direction it was reached in; the root carries the requested direction."""
    reached_from: str | None
    """The node it was first reached from (None for the root): with ``via``, the edge it came by."""


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """A ``derived_from`` edge between two nodes of the walk."""

    source: str
    """The document that declares the edge (the dependent)."""
    target: str
    """The document it derives from (the upstream)."""
    fit: str | None = None
    """The ``fit`` note of a ``{path, fit}`` entry: which part of the upstream is reused."""


@dataclass(frozen=True, slots=True)
class LooseEdge:
    """A ``derived_from`` entry of a node that does not lead to a document of this bank."""

    source: str
    raw: str
    """The target exactly as written."""


@dataclass(frozen=True, slots=True)
class Neighbour:
    """The header of an external target, read one hop and no further."""

    source: str
    raw: str
    file: str
    """The target's path from the bank root, as a link from it would be written (``../README.md``);
    absolute when it lies above the read ceiling."""
    title: str | None = None
    doc_kind: str | None = None
    status: str | None = None
    purpose: str | None = None
    canonical_for: tuple[str, ...] | None = None
    unreadable: str | None = None
    """Why the header was not read (outside the ceiling, not markdown, no such file); None when read."""


@dataclass(frozen=True, slots=True)
class Graph:
    """The answer of one walk, in deterministic order."""

    root: str
    direction: str
    depth: int
    limit: int
    nodes: tuple[GraphNode, ...]
    """Sorted by depth, then path; the root first."""
    edges: tuple[GraphEdge, ...]
    """Sorted by source, then target; one per pair."""
    external: tuple[LooseEdge, ...]
    """Edges of the shown documents that leave the bank, sorted by source, then raw."""
    broken: tuple[LooseEdge, ...]
    """Edges of the shown documents whose target does not exist in the bank, sorted likewise."""
    by_layer: dict[str, int]
    """Non-root nodes per layer."""
    truncated: bool
    """The node cap stopped the walk before it was done."""
    neighbours: tuple[Neighbour, ...] = ()


class _Walk:
    """Mutable state of one walk; only ``walk_graph`` sees it.

    Each sweep expands every node it reaches that it has not expanded yet, even one the other sweep
    added first: in a ``both`` walk over a cycle, the reference skipped such a node and so lost its
    own dependents.
    """

    def __init__(self, bank: Bank, limit: int) -> None:
        self.docs = bank.documents
        self.bank = bank
        self.limit = limit
        self.nodes: dict[str, GraphNode] = {}
        self.edges: dict[tuple[str, str], str | None] = {}
        self.truncated = False

    def add(self, doc: Document, depth: int, via: str, reached_from: str | None) -> None:
        """Add a node, or lower the depth of a known one; past the cap, mark the walk truncated."""
        known = self.nodes.get(doc.path)
        if known is not None:
            if depth < known.depth:
                self.nodes[doc.path] = GraphNode(
                    known.path, known.title, known.doc_kind, known.layer, known.status, depth, via, reached_from
                )
            return
        if len(self.nodes) >= self.limit:
            self.truncated = True
            return
        self.nodes[doc.path] = GraphNode(
            doc.path, doc.title, doc.doc_kind, doc.layer, doc.status, depth, via, reached_from
        )

    def link(self, source: str, target: str, fit: str | None) -> None:
        if source in self.nodes and target in self.nodes:
            key = (source, target)
            if key not in self.edges or (self.edges[key] is None and fit):
                self.edges[key] = fit

    def up(self, start: str, depth: int) -> None:
        frontier = [start]
        expanded = {start}
        for level in range(1, depth + 1):
            following: list[str] = []
            for current in frontier:
                for edge in self.docs[current].derived_from:
                    target = self.docs.get(edge.resolved) if edge.resolved is not None else None
                    if target is None:
                        continue  # external or broken: listed from every node once the walk is done
                    self.add(target, level, "up", current)
                    if target.path in self.nodes and target.path not in expanded:
                        expanded.add(target.path)
                        following.append(target.path)
                    self.link(current, target.path, edge.fit)
            if not following:
                return
            frontier = following

    def down(self, start: str, depth: int) -> None:
        frontier = [start]
        expanded = {start}
        for level in range(1, depth + 1):
            following: list[str] = []
            for current in frontier:
                for dependent_path in dict.fromkeys(self.bank.incoming(current)):
                    dependent = self.docs.get(dependent_path)
                    if dependent is None:
                        continue
                    self.add(dependent, level, "down", current)
                    if dependent_path in self.nodes and dependent_path not in expanded:
                        expanded.add(dependent_path)
                        following.append(dependent_path)
                    if dependent_path in self.nodes:
                        fit = next((e.fit for e in dependent.derived_from if e.resolved == current and e.fit), None)
                        self.link(dependent_path, current, fit)
            if not following:
                return
            frontier = following


def _check(direction: str, depth: int, limit: int) -> None:
    if direction not in DIRECTIONS:
        raise UsageError(f"direction must be one of {', '.join(DIRECTIONS)}, not {direction!r}.")
    if not 1 <= depth <= MAX_DEPTH:
        raise UsageError(f"depth must be between 1 and {MAX_DEPTH}, not {depth}.")
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit (the node cap, root included) must be between 1 and {MAX_LIMIT}, not {limit}.")


def walk_graph(
    bank: Bank,
    path: str,
    *,
    direction: str = "down",
    depth: int = DEFAULT_DEPTH,
    limit: int = DEFAULT_LIMIT,
    neighbours: bool = True,
) -> Graph:
    """Walk ``derived_from`` breadth-first from one document.

    ``up`` follows what the document derives from, ``down`` who derives from it (the blast radius of
    a change), ``both`` runs up first, then down. External and broken edges are listed for every
    document the walk shows, whichever direction reached it (the reference collected them only while
    walking up, so a down walk hid a dependent's broken edge).

    Args:
        bank: an indexed bank (the caller refreshes it).
        path: the start document, in any form the path resolver accepts.
        direction: ``up``, ``down`` or ``both``.
        depth: hops to walk, 1 to 6.
        limit: the node cap, root included, 1 to 300.
        neighbours: read the header of each external target (at most 25), one hop.

    Raises:
        NotADocument: the start path names no document.
        UsageError: a direction, depth or limit out of range.
    """
    _check(direction, depth, limit)
    with bank.lock:
        root = bank.document(path)
        walk = _Walk(bank, limit)
        walk.add(root, 0, direction, None)
        if direction in ("up", "both"):
            walk.up(root.path, depth)
        if direction in ("down", "both"):
            walk.down(root.path, depth)
        external: list[LooseEdge] = []
        broken: list[LooseEdge] = []
        for node_path in walk.nodes:
            for edge in walk.docs[node_path].derived_from:
                if edge.external:
                    external.append(LooseEdge(node_path, edge.raw))
                elif edge.resolved is not None and edge.resolved not in walk.docs:
                    broken.append(LooseEdge(node_path, edge.raw))
    nodes = sorted(walk.nodes.values(), key=lambda n: (n.depth, n.path))
    layers = Counter(n.layer for n in nodes if n.path != root.path)
    external.sort(key=lambda e: (e.source, e.raw))
    broken.sort(key=lambda e: (e.source, e.raw))
    return Graph(
        root=root.path,
        direction=direction,
        depth=depth,
        limit=limit,
        nodes=tuple(nodes),
        edges=tuple(GraphEdge(s, t, fit) for (s, t), fit in sorted(walk.edges.items())),
        external=tuple(dict.fromkeys(external)),
        broken=tuple(dict.fromkeys(broken)),
        by_layer=dict(sorted(layers.items())),
        truncated=walk.truncated,
        neighbours=read_neighbours(bank.root, external) if neighbours else (),
    )


def read_neighbours(bank_root: Path, external: list[LooseEdge] | tuple[LooseEdge, ...]) -> tuple[Neighbour, ...]:
    """Read the header of each external target, one hop, for the first 25 edges.

    Targets resolve against the directory of the document that declares them. Nothing above the
    ceiling (three directory levels over the bank root) is read, through a symbolic link or
    otherwise. The header is read with the lenient line reader, so a neighbour whose YAML does not
    parse still shows what it can, and an inline ``[a, b]`` list is a list.
    """
    root = Path(os.path.abspath(bank_root))
    ceiling = root.parents[CEILING_LEVELS - 1] if len(root.parents) >= CEILING_LEVELS else Path(root.anchor)
    real_ceiling = os.path.realpath(ceiling)
    found: list[Neighbour] = []
    for edge in list(external)[:NEIGHBOUR_LIMIT]:
        found.append(_neighbour(root, ceiling, real_ceiling, edge))
    return tuple(found)


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _neighbour(root: Path, ceiling: Path, real_ceiling: str, edge: LooseEdge) -> Neighbour:
    target = edge.raw.split("#", 1)[0].strip()
    if is_url(target):
        return Neighbour(edge.source, edge.raw, target, unreadable=A_URL)
    base = root / edge.source
    absolute = os.path.normpath(target if os.path.isabs(target) else os.path.join(base.parent, target))
    inside = _inside(absolute, str(ceiling)) and _inside(os.path.realpath(absolute), real_ceiling)
    file = os.path.relpath(absolute, root) if inside else absolute
    if not inside:
        return Neighbour(edge.source, edge.raw, file, unreadable=OUTSIDE_CEILING)
    if not absolute.lower().endswith(".md"):
        return Neighbour(edge.source, edge.raw, file, unreadable=NOT_MARKDOWN)
    try:  # without blocking: a FIFO named like a document is refused, never waited on
        data = read_regular(absolute, HEADER_BYTES, head=True)
    except Unreadable as error:
        if not os.path.exists(absolute):
            return Neighbour(edge.source, edge.raw, file, unreadable=NO_SUCH_FILE)
        return Neighbour(edge.source, edge.raw, file, unreadable=f"could not be read: {error.reason}")
    text, _bom, _bad = decode(data)
    split = split_frontmatter(text)
    header = lenient_frontmatter(split.yaml_text) if split.closed else {}

    def text_field(key: str) -> str | None:
        value = header.get(key)
        return value.strip() if isinstance(value, str) and value.strip() else None

    keys = string_list(header.get("canonical_for"))
    return Neighbour(
        source=edge.source,
        raw=edge.raw,
        file=file,
        title=text_field("title") or os.path.basename(absolute),
        doc_kind=text_field("doc_kind"),
        status=text_field("status"),
        purpose=text_field("purpose"),
        canonical_for=keys or None,
    )
