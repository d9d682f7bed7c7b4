"""The graph, drift and changed commands: what rests on a document, where code moved on, what changed."""

from __future__ import annotations

import argparse

from memorybank.core.changes import Changes, changes_since
from memorybank.core.drift import DEFAULT_THRESHOLD_DAYS, Drift, check_drift
from memorybank.core.errors import UsageError
from memorybank.core.graph import DEFAULT_DEPTH, DEFAULT_LIMIT, DIRECTIONS, MAX_LIMIT, Graph, GraphNode, walk_graph
from memorybank.core.staleness import (
    DEFAULT_STALE_DAYS,
    MAX_STALE_DAYS,
    Staleness,
    find_stale,
)
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.drift_text import format_drift, format_stale, verdict
from memorybank.tui.cli.helptext import Once, examples
from memorybank.tui.cli.output import counted, emit_json, visible

GRAPH_FORMATS = ("text", "json", "mermaid", "dot")
MARKERS = {"up": "^", "down": "v"}
CHANGE_MARKS = {"added": "A", "modified": "M", "renamed": "R", "deleted": "D"}
DRIFT_FORMATS = ("text", "json")


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``graph``, ``drift`` and ``changed``."""
    graph = sub.add_parser(
        "graph",
        parents=[common],
        help="the derived_from graph around a document: up, down (blast radius) or both",
        description="Walk the derived_from graph from one document: up to what it rests on, down to the "
        "documents that rest on it (what a change to it may make wrong), or both; print a tree, JSON, "
        "or a Mermaid or Graphviz diagram to paste. Links that leave the bank are listed, not followed.",
        epilog=examples(
            "# what may need updating when the architecture changes",
            "memorybank graph engineering/architecture.md",
            "# what the retry policy rests on, as a Mermaid diagram",
            "memorybank graph engineering/payment-retries.md --direction up --format mermaid",
            "memorybank graph dna/governance.md --direction both --depth 3 --format dot > graph.dot",
        ),
    )
    graph.add_argument("path", help="bank path of the start document")
    graph.add_argument(
        "--direction",
        "-d",
        choices=DIRECTIONS,
        default="down",
        help="up: what it rests on; down: who rests on it (default); both",
    )
    graph.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help=f"hops to walk, 1-6 (default {DEFAULT_DEPTH})")
    graph.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"node cap, root included, 1-{MAX_LIMIT} (default {DEFAULT_LIMIT})",
    )
    graph.add_argument(
        "--format",
        "-f",
        choices=GRAPH_FORMATS,
        default="text",
        help="text (a tree), json, or a diagram to paste: mermaid or dot",
    )
    graph.add_argument("--json", action="store_const", dest="format", const="json", help="same as --format json")
    graph.add_argument("--no-neighbours", action="store_true", help="do not read the headers of external targets")
    graph.set_defaults(handler=run_graph)

    drift = sub.add_parser(
        "drift",
        parents=[common],
        help="documents whose anchored code moved on in git without them; --stale: live documents nobody touched",
        description="Compare documents with the git history of the code. By default: each document that declares "
        "anchors: (repository paths) whose code was committed more than --threshold-days after it, with the commits "
        "that moved the code, widest gap first; anchors whose path no longer exists are always reported. With "
        "--stale: live documents (no anchors needed) whose last commit is older than --days while files outside "
        "the bank changed, most changed around them first: in the code paths they name, then beside those paths, "
        "then anywhere.",
        epilog=examples(
            "memorybank drift",
            "# every gap, however small, under engineering/",
            "memorybank drift --threshold-days 0 --scope engineering",
            "# live documents untouched while the code moved on",
            "memorybank drift --stale",
            "memorybank drift --stale --days 30 --format json",
            "# in CI: fail when a document lags its code (check out the full history)",
            "memorybank drift --check",
        ),
    )
    drift.add_argument(
        "--threshold-days",
        type=int,
        metavar="N",
        help=f"report code ahead by more than this many days (default {DEFAULT_THRESHOLD_DAYS}; 0 shows every gap)",
    )
    drift.add_argument(
        "--stale",
        action="store_true",
        help="list live documents untouched for N days while the code moved on, ranked by what changed in the "
        "paths they name, beside them, then anywhere (no anchors needed)",
    )
    drift.add_argument(
        "--days",
        type=int,
        metavar="N",
        help=f'with --stale: days without a commit, 0-{MAX_STALE_DAYS} (default: the bank\'s "stale after N days" '
        f"sentence in dna/, else {DEFAULT_STALE_DAYS})",
    )
    drift.add_argument(
        "--scope", metavar="DIR", action=Once, help="only documents under this directory of the bank, e.g. ops"
    )
    drift.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a document is reported, or when the history cannot tell (a shallow clone, no git): for CI",
    )
    drift.add_argument("--format", "-f", choices=DRIFT_FORMATS, default="text", help="text (default) or json")
    drift.add_argument("--json", action="store_const", dest="format", const="json", help="same as --format json")
    drift.set_defaults(handler=run_drift)

    changed = sub.add_parser(
        "changed",
        parents=[common],
        help="documents added, modified, renamed or deleted since a ref or date",
        description="List the documents added, modified, renamed or deleted since a git ref or a date, "
        "uncommitted changes included (outside git: by modification time). Use it to catch up on what "
        "agents and colleagues changed in the bank.",
        epilog=examples(
            "memorybank changed HEAD~3",
            "memorybank changed 2026-05-01",
            "# the last week (7d, 2w, '3 days ago', yesterday)",
            "memorybank changed 7d",
            "# what a branch changed in the bank",
            "memorybank changed main --json",
        ),
    )
    changed.add_argument(
        "since", help="a git ref (commit, tag, HEAD~5), an ISO date (2026-08-01) or a span back from now (7d, 2w)"
    )
    changed.add_argument("--json", action="store_true", help="print JSON")
    changed.set_defaults(handler=run_changed)


# -- graph -------------------------------------------------------------------------------------


def run_graph(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    graph = walk_graph(
        bank, args.path, direction=args.direction, depth=args.depth, limit=args.limit, neighbours=not args.no_neighbours
    )
    if args.format == "json":
        emit_json(graph)
    else:
        print(visible({"text": format_graph, "mermaid": format_mermaid, "dot": format_dot}[args.format](graph)))
    return 0


def _describe(node: GraphNode) -> str:
    status = f", {node.status}" if node.status and node.status != "active" else ""
    return f"{node.path}  {node.title}  [{node.doc_kind or '-'} / {node.layer}{status}]"


def _tree_edge(graph: Graph, node: GraphNode) -> tuple[str, str]:
    """The (source, target) of the edge a node came by: dependent first, as in ``derived_from``."""
    assert node.reached_from is not None
    return (node.reached_from, node.path) if node.via == "up" else (node.path, node.reached_from)


def format_graph(graph: Graph) -> str:
    """An indented tree: ``^`` marks what a document rests on, ``v`` who rests on it."""
    fits = {(e.source, e.target): e.fit for e in graph.edges}
    children: dict[str, list[GraphNode]] = {}
    for node in graph.nodes[1:]:
        children.setdefault(node.reached_from or "", []).append(node)
    lines = [_describe(graph.nodes[0])]
    used: set[tuple[str, str]] = set()

    def grow(parent: str, indent: int) -> None:
        for node in sorted(children.get(parent, []), key=lambda n: (n.via != "up", n.path)):
            edge = _tree_edge(graph, node)
            used.add(edge)
            lines.append(f"{'  ' * indent}{MARKERS[node.via]} {_describe(node)}")
            if fits.get(edge):
                lines.append(f"{'  ' * indent}    fit: {fits[edge]}")
            grow(node.path, indent + 1)

    grow(graph.nodes[0].path, 1)
    others = [e for e in graph.edges if (e.source, e.target) not in used]
    if others:
        lines += ["", "other edges among these documents (dependent -> upstream):"]
        lines += [f"  {e.source} -> {e.target}" + (f"  (fit: {e.fit})" if e.fit else "") for e in others]
    layers = ", ".join(f"{layer} {count}" for layer, count in graph.by_layer.items())
    summary = f"{counted(len(graph.nodes), 'document')}, walking {graph.direction} {counted(graph.depth, 'hop')}"
    summary += f" (reached from it: {layers})" if layers else ""
    lines += ["", summary]
    if graph.truncated:
        lines.append(
            f"truncated: the cap of {graph.limit} documents (root included) was reached; "
            f"raise --limit (at most {MAX_LIMIT}) or lower --depth"
        )
    if graph.external:
        readable = {(n.source, n.raw): n for n in graph.neighbours}
        lines += ["", "external (derived from outside the bank; validate does not check them):"]
        for edge in graph.external:
            lines.append(f"  {edge.source} -> {edge.raw}")
            neighbour = readable.get((edge.source, edge.raw))
            if neighbour is None:
                continue
            if neighbour.unreadable:
                lines.append(f"      {neighbour.file}: {neighbour.unreadable}")
                continue
            head = f"      {neighbour.file}: {neighbour.title} [{neighbour.doc_kind or '-'}, {neighbour.status or '-'}]"
            lines.append(head + (f" {neighbour.purpose}" if neighbour.purpose else ""))
            if neighbour.canonical_for:
                lines.append(f"      canonical for: {', '.join(neighbour.canonical_for)}")
    if graph.broken:
        lines += ["", "broken (lead to no document of this bank):"]
        lines += [f"  {edge.source} -> {edge.raw}" for edge in graph.broken]
    return "\n".join(lines)


def _caption(graph: Graph) -> str:
    return (
        f"derived_from walk {graph.direction} from {graph.root}, depth {graph.depth}"
        f"{', truncated at ' + str(graph.limit) + ' documents' if graph.truncated else ''}; "
        "an arrow runs from a document to one derived from it"
    )


def _mermaid_text(text: str) -> str:
    return text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def format_mermaid(graph: Graph) -> str:
    """A Mermaid flowchart: upstream documents above the documents derived from them."""
    ids = {node.path: f"n{i}" for i, node in enumerate(graph.nodes)}
    lines = ["flowchart TD", f"  %% {_caption(graph)}"]
    for node in graph.nodes:
        label = f"{_mermaid_text(node.path)}<br/>{_mermaid_text(node.title)}"
        lines.append(f'  {ids[node.path]}["{label}"]' + (":::root" if node.depth == 0 else ""))
    for edge in graph.edges:
        fit = f'|"{_mermaid_text(edge.fit)}"|' if edge.fit else ""
        lines.append(f"  {ids[edge.target]} -->{fit} {ids[edge.source]}")
    for i, edge in enumerate(graph.external):
        lines.append(f'  x{i}[/"{_mermaid_text(edge.raw)}"/]:::external')
        lines.append(f"  x{i} -.-> {ids[edge.source]}")
    for i, edge in enumerate(graph.broken):
        lines.append(f'  b{i}["{_mermaid_text(edge.raw)} (broken)"]:::broken')
        lines.append(f"  b{i} -.-x {ids[edge.source]}")
    lines += [
        "  classDef root stroke-width:3px",
        "  classDef external stroke-dasharray: 5 5",
        "  classDef broken stroke:#c00,color:#c00,stroke-dasharray: 5 5",
    ]
    return "\n".join(lines)


def _dot_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def format_dot(graph: Graph) -> str:
    """A Graphviz digraph: upstream documents above the documents derived from them."""
    lines = ["digraph derived_from {", f"  // {_caption(graph)}", "  rankdir=TB;", "  node [shape=box];"]
    for node in graph.nodes:
        extra = ", penwidth=2" if node.depth == 0 else ""
        lines.append(f"  {_dot_text(node.path)} [label={_dot_text(node.path + chr(10) + node.title)}{extra}];")
    for edge in graph.edges:
        label = f" [label={_dot_text(edge.fit)}]" if edge.fit else ""
        lines.append(f"  {_dot_text(edge.target)} -> {_dot_text(edge.source)}{label};")
    for kind, edges in (("external", graph.external), ("broken", graph.broken)):
        style = "style=dashed" if kind == "external" else "style=dashed, color=red, fontcolor=red"
        for i, edge in enumerate(edges):
            name = _dot_text(f"{kind}:{i}")
            suffix = " (broken)" if kind == "broken" else ""
            lines.append(f"  {name} [label={_dot_text(edge.raw + suffix)}, {style}];")
            lines.append(f"  {name} -> {_dot_text(edge.source)} [style=dashed];")
    lines.append("}")
    return "\n".join(lines)


# -- drift -------------------------------------------------------------------------------------


def run_drift(args: argparse.Namespace) -> int:
    if args.stale and args.threshold_days is not None:
        raise UsageError("--threshold-days is for anchored drift; with --stale, say how old with --days N.")
    if not args.stale and args.days is not None:
        raise UsageError("--days goes with --stale; anchored drift takes --threshold-days N.")
    bank = open_bank(args)
    if args.stale:
        result: Drift | Staleness = find_stale(bank, days=args.days, scope=args.scope)
    else:
        threshold = DEFAULT_THRESHOLD_DAYS if args.threshold_days is None else args.threshold_days
        result = check_drift(bank, threshold_days=threshold, scope=args.scope)
    if args.format == "json":
        emit_json(result)
    else:
        print(visible(format_stale(result) if isinstance(result, Staleness) else format_drift(result)))
    return verdict(result) if args.check else 0


def run_changed(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    changes = changes_since(bank, args.since)
    if args.json:
        emit_json(changes)
    else:
        print(visible(format_changes(changes)))
    return 0


def format_changes(changes: Changes) -> str:
    source = f"git, {changes.repo}" if changes.mode == "git" else "modification times"
    base = f" (from {changes.base[:8]})" if changes.base else ""
    count = len(changes.changes)
    lines = [f"{count} document{'s' if count != 1 else ''} changed since {changes.since}{base}; {source}"]
    for change in changes.changes:
        kind = f"[{change.doc_kind or '-'} / {change.layer}]"
        origin = f"  <- {change.renamed_from}" if change.renamed_from else ""
        lines.append(f"  {CHANGE_MARKS[change.change_kind]} {change.path}  {change.title}  {kind}{origin}")
    if changes.note:
        lines += ["", f"note: {changes.note}"]
    return "\n".join(lines)
