"""Applying a write: every file of one operation lands, or none does, even across a crash.

A write is planned in memory (new bytes for each file, deletions) after every gate has passed:
``Transaction.plan()`` is that plan, and a dry run stops there. ``commit()`` then, for each file,
records in the journal the file's prior state and the unique temporary name it will use (before
writing anything), writes and fsyncs the temporary file beside its target, and renames them into
place, the document before the indexes that point at it. If anything fails on the way, the journal
puts every file back and removes every temporary file; if the process dies, the next one to open
the bank does the same (``core.write.journal``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path

from memorybank.core.errors import Refusal, storage_error
from memorybank.core.write import journal
from memorybank.core.write.plan import FileChange, Plan


def checkpoint(step: str) -> None:
    """A named point in a commit. Does nothing; tests replace it to inject a fault at ``step``."""


@dataclass
class Transaction:
    root: Path
    writes: dict[str, bytes] = field(default_factory=dict)
    """Bank path to new content, in the order they will land."""
    deletes: list[str] = field(default_factory=list)

    def write(self, path: str, data: bytes) -> None:
        _through_no_link(self.root, path)
        _replaceable(self.root, path)
        self.writes[path] = data

    def delete(self, path: str) -> None:
        self.deletes.append(path)

    @property
    def paths(self) -> list[str]:
        return [*self.writes, *self.deletes]

    def plan(self) -> Plan:
        """The changes this transaction would make, against the files as they are now."""
        changes = []
        for rel, data in self.writes.items():
            before = _read(self.root / rel)
            if before == data:
                continue
            changes.append(FileChange(rel, "create" if before is None else "modify", before, data))
        for rel in self.deletes:
            before = _read(self.root / rel)
            if before is not None:
                changes.append(FileChange(rel, "delete", before, None))
        return Plan(tuple(changes))

    def commit(self) -> None:
        """Land every planned change, or restore the bank as it was and re-raise.

        Raises:
            StorageError: the operating system refused (read-only, full disk, permission); the
                bank is as it was.
        """
        try:
            with journal.operation(self.root) as record:
                self._land(record)
        except OSError as error:
            raise storage_error(error, error.filename or self.root) from None

    def _land(self, record: journal.Journal) -> None:
        for rel in [*self.writes, *self.deletes]:
            _writable(self.root / rel)
        staged: list[tuple[Path, Path]] = []
        for rel, data in self.writes.items():
            target = self.root / rel
            missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
            for directory in reversed(missing):
                record.folder_made(directory)
                directory.mkdir()
            temp = target.parent / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            record.file_touched(target, temp)
            with open(temp, "wb") as handle:
                handle.write(data)
                _keep_owner(handle.fileno(), target)
                handle.flush()
                os.fsync(handle.fileno())
            staged.append((temp, target))
        checkpoint("staged")
        for temp, target in staged:
            checkpoint(f"before-rename:{target.relative_to(self.root).as_posix()}")
            os.replace(temp, target)
            checkpoint(f"after-rename:{target.relative_to(self.root).as_posix()}")
        for rel in self.deletes:
            target = self.root / rel
            record.file_touched(target, None)
            checkpoint(f"before-delete:{rel}")
            target.unlink()
        checkpoint("committed")


def _writable(target: Path) -> None:
    """Refuse, before anything is written, to replace or delete a file its owner made read-only (the
    rename that lands a write needs only the folder to be writable, so it would not refuse).

    Raises:
        PermissionError: the file cannot be opened for writing.
    """
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):  # nothing there, or the rename refuses
        os.close(os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)))


def _keep_owner(handle: int, target: Path) -> None:
    """Give the new content of an existing file that file's permission bits, and its owner and group
    where the writer may (a private note stays private, an executable stays executable)."""
    try:
        before = os.stat(target)
    except FileNotFoundError:
        return
    os.fchmod(handle, stat.S_IMODE(before.st_mode))
    with contextlib.suppress(PermissionError):  # only the superuser gives a file to someone else
        os.fchown(handle, before.st_uid, before.st_gid)


def _replaceable(root: Path, rel: str) -> None:
    """Refuse, when the write is planned (a preview says so too), to replace a file made read-only
    (no write bit at all): the superuser's open would not refuse it (``_writable``), nor would the
    rename a write lands with, where an editor stops (vim says 'readonly'). And a file with several
    hard links: the rename would split them, as it would a symbolic link's target from the link."""
    try:
        found = os.stat(root / rel)
    except OSError:
        return
    mode, links = found.st_mode, found.st_nlink
    if stat.S_ISREG(mode) and not mode & 0o222:
        raise Refusal(
            f"{rel} is read-only ({stat.filemode(mode)}); nothing was written. Make it writable first "
            f"(chmod u+w {rel}) if it is meant to change.",
            reason="read-only",
        )
    if stat.S_ISREG(mode) and links > 1:
        raise Refusal(
            f"{rel} has {links} hard links; writing it would give this name new content and leave the others "
            "as they were, two documents where there was one. Keep one link, or edit it by hand.",
            reason="hard-link",
        )


def _through_no_link(root: Path, rel: str) -> None:
    """Refuse a write that would replace a symbolic link with a copy (the document it points at
    would stay as it was, and the two would drift apart), or land through a linked folder outside
    the bank."""
    target = root / rel
    if target.is_symlink():
        pointed = os.path.relpath(os.path.realpath(target), os.path.realpath(root))
        raise Refusal(
            f"{rel} is a symbolic link to {pointed}; writing it would replace the link with a copy. Write "
            f"{pointed} instead.",
            reason="symbolic-link",
        )
    real_root = os.path.realpath(root)
    for folder in reversed(target.relative_to(root).parents[:-1]):
        place = root / folder
        if not place.is_symlink():
            continue
        real = os.path.realpath(place)
        if real != real_root and not real.startswith(real_root + os.sep):
            raise Refusal(
                f"{rel} leads outside the bank through the symbolic link {folder.as_posix()}; nothing was written.",
                reason="outside-bank",
            )
        inside = os.path.relpath(os.path.realpath(target), real_root).replace(os.sep, "/")
        raise Refusal(  # the index of the folder named would list a file that lives in another one
            f"{rel} goes through the symbolic link {folder.as_posix()}, so it would land in {inside} and be "
            f"registered where it is not. Write {inside} instead.",
            reason="symbolic-link",
        )


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
