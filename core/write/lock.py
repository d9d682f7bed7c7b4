"""The bank-wide write lock, shared by every process that writes the same bank.

The TUI, several agents' servers and the CLI may write one checkout at once. Every gated write
holds this lock from its read of the disk to its last rename, so two writers can never interleave
a check with the other's write. The lock file lives in the system temporary directory, keyed by the
bank's real path, so it never shows up in the project's ``git status``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from filelock import FileLock, Timeout

from core.errors import Refusal

WAIT_SECONDS = 15.0


def lock_path(root: Path) -> Path:
    """One lock file per bank, all in one folder of the system temporary directory."""
    folder = Path(tempfile.gettempdir()) / "memorybank-locks"
    folder.mkdir(exist_ok=True)
    digest = hashlib.sha256(os.path.realpath(root).encode("utf-8")).hexdigest()[:16]
    return folder / f"{digest}.lock"


class BankLock:
    """A re-entrant (per thread) cross-process lock around one bank's writes."""

    def __init__(self, root: Path, timeout: float = WAIT_SECONDS) -> None:
        self.path = lock_path(root)
        self._lock = FileLock(str(self.path), timeout=timeout, thread_local=True)

    def __enter__(self) -> BankLock:
        try:
            self._lock.acquire()
        except Timeout:
            raise Refusal(
                f"Another writer has held this bank's lock for {self._lock.timeout:.0f} s ({self.path}). "
                "Nothing was written; try again.",
                reason="locked",
            ) from None
        return self

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()
