"""Pinning a route check: recording in ``dna/route-checks.md`` which document answers a question.

The file is a governed document like any other: created on first use (registered in
``dna/README.md`` when there is one), then one table row per question. Pinning a question that is
already listed replaces its expected answer. It goes through the same lock, firewall and
transaction as every other write.
"""

from __future__ import annotations

from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.evaluate import ROUTE_CHECKS, parse_route_checks
from memorybank.core.write import firewall
from memorybank.core.write.create import serialise
from memorybank.core.write.gates import require, write_session
from memorybank.core.write.landing import folder_index
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.register import register_line
from memorybank.core.write.transaction import Transaction

HEADER = ["| Question | Expected |", "|---|---|"]


@dataclass(frozen=True, slots=True)
class PinResult:
    path: str
    question: str
    expected: str
    created_file: bool
    replaced: bool
    pinned: bool
    dry_run: bool
    registered_in: str | None = None
    """The index a new checks file is registered in (``dna/``'s README or index), if it has one."""


def _row(question: str, expected: str) -> str:
    return f"| {question.replace('|', chr(92) + '|')} | `{expected}` |"


PREFERRED = {
    "doc_kind": ("governance", "dna", "reference"),
    "doc_function": ("reference", "canonical"),
    "status": ("active",),
}
"""The values the new file's governed fields take, in order of preference, among what the bank's
``dna/`` declares (the first when it declares none): the file never adds a finding of its own."""


ORDER = ("title", "doc_kind", "doc_function", "purpose", "derived_from", "status")


def _new_file(bank: Bank) -> str:
    front: dict[str, object] = {"title": "Route Checks"}
    for field, preferred in PREFERRED.items():
        allowed = bank.contract.values_for(field)
        value = next((v for v in preferred if not allowed or v in allowed), None)
        if value is not None:  # a field whose declared values fit none of ours is left out
            front[field] = value
    front["purpose"] = (
        "The questions people ask of this bank and the document that answers each; memorybank eval measures routing against them."
    )
    if "dna/governance.md" in bank:
        front["derived_from"] = ["governance.md"]
    front = {key: front[key] for key in ORDER if key in front}
    body = "\n".join(
        [
            "# Route Checks",
            "",
            "Each row is a question and the document a person would open to answer it. `memorybank eval`",
            "reports Recall@1, Recall@3 and MRR over these rows; `memorybank validate` warns when a row's",
            "document falls out of the first three results.",
            "",
            *HEADER,
        ]
    )
    return serialise(front, body)


def pin_route_check(bank: Bank, *, question: str, expected: str, dry_run: bool = False) -> PinResult:
    """Record ``expected`` as the answer to ``question`` in ``dna/route-checks.md``."""
    question = require(question, "`question` is required.")
    if "\n" in question or "\r" in question:
        raise Refusal("A route check question must fit on one line.", reason="multi-line")
    with write_session(bank):
        doc = bank.document(expected)
        if doc.is_template or doc.is_inbox:
            raise Refusal(
                f"{doc.path} is a template or a quarantined note; routing never returns it.", reason="not-routable"
            )
        firewall.check(question, ROUTE_CHECKS)
        tx = Transaction(bank.root)
        created = ROUTE_CHECKS not in bank
        if created:
            raw = None
            text = _new_file(bank)
        else:
            raw = RawDoc.load(bank.root, ROUTE_CHECKS)
            text = raw.text
        lines = text.rstrip("\n").split("\n")
        replaced = False
        for check in parse_route_checks(text):
            if check.question.strip().lower() == question.lower():
                lines[check.line - 1] = _row(question, doc.path)
                replaced = True
                break
        if not replaced:
            rows = [i for i, line in enumerate(lines) if line.strip().startswith("|")]
            if rows:
                lines.insert(rows[-1] + 1, _row(question, doc.path))
            else:
                lines += ["", *HEADER, _row(question, doc.path)]
        new_text = "\n".join(lines) + "\n"
        tx.write(ROUTE_CHECKS, raw.encode(new_text) if raw else new_text.encode("utf-8"))
        home = folder_index(bank, "dna")
        if created and home is not None:
            index = RawDoc.load(bank.root, home)
            tx.write(
                home,
                index.encode(
                    register_line(
                        index.text,
                        home,
                        ROUTE_CHECKS,
                        "Route Checks",
                        "the questions routing is measured against.",
                    )
                ),
            )
        if not dry_run:
            tx.commit()
            bank.refresh()
        registered = home if created else None
        return PinResult(ROUTE_CHECKS, question, doc.path, created, replaced, not dry_run, dry_run, registered)
