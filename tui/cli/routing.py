"""Finding commands: ``route`` (which document answers a question), ``search`` (where a string
occurs) and ``eval`` (how well routing answers the bank's own route checks)."""

from __future__ import annotations

import argparse
import os
import posixpath
import sys
import textwrap
from pathlib import Path

from memorybank.core.errors import UsageError
from memorybank.core.evaluate import (
    BASELINES,
    CHECK_DEPTH,
    COPIES,
    ROUTE_CHECKS,
    EvalReport,
    Ranker,
    evaluate,
    load_checks,
    route_ranker,
)
from memorybank.core.intent import intents
from memorybank.core.model import LAYERS
from memorybank.core.route import DEFAULT_LIMIT as ROUTE_LIMIT
from memorybank.core.route import EMPTY_HINT as NO_ROUTE
from memorybank.core.route import RouteHit, RouteResult, route
from memorybank.core.search import DEFAULT_LIMIT as SEARCH_LIMIT
from memorybank.core.search import EMPTY_HINT as NO_BODY
from memorybank.core.search import SearchResult, search
from memorybank.core.series import PACKAGE_LIFT, SERIES_LIFT
from memorybank.tui.cli.context import open_bank
from memorybank.tui.cli.helptext import examples
from memorybank.tui.cli.output import emit_json, in_cli_words, visible

_LAYERS = [layer for layer in LAYERS if layer != "inbox"]


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``route``, ``search`` and ``eval``."""
    parser = sub.add_parser(
        "route",
        parents=[common],
        help="the documents to read for a question (English or Russian)",
        description="Rank the documents that answer a question, with the ## section to start reading at and "
        "why each matched (canonical_for keys, purpose, title, headings, body). Ask before reading or "
        "changing the bank; a why-question favours decision records.",
        epilog=examples(
            'memorybank route "how are failed card payments retried"',
            "# only knowledge documents, the best two",
            'memorybank route "vat rates" --layer knowledge --limit 2',
            "# where each score came from",
            'memorybank route "why did we choose a postgres job queue" --explain',
        ),
    )
    parser.add_argument("question", help='a question or topic, e.g. "where are the filter thresholds"')
    parser.add_argument("--limit", "-n", type=int, default=ROUTE_LIMIT, help=f"results, 1-25 (default {ROUTE_LIMIT})")
    parser.add_argument("--kind", help="only documents of this doc_kind (e.g. adr, ops)")
    parser.add_argument("--layer", choices=_LAYERS, help="only documents of this layer")
    parser.add_argument("--explain", action="store_true", help="show where each score came from")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run_route)

    parser = sub.add_parser(
        "search",
        parents=[common],
        help="where words or identifiers occur in document bodies",
        description="Find where words, a phrase or an identifier occur in document bodies, with file:line and "
        "the line itself. Use it for a literal string; use route for a question.",
        epilog=examples(
            'memorybank search "credit note"',
            "# an identifier, among delivery documents only",
            "memorybank search FT-001 --layer delivery",
            "memorybank search jitter --status active --json",
        ),
    )
    parser.add_argument("query", help="words, a phrase or an identifier such as FT-001 or filter_thresholds")
    parser.add_argument(
        "--limit", "-n", type=int, default=SEARCH_LIMIT, help=f"results, 1-500 (default {SEARCH_LIMIT})"
    )
    parser.add_argument("--kind", help="only documents of this doc_kind (e.g. adr, ops)")
    parser.add_argument("--layer", choices=_LAYERS, help="only documents of this layer")
    parser.add_argument("--status", help="only documents with this status (e.g. active, draft)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run_search)

    parser = sub.add_parser(
        "eval",
        parents=[common],
        help=f"Recall@1, Recall@3 and MRR of routing over {ROUTE_CHECKS}",
        description=f"Measure how well route answers the bank's own route checks: each row of a table "
        f"Question | Expected in {ROUTE_CHECKS} (or in each --file) is routed, and Recall@1, Recall@3 "
        "and MRR are printed beside two baselines (headers only, BM25 over bodies), with the misses. "
        "Run it after changing titles, purposes or canonical_for keys.",
        epilog=examples(
            f"# the bank's own checks, {ROUTE_CHECKS}",
            "memorybank eval",
            "# two sets, each measured on its own: tune on one, report the other",
            "memorybank eval --file tuning.md --file held-out.md",
        ),
    )
    parser.add_argument(
        "--file",
        "-f",
        type=Path,
        action="append",
        metavar="FILE",
        help=f"a file of Question | Expected rows (default: the bank's {ROUTE_CHECKS}); repeat it to "
        "measure several sets (tuning, held-out) each on its own",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=run_eval)


def run_route(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    result = route(bank, args.question, limit=args.limit, doc_kind=args.kind, layer=args.layer)
    if args.json:
        emit_json(result if args.explain else _without_breakdown(result))
    else:
        print(visible(format_route(result, explain=args.explain, width=terminal_width())))
    return 0


def terminal_width() -> int:
    """The columns of the terminal the answer is printed on (``COLUMNS`` when set), or 0 when it
    goes to no terminal: a pipe or a file gets each line whole, for grep."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 0
    except (AttributeError, OSError, ValueError):  # a stream with no descriptor
        return 0


def _wrapped(line: str, width: int, hang: int) -> str:
    """A line of the answer folded to ``width`` columns, its continuation lines indented ``hang``
    spaces under its text (paths and words are never cut); as it is when ``width`` is 0."""
    if not width or len(line) <= width:
        return line
    return textwrap.fill(line, width, subsequent_indent=" " * hang, break_long_words=False, break_on_hyphens=False)


def _ranked(head: str, states: str, width: int) -> str:
    """A hit's first line: its rank, path and score, then its states in brackets, which go to a line
    of their own, under the path, when the whole does not fit in ``width`` columns."""
    line = f"{head}  {states}"
    return line if not width or len(line) <= width else f"{head}\n    {states}"


def _without_breakdown(result: RouteResult) -> dict[str, object]:
    hits = [{k: v for k, v in _plain(hit).items() if k != "breakdown"} for hit in result.hits]
    plain: dict[str, object] = {"question": result.question, "hits": hits, "why_intent": result.why_intent}
    if result.hint:
        plain["hint"] = result.hint
    return plain


def _plain(hit: RouteHit) -> dict[str, object]:
    return {name: getattr(hit, name) for name in hit.__dataclass_fields__}


CLI_HINTS = {
    NO_ROUTE: "No document matches these words. Try `memorybank search` for a literal term, or widen the question.",
    NO_BODY: "No document body contains these terms. Try `memorybank route` for a topic.",
}
"""The core's hints name the agents' tools (``bank_search``); a shell user has the commands."""


def _n(value: float) -> str:
    """A part of a score as the explanation shows it: two decimals at most (``4.09``, ``0``, ``1.2``)."""
    return f"{round(value, 2):g}"


def format_route(result: RouteResult, *, explain: bool = False, width: int = 0) -> str:
    """The answer as the CLI prints it; with a ``width``, each line is folded to it, its continuation
    indented under its text (a hit's states under its path)."""
    if not result.hits:
        return CLI_HINTS.get(result.hint or "", in_cli_words(result.hint or "")) or "No match."
    lines = []
    if result.why_intent:
        lines.append("(a why-question: decision records are favoured)")
    if result.hint:  # a word read as the bank's, or one no document mentions
        lines.append(_wrapped(f"({in_cli_words(result.hint)})", width, 1))
    asked = ", ".join(sorted(intents(result.question))) if explain else ""
    for rank, hit in enumerate(result.hits, start=1):
        states = ", ".join(s for s in (hit.layer, hit.status, hit.progress) if s)
        lines.append(_ranked(f"{rank:>2}. {hit.path}  {hit.score:g}", f"[{states}]", width))
        lines.append(_wrapped(f"    {hit.title}" + (f" - {hit.purpose}" if hit.purpose and explain else ""), width, 6))
        if hit.section:
            lines.append(
                _wrapped(f"    read: {'#' * hit.section_level} {hit.section} (line {hit.section_line})", width, 10)
            )
        lines.append(_wrapped(f"    why: {hit.why}", width, 9))
        if hit.copies:
            lines.append(f"    same file: {', '.join(hit.copies)}")
        if explain:
            b = hit.breakdown
            fields = [
                f"canonical_for {_n(b.canonical)}" + (f" ({b.canonical_key})" if b.canonical_key else ""),
                f"purpose {_n(b.purpose)}",
                f"title {_n(b.title)}",
                f"section {_n(b.heading)}",
            ]
            lines.append(_wrapped(f"    headers: {', '.join(fields)} = {_n(b.raw)}", width, 6))
            formula = (
                f"    x layer {_n(b.layer_weight)} x status {_n(b.status_weight)}"
                + (f" x closed work {_n(b.closed_work)}" if b.closed_work != 1 else "")
                + (f" + family headers {_n(b.family)}" if b.family else "")
                + f" + body {_n(b.body)}"
                + (f" ({', '.join(b.body_words)})" if b.body_words else "")
                + f" + best section {_n(b.section)}"
                + (f" + links to it {_n(b.linked)} ({', '.join(b.linked_words)})" if b.linked else "")
                + (f" x words together {_n(b.together)}" if b.together != 1 else "")
                + (f" x intent {_n(b.intent)} ({asked}: the kind of answer asked for)" if b.intent != 1 else "")
                + ("; first whatever its score: the question names it" if b.named else "")
                + (
                    f"; {'the last, ' if b.place_last else ''}number {b.place} of its series: "
                    + (f"its package's best x {PACKAGE_LIFT:g}" if b.place_package else f"its best x {SERIES_LIFT:g}")
                    if b.place
                    else ""
                )
            )
            lines.append(_wrapped(formula, width, 6))
    return "\n".join(lines)


def run_search(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    result = search(bank, args.query, limit=args.limit, doc_kind=args.kind, layer=args.layer, status=args.status)
    if args.json:
        emit_json(result)
    else:
        print(visible(format_search(result)))
    return 0


def format_search(result: SearchResult) -> str:
    if not result.hits:
        return CLI_HINTS.get(result.hint or "", in_cli_words(result.hint or "")) or "No match."
    lines = []
    if result.broadened:
        lines.append("(no document holds the query as written; showing documents that hold some of its words)")
        if result.hint:
            lines.append(f"({in_cli_words(result.hint)})")
    if result.matched > len(result.hits):
        lines.append(f"(the first {len(result.hits)} of {result.matched} documents; --limit shows more)")
    for rank, hit in enumerate(result.hits, start=1):
        if rank > 1 and result.hits[rank - 2].as_written and not hit.as_written:  # scores start again
            lines.append("(the documents below hold the words, not the query as written)")
        where = f"{hit.path}:{hit.line}" if hit.line else hit.path
        lines.append(
            f"{rank:>2}. {where}  {hit.score:g}  [{hit.layer}{', ' + hit.status if hit.status else ''}]  {hit.title}"
        )
        if hit.excerpt:
            lines.append(f"    {hit.excerpt}")
    return "\n".join(lines)


def run_eval(args: argparse.Namespace) -> int:
    bank = open_bank(args)
    sources: list[tuple[str | None, str, str]] = []  # (text, source, its path from the bank root)
    for file in args.file or ():  # its links are relative to where it lies, in the bank or beside it
        where = Path(os.path.relpath(os.path.abspath(file), bank.root)).as_posix()
        sources.append((read_checks_file(file), str(file), where))
    if not sources:
        if ROUTE_CHECKS not in bank.documents:
            raise UsageError(
                f"This bank has no {ROUTE_CHECKS}: write one (a table Question | Expected), pin a route in the "
                "workbench (Route pane, ctrl+s writes it), or pass --file."
            )
        sources.append((None, ROUTE_CHECKS, ""))
    reports = []
    for text, source, where in sources:
        checks = load_checks(bank, text, posixpath.dirname(where))
        if not checks:
            raise UsageError(
                f"No route checks in {source}: expected rows of a table Question | Expected naming .md paths."
            )
        rankers = {name: _without(rank, where) for name, rank in {"router": route_ranker, **BASELINES}.items()}
        report = evaluate(bank, checks, source=source, ranker=rankers.pop("router"))
        baselines = {name: evaluate(bank, checks, source=source, ranker=rank) for name, rank in rankers.items()}
        reports.append((report, baselines))
    if args.json:
        emit_json(reports[0][0] if len(reports) == 1 else [report for report, _ in reports])
    else:
        print(visible("\n\n".join(format_eval(report, baselines) for report, baselines in reports)))
    return 0


def _without(rank: Ranker, path: str) -> Ranker:
    """The ranker, never answering with ``path``: a file of checks kept in the bank would answer its
    own questions (the bank's ``dna/route-checks.md`` is left out by the rankers themselves)."""
    if not path or path.startswith("../"):
        return rank
    return lambda bank, question: [entry for entry in rank(bank, question) if entry.split(COPIES)[0] != path]


CHECKS_LIMIT = 5_000_000
"""Bytes a file of route checks may hold: a table of questions, not a dump."""


def read_checks_file(file: Path) -> str:
    """The text of a file of route checks: a regular file, opened without blocking (a FIFO or a
    device is refused, never waited on or read forever), at most ``CHECKS_LIMIT`` bytes of UTF-8."""
    from memorybank.core.regular import TooLarge, Unreadable, read_regular

    try:
        data = read_regular(file, CHECKS_LIMIT)
    except TooLarge as error:
        raise UsageError(
            f"Cannot read {file}: it is {error.size:,} bytes, past the {CHECKS_LIMIT:,} a file of route checks may hold."
        ) from None
    except Unreadable as error:
        raise UsageError(f"Cannot read {file}: {error.reason}.") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(f"Cannot read {file}: it is not UTF-8 text (byte {exc.start + 1}).") from None


def format_eval(report: EvalReport, baselines: dict[str, EvalReport] | None = None) -> str:
    stale = len(report.outcomes) - report.checks
    left_out = f" ({stale} stale row{'' if stale == 1 else 's'} left out)" if stale else ""
    lines = [
        f"{report.source}: {report.checks} route check{'' if report.checks == 1 else 's'}{left_out}",
        f"  {'router:':18} Recall@1 {report.recall_at_1:.2f}   Recall@{CHECK_DEPTH} {report.recall_at_3:.2f}"
        f"   MRR {report.mrr:.2f}",
    ]
    for name, other in (baselines or {}).items():
        lines.append(
            f"  {name + ':':18} Recall@1 {other.recall_at_1:.2f}   Recall@{CHECK_DEPTH} {other.recall_at_3:.2f}"
            f"   MRR {other.mrr:.2f}"
        )
    if report.misses:
        lines.append(f"misses (no expected document in the first {CHECK_DEPTH}):")
        for miss in report.misses:
            rank = f"rank {miss.rank}" if miss.rank else "not in the first 10"
            rank = "not a document of this bank: the row is stale" if miss.stale else rank
            lines.append(f"  line {miss.line}: {miss.question}")
            lines.append(
                f"    expected {', '.join(miss.expected)} ({rank}); got {', '.join(miss.got[:CHECK_DEPTH]) or 'nothing'}"
            )
    else:
        lines.append("no misses")
    return "\n".join(lines)
