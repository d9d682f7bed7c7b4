"""How much re-weighting the router's own evidence could gain: a pairwise linear re-ranker over each
question's first ten documents, fitted on every bank but one and measured on that one.

    python -m tests.benchmarks.route_headroom [--features evidence|all] [--in-sample]

Each of the router's first ten documents for a question of the tunable sets is described by what
scored it: the parts of its score breakdown as shares of the first document's score, its rank, and
its rank under plain BM25 and under headers alone. ``--features all`` adds what it is: its layer,
its status, its role (its file name when at least three documents of the bank share it, such as
``brief`` or ``implementation-plan``), and those crossed with the question's intents (why, how,
status, rule). A logistic model of "this document answers and that one does not" is fitted by
stochastic gradient descent on every bank but one, then re-ranks the ten of the bank left out.

The table compares Recall@1 and Recall@3 (as counts) of the router's order with the model's. When
the model cannot beat the router on banks it was not fitted on, no re-weighting of these signals
will: a gain needs evidence the router does not collect yet. ``--in-sample`` fits and measures on
every question at once, an upper bound for re-weighting.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.evaluate import load_checks
from memorybank.core.intent import intents
from memorybank.core.route import route
from memorybank.core.search import rank_bodies

from tests.benchmarks.route_quality import BANKS, NEVER_LOOKED_AT, SETS

DEPTH = 10
ABSENT = 30
"""The rank given to a document a baseline ranker does not return in its first 20."""


@dataclass
class Question:
    bank: str
    answers: list[bool]
    features: list[dict[str, float]] = field(default_factory=list)


def collect(kinds: str) -> list[Question]:
    """Every tunable question with its router's first ten, described."""
    questions = []
    for name, folder in SETS.items():
        if name in NEVER_LOOKED_AT:
            continue
        for source in sorted(folder.glob("*.md")):
            root = BANKS / source.stem / "memory_bank"
            if root.is_dir():
                questions.extend(_questions(Bank.open(root), source, kinds))
    return questions


def _questions(bank: Bank, source, kinds: str) -> list[Question]:
    stems = Counter(path.rsplit("/", 1)[-1].removesuffix(".md").lower() for path in bank.documents)
    found = []
    for check in load_checks(bank, source.read_text(encoding="utf-8")):
        hits = route(bank, check.question, limit=DEPTH).hits
        if not hits:
            continue
        bm25 = rank_bodies(bank, check.question, limit=20)
        headers = [h.path for h in route(bank, check.question, limit=20, body_evidence=False).hits]
        asked = intents(check.question)
        top = hits[0].score or 1.0
        question = Question(source.stem, [any(p in check.expected for p in (h.path, *h.copies)) for h in hits])
        for rank, hit in enumerate(hits, 1):
            b = hit.breakdown
            f = {
                "score": hit.score / top,
                "log score": math.log(max(hit.score / top, 1e-3)),
                "1/rank": 1 / rank,
                "body": b.body / top,
                "section": b.section / top,
                "linked": b.linked / top,
                "family": b.family / top,
                "intent": b.intent - 1,
                "together": b.together - 1,
                "owns key": float(bool(b.canonical_key)),
                "1/bm25 rank": 1 / (bm25.index(hit.path) + 1 if hit.path in bm25 else ABSENT),
                "1/headers rank": 1 / (headers.index(hit.path) + 1 if hit.path in headers else ABSENT),
            }
            if kinds == "all":
                stem = hit.path.rsplit("/", 1)[-1].removesuffix(".md").lower()
                role = stem if stems[stem] >= 3 else "unique"
                f[f"layer {hit.layer}"] = f[f"status {hit.status or 'none'}"] = f[f"role {role}"] = 1.0
                for intent in asked:
                    f[f"{intent} x role {role}"] = f[f"{intent} x layer {hit.layer}"] = 1.0
            question.features.append(f)
        found.append(question)
    return found


def fit(questions: list[Question], epochs: int = 8, rate: float = 0.05, l2: float = 1e-3) -> dict[str, float]:
    """Pairwise logistic regression: the first answering document against each one that does not."""
    pairs = []
    for q in questions:
        if True not in q.answers:
            continue
        good = q.features[q.answers.index(True)]
        for features, answers in zip(q.features, q.answers, strict=True):
            if not answers:
                diff: dict[str, float] = defaultdict(float, good)
                for key, value in features.items():
                    diff[key] -= value
                pairs.append(diff)
    weights: dict[str, float] = defaultdict(float)
    shuffle = random.Random(1).shuffle
    for _ in range(epochs):
        shuffle(pairs)
        for diff in pairs:
            margin = sum(weights[k] * v for k, v in diff.items())
            pull = 1 / (1 + math.exp(min(50.0, margin)))
            for key, value in diff.items():
                weights[key] += rate * (pull * value - l2 * weights[key])
    return weights


def recall(questions: list[Question], weights: dict[str, float] | None = None) -> tuple[int, int]:
    """Questions answered first and in the first three, in the router's order or the model's."""
    first = three = 0
    for q in questions:
        order = list(range(len(q.answers)))
        if weights is not None:
            order.sort(key=lambda i: -sum(weights.get(k, 0.0) * v for k, v in q.features[i].items()))
        ranks = [n for n, i in enumerate(order, 1) if q.answers[i]]
        first += bool(ranks) and ranks[0] == 1
        three += bool(ranks) and ranks[0] <= 3
    return first, three


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", choices=["evidence", "all"], default="all")
    parser.add_argument("--in-sample", action="store_true", help="fit and measure on every question")
    args = parser.parse_args()
    questions = collect(args.features)
    banks = sorted({q.bank for q in questions})
    everywhere = fit(questions) if args.in_sample else None
    print(f"{'bank':32} {'n':>5}  {'router R@1 R@3':>16}  {'model R@1 R@3':>16}")
    totals = [0, 0, 0, 0]
    for bank in banks:
        test = [q for q in questions if q.bank == bank]
        weights = everywhere or fit([q for q in questions if q.bank != bank])
        row = (*recall(test), *recall(test, weights))
        totals = [t + v for t, v in zip(totals, row, strict=True)]
        print(f"{bank:32} {len(test):>5}  {row[0]:>7} {row[1]:>8}  {row[2]:>7} {row[3]:>8}")
    label = "every bank (fitted on all)" if args.in_sample else "every bank (each left out)"
    print(f"{label:32} {len(questions):>5}  {totals[0]:>7} {totals[1]:>8}  {totals[2]:>7} {totals[3]:>8}")


if __name__ == "__main__":
    main()
