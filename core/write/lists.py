"""Setting a list of a document's frontmatter (``derived_from``, ``canonical_for``,
``must_not_define``, ``anchors``) as a whole, through the gates its meaning carries: an upstream
must resolve and close no cycle, a key must have no other owner, an active document keeps the
``derived_from`` its contract asks for. The key's lines change; every other byte stays.
"""

from __future__ import annotations

import json
import posixpath
import unicodedata
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.model import Document
from memorybank.core.write import firewall, values
from memorybank.core.write.edit import editable
from memorybank.core.write.firewall import LATIN_LOOK_ALIKES
from memorybank.core.write.frontlines import (
    LIST_FIELDS,
    FieldResult,
    candidates,
    head_lines,
    key_span,
    reads_back,
    stage_head,
)
from memorybank.core.write.gates import Planned, check_governance, check_keys
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.transaction import Transaction


def plan_set_list(
    bank: Bank, *, path: str, field: str, value: Any, dry_run: bool = True, notes_locked: bool = False
) -> Planned[FieldResult]:
    """Plan setting the list ``field`` of ``path`` to ``value`` (the whole list); nothing is written.

    Raises:
        Refusal: not a list field, or not a list; an upstream that does not resolve or closes a
            cycle, a key another document owns or one the document promises not to define, an
            active document left without the derived_from its contract requires.
    """
    key = field.strip()
    if key not in LIST_FIELDS:
        raise Refusal(f"{key} holds one value, not a list: pass it as one line of text.", reason="not-a-list")
    if not isinstance(value, list):
        example = json.dumps(["../product/context.md"] if key == "derived_from" else ["a_key"])
        raise Refusal(
            f"{key} is a list: pass the whole of it as value (e.g. {example}); it replaces the list the document has.",
            reason="list-field",
        )
    items = [item.strip() for item in values.scalars(key, value) or [] if item.strip()]
    doc = editable(bank, path, notes_locked=notes_locked)
    raw = RawDoc.load(bank.root, doc.path)
    lines, closing, body = head_lines(raw, key)
    previous = doc.frontmatter.get(key)
    before = [str(item) for item in previous] if isinstance(previous, list) else []
    span = key_span(lines, closing, key)
    tx = Transaction(bank.root)
    shown = "[" + ", ".join(items) + "]"
    if span and isinstance(previous, list) and before == items:
        return Planned(
            FieldResult(doc.path, key, shown, shown, False, dry_run, "\n".join(lines[span[0] : span[1]])), tx
        )
    warnings = _gate(bank, doc, key, items, before)
    firewall.check("\n".join(items), doc.path)
    block = _block(key, items)
    firewall.refuse_credentials("\n".join(block), doc.path)
    if span:
        lines[span[0] : span[1]] = block
    else:
        lines[closing:closing] = block
    text = "\n".join(lines) + "\n" + body
    stage_head(bank, doc, raw, key, text, tx, locked=notes_locked)
    was = "[" + ", ".join(before) + "]" if previous is not None else None
    result = FieldResult(doc.path, key, was, shown, not dry_run, dry_run, "\n".join(block), [], False, warnings)
    return Planned(result, tx)


def _gate(bank: Bank, doc: Document, key: str, items: list[str], before: list[str]) -> list[str]:
    """Refuse what the new list would break; the warnings for what it only bends. An upstream the
    document already had is not refused for a cycle it was already in: taking the other edges of a
    cycle out, one write at a time, is how a bank's cycles get fixed."""
    path = doc.path
    hidden = next((item for item in items if any(unicodedata.category(c) == "Cf" for c in item)), None)
    if hidden is not None:  # a zero-width space makes another key that reads as the same one
        raise Refusal(f"{key} item {json.dumps(hidden)} holds an invisible character.", reason="invisible-character")
    same = [posixpath.normpath(item) if key == "derived_from" else item for item in items]
    if len(set(same)) != len(same):  # ../a.md and ./../a.md name one upstream
        twice = next(item for item, one in zip(items, same, strict=True) if same.count(one) > 1)
        raise Refusal(f'{key} lists "{twice}" more than once.', reason="duplicate-key")
    if key == "derived_from":
        had = {posixpath.normpath(item) for item in before}  # re-spelt, an upstream it had is still kept
        contract = bank.contract
        if not items and doc.status == "active" and contract.requires_derived_from and path not in contract.roots:
            raise Refusal(
                f"{path} is active, and governance requires every active non-root document to declare "
                "derived_from: give value the documents it rests on, or move it to draft first.",
                reason="missing-derived-from",
            )
        found = check_governance(
            bank,
            path,
            status=doc.status or "",
            doc_kind="",
            derived_from=items,
            canonical_for=[],
            must_not_define=[],
            kept=[*before, *(item for item, one in zip(items, same, strict=True) if one in had)],
        )
        return [w for w in found if "derived_from" in w]
    if key == "canonical_for":
        check_keys(bank, path, doc.status or "", items, doc.must_not_define)
        owned = {_seen(k): k for k, owners in bank.derived.owners.items() if any(p != path for p in owners)}
        alike = next((item for item in items if _seen(item) in owned and item not in owned.values()), None)
        if alike is not None:  # Agent_Autonomy_Rules, or a Cyrillic е, beside agent_autonomy_rules
            raise Refusal(
                f'canonical_for "{alike}" reads as "{owned[_seen(alike)]}" (letter case or look-alike letters '
                "aside), which another document owns. One fact, one home: use that key's owner, or a key of its own.",
                reason="key-owned",
            )
    if key == "must_not_define":
        clash = sorted(set(items) & set(doc.canonical_for))
        if clash:
            raise Refusal(
                f'must_not_define "{clash[0]}" is a key {path} owns (canonical_for): a document cannot promise not '
                "to define what it owns.",
                reason="must-not-define",
            )
    return []


def _seen(key: str) -> str:
    """A key as a reader sees it: letter case and Cyrillic letters that look Latin set aside."""
    return key.translate(LATIN_LOOK_ALIKES).casefold()


def _block(key: str, items: list[str]) -> list[str]:
    """``key:`` and its items, one a line, each quoted only where it must be to read back."""
    if not items:
        return [f"{key}: []"]
    lines = [f"{key}:"]
    for item in items:
        written = next((c for c in candidates("plain", item) if reads_back(c, item, None)), None)
        if written is None:
            raise Refusal(f"{json.dumps(item)} cannot be written as a list item that reads back.", reason="unwritable")
        lines.append(f"  - {written}")
    return lines
