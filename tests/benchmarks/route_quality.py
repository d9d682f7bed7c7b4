"""Routing quality on the real banks: Recall@1, Recall@3 and MRR of three rankers per bank.

    python -m tests.benchmarks.route_quality [--set tuning|held-out|held-out-2|held-out-3|tuning-2|held-out-4|held-out-5|held-out-6|held-out-7|held-out-8|held-out-9|held-out-10|held-out-11|held-out-12|held-out-13|held-out-14|held-out-15|held-out-16|held-out-17|held-out-18|held-out-19|held-out-20|held-out-21|held-out-22|held-out-23|held-out-24|all|tunable] [--misses]

``--set all`` prints each of the four original sets on its own, then those together (the figures the
bar is measured on), then ``tuning-2``, ``held-out-4``, ``held-out-5``, ``held-out-6`` and
``held-out-7``, ``held-out-8``, ``held-out-9``, ``held-out-10``, ``held-out-11``, ``held-out-12``, ``held-out-13``, ``held-out-14``, ``held-out-15``, ``held-out-16``, ``held-out-17``, ``held-out-18``, ``held-out-19``, ``held-out-20``, ``held-out-21``, ``held-out-22``, ``held-out-23`` and ``held-out-24`` on their own, outside the bar; ``--set tunable`` does the same for the sets one may
tune on (everything but the never-looked-at ones). Each table ends with the figures of the questions
written in Russian and of those written in English. ``--misses`` is refused on ``held-out-3``,
``held-out-4`` and ``held-out-24``: their questions are never looked at.

- **headers**: the reference's design, headers only (``route(..., body_evidence=False)``);
- **bm25**: plain BM25 over whole bodies, with the same word matching (inflections, translations);
- **fused**: our route, headers first with body evidence as a secondary term.

The questions live in ``tests/fixtures/route-questions/<bank>.md`` (the set the router was tuned
on), ``held-out/`` and ``held-out-2/`` (written without looking at the router; routing II used both
to choose between options, so they are no longer clean) and ``held-out-3/`` (the three banks that
arrived last, questions written before any routing was run on them, measured once at the end of
routing II and never tuned on; ``baseline.txt`` keeps both figures), and ``tuning-2/`` (written
for routing III on the five older banks, before the router was run on it, aimed at the kinds that
miss out of sample; its ``baseline.txt`` keeps the figures before any change), and ``held-out-4/``
(a second fresh set on the three last banks, written by reading them only, for routing IV; its
``baseline.txt`` keeps the figures of the router before routing IV), and ``held-out-5/`` (18
questions on each of the eight banks, written by reading them only, aimed at documents the other
sets leave alone; its ``baseline.txt`` keeps the figures of the router when it was written and at
the end of routing VI, its one measurement as a held-out set, after which it became a tuning set),
and ``held-out-6/`` (40 questions on each of the three last banks and 12 on each of the five others,
written by reading the banks only, for routing VII; ``baseline.txt`` likewise, its one measurement
as a held-out set at the end of routing VII, after which it became a tuning set), and ``held-out-7/``
(40 questions on each of the three last banks, likewise, for routing VIII; measured once at its end,
then a tuning set), and ``held-out-8/`` (40 more on each of the three, likewise, for routing IX; measured once at its
end, then a tuning set), and ``held-out-9/`` (40 more on each, likewise, for routings X and XI; measured once at the end of
XI, then a tuning set), and ``held-out-10/`` (40 more on each, likewise, for routing XII; measured once at its end,
then a tuning set), and ``held-out-11/`` (40 more on each, likewise, written at the end of routing XI beside
held-out-10, for routing XIII; measured once at its end, then a tuning set), and ``held-out-12/`` (40 more on
each, likewise, written at the start of routing XIII, for routing XIV; measured once at its end, then a
tuning set), and ``held-out-13/`` (40 more on each, likewise, written at the start of routing XIV, for
routing XV; measured once at its end, then a tuning set), and ``held-out-14/`` (40 more on each,
likewise, written at the end of routing XV, for routing XVI; measured once at its end, then a tuning
set), and ``held-out-15/`` (40 more on each, likewise, written at the start of routing XVI, for
routing XVII; measured once at its end, then a tuning set), and ``held-out-16/`` (40 more on each, likewise, written at the start of routing XVII, for
routing XVIII; measured once at its end, then a tuning set), and ``held-out-17/`` (40 more on each, likewise, written at the start of routing XVIII, for
routing XIX; measured once at its end, then a tuning set), and ``held-out-18/`` (40 more on each, likewise, written at the start of routing XIX, for
routing XX; measured once at its end, then a tuning set), and ``held-out-19/`` (40 more on each,
likewise, written at the end of routing XX, for routing XXI; measured once at its end, then a tuning
set), and ``held-out-20/`` (40 more on each, likewise, written at the start of routing XXI, for
routing XXII; measured once at its end, then a tuning set), and ``held-out-21/`` (40 more on each,
likewise, written at the end of routing XXII, for routing XXIII; measured once at its end, then a
tuning set), and ``held-out-22/`` (40 more on each,
likewise, written at the start of routing XXIII, for routing XXIV; measured once at its end, then a
tuning set), and ``held-out-23/`` (40 more
on each, likewise, written at the start of routing XXIV, for routing XXV; measured once at its end, then
a tuning set), and ``held-out-24/`` (40 more on each, likewise, written during routing XXV, for the
round after it): one file per bank.
Templates and inbox notes are excluded by all three rankers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.evaluate import (
    CheckOutcome,
    EvalReport,
    bm25_ranker,
    evaluate,
    headers_ranker,
    load_checks,
    route_ranker,
)
from memorybank.core.lang import has_cyrillic

PROJECT = Path(__file__).resolve().parents[2]
QUESTIONS = PROJECT / "tests" / "fixtures" / "route-questions"
BANKS = PROJECT.parent / "shared" / "banks"

RANKERS = {"headers": headers_ranker, "bm25": bm25_ranker, "fused": route_ranker}


SETS = {
    "tuning": QUESTIONS,
    "held-out": QUESTIONS / "held-out",
    "held-out-2": QUESTIONS / "held-out-2",
    "held-out-3": QUESTIONS / "held-out-3",
    "tuning-2": QUESTIONS / "tuning-2",
    "held-out-4": QUESTIONS / "held-out-4",
    "held-out-5": QUESTIONS / "held-out-5",
    "held-out-6": QUESTIONS / "held-out-6",
    "held-out-7": QUESTIONS / "held-out-7",
    "held-out-8": QUESTIONS / "held-out-8",
    "held-out-9": QUESTIONS / "held-out-9",
    "held-out-10": QUESTIONS / "held-out-10",
    "held-out-11": QUESTIONS / "held-out-11",
    "held-out-12": QUESTIONS / "held-out-12",
    "held-out-13": QUESTIONS / "held-out-13",
    "held-out-14": QUESTIONS / "held-out-14",
    "held-out-15": QUESTIONS / "held-out-15",
    "held-out-16": QUESTIONS / "held-out-16",
    "held-out-17": QUESTIONS / "held-out-17",
    "held-out-18": QUESTIONS / "held-out-18",
    "held-out-19": QUESTIONS / "held-out-19",
    "held-out-20": QUESTIONS / "held-out-20",
    "held-out-21": QUESTIONS / "held-out-21",
    "held-out-22": QUESTIONS / "held-out-22",
    "held-out-23": QUESTIONS / "held-out-23",
    "held-out-24": QUESTIONS / "held-out-24",
}
ORIGINAL = ("tuning", "held-out", "held-out-2", "held-out-3")
"""The sets ``--set all`` puts together: the bar stays measured on the same 351 questions."""
NEVER_LOOKED_AT = ("held-out-3", "held-out-4", "held-out-24")
"""The sets whose questions are never looked at: measured in aggregate only, never tuned on."""
GROUPS = {
    "all": (ORIGINAL, tuple(name for name in SETS if name not in ORIGINAL)),
    "tunable": (tuple(name for name in SETS if name not in NEVER_LOOKED_AT), ()),
}
"""``all``: the bar's sets together, then every later set on its own, in the order they were
written; ``tunable``: every set but the never-looked-at ones, together."""


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


def by_language(reports: list[EvalReport]) -> dict[str, tuple[float, float, float, int]]:
    """R@1, R@3, MRR and count of the questions asked in Russian and of those asked in English."""
    outcomes: dict[str, list[CheckOutcome]] = {"russian": [], "english": []}
    for report in reports:
        for outcome in report.outcomes:
            outcomes["russian" if has_cyrillic(outcome.question) else "english"].append(outcome)
    figures = {}
    for language, found in outcomes.items():
        count = len(found) or 1
        figures[language] = (
            sum(1 for o in found if o.rank == 1) / count,
            sum(1 for o in found if o.passed) / count,
            sum(1 / o.rank for o in found if o.rank) / count,
            len(found),
        )
    return figures


def _row(label: str, figures: list[tuple[float, float, float, int]]) -> str:
    cells = [f"{a:.2f} / {b:.2f} / {c:.2f}" for a, b, c, _ in figures]
    return f"{label:32} {figures[0][3]:>3}  " + "  ".join(f"{c:>24}" for c in cells)


def table(results: dict[str, dict[str, EvalReport]]) -> list[str]:
    """Per bank, overall and per language: R@1 / R@3 / MRR of each ranker."""
    lines = [f"{'bank':32} {'n':>3}  " + "  ".join(f"{name + ' R@1/R@3/MRR':>24}" for name in RANKERS)]
    for bank, reports in results.items():
        lines.append(_row(bank, [overall([r]) for r in reports.values()]))
    lines.append(_row("overall", [overall([results[b][name] for b in results]) for name in RANKERS]))
    languages = [by_language([results[b][name] for b in results]) for name in RANKERS]
    for language in ("english", "russian"):
        lines.append(_row(f"  asked in {language}", [figures[language] for figures in languages]))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, *GROUPS], default="tuning", help="which question set")
    parser.add_argument("--misses", action="store_true", help="list the fused ranker's misses")
    args = parser.parse_args()
    names, apart = GROUPS.get(args.set, ((args.set,), ()))
    hidden = [name for name in (*names, *apart) if name in NEVER_LOOKED_AT]
    if args.misses and hidden:
        parser.error(f"--misses is refused on {', '.join(hidden)}: its questions are never looked at")
    together: dict[str, dict[str, EvalReport]] = {}
    for name in names:
        together.update({f"{bank} ({name})": r for bank, r in _report(name, args.misses).items()})
    if len(names) > 1:
        print(f"== {', '.join(names)} together")
        lines = table(together)
        print("\n".join([lines[0], *lines[-3:]]))
        print()
    for name in apart:
        print("(outside the bar)")
        _report(name, args.misses)


def _report(name: str, misses: bool) -> dict[str, dict[str, EvalReport]]:
    """Measure one set, print its table (and its misses when asked) and return its results."""
    results = measure(SETS[name])
    print(f"== {name}")
    print("\n".join(table(results)))
    if misses:
        for bank, reports in results.items():
            for miss in reports["fused"].misses:
                print(
                    f"\n{bank}:{miss.line} {miss.question!r}\n  expected {', '.join(miss.expected)} (rank {miss.rank})"
                )
                print("  got " + ", ".join(miss.got[:3]))
    print()
    return results


if __name__ == "__main__":
    main()
