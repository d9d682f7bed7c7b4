"""The quarantine's record: one JSON line per note that left ``_inbox/``, and how it left.

A discarded note is dropped "on the record": its title, the reason and the time are appended to
``_inbox/.record.jsonl`` in the same transaction that deletes it (the file is hidden, so it is never
indexed, and it travels with the bank in git). Asking for a note that is gone answers from here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORD = "_inbox/.record.jsonl"


def appended(root: Path, entry: dict[str, Any]) -> bytes:
    """The record file's bytes with ``entry`` added as its last line."""
    path = root / RECORD
    existing = path.read_bytes() if path.exists() else b""
    if existing and not existing.endswith(b"\n"):
        existing += b"\n"
    return existing + json.dumps(entry, ensure_ascii=False).encode("utf-8") + b"\n"


def last_exit(root: Path, note: str) -> dict[str, Any] | None:
    """The latest record of ``note`` leaving the quarantine, if there is one."""
    path = root / RECORD
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and entry.get("note") == note:
            return entry
    return None
