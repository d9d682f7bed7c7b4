"""The quarantine: notes agents capture into ``_inbox/``, and the only ways out of it.

A note leaves by **promotion** (to a governed place, through the same gates as ``create``, its
relative links rewritten for the new folder, ``promoted_from`` recorded), by **discard** (with a
reason), or by being folded into its owner and then discarded. By default agents cannot take a
note out themselves: they record a **proposal** on the note, and the bank's owner applies or
rejects it.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any

from core import clock, yamlio
from core.bank import Bank
from core.errors import Refusal, UsageError
from core.model import Document
from core.parse import FenceTracker, jsonable, scalar
from core.paths import relative_link, resolve_link
from core.record import RECORD, appended
from core.templates import find_template, retitle, template_fields, unwrap
from core.write import firewall
from core.write.create import INBOX, PREVIEW_LINES, Landing, governed_frontmatter, now_stamp, serialise
from core.write.fields import _head_lines, _key_span
from core.write.gates import GOVERNED_KEYS, check_governance, check_target, require, write_session
from core.write.rawdoc import RawDoc
from core.write.transaction import Transaction

STALE_DAYS = 14
_LINK = re.compile(r"(\]\(\s*<?)([^)\s>]+)(>?(?:\s+\"[^\"]*\")?\s*\))")


@dataclass(frozen=True, slots=True)
class PromoteResult:
    source: str
    path: str
    promoted: bool
    dry_run: bool
    frontmatter: dict[str, Any]
    template: str | None
    registered_in: list[str]
    warnings: list[str] = field(default_factory=list)
    preview: str = ""


@dataclass(frozen=True, slots=True)
class DiscardResult:
    path: str
    title: str
    purpose: str
    reason: str
    discarded: bool
    dry_run: bool
    bytes: int


@dataclass(frozen=True, slots=True)
class InboxEntry:
    path: str
    title: str
    purpose: str
    doc_kind: str
    status: str
    age_days: int
    bytes: int
    captured_at: str | None = None
    captured_by: str | None = None
    proposal: dict[str, Any] | None = None
    stale: bool = False


@dataclass(frozen=True, slots=True)
class ProposalResult:
    path: str
    action: str
    proposal: dict[str, Any]
    recorded: bool
    preview: PromoteResult | DiscardResult


def quarantined(bank: Bank, path: str, verb: str) -> Document:
    doc = bank.document(path)
    if not doc.is_inbox:
        extra = " Documents in the bank proper are removed by hand, deliberately." if verb == "discarded" else ""
        raise Refusal(
            f"Only quarantined documents can be {verb}; {doc.path} is not in _inbox/.{extra}", reason="not-inbox"
        )
    return doc


def relink(body: str, source: str, target: str, bank: Bank) -> tuple[str, list[str]]:
    """Rewrite relative links that reached a document from ``source``'s folder so they still do
    from ``target``'s; links that were already broken are left alone."""
    if source.rsplit("/", 1)[0] == target.rsplit("/", 1)[0]:
        return body, []
    notes: list[str] = []
    lines = body.split("\n")
    tracker = FenceTracker()
    for index, line in enumerate(lines):
        if tracker.feed(line) or "](" not in line:
            continue

        def swap(match: re.Match[str]) -> str:
            raw = match.group(2)
            path_part, hash_sep, fragment = raw.partition("#")
            if not path_part or raw.startswith(("/", "#")) or re.match(r"^[a-zA-Z][\w+.-]*:", raw):
                return match.group(0)
            resolved, _ = resolve_link(source, path_part)
            if resolved is None or resolved not in bank:
                return match.group(0)
            new = relative_link(target, resolved) + (hash_sep + fragment if hash_sep else "")
            if new != raw:
                notes.append(f"Link rewritten for the new location: {raw} -> {new}")
            return f"{match.group(1)}{new}{match.group(3)}"

        lines[index] = _LINK.sub(swap, line)
    return "\n".join(lines), notes


def promote(
    bank: Bank,
    *,
    path: str,
    to: str,
    doc_kind: str | None = None,
    title: str | None = None,
    purpose: str | None = None,
    derived_from: list[str] | None = None,
    canonical_for: list[str] | None = None,
    must_not_define: list[str] | None = None,
    status: str | None = None,
    dry_run: bool = False,
) -> PromoteResult:
    """Move a quarantined note to its place in the bank, through every gate ``create`` runs."""
    with write_session(bank):
        note = quarantined(bank, path, "promoted")
        target = bank.resolve(to)
        if target.startswith(INBOX):
            raise Refusal(
                "Promotion must leave the quarantine; give a destination outside _inbox/.", reason="inbox-target"
            )
        check_target(bank, target, to)
        title = require(title or note.title, "`title` is required.")
        purpose = require(purpose or note.purpose, "`purpose` is required: it is the signal bank_route ranks on.")
        kind = require(doc_kind or note.doc_kind, "`docKind` is required: the captured note does not declare one.")
        chosen_status = (status or "active").strip()
        if derived_from is None:
            derived = []
            for edge in note.derived_from:
                if edge.resolved is not None and not edge.external:
                    derived.append(relative_link(target, edge.resolved))
                else:
                    derived.append(edge.raw)
        else:
            derived = [d.strip() for d in derived_from if d and d.strip()]
        keys = list(note.canonical_for) if canonical_for is None else [k.strip() for k in canonical_for if k.strip()]
        forbidden = [k.strip() for k in must_not_define or [] if k.strip()]
        template = find_template(bank, kind, target)
        inherited: dict[str, Any] = {}
        if template is not None:
            inherited, _ = template_fields(unwrap(template.text), placeholders="drop")
            if not forbidden and isinstance(inherited.get("must_not_define"), list):
                forbidden = [str(k) for k in inherited["must_not_define"]]
        warnings = check_governance(
            bank,
            target,
            status=chosen_status,
            doc_kind=kind,
            derived_from=derived,
            canonical_for=keys,
            must_not_define=forbidden,
        )
        raw = RawDoc.load(bank.root, note.path)
        _, body = raw.split()
        body = retitle(body.strip(), title) if body.strip() else f"# {title}\n"
        body, link_notes = relink(body, note.path, target, bank)
        warnings += link_notes
        own_function = note.doc_function if note.doc_function not in ("", "template") else ""
        inherited_function = inherited.get("doc_function") if isinstance(inherited.get("doc_function"), str) else ""
        front = governed_frontmatter(
            title=title,
            doc_kind=kind,
            doc_function=own_function or inherited_function or "canonical",
            purpose=purpose,
            derived_from=derived,
            canonical_for=keys,
            must_not_define=forbidden,
            status=chosen_status,
            inherited=inherited,
        )
        for key, value in note.frontmatter.items():
            if key not in front and key not in GOVERNED_KEYS and key != "review_note":
                front[key] = value
        front["promoted_from"] = note.path
        text = serialise(front, body)
        firewall.refuse_credentials(text, target)
        landing = Landing(bank=bank, target=target, warnings=warnings, tx=Transaction(bank.root))
        landing.section_index(dry_run)
        landing.register(title, purpose)
        result = PromoteResult(
            source=note.path,
            path=target,
            promoted=not dry_run,
            dry_run=dry_run,
            frontmatter=jsonable(front),
            template=template.path if template else None,
            registered_in=landing.registered_in,
            warnings=landing.warnings,
            preview="\n".join(text.split("\n")[:PREVIEW_LINES]),
        )
        if dry_run:
            return result
        landing.stage(text)
        landing.tx.write(
            RECORD,
            appended(
                bank.root, {"at": now_stamp(), "action": "promoted", "note": note.path, "title": title, "to": target}
            ),
        )
        landing.tx.delete(note.path)
        landing.tx.commit()
        bank.refresh()
        return result


def discard(bank: Bank, *, path: str, reason: str, dry_run: bool = False, by: str | None = None) -> DiscardResult:
    """Drop a quarantined note on the record: a reason is required, and it is kept (with the note's
    title and the time) in ``_inbox/.record.jsonl``, written in the same transaction."""
    with write_session(bank):
        note = quarantined(bank, path, "discarded")
        why = require(reason, "`reason` is required: a note is dropped on the record, or not at all.")
        result = DiscardResult(note.path, note.title, note.purpose, why, not dry_run, dry_run, note.size)
        if not dry_run:
            entry = {"at": now_stamp(), "action": "discarded", "note": note.path, "title": note.title, "reason": why}
            if by:
                entry["by"] = by
            tx = Transaction(bank.root)
            tx.write(RECORD, appended(bank.root, entry))
            tx.delete(note.path)
            tx.commit()
            bank.refresh()
        return result


def _captured(note: Document) -> tuple[str | None, float]:
    stamp = note.frontmatter.get("captured_at")
    if isinstance(stamp, _dt.datetime):
        moment = stamp if stamp.tzinfo else stamp.replace(tzinfo=_dt.UTC)
        return moment.isoformat().replace("+00:00", "Z"), moment.timestamp()
    if isinstance(stamp, str) and stamp.strip():
        try:
            moment = _dt.datetime.fromisoformat(stamp.strip().replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=_dt.UTC)
            return stamp.strip(), moment.timestamp()
        except ValueError:
            return stamp.strip(), note.mtime
    return None, note.mtime


def list_inbox(bank: Bank, now: float | None = None) -> list[InboxEntry]:
    """Every quarantined note, oldest first, with its age, origin and any pending proposal."""
    moment = clock.timestamp() if now is None else now
    entries = []
    moments: dict[str, float] = {}
    for note in bank:
        if not note.is_inbox:
            continue
        captured_at, since = _captured(note)
        moments[note.path] = since
        age = int((moment - since) // 86400)
        proposal = note.frontmatter.get("proposal")
        entries.append(
            InboxEntry(
                path=note.path,
                title=note.title,
                purpose=note.purpose,
                doc_kind=note.doc_kind,
                status=note.status,
                age_days=age,
                bytes=note.size,
                captured_at=captured_at,
                captured_by=scalar(note.frontmatter.get("captured_by")) or None,
                proposal=jsonable(proposal) if isinstance(proposal, dict) else None,
                stale=age >= STALE_DAYS,
            )
        )
    entries.sort(key=lambda e: (moments[e.path], e.path))
    return entries


def _rewrite_proposal(
    bank: Bank, note: Document, proposal: dict[str, Any] | None, extra: dict[str, Any] | None = None
) -> bytes:
    """The note with its ``proposal`` block replaced (or removed); the rest of its bytes kept."""
    raw = RawDoc.load(bank.root, note.path)
    lines, closing, body = _head_lines(raw, "proposal")
    for key in ("proposal", *(extra or {})):
        span = _key_span(lines, closing, key)
        if span:
            del lines[span[0] : span[1]]
            closing -= span[1] - span[0]
    block: dict[str, Any] = dict(extra or {})
    if proposal is not None:
        block["proposal"] = proposal
    if block:
        lines[closing:closing] = yamlio.dump(block).rstrip("\n").split("\n")
    return raw.encode("\n".join(lines) + "\n" + body)


PROPOSAL_FIELDS = ("to", "doc_kind", "title", "purpose", "derived_from", "canonical_for", "must_not_define", "status")


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
    """Record on a note what an agent proposes (promote or discard), after a full dry run.

    Every gate of the action runs now, so a proposal that would be refused is refused here too;
    nothing leaves the quarantine until the owner applies it.
    """
    if action not in ("promote", "discard"):
        raise UsageError(f'A proposal is "promote" or "discard", not "{action}".')
    if action == "promote":
        preview: PromoteResult | DiscardResult = promote(bank, path=path, dry_run=True, **overrides)
    else:
        preview = discard(bank, path=path, reason=reason or "", dry_run=True)
    with write_session(bank):
        note = quarantined(bank, path, "promoted" if action == "promote" else "discarded")
        record: dict[str, Any] = {"action": action}
        for key in PROPOSAL_FIELDS:
            value = overrides.get(key)
            if value not in (None, [], ""):
                record[key] = value
        if reason and reason.strip():
            record["reason"] = reason.strip()
        record["proposed_by"] = client or "unknown"
        record["proposed_at"] = now_stamp()
        if not dry_run:
            tx = Transaction(bank.root)
            tx.write(note.path, _rewrite_proposal(bank, note, record))
            tx.commit()
            bank.refresh()
        return ProposalResult(note.path, action, record, not dry_run, preview)


def pending_proposal(bank: Bank, path: str) -> tuple[Document, dict[str, Any]]:
    note = quarantined(bank, path, "promoted")
    proposal = note.frontmatter.get("proposal")
    if not isinstance(proposal, dict) or proposal.get("action") not in ("promote", "discard"):
        raise Refusal(f"{note.path} carries no proposal to apply.", reason="no-proposal")
    return note, proposal


def apply_proposal(bank: Bank, *, path: str, dry_run: bool = False) -> PromoteResult | DiscardResult:
    """Carry out a note's proposal as its owner: every gate runs again, against today's bank."""
    note, proposal = pending_proposal(bank, path)
    if proposal["action"] == "discard":
        reason = str(proposal.get("reason") or f"proposal by {proposal.get('proposed_by', 'an agent')} applied")
        return discard(bank, path=note.path, reason=reason, dry_run=dry_run)
    overrides = {key: proposal.get(key) for key in PROPOSAL_FIELDS if key != "to"}
    destination = proposal.get("to")
    if not isinstance(destination, str) or not destination.strip():
        raise Refusal(f"The proposal on {note.path} names no destination.", reason="no-proposal")
    return promote(
        bank, path=note.path, to=destination, dry_run=dry_run, **{k: v for k, v in overrides.items() if v is not None}
    )


def reject_proposal(bank: Bank, *, path: str, note: str | None = None) -> dict[str, Any]:
    """Clear a note's proposal; an optional ``note`` records why, for the agent that proposed it."""
    with write_session(bank):
        doc, proposal = pending_proposal(bank, path)
        extra = {"review_note": note.strip()} if note and note.strip() else None
        tx = Transaction(bank.root)
        tx.write(doc.path, _rewrite_proposal(bank, doc, None, extra))
        tx.commit()
        bank.refresh()
        return jsonable(proposal)
