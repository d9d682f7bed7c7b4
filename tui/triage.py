"""Inbox triage as the workbench composes it from core calls: what a note is about, and what a
promote, a fold or a batch of proposals would write before it is written.

Nothing here decides anything: every gate is the core's (``promote``, ``discard``,
``update_section``, ``apply_proposal``), and every refusal comes back unchanged. This module only
gathers what the previews show: the note beside the router's candidates for its topic, the index
line a promotion adds, and the section before and after a fold.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.model import Document
from memorybank.core.paths import relative_link, resolve_link
from memorybank.core.read import read_document
from memorybank.core.route import RouteHit, route
from memorybank.core.sections import SECTIONS, section_for
from memorybank.core.staleness import NOT_LIVE_STATUSES
from memorybank.core.write.edit import SectionUpdateResult
from memorybank.core.write.fold import FoldResult, fold, foldable_body  # noqa: F401 - the Inbox pane's, from here
from memorybank.core.write.fold import plan_fold as fold_planner
from memorybank.core.write.gates import preview
from memorybank.core.write.inbox import DiscardResult, InboxEntry, PromoteResult, named_owners, promote
from memorybank.core.write.inbox import plan_promote as core_plan_promote
from memorybank.core.write.landing import INDEX_NAMES
from memorybank.core.write.plan import Plan
from memorybank.core.write.proposals import ExitResult, apply_proposals, plan_apply

CANDIDATES = 5
"""How many of the router's documents "where it belongs" lists."""


# -- the note and where it belongs --------------------------------------------------------------


@dataclass(frozen=True)
class NoteView:
    """One note as the Inbox pane shows it, with the documents its fact may already live in."""

    entry: InboxEntry
    doc: Document
    frontmatter: dict[str, Any]
    body: str
    """The body, frontmatter excluded."""
    candidates: tuple[RouteHit, ...]
    """The router's best documents for the note's title, purpose and headings."""
    owners: tuple[tuple[str, tuple[str, ...]], ...]
    """``canonical_for`` keys the note mentions or claims, each with the documents owning it."""


def topic(doc: Document) -> str:
    """What the router is asked for a note: its title, its purpose and its headings."""
    return " ".join([doc.title, doc.purpose, *(s.title for s in doc.sections)]).strip()


def mentioned_owners(bank: Bank, doc: Document, body: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Keys the note claims, or names (``retry_policy`` or "retry policy"), with their owners."""
    return tuple(named_owners(bank, doc, body).items())


def note_view(bank: Bank, entry: InboxEntry) -> NoteView:
    """The note, its body, and where its fact may already live."""
    with bank.lock:
        doc = bank.document(entry.path)
    read = read_document(bank, doc.path)
    question = topic(doc)
    hits = route(bank, question, limit=CANDIDATES).hits if question else ()
    return NoteView(entry, doc, read.frontmatter, read.content, tuple(hits), mentioned_owners(bank, doc, read.content))


# -- promote --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PromoteRequest:
    """The promote form's fields as typed; ``derived_from`` as bank paths or as links."""

    note: str
    to: str
    doc_kind: str = ""
    title: str = ""
    purpose: str = ""
    derived_from: tuple[str, ...] = ()
    canonical_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromotePlan:
    """What a promotion wrote, or would write."""

    result: PromoteResult
    index_lines: tuple[tuple[str, str], ...] = ()
    """Each index the document is registered in, with the line added to it."""
    plan: Plan | None = None
    """The file changes previewed: a confirmation lands only if the files still hold what it read."""


def relative_derived(bank: Bank, target: str, derived: tuple[str, ...]) -> list[str]:
    """``derived_from`` as the new document must write it: a bank path becomes a link relative to
    the destination; anything else is passed on as typed, for the gates to judge."""
    out = []
    for item in derived:
        item = item.strip()
        if not item:
            continue
        out.append(relative_link(target, item) if item in bank else item)
    return out


def promote_arguments(bank: Bank, request: PromoteRequest) -> dict[str, Any]:
    """The core's ``promote`` arguments for a filled-in form."""
    target = request.to.strip()
    return dict(
        path=request.note,
        to=target,
        doc_kind=request.doc_kind.strip() or None,
        title=request.title.strip() or None,
        purpose=request.purpose.strip() or None,
        derived_from=relative_derived(bank, target, request.derived_from),
        canonical_for=[k.strip() for k in request.canonical_for if k.strip()],
    )


def index_lines(plan: Plan, registered_in: list[str]) -> tuple[tuple[str, str], ...]:
    """The line each index gains, read off the core's plan (a new section index is created whole)."""
    lines: list[tuple[str, str]] = []
    for index in registered_in:
        change = plan.change(index)
        if change is None:
            continue
        if change.kind == "create":
            lines.append((index, "(a new section index, created with this entry)"))
        else:
            lines.extend((index, line) for line in change.added_lines() if line.strip())  # not the spacing
    return tuple(lines)


def plan_promote(
    bank: Bank, request: PromoteRequest, *, dry_run: bool = True, shown: Plan | None = None
) -> PromotePlan:
    """The promotion's preview from the core's plan (a dry run by default), or the promotion done;
    refused when ``shown`` (the plan previewed) read files that have changed since."""
    if dry_run:
        seen = preview(bank, core_plan_promote, **promote_arguments(bank, request))
        return PromotePlan(seen.result, index_lines(seen.plan, seen.result.registered_in), seen.plan)
    return PromotePlan(promote(bank, **promote_arguments(bank, request), shown=shown))


def as_bank_paths(source: str, links: Any) -> tuple[str, ...]:
    """``derived_from`` links written from ``source`` (a note, or a proposal's destination) as bank
    paths, which is how the form shows and completes them; a link that leaves the bank stays as is."""
    if isinstance(links, str):
        links = [links]
    out = []
    for link in links or ():
        raw = str(link.get("path", "")) if isinstance(link, dict) else str(link)
        resolved, external = resolve_link(source, raw)
        out.append(resolved if resolved is not None and not external else raw)
    return tuple(o for o in out if o)


def _current_upstream(hit: RouteHit) -> bool:
    """A document a new active one may rest on: not an index, nor archived, superseded or a draft."""
    return hit.path.rsplit("/", 1)[-1] not in INDEX_NAMES and hit.status.lower() not in NOT_LIVE_STATUSES


def suggested_promotion(view: NoteView) -> PromoteRequest:
    """The promote form filled in: an agent's proposal when there is one; otherwise the note's own
    fields, in the folder of the router's first candidate, derived from that candidate."""
    doc, proposal = view.doc, view.entry.proposal or {}
    if proposal.get("action") == "promote" and proposal.get("to"):
        to = str(proposal["to"])
        derived = as_bank_paths(to, proposal["derived_from"]) if proposal.get("derived_from") else ()
        return PromoteRequest(
            note=doc.path,
            to=to,
            doc_kind=str(proposal.get("doc_kind") or doc.doc_kind or kind_for(to)),
            title=str(proposal.get("title") or doc.title),
            purpose=str(proposal.get("purpose") or doc.purpose),
            derived_from=derived or as_bank_paths(doc.path, [e.raw for e in doc.derived_from]),
            canonical_for=tuple(proposal.get("canonical_for") or doc.canonical_for),
        )
    name = doc.path.rsplit("/", 1)[-1]
    first = view.candidates[0].path if view.candidates else None
    folder = first.rsplit("/", 1)[0] if first and "/" in first else ""
    to = f"{folder}/{name}" if folder else ""
    derived = as_bank_paths(doc.path, [e.raw for e in doc.derived_from])
    upstream = next((hit.path for hit in view.candidates if _current_upstream(hit)), None)
    if not derived and upstream is not None:
        derived = (upstream,)
    return PromoteRequest(
        note=doc.path,
        to=to,
        doc_kind=doc.doc_kind or kind_for(to),
        title=doc.title,
        purpose=doc.purpose,
        derived_from=derived,
        canonical_for=tuple(doc.canonical_for),
    )


def destinations(bank: Bank, note: str) -> list[str]:
    """Completions for a promotion's destination: every folder of the bank and every known
    section, each also with the note's file name in it."""
    name = note.rsplit("/", 1)[-1]
    with bank.lock:
        folders = {doc.path.rsplit("/", 1)[0] for doc in bank if "/" in doc.path and not doc.is_inbox}
    folders |= {s.directory for s in SECTIONS}
    folders = {f for f in folders if not f.startswith("_")}
    return sorted({f"{f}/" for f in folders} | {f"{f}/{name}" for f in folders})


def document_paths(bank: Bank) -> list[str]:
    """Every document outside the inbox, for completing ``derived_from`` and fold targets."""
    with bank.lock:
        return [doc.path for doc in bank if not doc.is_inbox]


def doc_kinds(bank: Bank) -> list[str]:
    """The kinds the contract declares, then the sections' kinds and the kinds documents use that it
    does not (a kind outside the contract only warns, so it is never the first one offered)."""
    with bank.lock:
        used = {doc.doc_kind for doc in bank if doc.doc_kind}
        declared = set(bank.contract.doc_kinds)
    others = (used | {s.doc_kind for s in SECTIONS}) - declared
    return sorted(declared, key=_shortest) + sorted(others, key=_shortest)


def _shortest(kind: str) -> tuple[int, str]:
    """Shortest first, as a completion offers the candidates of one rank."""
    return len(kind), kind


def kind_for(destination: str) -> str:
    """The kind a known section's documents usually have (``ops/x.md`` is ``ops``), else nothing."""
    spec = section_for(destination.strip())
    return spec.doc_kind if spec is not None else ""


# -- fold ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FoldPlan:
    """A fold: the section update, the section before and after, and the discard that follows."""

    update: SectionUpdateResult
    before: str
    after: str
    discard: DiscardResult
    plan: Plan | None = None
    """The file changes previewed: a confirmation lands only if the files still hold what it read."""
    warnings: tuple[str, ...] = ()

    @classmethod
    def of(cls, result: FoldResult, plan: Plan | None = None) -> FoldPlan:
        return cls(result.update, result.before, result.after, result.discard, plan, tuple(result.warnings))

    @property
    def diff(self) -> list[str]:
        """The section's unified diff, headers dropped."""
        lines = difflib.unified_diff(self.before.split("\n"), self.after.split("\n"), lineterm="", n=3)
        return [line for line in lines if not line.startswith(("---", "+++"))]


def plan_fold(bank: Bank, *, note: str, path: str, section: str, content: str, mode: str) -> FoldPlan:
    """The core's fold as a dry run: every gate of the section update and of the discard."""
    shown = preview(bank, fold_planner, note=note, path=path, section=section, content=content, mode=mode)
    return FoldPlan.of(shown.result, shown.plan)


def apply_fold(
    bank: Bank, *, note: str, path: str, section: str, content: str, mode: str, shown: Plan | None = None
) -> FoldPlan:
    """The core's fold: the section, the record line and the note's removal in one transaction;
    refused when ``shown`` (the plan previewed) read files that have changed since."""
    return FoldPlan.of(fold(bank, note=note, path=path, section=section, content=content, mode=mode, shown=shown))


# -- proposals ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProposalOutcome:
    """One proposal's dry run or application: its result, or the refusal it met."""

    path: str
    result: ExitResult | None = None
    index_lines: tuple[tuple[str, str], ...] = ()
    refusal: str | None = None
    plan: Plan | None = None


@dataclass(frozen=True)
class ProposalBatch:
    """Several proposals, run together (dry or for real)."""

    outcomes: tuple[ProposalOutcome, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> list[str]:
        return [o.path for o in self.outcomes if o.refusal is None]

    @property
    def refused(self) -> list[ProposalOutcome]:
        return [o for o in self.outcomes if o.refusal is not None]

    @property
    def plan(self) -> Plan:
        """The file changes of every proposal that passed, added up (a file keeps its first ``before``)."""
        total = Plan()
        for outcome in self.outcomes:
            if outcome.plan is not None and outcome.refusal is None:
                total = total + outcome.plan
        return total


def _lines_of(result: ExitResult | None, plan: Plan) -> tuple[tuple[str, str], ...]:
    return index_lines(plan, result.registered_in) if isinstance(result, PromoteResult) else ()


def run_proposals(bank: Bank, paths: list[str], *, dry_run: bool = True, shown: Plan | None = None) -> ProposalBatch:
    """The core's batch of proposals (one operation when applied); a refusal stops only its own note.
    Applied with ``shown`` (the preview's ``plan``), it lands only on the files the preview read."""
    batch = apply_proposals(bank, paths, dry_run=dry_run, shown=shown)
    return ProposalBatch(
        tuple(ProposalOutcome(o.path, o.result, _lines_of(o.result, o.plan), o.refusal, o.plan) for o in batch.outcomes)
    )


def preview_apply(bank: Bank, path: str) -> tuple[ExitResult, tuple[tuple[str, str], ...], Plan]:
    """A note's proposal as a dry run, with the index lines it would add and the plan, from the core."""
    shown = preview(bank, plan_apply, path=path)
    return shown.result, _lines_of(shown.result, shown.plan), shown.plan


def sections_of(bank: Bank, path: str) -> list[str]:
    """The ``##`` sections of a document, in order; none when the path names no document."""
    with bank.lock:
        doc = bank.documents.get(path)
        return [s.title for s in doc.sections] if doc is not None else []
