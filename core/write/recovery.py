"""Finishing what a dead writer left: the read path's half of the journal's promise.

A writer that dies mid-operation leaves its journal (``core.write.journal``). Writers undo it when
they take the lock; readers undo it too, before answering, so nobody is ever shown a half-applied
operation. A reader only acts when it can take the lock at once: a live writer holding it is not
dead, and its journal is work in progress.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout
from memorybank.core.write import journal
from memorybank.core.write.lock import lock_path


def recover_abandoned(root: Path) -> list[str] | None:
    """Undo an operation a dead process left on ``root``; return the paths restored, or None.

    Costs one stat when there is nothing to do.
    """
    if not journal.pending(root) or journal.current(root) is not None:
        return None
    try:
        lock = FileLock(str(lock_path(root)), timeout=0, thread_local=True)
        lock.acquire()
    except (Timeout, OSError):
        return None
    try:
        return journal.recover(root)
    finally:
        lock.release()
