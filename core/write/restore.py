"""Bringing back a discarded note: the owner's way out of a discard made by mistake.

A discard keeps the note's bytes on the record (``_inbox/.record.jsonl``) when it is not large, so
``restore`` writes them back to the note's path, byte for byte, and records that it did, in one
transaction. It refuses when the record holds no such discard, when it kept no text, or when the
path is taken again; nothing is overwritten.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.record import RECORD, appended, last_exit
from memorybank.core.write.gates import Planned, execute
from memorybank.core.write.landing import INBOX, now_stamp
from memorybank.core.write.transaction import Transaction


@dataclass(frozen=True, slots=True)
class RestoreResult:
    path: str
    title: str
    reason: str
    """Why it had been discarded."""
    discarded_at: str
    restored: bool
    dry_run: bool
    bytes: int


def plan_restore(bank: Bank, *, path: str, dry_run: bool = True) -> Planned[RestoreResult]:
    """Plan writing a discarded note back, under the write session; see ``restore``."""
    note = bank.resolve(path)  # the same path forms every command takes; never outside the bank
    if not note.startswith(INBOX):
        note = INBOX + note.rsplit("/", 1)[-1]  # a note is flattened into the quarantine
    if os.path.lexists(bank.root / note):
        raise Refusal(f"{note} exists; restoring would overwrite it. Move it first.", reason="path-taken")
    gone = last_exit(bank.root, note)
    if gone is None or gone.get("action") != "discarded":
        raise Refusal(
            f"The record holds no discard of {note}; only a discarded note can be restored.", reason="not-discarded"
        )
    text = gone.get("text")
    if not isinstance(text, str):
        raise Refusal(
            f"{note} was discarded at {gone.get('at', '?')} without its text on the record (it was too large, or "
            "discarded by an older version); git may still hold it.",
            reason="not-kept",
        )
    data = text.encode("utf-8", errors="surrogateescape")
    entry = {"at": now_stamp(), "action": "restored", "note": note, "title": gone.get("title", "")}
    tx = Transaction(bank.root)
    tx.write(note, data)
    tx.write(RECORD, appended(bank.root, entry))
    result = RestoreResult(
        note,
        str(gone.get("title", "")),
        str(gone.get("reason", "")),
        str(gone.get("at", "?")),
        not dry_run,
        dry_run,
        len(data),
    )
    return Planned(result, tx)


def restore(bank: Bank, *, path: str, dry_run: bool = False) -> RestoreResult:
    """Write a discarded note back to its path from the record, and record the restore."""
    return execute(bank, plan_restore, dry_run=dry_run, path=path)
