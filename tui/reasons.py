"""Reasons for discarding a note: a few presets, and the reasons this bank's owner gave before (read
from the quarantine's record, newest first), for the discard form to complete from."""

from __future__ import annotations

import json
from pathlib import Path

from memorybank.core.record import RECORD

PRESETS = (
    "not bank material: a local setup problem",
    "duplicate: the bank already says this",
    "already folded into its owner document",
    "no longer true",
    "too vague to act on",
)


def past_reasons(root: Path, limit: int = 50) -> list[str]:
    """Reasons given for discards in this bank, newest first, each once (an unreadable record: none)."""
    try:
        lines = (root / RECORD).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    seen: dict[str, None] = {}
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        reason = entry.get("reason") if isinstance(entry, dict) and entry.get("action") == "discarded" else None
        if isinstance(reason, str) and reason.strip() and reason not in seen:
            seen[reason] = None
            if len(seen) >= limit:
                break
    return list(seen)


def reasons(root: Path) -> list[str]:
    """What the form completes from: the bank's own reasons first, then the presets."""
    return list(dict.fromkeys([*past_reasons(root), *PRESETS]))
