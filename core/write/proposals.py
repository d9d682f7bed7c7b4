"""Proposals: how an agent asks the owner to take a note out of the quarantine.

An agent's ``bank_promote``, ``bank_fold`` or ``bank_discard`` (in the default owner-gated mode) runs
every gate of the exit as a dry run and records the request on the note, with who asked and when.
Nothing leaves ``_inbox/`` until the owner applies it (every gate runs again, against the bank as
it is then) or rejects it. A note carries one proposal at a time: a second one is refused, so an
agent cannot quietly replace what the owner is about to review. Several proposals applied together
are one operation: a failure or a kill part-way undoes the ones already applied.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from memorybank.core import yamlio
from memorybank.core.bank import Bank
from memorybank.core.errors import BankError, Refusal, StorageError, UsageError
from memorybank.core.model import Document
from memorybank.core.parse import jsonable
from memorybank.core.write import journal, values
from memorybank.core.write.fold import FoldResult, plan_fold
from memorybank.core.write.frontlines import head_lines, key_span
from memorybank.core.write.gates import Planned, write_session
from memorybank.core.write.inbox import DiscardResult, PromoteResult, plan_discard, plan_promote, quarantined
from memorybank.core.write.landing import now_stamp
from memorybank.core.write.plan import Plan, unchanged_since
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.transaction import Transaction

ACTIONS = ("promote", "discard", "fold")
PROPOSAL_FIELDS = ("to", "doc_kind", "title", "purpose", "derived_from", "canonical_for", "must_not_define", "status")
FOLD_FIELDS = ("into", "section", "mode")
ExitResult = PromoteResult | DiscardResult | FoldResult
_VERBS = {"promote": "promoted", "discard": "discarded", "fold": "folded"}


@dataclass(frozen=True, slots=True)
class ProposalResult:
    path: str
    action: str
    proposal: dict[str, Any]
    recorded: bool
    preview: ExitResult


@dataclass(frozen=True, slots=True)
class ProposalOutcome:
    """One proposal of a batch: what applying it did (or would do), or the refusal it met."""

    path: str
    result: ExitResult | None = None
    plan: Plan = field(default_factory=Plan)
    """The file changes of this proposal alone (for a dry run, against the bank as it is)."""
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class BatchResult:
    """Several proposals, dry-run or applied together as one operation."""

    outcomes: tuple[ProposalOutcome, ...]
    dry_run: bool

    @property
    def passed(self) -> list[str]:
        return [o.path for o in self.outcomes if o.refusal is None]

    @property
    def refused(self) -> list[ProposalOutcome]:
        return [o for o in self.outcomes if o.refusal is not None]


def _rewrite_proposal(
    bank: Bank, note: Document, proposal: dict[str, Any] | None, extra: dict[str, Any] | None = None
) -> bytes:
    """The note with its ``proposal`` block replaced (or removed); the rest of its bytes kept."""
    raw = RawDoc.load(bank.root, note.path)
    lines, closing, body = head_lines(raw, "proposal")
    for key in ("proposal", *(extra or {})):
        span = key_span(lines, closing, key)
        if span:
            del lines[span[0] : span[1]]
            closing -= span[1] - span[0]
    block: dict[str, Any] = dict(extra or {})
    if proposal is not None:
        block["proposal"] = proposal
    if block:
        lines[closing:closing] = yamlio.dump(block).rstrip("\n").split("\n")
    return raw.encode("\n".join(lines) + "\n" + body)


def _exit_plan(bank: Bank, action: str, path: str, fields: dict[str, Any], dry_run: bool) -> Planned[ExitResult]:
    """Plan the exit a proposal names (under the write session)."""
    if action == "discard":
        return plan_discard(bank, path=path, reason=str(fields.get("reason") or ""), dry_run=dry_run)  # type: ignore[return-value]
    if action == "fold":
        return plan_fold(  # type: ignore[return-value]
            bank,
            note=path,
            path=str(fields.get("into") or ""),
            section=str(fields.get("section") or ""),
            mode=str(fields.get("mode") or "replace"),
            by=fields.get("proposed_by"),
            dry_run=dry_run,
        )
    destination = fields.get("to")
    if not isinstance(destination, str) or not destination.strip():
        raise Refusal(f"The proposal on {path} names no destination.", reason="no-proposal")
    overrides = {k: fields.get(k) for k in PROPOSAL_FIELDS if k != "to" and fields.get(k) is not None}
    return plan_promote(bank, path=path, to=destination, dry_run=dry_run, **overrides)  # type: ignore[return-value]


def propose(
    bank: Bank,
    *,
    action: str,
    path: str,
    reason: str | None = None,
    client: str | None = None,
    dry_run: bool = False,
    **overrides: Any,
) -> ProposalResult:
    """Record on a note what an agent proposes (promote, fold or discard), after a full dry run.

    Every gate of the action runs now, so a proposal that would be refused is refused here too;
    nothing leaves the quarantine until the owner applies it.
    """
    if action not in ACTIONS:
        raise UsageError(f'A proposal is "promote", "fold" or "discard", not "{action}".')
    with write_session(bank):
        note = quarantined(bank, path, _VERBS[action])
        record: dict[str, Any] = {"action": action}
        for key in PROPOSAL_FIELDS + FOLD_FIELDS:
            value = overrides.get(key)
            if value not in (None, [], ""):
                record[key] = value
        if reason and reason.strip():
            record["reason"] = values.scalar("reason", reason.strip())  # shown to the owner: one plain line
        preview = _exit_plan(bank, action, note.path, record, dry_run=True).result
        pending = note.frontmatter.get("proposal")
        if isinstance(pending, dict) and pending.get("action") and not dry_run:
            raise Refusal(
                f"{note.path} already carries a {pending.get('action')} proposal by "
                f"{pending.get('proposed_by', 'an agent')}; the owner applies or rejects it first. "
                "One proposal at a time, so none is replaced unseen.",
                reason="proposal-pending",
            )
        record["proposed_by"] = client or "unknown"
        record["proposed_at"] = now_stamp()
        if not dry_run:
            tx = Transaction(bank.root)
            tx.write(note.path, _rewrite_proposal(bank, note, record))
            tx.commit()
            bank.refresh()
        return ProposalResult(note.path, action, record, not dry_run, preview)


def pending_proposal(bank: Bank, path: str, verb: str = "apply") -> tuple[Document, dict[str, Any]]:
    note = quarantined(bank, path, "promoted")
    proposal = note.frontmatter.get("proposal")
    if not isinstance(proposal, dict) or proposal.get("action") not in ACTIONS:
        raise Refusal(f"{note.path} carries no proposal to {verb}.", reason="no-proposal")
    return note, proposal


def plan_apply(bank: Bank, *, path: str, dry_run: bool = True) -> Planned[ExitResult]:
    """Plan a note's proposal as its owner would apply it (under the write session)."""
    note, proposal = pending_proposal(bank, path)
    fields = dict(proposal)
    if proposal["action"] == "discard" and not str(fields.get("reason") or "").strip():
        fields["reason"] = f"proposal by {proposal.get('proposed_by', 'an agent')} applied"
    return _exit_plan(bank, proposal["action"], note.path, fields, dry_run)


def apply_proposal(bank: Bank, *, path: str, dry_run: bool = False, shown: Plan | None = None) -> ExitResult:
    """Carry out a note's proposal as its owner: every gate runs again, against today's bank; with
    ``shown`` (the plan previewed), only if its files still hold what the preview read."""
    with write_session(bank):
        if shown is not None:
            unchanged_since(bank.root, shown)
        planned = plan_apply(bank, path=path, dry_run=dry_run)
        if not dry_run:
            planned.commit(bank)
        return planned.result


def apply_proposals(bank: Bank, paths: list[str], *, dry_run: bool = False, shown: Plan | None = None) -> BatchResult:
    """Apply several notes' proposals in turn, as one operation.

    A proposal whose gates refuse is skipped with its reason (the others still apply); a failure of
    the file system, or a kill, undoes every proposal of the batch already applied. With ``shown``
    (the batch's plans previewed, added up), nothing applies unless its files still hold what the
    preview read.
    """
    outcomes: list[ProposalOutcome] = []
    with write_session(bank), contextlib.nullcontext() if dry_run else journal.operation(bank.root):
        if shown is not None:
            unchanged_since(bank.root, shown)
        for path in paths:
            try:
                planned = plan_apply(bank, path=path, dry_run=dry_run)
            except StorageError:
                raise
            except BankError as error:
                outcomes.append(ProposalOutcome(path, refusal=error.message))
                continue
            plan = planned.plan
            if not dry_run:
                planned.commit(bank)
            outcomes.append(ProposalOutcome(path, planned.result, plan))
    return BatchResult(tuple(outcomes), dry_run)


def reject_proposal(bank: Bank, *, path: str, note: str | None = None) -> dict[str, Any]:
    """Clear a note's proposal; an optional ``note`` records why, for the agent that proposed it."""
    with write_session(bank):
        doc, proposal = pending_proposal(bank, path, "reject")
        extra = {"review_note": note.strip()} if note and note.strip() else None
        tx = Transaction(bank.root)
        tx.write(doc.path, _rewrite_proposal(bank, doc, None, extra))
        tx.commit()
        bank.refresh()
        return jsonable(proposal)
