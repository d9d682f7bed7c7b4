"""Where a route hit says to start reading: how often that section is one that answers.

    python -m tests.benchmarks.section_quality [--set tuning|held-out-21|held-out-22|held-out-23|held-out-24] [--misses]

A hit names its best section (``read: ## Rollback (line 117)``): the ``##`` section holding the part
of the body that best matched the question (``core.section_index``). The gold is in
``tests/fixtures/route-sections/<bank>.md``: questions of the tunable route-question sets whose
document the router ranks first, each with the section(s) that answer it, chosen by reading the
document. A hit is right when its section is a gold section or the ``##`` section holding one (a
``###`` answer inside it). A question whose document is not among the first ten hits counts as a
miss and is counted apart. It is a tuning set: section choice may be tuned on it.

``--set held-out-24`` measures held-out gold instead (``route-sections/held-out-24/``): the sections
answering the questions of the route set ``held-out-24``, chosen by reading each question's first
expected document without running any ranker, for questions the router may not rank first. Its
questions are never looked at (``--misses`` is refused): it is measured once, at the end of the
round it was written for. ``held-out-21`` was the first such gold: measured once at the end of
routing XXIII, a tuning gold since; ``held-out-22`` likewise at the end of routing XXIV, and
``held-out-23`` at the end of routing XXV.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.hits import enclosing
from memorybank.core.route import route

PROJECT = Path(__file__).resolve().parents[2]
GOLD = PROJECT / "tests" / "fixtures" / "route-sections"
BANKS = PROJECT.parent / "shared" / "banks"
LIMIT = 10
SEPARATOR = " ; "
SETS = {
    "tuning": GOLD,
    "held-out-21": GOLD / "held-out-21",
    "held-out-22": GOLD / "held-out-22",
    "held-out-23": GOLD / "held-out-23",
    "held-out-24": GOLD / "held-out-24",
}
NEVER_LOOKED_AT = ("held-out-24",)


@dataclass(frozen=True)
class SectionCheck:
    question: str
    document: str
    headings: tuple[str, ...]


def load(path: Path) -> list[SectionCheck]:
    """The rows of one bank's gold table."""
    checks = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("Question", "---"):
            continue
        checks.append(SectionCheck(cells[0], cells[1], tuple(cells[2].split(SEPARATOR))))
    return checks


def heading_lines(root: Path, check: SectionCheck) -> dict[str, list[int]]:
    """Each gold heading's lines in the document's raw file (outside code fences)."""
    lines: dict[str, list[int]] = {heading: [] for heading in check.headings}
    fenced = False
    for number, text in enumerate((root / check.document).read_text(encoding="utf-8").splitlines(), 1):
        if text.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and text.lstrip(" ").startswith("#") and len(text) - len(text.lstrip(" ")) <= 3:
            heading = text.strip().lstrip("#").strip()
            if heading in lines:
                lines[heading].append(number)
    return lines


@dataclass
class Outcome:
    check: SectionCheck
    shown: str | None
    """The section the hit points to, or None when the document is not among the hits."""
    right: bool
    found: bool


def measure(bank_name: str, gold: Path = GOLD) -> list[Outcome]:
    root = BANKS / bank_name / "memory_bank"
    bank = Bank.open(root)
    outcomes = []
    for check in load(gold / f"{bank_name}.md"):
        doc = bank.documents[check.document]
        gold: set[int] = set()
        for found in heading_lines(root, check).values():
            gold.update(found)
            gold.update(place.line for place in (enclosing(doc, line) for line in found) if place)
        hit = next((h for h in route(bank, check.question, limit=LIMIT).hits if h.path == check.document), None)
        shown = (hit.section or "(no section)") if hit else None
        outcomes.append(Outcome(check, shown, bool(hit and hit.section_line in gold), hit is not None))
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=list(SETS), default="tuning", help="which gold")
    parser.add_argument("--misses", action="store_true", help="list the questions whose section is wrong")
    args = parser.parse_args()
    if args.misses and args.set in NEVER_LOOKED_AT:
        parser.error(f"--misses is refused on {args.set}: its questions are never looked at")
    print(f"{'bank':32} {'n':>4} {'right':>6} {'share':>6} {'not in hits':>12}")
    total = right = absent = 0
    for path in sorted(SETS[args.set].glob("*.md")):
        outcomes = measure(path.stem, SETS[args.set])
        good = sum(o.right for o in outcomes)
        lost = sum(not o.found for o in outcomes)
        total, right, absent = total + len(outcomes), right + good, absent + lost
        print(f"{path.stem:32} {len(outcomes):>4} {good:>6} {good / len(outcomes):>6.2f} {lost:>12}")
        if args.misses:
            for o in outcomes:
                if not o.right:
                    print(
                        f"    {o.check.question!r}\n      shown {o.shown}; answers: {SEPARATOR.join(o.check.headings)}"
                    )
    print(f"{'overall':32} {total:>4} {right:>6} {right / (total or 1):>6.2f} {absent:>12}")


if __name__ == "__main__":
    main()
