"""What ``memorybank drift`` prints: anchored drift and age as text, and ``--check``'s verdict."""

from __future__ import annotations

import sys

from memorybank.core.drift import NOTHING_ANCHORED, Drift
from memorybank.core.staleness import BANK_IS_REPOSITORY, NOTHING_LIVE, Staleness

NOTHING_TO_CHECK = (NOTHING_ANCHORED, NOTHING_LIVE, BANK_IS_REPOSITORY)


def verdict(result: Drift | Staleness) -> int:
    """``--check``: 1 when something is reported, and when the history could not say (a shallow
    clone shows no drift it cannot see: that is not a pass); 0 when all is current or nothing is
    anchored (or live) to check."""
    found = result.stale if isinstance(result, Staleness) else result.drifted or result.missing
    if found:
        return 1
    if result.note and result.note not in NOTHING_TO_CHECK:
        print("drift --check: not a pass: the history could not tell (the note says why)", file=sys.stderr)
        return 1
    return 0


def format_drift(drift: Drift) -> str:
    where = f" under {drift.scope}/" if drift.scope else ""
    lines = [f"anchored {drift.anchored}, unanchored {drift.unanchored}{where}"]
    if drift.mode == "git":
        lines[0] = f"drift against git in {drift.repo}, threshold {drift.threshold_days} days; " + lines[0]
        if drift.drifted:
            lines += ["", "code ahead of its document, widest gap first:"]
        elif drift.note is None:  # with a note (a shallow clone, no commits) the dates cannot say so
            lines += ["", f"no anchored code is ahead of its document by more than {drift.threshold_days} days"]
        for pair in drift.drifted:
            lines.append(
                f"  {pair.path} -> {pair.anchor}: code {pair.ahead_days} days ahead "
                f"(document {pair.doc_touched[:10]}, code {pair.code_touched[:10]})"
            )
            for commit in pair.commits:
                lines.append(f"      {commit.short_hash} {commit.date[:10]} {commit.subject}")
            if pair.commit_count > len(pair.commits):
                lines.append(f"      ... and {pair.commit_count - len(pair.commits)} earlier commits")
        if drift.missing:
            lines += ["", "anchors whose path does not exist:"]
            lines += [f"  {m.path} -> {m.anchor}: {m.reason}" for m in drift.missing]
        if drift.uncommitted:
            lines += ["", "anchored documents never committed (they cannot drift yet):"]
            lines += [f"  {path}" for path in drift.uncommitted]
    if drift.note:
        lines += ["", f"note: {drift.note}"]
    return "\n".join(lines)


def _days_from(staleness: Staleness) -> str:
    if staleness.days_from == "default":
        return "the default"
    if staleness.days_from == "given":
        return "given"
    return f"set in {staleness.days_from}"


def format_stale(staleness: Staleness) -> str:
    where = f" under {staleness.scope}/" if staleness.scope else ""
    lines = [f"live {staleness.live}, not live {staleness.not_live}{where}"]
    if staleness.mode == "git":
        lines[0] = (
            f"stale against git in {staleness.repo}: untouched for more than {staleness.days} days "
            f"({_days_from(staleness)}) while the code moved on; " + lines[0]
        )
        if staleness.stale:
            lines += ["", "most changed around them first (paths they name, then beside them, then anywhere):"]
        elif staleness.note is None:
            lines += ["", f"no live document is more than {staleness.days} days old with code committed after it"]
        for doc in staleness.stale:
            lines.append(f"  {doc.path}  {doc.title}  ({doc.age_days} days)")
            lines.append(f"      {doc.reason}")
            if doc.named:
                more = f" and {doc.named_files - len(doc.named)} more" if doc.named_files > len(doc.named) else ""
                lines.append(f"      named: {', '.join(doc.named)}{more}")
        if staleness.uncommitted:
            n = staleness.uncommitted
            lines += ["", f"{n} live document{'s' if n != 1 else ''} never committed (they cannot age yet)"]
    if staleness.note:
        lines += ["", f"note: {staleness.note}"]
    return "\n".join(lines)


# -- changed -----------------------------------------------------------------------------------
