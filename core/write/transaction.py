"""Applying a write: every file of one operation lands, or none does.

A write is planned in memory (new bytes for each file, deletions) after every gate has passed.
``Transaction.commit`` then writes each new file to a unique temporary file beside its target and
renames them into place, the document before the indexes that point at it. If anything fails on
the way, the files already renamed are put back as they were, new files and directories are
removed, and temporary files are cleaned up: the bank is left as before, or fully written.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


def checkpoint(step: str) -> None:
    """A named point in a commit. Does nothing; tests replace it to inject a fault at ``step``."""


@dataclass
class Transaction:
    root: Path
    writes: dict[str, bytes] = field(default_factory=dict)
    """Bank path to new content, in the order they will land."""
    deletes: list[str] = field(default_factory=list)

    def write(self, path: str, data: bytes) -> None:
        self.writes[path] = data

    def delete(self, path: str) -> None:
        self.deletes.append(path)

    @property
    def paths(self) -> list[str]:
        return [*self.writes, *self.deletes]

    def commit(self) -> None:
        """Land every planned change, or restore the bank as it was and re-raise."""
        staged: list[tuple[Path, Path]] = []
        made_dirs: list[Path] = []
        done: list[tuple[Path, bytes | None]] = []  # target, previous bytes (None: did not exist)
        try:
            for rel, data in self.writes.items():
                target = self.root / rel
                missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
                for directory in reversed(missing):
                    directory.mkdir()
                    made_dirs.append(directory)
                temp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
                with open(temp, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                staged.append((temp, target))
            checkpoint("staged")
            for temp, target in staged:
                previous = target.read_bytes() if target.exists() else None
                checkpoint(f"before-rename:{target.relative_to(self.root).as_posix()}")
                os.replace(temp, target)
                done.append((target, previous))
                checkpoint(f"after-rename:{target.relative_to(self.root).as_posix()}")
            for rel in self.deletes:
                target = self.root / rel
                previous = target.read_bytes()
                checkpoint(f"before-delete:{rel}")
                target.unlink()
                done.append((target, previous))
            checkpoint("committed")
        except BaseException:
            self._undo(staged, done, made_dirs)
            raise

    def _undo(
        self, staged: list[tuple[Path, Path]], done: list[tuple[Path, bytes | None]], made_dirs: list[Path]
    ) -> None:
        for target, previous in reversed(done):
            if previous is None:
                target.unlink(missing_ok=True)
            else:
                temp = target.parent / f".{target.name}.{os.getpid()}.undo.tmp"
                temp.write_bytes(previous)
                os.replace(temp, target)
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        for directory in reversed(made_dirs):
            with contextlib.suppress(OSError):  # another writer may have put a file there meanwhile
                directory.rmdir()
