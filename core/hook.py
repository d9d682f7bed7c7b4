"""The Stop hook: at the end of an agent's turn, ask it to capture durable facts into ``_inbox/``.

The hook stays silent unless the turn did work worth asking about: the tree is dirty, or commits
were made since the last ask (so a workflow that commits every turn is asked too). It never asks
twice about the same state, waits a cooldown between asks, and never re-enters itself. When notes
pile up or go stale it adds a reminder that the owner has a queue to review. Any internal error
makes it silent: a hook must never break the session it serves.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from memorybank.core import clock

COOLDOWN_MINUTES = 30
INBOX_LIMIT = 8
STALE_DAYS = 14

CAPTURE = (
    "Before you finish: if this session produced a durable fact (a decision that was accepted, a "
    "constraint you discovered, a costly gotcha, a contract that changed), record each one with "
    "{tool}, with a one-line purpose that says when to read it and derived_from "
    "pointing at the document that owns the subject. One note per fact, and only what cannot be "
    "re-derived from the code. If nothing durable came up, say nothing about this and finish. Never "
    "promote or discard notes in _inbox/: that is the owner's decision."
)
CAPTURE_TOOLS = {"full": "bank_create and inbox: true", "capture": "bank_capture"}
"""The tool the request names, per ``mcp --surface``: the one the agent was given."""


@dataclass(frozen=True, slots=True)
class HookDecision:
    ask: bool
    why: str
    """Why the hook asked or stayed silent (for tests and ``--explain``)."""
    message: str | None = None

    def output(self) -> str:
        """What the hook prints: the blocking response that reaches the agent, or nothing."""
        if not self.ask or not self.message:
            return ""
        return json.dumps(
            {"decision": "block", "reason": self.message, "continue": True, "instruction": self.message},
            ensure_ascii=False,
        )


def _setting(env: Mapping[str, str], name: str, default: int) -> int:
    try:
        return max(0, int(env.get(name, default)))
    except (TypeError, ValueError):
        return default


def marker_path(session: str, env: Mapping[str, str]) -> Path:
    safe = "".join(c for c in session if c.isalnum() or c in "-_")[:80] or "unknown"
    base = env.get("TMPDIR") or tempfile.gettempdir()
    return Path(base) / f"memorybank-capture-{safe}"


def _inbox_reminder(bank_root: Path, env: Mapping[str, str], now: float) -> str:
    inbox = bank_root / "_inbox"
    if not inbox.is_dir():
        return ""
    limit = _setting(env, "MEMORYBANK_INBOX_LIMIT", INBOX_LIMIT)
    stale_days = _setting(env, "MEMORYBANK_INBOX_STALE_DAYS", STALE_DAYS)
    notes = [p for p in inbox.glob("*.md") if p.name != "README.md"]
    stale = sum(1 for p in notes if now - p.stat().st_mtime > stale_days * 86400)
    if len(notes) < limit and not stale:
        return ""
    stale_part = f", {stale} of them older than {stale_days} days" if stale else ""
    return (
        f" Also tell the user that {len(notes)} notes wait in _inbox/{stale_part}, and suggest the "
        "review-inbox prompt (or the TUI's Inbox pane). Do not review or promote them yourself unless asked."
    )


def stop_decision(
    payload: Mapping[str, object],
    *,
    env: Mapping[str, str] | None = None,
    now: float | None = None,
    root: Path | None = None,
    surface: str = "full",
) -> HookDecision:
    """Decide whether this stop asks the agent to capture notes.

    Args:
        payload: the hook input (``stop_hook_active``, ``cwd``, ``session_id``).
        env: environment for the settings (``MEMORYBANK_CAPTURE_COOLDOWN_MIN``, ``MEMORYBANK_INBOX_LIMIT``,
            ``MEMORYBANK_INBOX_STALE_DAYS``, ``MEMORYBANK_ROOT``, ``TMPDIR``).
        now: the time, for tests.
        root: the bank (``--root``, as setup writes it); when it is not a directory, the bank is
            found from the payload's ``cwd``.
        surface: the server's ``--surface``, so the request names the tool the agent has.
    """
    from memorybank.core.bank import find_root
    from memorybank.core.repository import find_repository

    environment = os.environ if env is None else env
    moment = clock.timestamp() if now is None else now
    if payload.get("stop_hook_active") is True:
        return HookDecision(False, "recursion guard: this stop was caused by the hook itself")
    cwd = Path(str(payload.get("cwd") or os.getcwd()))
    if root is None or not root.is_dir():
        root = find_root(None, env=environment, cwd=cwd)
    if root is None or not root.is_dir():
        return HookDecision(False, "no bank found from the working directory")
    repo = find_repository(root)
    if repo is None:
        return HookDecision(False, "the bank is not in a git repository, so there is no work to measure")
    porcelain = repo.succeeds("status", "--porcelain") or ""
    head = (repo.succeeds("rev-parse", "--verify", "--quiet", "HEAD") or "").strip()
    marker = marker_path(str(payload.get("session_id") or "unknown"), environment)
    last_time, last_print, last_head = 0.0, "", ""
    try:
        parts = marker.read_text().split()
        last_time, last_print, last_head = float(parts[0]), parts[1], parts[2] if len(parts) > 2 else ""
    except (OSError, ValueError, IndexError):
        pass
    cooldown = _setting(environment, "MEMORYBANK_CAPTURE_COOLDOWN_MIN", COOLDOWN_MINUTES) * 60
    new_commits = False
    if head:
        if last_head:
            new_commits = head != last_head
        else:
            committed = (repo.succeeds("log", "-1", "--format=%ct", "HEAD") or "0").strip()
            new_commits = moment - float(committed or 0) <= cooldown
    if not porcelain.strip() and not new_commits:
        return HookDecision(False, "no work since the last ask: the tree is clean and nothing was committed")
    digest = hashlib.sha256(porcelain.encode())
    digest.update(head.encode())
    for line in porcelain.splitlines():
        path = repo.root / line[3:].strip().strip('"').split(" -> ")[-1]
        if path.is_file():
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    fingerprint = digest.hexdigest()[:12]
    if fingerprint == last_print:
        return HookDecision(False, "already asked about exactly this state")
    if last_time and cooldown and moment - last_time < cooldown:
        return HookDecision(
            False, f"asked {int((moment - last_time) // 60)} minutes ago; the cooldown is {cooldown // 60}"
        )
    marker.write_text(f"{moment:.3f} {fingerprint} {head}\n")
    why = "uncommitted changes" if porcelain.strip() else "commits since the last ask"
    request = CAPTURE.format(tool=CAPTURE_TOOLS.get(surface, CAPTURE_TOOLS["full"]))
    return HookDecision(True, why, request + _inbox_reminder(root, environment, moment))


def run_stop_hook(
    stdin_text: str, env: Mapping[str, str] | None = None, *, root: Path | None = None, surface: str = "full"
) -> str:
    """The hook end to end, failing open: any error gives no output."""
    try:
        payload = json.loads(stdin_text) if stdin_text.strip() else {}
        if not isinstance(payload, dict):
            return ""
        return stop_decision(payload, env=env, root=root, surface=surface).output()
    except Exception:
        return ""
