"""Routing quality on the real banks: Recall@1, Recall@3 and MRR of three rankers per bank.

    python -m tests.benchmarks.route_quality [--set tuning|held-out|held-out-2|held-out-3] [--misses]

- **headers**: the reference's design, headers only (``route(..., body_evidence=False)``);
- **bm25**: plain BM25 over whole bodies, with the same word matching (inflections, translations);
- **fused**: our route, headers first with body evidence as a secondary term.

The questions live in ``tests/fixtures/route-questions/<bank>.md`` (the set the router was tuned
on), ``held-out/`` (written without looking at the router, then used once to choose between two
structural options), ``held-out-2/`` (never used for any choice) and ``held-out-3/`` (the three
banks that arrived last, questions written before any routing was run on them, never tuned on): one
file per bank. Templates and inbox notes are excluded by all three rankers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from core.bank import Bank
from core.evaluate import EVAL_LIMIT, EvalReport, evaluate, load_checks
from core.route import route
from core.search import rank_bodies

PROJECT = Path(__file__).resolve().parents[2]
QUESTIONS = PROJECT / "tests" / "fixtures" / "route-questions"
BANKS = PROJECT.parent / "shared" / "banks"

RANKERS = {
    "headers": lambda bank, q: [h.path for h in route(bank, q, limit=EVAL_LIMIT, body_evidence=False).hits],
    "bm25": lambda bank, q: rank_bodies(bank, q, limit=EVAL_LIMIT),
    "fused": lambda bank, q: [h.path for h in route(bank, q, limit=EVAL_LIMIT).hits],
}


SETS = {
    "tuning": QUESTIONS,
    "held-out": QUESTIONS / "held-out",
    "held-out-2": QUESTIONS / "held-out-2",
    "held-out-3": QUESTIONS / "held-out-3",
}


def measure(folder: Path = QUESTIONS) -> dict[str, dict[str, EvalReport]]:
    """Per bank, per ranker, the evaluation report."""
    results: dict[str, dict[str, EvalReport]] = {}
    for questions in sorted(folder.glob("*.md")):
        root = BANKS / questions.stem / "memory_bank"
        if not root.is_dir():
            continue
        bank = Bank.open(root)
        checks = load_checks(bank, questions.read_text(encoding="utf-8"))
        results[questions.stem] = {
            name: evaluate(bank, checks, source=questions.name, ranker=rank) for name, rank in RANKERS.items()
        }
    return results


def overall(reports: list[EvalReport]) -> tuple[float, float, float, int]:
    count = sum(r.checks for r in reports) or 1
    return (
        sum(r.recall_at_1 * r.checks for r in reports) / count,
        sum(r.recall_at_3 * r.checks for r in reports) / count,
        sum(r.mrr * r.checks for r in reports) / count,
        count,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=SETS, default="tuning", help="which question set")
    parser.add_argument("--misses", action="store_true", help="list the fused ranker's misses")
    args = parser.parse_args()
    results = measure(SETS[args.set])
    print(f"{'bank':32} {'n':>3}  " + "  ".join(f"{name + ' R@1/R@3/MRR':>24}" for name in RANKERS))
    for bank, reports in results.items():
        n = next(iter(reports.values())).checks
        cells = [f"{r.recall_at_1:.2f} / {r.recall_at_3:.2f} / {r.mrr:.2f}" for r in reports.values()]
        print(f"{bank:32} {n:>3}  " + "  ".join(f"{c:>24}" for c in cells))
    totals = [overall([results[b][name] for b in results]) for name in RANKERS]
    print(
        f"{'overall':32} {totals[0][3]:>3}  "
        + "  ".join(f"{f'{a:.2f} / {b:.2f} / {c:.2f}':>24}" for a, b, c, _ in totals)
    )
    if args.misses:
        for bank, reports in results.items():
            for miss in reports["fused"].misses:
                print(
                    f"\n{bank}:{miss.line} {miss.question!r}\n  expected {', '.join(miss.expected)} (rank {miss.rank})"
                )
                print("  got " + ", ".join(miss.got[:3]))


if __name__ == "__main__":
    main()
