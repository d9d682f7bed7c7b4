"""Changing one frontmatter value in place: ``set_status`` (with its lifecycle gates) and
``set_field`` (any other scalar). One line changes; every other byte of the file stays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.parse import FenceTracker
from memorybank.core.paths import resolve_link
from memorybank.core.write import firewall, values
from memorybank.core.write.breaks import link_warnings
from memorybank.core.write.edit import editable
from memorybank.core.write.frontlines import (
    LIST_FIELDS,
    FieldResult,
    head_lines,
    key_span,
    line_reads_back,
    scalar_line,
    stage_head,
)
from memorybank.core.write.gates import OWNER_KEYS, Planned, execute
from memorybank.core.write.lists import plan_set_list
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.register import escape_label, escape_text
from memorybank.core.write.transaction import Transaction

_FIELD = re.compile(r"^[A-Za-z_][\w-]*$", re.ASCII)
STAMPS = ("promoted_from", "captured_at", "captured_by", "proposal")


@dataclass(frozen=True, slots=True)
class StatusResult:
    path: str
    previous: str
    status: str
    changed: bool
    dry_run: bool
    warnings: list[str] = field(default_factory=list)
    released: list[str] | None = None


def _refuse_retiring_the_law(path: str, notes_locked: bool) -> None:
    """An agent does not move the bank's own rules through their lifecycle: archiving
    ``dna/principles.md`` takes the law out of force as surely as rewriting it (fixing a rule's
    wording, title or purpose stays open, as long as what it declares stays)."""
    if notes_locked and path.startswith("dna/"):
        raise Refusal(
            f"{path} is one of the bank's own rules (dna/): its status is the owner's to change. Capture a note "
            "with bank_create inbox: true proposing the change instead.",
            reason="law-is-the-owners",
        )


def plan_set_status(
    bank: Bank,
    *,
    path: str,
    status: str,
    release_canonical: bool = False,
    dry_run: bool = True,
    notes_locked: bool = False,
) -> Planned[StatusResult]:
    """Plan ``set_status`` under the write session (see it); nothing is written. With
    ``notes_locked`` (an agent, where the owner keeps the law), not on a ``dna/`` document."""
    doc = editable(bank, path)
    _refuse_retiring_the_law(doc.path, notes_locked)
    if doc.is_inbox:
        raise Refusal(
            f"{doc.path} is in the quarantine, where status is not the thing that moves it. Use bank_promote to "
            "place it and set its status in one step, or bank_discard to drop it.",
            reason="inbox",
        )
    target = (values.scalar("status", status) or "").strip()
    if not target:
        raise Refusal("`status` is required: the lifecycle value to move this document to.", reason="required")
    if release_canonical and target != "archived":
        raise Refusal(
            "`releaseCanonical` belongs to archiving. Ownership is given up when a document retires, not on any "
            "other transition.",
            reason="usage",
        )
    warnings: list[str] = []
    contract = bank.contract
    if contract.statuses and target not in contract.statuses:
        warnings.append(f'status "{target}" is not among the values declared in dna/.')
    releasing = target == "archived" and bool(doc.canonical_for)
    if releasing and not release_canonical:
        keys = ", ".join(f'"{k}"' for k in doc.canonical_for)
        raise Refusal(
            f"{doc.path} still owns {keys}. An archived document that keeps its keys blocks whoever should own "
            "them next. Pass releaseCanonical: true to give them up with this transition, or move them to the "
            "successor document first (bank_set_field canonical_for: this one's without them, then the successor's "
            "with them).",
            reason="owns-keys",
        )
    released = list(doc.canonical_for) if releasing else None
    if doc.status == target and not releasing:
        return Planned(
            StatusResult(doc.path, doc.status, target, False, dry_run, warnings, released), Transaction(bank.root)
        )
    if target == "active":
        broken = [e.raw for e in doc.derived_from if not e.external and (e.resolved is None or e.resolved not in bank)]
        if broken:
            raise Refusal(
                f'derived_from "{broken[0]}" does not resolve to a document of this bank; fix it before activating.',
                reason="unresolved-derived-from",
            )
        if contract.requires_derived_from and not doc.derived_from and doc.path not in contract.roots:
            raise Refusal(
                "Governance requires every active non-root document to declare derived_from.",
                reason="missing-derived-from",
            )
    raw = RawDoc.load(bank.root, doc.path)
    lines, closing, body = head_lines(raw, "status")
    if releasing:
        span = key_span(lines, closing, "canonical_for")
        if span:
            del lines[span[0] : span[1]]
            closing -= span[1] - span[0]
    span = key_span(lines, closing, "status")
    line = scalar_line("status", target, doc.frontmatter.get("status"), lines[span[0]] if span else None)
    if span:
        lines[span[0] : span[1]] = [line]
    else:
        lines.insert(closing, line)
    text = "\n".join(lines) + "\n" + body
    tx = Transaction(bank.root)
    tx.write(doc.path, raw.encode(text))
    return Planned(StatusResult(doc.path, doc.status, target, not dry_run, dry_run, warnings, released), tx)


def set_status(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> StatusResult:
    """Move a document to a lifecycle status, through the gates that guard each transition.

    Activation requires ``derived_from`` where dna/ does (roots exempt) and edges that resolve;
    archiving a document that owns ``canonical_for`` keys requires ``release_canonical``, which
    removes the keys in the same write. A transition to the current status is a no-op.
    """
    return execute(bank, plan_set_status, dry_run=dry_run, **arguments)


_KEY_OWNERS: dict[str, str] = {
    "status": "status is where the gates are. Use bank_set_status, which runs them.",
    "doc_kind": "doc_kind decides the template, the section index and the gates a document was created under. "
    "Changing it is re-creating the document, not editing a value.",
    "doc_function": "doc_function says whether a file is a document or a template. Changing it is re-creating the "
    "document, not editing a value.",
    **{key: f"{key} is recorded by the server when a note is captured, proposed or promoted." for key in STAMPS},
}
"""Keys ``set_field`` refuses, each with what to do instead."""


def _settable_key(field: str) -> str:
    """The key, when ``set_field`` may set it; otherwise a refusal saying what to do instead."""
    key = (field or "").strip()
    if not _FIELD.match(key):
        raise Refusal(f'"{field}" is not a frontmatter key.', reason="bad-key")
    if key in _KEY_OWNERS:
        raise Refusal(_KEY_OWNERS[key], reason="governed-field")
    if key in OWNER_KEYS:
        raise Refusal(f"{key} is the owner's: it is written when the owner rejects a proposal.", reason="owner-field")
    twin = next((k for k in (*_KEY_OWNERS, *LIST_FIELDS, *OWNER_KEYS) if k.lower() == key.lower()), None)
    if twin is not None and twin != key:  # `Status` would sit beside `status`, ungated
        raise Refusal(
            f'"{key}" differs from {twin} only in case; set {twin} itself, through its own tool.', reason="bad-key"
        )
    return key


def _settable_value(bank: Bank, key: str, value: str | None) -> str:
    """The value, when it is one line of text the bank allows for ``key``."""
    if value is None or not str(value).strip():
        raise Refusal("`value` is empty. To remove a field, edit the document by hand and say so.", reason="empty")
    value = str(value)
    if "\n" in value or "\r" in value:
        raise Refusal("`value` must fit on one line: frontmatter values here are single scalars.", reason="multi-line")
    values.scalar("value", value)
    allowed = bank.contract.values_for(key) if key in ("delivery_status", "decision_status") else frozenset()
    if allowed and value not in allowed:
        raise Refusal(
            f'"{value}" is not a {key} this bank declares. Allowed: {" | ".join(sorted(allowed))} (from dna/).',
            reason="undeclared-value",
        )
    return value


def _as_text(previous: Any) -> str | None:
    if previous is None:
        return None
    return previous.isoformat() if hasattr(previous, "isoformat") else str(previous)


def plan_set_field(
    bank: Bank, *, path: str, field: str, value: str | list[str], dry_run: bool = True, notes_locked: bool = False
) -> Planned[FieldResult]:
    """Plan ``set_field`` under the write session (see it); nothing is written. A list field, or a
    list value, is ``plan_set_list``'s."""
    if (field or "").strip() in LIST_FIELDS or isinstance(value, list):
        return plan_set_list(bank, path=path, field=field, value=value, dry_run=dry_run, notes_locked=notes_locked)
    doc = editable(bank, path, notes_locked=notes_locked)
    key = _settable_key(field)
    value = _settable_value(bank, key, value)
    raw = RawDoc.load(bank.root, doc.path)
    lines, closing, body = head_lines(raw, key)
    previous = doc.frontmatter.get(key)
    if isinstance(previous, (list, dict)):
        raise Refusal(
            f"{key} in {doc.path} holds a list or a mapping, not one value. This tool sets scalars only.",
            reason="not-scalar",
        )
    previous_text = _as_text(previous)
    span = key_span(lines, closing, key)
    tx = Transaction(bank.root)
    current = lines[span[0]] if span else None
    if span and previous_text == value and (span[1] - span[0] > 1 or line_reads_back(lines[span[0]], value, previous)):
        return Planned(FieldResult(doc.path, key, previous_text, value, False, dry_run, lines[span[0]], [], False), tx)
    firewall.check(value, doc.path)
    new_line = scalar_line(key, value, previous, current)
    firewall.refuse_credentials(new_line, doc.path)  # the key names it: yookassa_secret_key: live_9f8e...
    if span:
        lines[span[0] : span[1]] = [new_line]
    else:
        lines.insert(closing, new_line)
    heading = False
    if key == "title" and previous_text:
        body, heading = _rename_h1(body, previous_text, value)
    text = "\n".join(lines) + "\n" + body
    stage_head(bank, doc, raw, key, text, tx, locked=notes_locked)
    indexes: list[str] = []
    if key in ("purpose", "title") and previous_text:
        for index in dict.fromkeys(bank.registered_in(doc.path)):
            updated = _carry_into_index(bank, index, doc.path, key, previous_text, value)
            if updated is not None:
                tx.write(index, updated)
                indexes.append(index)
    return Planned(
        FieldResult(
            doc.path,
            key,
            values.clip(previous_text or "", 500) if previous_text else None,
            value,
            not dry_run,
            dry_run,
            new_line,
            indexes,
            heading,
            link_warnings(bank, doc.path, raw.text, text) if heading else [],
        ),
        tx,
    )


def set_field(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> FieldResult:
    """Set one scalar frontmatter value, keeping the line's quoting where it still reads back; or a
    whole list (``derived_from``, ``canonical_for``, ``must_not_define``, ``anchors``) through its
    gates (``core.write.lists``).

    Takes ``path``, ``field`` and ``value``. A changed ``title`` renames the H1 that repeated it; a
    changed ``purpose`` or ``title`` is carried into index entries that repeated the old text
    verbatim (hand-written summaries are left alone).
    """
    return execute(bank, plan_set_field, dry_run=dry_run, **arguments)


def _rename_h1(body: str, old: str, new: str) -> tuple[str, bool]:
    lines = body.split("\n")
    tracker = FenceTracker(comments=True)
    for index, line in enumerate(lines):
        if tracker.feed(line):
            continue
        if re.match(r"^#[ \t]", line):
            if line[1:].strip() == old:
                lines[index] = f"# {new}"
                return "\n".join(lines), True
            break
    return body, False


def _carry_into_index(bank: Bank, index: str, doc_path: str, key: str, old: str, new: str) -> bytes | None:
    raw = RawDoc.load(bank.root, index)
    lines = raw.text.split("\n")
    changed = False
    for number, line in enumerate(lines):
        targets = [resolve_link(index, t)[0] for t in re.findall(r"\]\(\s*<?([^)\s>]+)", line)]
        if doc_path not in targets:
            continue
        # The summary follows the links: a purpose that also spells part of a link target
        # ("api" in "api-gateway.md") is replaced where it is the summary, never inside the link.
        after = max((m.end() for m in re.finditer(r"\]\([^)]*\)", line)), default=0)
        if key == "purpose" and escape_text(old) in line[after:]:
            lines[number] = line[:after] + line[after:].replace(escape_text(old), escape_text(new), 1)
            changed = True
        elif key == "title":
            for pattern, replacement in (
                (f"[{escape_label(old)}](", f"[{escape_label(new)}]("),
                (f"[`{old}`](", f"[`{new}`]("),
            ):
                if pattern in lines[number]:
                    lines[number] = lines[number].replace(pattern, replacement, 1)
                    changed = True
    return raw.encode("\n".join(lines)) if changed else None
