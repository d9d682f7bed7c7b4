"""Route checks: a bank measures its own routing against the questions its people actually ask.

``dna/route-checks.md`` holds a table ``Question | Expected``; Expected names one or more bank
paths (backticked, linked or comma-separated), any of which counts as the right answer. Each
question is routed and the rank of the first expected document gives Recall@1, Recall@3 and MRR.
A check misses when no expected document is among the first three results, the ones a reader
actually opens; validation reports each miss as a ``route-check-failed`` warning.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.errors import PathRefused
from memorybank.core.model import ROUTE_CHECKS
from memorybank.core.parse import FenceTracker
from memorybank.core.route import route
from memorybank.core.search import rank_bodies

CHECK_DEPTH = 3
"""A check passes when an expected document is among this many results."""
EVAL_LIMIT = 10
"""Results looked at for the reciprocal rank (MRR@10)."""

_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"^\|[\s|:\-]+\|?$")
_BACKTICKED = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\]\(\s*<?([^)>\s]+)>?[^)]*\)")
_PATHLIKE = re.compile(r"[^\s,;]+\.md\b")

Ranker = Callable[[Bank, str], list[str]]
"""A function giving the ranked paths for a question (the route by default). A route hit that
folded copies of its text (``RouteHit.copies``) is given as its paths joined by ``COPIES``."""
COPIES = "\n"
"""Joins a hit's path and its copies' paths: any of them is the expected document."""


@dataclass(frozen=True, slots=True)
class RouteCheck:
    question: str
    expected: tuple[str, ...]
    line: int
    """1-based line of the row in its file."""


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    question: str
    expected: tuple[str, ...]
    line: int
    got: tuple[str, ...]
    """The first results (up to ``EVAL_LIMIT``)."""
    rank: int | None
    """1-based rank of the first expected document, None when it is not in ``got``."""
    stale: bool = False
    """None of the expected paths is a document of the bank: the row is wrong, not the routing."""

    @property
    def passed(self) -> bool:
        return self.rank is not None and self.rank <= CHECK_DEPTH


@dataclass(frozen=True, slots=True)
class RouteCheckMiss:
    """A route check whose expected document is not among the first three results."""

    path: str
    line: int
    question: str
    expected: tuple[str, ...]
    got: tuple[str, ...]
    """The first three results."""
    rank: int | None = None
    stale: bool = False
    """None of the expected paths is a document of the bank."""

    @property
    def message(self) -> str:
        if self.stale:
            return (
                f'Route check "{self.question}" expects {" or ".join(self.expected)}, which is not a document of '
                "this bank: the row is stale, not the routing (fix its path or remove it)."
            )
        got = ", ".join(self.got) or "nothing"
        where = f"it ranks {self.rank}" if self.rank else "it is not in the first results"
        return f'Route check "{self.question}" expects {" or ".join(self.expected)} in the first {CHECK_DEPTH}; {where} (got {got}).'


@dataclass(frozen=True, slots=True)
class EvalReport:
    source: str
    checks: int
    """Rows measured: every row but the stale ones."""
    recall_at_1: float
    recall_at_3: float
    mrr: float
    outcomes: tuple[CheckOutcome, ...]
    misses: tuple[CheckOutcome, ...]
    """The rows that failed: routing misses, and stale rows (``stale``), which the figures leave out."""


def parse_route_checks(text: str, normalise: Callable[[str, bool], str] | None = None) -> list[RouteCheck]:
    """The rows of every ``Question | Expected`` table in the text (outside code fences).

    Header and separator rows and rows naming no ``.md`` path are skipped. ``normalise(path,
    is_link)`` turns what a cell names into a bank path (a link is relative to the file).
    """
    checks = []
    fence = FenceTracker()
    for number, raw in enumerate(text.split("\n"), start=1):
        if fence.feed(raw):
            continue
        line = raw.strip()
        if not line.startswith("|") or _SEPARATOR.match(line):
            continue
        cells = [c.strip() for c in _CELL_SPLIT.split(line.strip().strip("|"))]
        if len(cells) < 2 or cells[0].lower() in ("question", "вопрос"):
            continue
        expected = _expected_paths(cells[1])
        if cells[0] and expected:
            paths = tuple(dict.fromkeys(normalise(p, link) if normalise else p for p, link in expected))
            checks.append(RouteCheck(cells[0].replace("\\|", "|"), paths, number))
    return checks


def _expected_paths(cell: str) -> list[tuple[str, bool]]:
    """(path, is a link) for each document a cell names."""
    links = _LINK.findall(cell)
    found = [b for b in _BACKTICKED.findall(cell) if b.strip().endswith(".md")]
    if not links and not found:
        found = _PATHLIKE.findall(cell.replace("`", ""))
    named = [(p, True) for p in links] + [(p, False) for p in found]
    named = [(p.split("#", 1)[0] if link else p, link) for p, link in named]  # a link may point at a heading
    return [(p.strip().removeprefix("./"), link) for p, link in named if p.strip().endswith(".md")]


def _normaliser(bank: Bank, base: str) -> Callable[[str, bool], str]:
    """Bank paths as any caller gives them; links relative to ``base``, the checks' directory."""

    root = str(bank.root)

    def normalise(raw: str, link: bool) -> str:
        target = raw
        if link and base:  # through the disk, so a file beside the bank may link into it
            target = Path(os.path.relpath(os.path.normpath(os.path.join(root, base, raw)), root)).as_posix()
        try:
            return bank.resolve(target)
        except PathRefused:
            return raw

    return normalise


def route_ranker(bank: Bank, question: str) -> list[str]:
    return [COPIES.join((hit.path, *hit.copies)) for hit in route(bank, question, limit=EVAL_LIMIT).hits]


def headers_ranker(bank: Bank, question: str) -> list[str]:
    """The reference's design: headers only, no body evidence."""
    hits = route(bank, question, limit=EVAL_LIMIT, body_evidence=False).hits
    return [COPIES.join((hit.path, *hit.copies)) for hit in hits]


def bm25_ranker(bank: Bank, question: str) -> list[str]:
    """Plain BM25 over whole bodies, with the same word matching."""
    return rank_bodies(bank, question, limit=EVAL_LIMIT)


BASELINES: dict[str, Ranker] = {"headers only": headers_ranker, "bm25 over bodies": bm25_ranker}
"""What the router is compared with: what it would rank from headers alone, and from bodies alone."""


def evaluate(
    bank: Bank, checks: list[RouteCheck], *, source: str = ROUTE_CHECKS, ranker: Ranker = route_ranker
) -> EvalReport:
    """Route every check and measure: Recall@1, Recall@3 and MRR (over the first 10 results).

    Args:
        bank: the bank, already refreshed.
        checks: the questions with their expected documents.
        source: where the checks came from, for the report.
        ranker: what to measure; the fused route unless a comparison asks otherwise.
    """
    outcomes = []
    for check in checks:
        ranked = [entry.split(COPIES) for entry in ranker(bank, check.question)[:EVAL_LIMIT]]
        got = tuple(paths[0] for paths in ranked)
        rank = next((i for i, paths in enumerate(ranked, start=1) if any(p in check.expected for p in paths)), None)
        stale = not any(p in bank.documents for p in check.expected)
        outcomes.append(CheckOutcome(check.question, check.expected, check.line, got, rank, stale))
    measured = [o for o in outcomes if not o.stale]  # a stale row measures the row, not the routing
    count = len(measured) or 1
    return EvalReport(
        source=source,
        checks=len(measured),
        recall_at_1=sum(1 for o in measured if o.rank == 1) / count,
        recall_at_3=sum(1 for o in measured if o.passed) / count,
        mrr=sum(1 / o.rank for o in measured if o.rank) / count,
        outcomes=tuple(outcomes),
        misses=tuple(o for o in outcomes if not o.passed),
    )


def load_checks(bank: Bank, text: str | None = None, base: str = "") -> list[RouteCheck]:
    """The checks of ``text`` (backticked paths relative to the bank root, links relative to
    ``base``, the text's folder relative to the bank root), or of the bank's
    ``dna/route-checks.md`` (links relative to it); none when it is absent."""
    if text is None:
        if ROUTE_CHECKS not in bank.documents:
            return []
        text, base = bank.text(ROUTE_CHECKS), posixpath.dirname(ROUTE_CHECKS)
    return parse_route_checks(text, _normaliser(bank, base))


def evaluate_bank(bank: Bank) -> EvalReport:
    """Evaluate the bank's own ``dna/route-checks.md``."""
    return evaluate(bank, load_checks(bank))


def route_check_misses(bank: Bank) -> list[RouteCheckMiss]:
    """Each route check of ``dna/route-checks.md`` whose expected document is not in the first
    three results, with its line: what validation reports as ``route-check-failed``."""
    report = evaluate_bank(bank)
    return [
        RouteCheckMiss(ROUTE_CHECKS, o.line, o.question, o.expected, o.got[:CHECK_DEPTH], o.rank, o.stale)
        for o in report.misses
    ]
