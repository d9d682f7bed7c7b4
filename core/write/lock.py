"""The bank-wide write lock, shared by every process that writes the same bank.

The TUI, several agents' servers and the CLI may write one checkout at once. Every gated write
holds this lock from its read of the disk to its last rename, so two writers can never interleave
a check with the other's write. The lock file lives in the bank's state folder
(``core.write.state``), which is derived from the bank's real path alone: every process on the
machine meets the same lock whatever its ``$TMPDIR``. A writer that dies releases it (the
operating system drops the lock with the process), so a stale lock never blocks the next one.
"""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout
from memorybank.core.errors import Refusal, storage_error
from memorybank.core.write.state import state_dir

WAIT_SECONDS = 15.0


def lock_path(root: Path) -> Path:
    """The lock file of the bank at ``root``, its folder created when missing."""
    return state_dir(root, create=True) / "lock"


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
        except OSError as error:
            raise storage_error(error, self.path, "take the bank's write lock at") from None
        return self

    def __exit__(self, *_exc: object) -> None:
        self._lock.release()
