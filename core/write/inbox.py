"""The quarantine: notes agents capture into ``_inbox/``, and the only ways out of it.

A note leaves by **promotion** (to a governed place, through the same gates as ``create``, its
relative links rewritten for the new folder, ``promoted_from`` recorded), by **discard** (with a
reason), or by being **folded** into its owner (``core.write.fold``). By default agents cannot take
a note out themselves: they record a **proposal** on the note (``core.write.proposals``), and the
bank's owner applies or rejects it. Every exit is one transaction: the new or changed document, the
index entries, the record line and the note's removal land together or not at all.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from dataclasses import dataclass, field
from typing import Any

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.model import Document
from memorybank.core.parse import FenceTracker, jsonable, scalar
from memorybank.core.paths import relative_link, resolve_link
from memorybank.core.record import RECORD, appended
from memorybank.core.templates import retitle
from memorybank.core.write import values
from memorybank.core.write.compose import NewDocument, compose, inherit
from memorybank.core.write.gates import GOVERNED_KEYS, Planned, check_target, execute, require
from memorybank.core.write.landing import INBOX, now_stamp, refuse_second_index
from memorybank.core.write.plan import Plan
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.transaction import Transaction

STALE_DAYS = 14


def named_owners(bank: Bank, note: Document, body: str) -> dict[str, tuple[str, ...]]:
    """``canonical_for`` keys a note claims or names (``retry_policy``, or "retry policy" in its
    title, purpose or body, as whole words), each with the other documents that own it."""
    text = " ".join([note.title, note.purpose, body]).lower()
    owners = bank.derived.owners
    found: dict[str, tuple[str, ...]] = {}
    for key, paths in owners.items():
        others = tuple(p for p in paths if p != note.path)
        if not others:
            continue
        spoken = re.escape(key.lower()).replace("_", "[_ ]")
        if key in note.canonical_for or re.search(rf"(?<![\w-]){spoken}(?![\w-])", text):
            found[key] = others
    return found


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


def quarantined(bank: Bank, path: str, verb: str) -> Document:
    doc = bank.document(path)
    # The quarantine is the _inbox/ folder: a layer table mapping another folder to the inbox layer
    # does not make the bank's documents notes that its exits would move or delete.
    if not (doc.is_inbox and doc.path.startswith(INBOX)):
        extra = " Documents in the bank proper are removed by hand, deliberately." if verb == "discarded" else ""
        raise Refusal(
            f"Only quarantined documents can be {verb}; {doc.path} is not in _inbox/.{extra}", reason="not-inbox"
        )
    return doc


def relink(body: str, source: str, target: str, bank: Bank) -> tuple[str, list[str]]:
    """Rewrite relative links that reached a document from ``source``'s folder so they still do
    from ``target``'s (a link to the note itself then reaches ``target``, where its text went). A link
    to a document that does not exist is rewritten too, so it still means what the note meant, and
    said: the new document would otherwise carry a broken link nobody was told of."""
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
            if resolved is None:  # it leaves the bank: nothing here to say it is right or wrong
                return match.group(0)
            if resolved == source:  # the note links to itself: it lives on in the target now
                resolved = target
            new = relative_link(target, resolved) + (hash_sep + fragment if hash_sep else "")
            if resolved not in bank and not os.path.lexists(bank.root / resolved):
                notes.append(f"Link to a document that does not exist: {resolved} (written {new} from the new place)")
            elif new != raw:
                notes.append(f"Link rewritten for the new location: {raw} -> {new}")
            return f"{match.group(1)}{new}{match.group(3)}"

        lines[index] = _LINK.sub(swap, line)
    return "\n".join(lines), notes


def _derived_for(note: Document, target: str, given: list[str] | None) -> list[str]:
    """``derived_from`` for the promoted document: as given, else the note's own edges, each
    rewritten relative to the destination."""
    if given is not None:
        return [d.strip() for d in given if d and d.strip()]
    derived = []
    for edge in note.derived_from:
        if edge.resolved is not None and not edge.external:
            derived.append(relative_link(target, edge.resolved))
        else:
            derived.append(edge.raw)
    return derived


def plan_promote(
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
    dry_run: bool = True,
) -> Planned[PromoteResult]:
    """Plan a note's promotion under the write session; see ``promote``."""
    note = quarantined(bank, path, "promoted")
    title, purpose, doc_kind, status = (
        values.scalar(name, value)
        for name, value in (("title", title), ("purpose", purpose), ("docKind", doc_kind), ("status", status))
    )
    derived_from = values.scalars("derivedFrom", derived_from)
    canonical_for = values.scalars("canonicalFor", canonical_for)
    must_not_define = values.scalars("mustNotDefine", must_not_define)
    target = bank.resolve(to)
    if target.startswith(INBOX):
        raise Refusal("Promotion must leave the quarantine; give a destination outside _inbox/.", reason="inbox-target")
    check_target(bank, target, to)
    refuse_second_index(bank, target)
    title = require(title or note.title, "`title` is required.")
    purpose = require(purpose or note.purpose, "`purpose` is required: it is the signal bank_route ranks on.")
    kind = require(doc_kind or note.doc_kind, "`docKind` is required: the captured note does not declare one.")
    inherited = inherit(bank, kind, target, placeholders="drop")
    forbidden = [k.strip() for k in must_not_define or [] if k.strip()] or inherited.must_not_define()
    _, body = RawDoc.load(bank.root, note.path).split()
    body = retitle(body.strip(), title) if body.strip() else f"# {title}\n"
    body, link_notes = relink(body, note.path, target, bank)
    own_function = note.doc_function if note.doc_function not in ("", "template") else ""
    more = {
        key: value
        for key, value in note.frontmatter.items()
        if key not in GOVERNED_KEYS and key != "review_note" and key not in inherited.fields
    }
    more["promoted_from"] = note.path
    doc = NewDocument(
        target=target,
        title=title,
        purpose=purpose,
        doc_kind=kind,
        doc_function=own_function or inherited.doc_function or "canonical",
        status=(status or "active").strip(),
        body=body,
        derived_from=_derived_for(note, target, derived_from),
        canonical_for=list(note.canonical_for)
        if canonical_for is None
        else [k.strip() for k in canonical_for if k.strip()],
        must_not_define=forbidden,
        inherited=inherited.fields,
        more=more,
    )
    composed = compose(bank, doc, link_notes, dry_run=dry_run, credentials_only=True)
    landing = composed.landing
    for key, owners in named_owners(bank, note, body).items():
        if key not in doc.canonical_for:
            landing.warnings.append(
                f'The note names "{key}", which {", ".join(owners)} owns: if it restates that fact, fold it '
                "there rather than keep it in two places."
            )
    landing.tx.write(
        RECORD,
        appended(bank.root, {"at": now_stamp(), "action": "promoted", "note": note.path, "title": title, "to": target}),
    )
    landing.tx.delete(note.path)
    result = PromoteResult(
        source=note.path,
        path=target,
        promoted=not dry_run,
        dry_run=dry_run,
        frontmatter=jsonable(composed.front),
        template=inherited.template.path if inherited.template else None,
        registered_in=landing.registered_in,
        warnings=landing.warnings,
        preview=composed.preview,
    )
    return Planned(result, landing.tx)


def promote(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> PromoteResult:
    """Move a quarantined note to its place in the bank, through every gate ``create`` runs.

    Takes ``plan_promote``'s arguments: ``path`` (the note), ``to``, and optional ``doc_kind``,
    ``title``, ``purpose``, ``derived_from``, ``canonical_for``, ``must_not_define``, ``status``.
    """
    return execute(bank, plan_promote, dry_run=dry_run, **arguments)


KEPT_BYTES = 256 * 1024
"""A discarded note up to this size is kept whole on the record (notes are a few hundred bytes)."""


def plan_discard(
    bank: Bank, *, path: str, reason: str, dry_run: bool = True, by: str | None = None
) -> Planned[DiscardResult]:
    """Plan dropping a note on the record, under the write session; see ``discard``."""
    note = quarantined(bank, path, "discarded")
    why = require(reason, "`reason` is required: a note is dropped on the record, or not at all.")
    if "\n" in why or "\r" in why:
        raise Refusal("A discard's reason must fit on one line: it is quoted in one.", reason="multi-line")
    values.scalar("reason", why)  # no escape sequence reaches the owner's terminal through the record
    entry = {"at": now_stamp(), "action": "discarded", "note": note.path, "title": note.title, "reason": why}
    if by:
        entry["by"] = by
    kept = (bank.root / note.path).read_bytes()
    if len(kept) <= KEPT_BYTES:  # on the record whole, so `inbox restore` can bring it back
        entry["text"] = kept.decode("utf-8", errors="surrogateescape")
    tx = Transaction(bank.root)
    tx.write(RECORD, appended(bank.root, entry))
    tx.delete(note.path)
    return Planned(DiscardResult(note.path, note.title, note.purpose, why, not dry_run, dry_run, note.size), tx)


def discard(
    bank: Bank, *, path: str, reason: str, dry_run: bool = False, by: str | None = None, shown: Plan | None = None
) -> DiscardResult:
    """Drop a quarantined note on the record: a reason is required, and it is kept (with the note's
    title and the time) in ``_inbox/.record.jsonl``, written in the same transaction. With ``shown``,
    refused when the files it lists changed since (``core.write.plan.unchanged_since``)."""
    return execute(bank, plan_discard, dry_run=dry_run, shown=shown, path=path, reason=reason, by=by)


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
