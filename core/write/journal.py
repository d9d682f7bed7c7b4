"""The write journal: what an unfinished operation changed, so that any process can undo it.

Renaming one file into place is atomic; an operation that lands several files (a document and
its index, a promoted note, a fold, a batch of proposals) is not, unless something remembers how
far it got. Before an operation touches a file, the journal records (and fsyncs) the file's prior
bytes and the name of the temporary file it will write; before it creates a folder, the folder.
When the operation ends, the journal is removed. A process that dies in between leaves the
journal behind, and the next process to open the bank for writing (or to read it) rolls the bank
back to exactly what it was before the operation, removes every temporary file, and says so on
the quarantine's record. So an operation is all or nothing even across ``kill -9``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memorybank.core import clock
from memorybank.core.errors import storage_error
from memorybank.core.write.state import state_dir

JOURNAL = "journal.json"
BACKUPS = "journal-backups"
_local = threading.local()


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_synced(path: Path, data: bytes) -> None:
    temp = path.with_name(path.name + ".new")
    with open(temp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, path)
    _fsync_dir(path.parent)


class Journal:
    """The undo record of one operation in progress on one bank."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = state_dir(root, create=True)
        self.path = self.folder / JOURNAL
        self.backups = self.folder / BACKUPS
        self.entries: list[dict[str, Any]] = []
        self._known: set[str] = set()

    # -- recording, always before the change it describes ------------------------------------------

    def _save(self) -> None:
        record = {"started": clock.stamp(), "pid": os.getpid(), "entries": self.entries}
        _write_synced(self.path, json.dumps(record, ensure_ascii=False).encode("utf-8"))

    def begin(self) -> None:
        try:
            self.backups.mkdir(exist_ok=True)
            self._save()
        except OSError as error:
            raise storage_error(error, self.folder) from None

    def folder_made(self, directory: Path) -> None:
        """Record a folder about to be created."""
        self.entries.append({"dir": directory.relative_to(self.root).as_posix()})
        self._save()

    def file_touched(self, target: Path, temp: Path | None) -> None:
        """Record ``target``'s prior state (once per operation) and the temporary file about to be
        written for it."""
        rel = target.relative_to(self.root).as_posix()
        entry: dict[str, Any] = {"path": rel}
        if temp is not None:
            entry["temp"] = temp.relative_to(self.root).as_posix()
        if rel not in self._known:
            self._known.add(rel)
            if target.exists():
                backup = self.backups / str(len(self.entries))
                _write_synced(backup, target.read_bytes())
                entry["backup"] = backup.name
            else:
                entry["absent"] = True
        self.entries.append(entry)
        self._save()

    # -- ending ------------------------------------------------------------------------------------

    def finish(self) -> None:
        """The operation landed whole: forget it."""
        self.path.unlink(missing_ok=True)
        _fsync_dir(self.folder)
        shutil.rmtree(self.backups, ignore_errors=True)

    def rollback(self) -> list[str]:
        """Put every file back as it was before the operation; return the paths restored."""
        return _undo(self.root, self.folder, self.entries)


_CANNOT_EXIST = (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG)
"""Why a path holds no file: missing, under a file, or a name the file system cannot hold. A journal
may name such a path when the write failed creating it; undoing passes over it."""


def _remove(path: Path) -> bool:
    """Remove the file at ``path``; False when there is none (or there never could be one)."""
    try:
        path.unlink()
    except OSError as error:
        if error.errno in _CANNOT_EXIST:
            return False
        raise
    return True


def _undo(root: Path, folder: Path, entries: list[dict[str, Any]]) -> list[str]:
    restored: list[str] = []
    for entry in entries:
        if "temp" in entry:
            _remove(root / entry["temp"])
    for entry in reversed(entries):
        if "path" not in entry or not ("backup" in entry or entry.get("absent")):
            continue
        target = root / entry["path"]
        if entry.get("absent"):
            if _remove(target):
                restored.append(entry["path"])
            continue
        prior = (folder / BACKUPS / entry["backup"]).read_bytes()
        if not target.exists() or target.read_bytes() != prior:
            temp = target.with_name(f".{target.name}.restore.tmp")
            target.parent.mkdir(parents=True, exist_ok=True)
            temp.write_bytes(prior)
            os.replace(temp, target)
            restored.append(entry["path"])
    for entry in reversed(entries):
        if "dir" in entry:
            with contextlib.suppress(OSError):  # not empty: another writer's file is there now
                (root / entry["dir"]).rmdir()
    (folder / JOURNAL).unlink(missing_ok=True)
    _fsync_dir(folder)
    shutil.rmtree(folder / BACKUPS, ignore_errors=True)
    return sorted(set(restored))


def pending(root: Path) -> bool:
    """Whether an operation on this bank was left unfinished (one stat; no lock needed)."""
    return (state_dir(root) / JOURNAL).exists()


def recover(root: Path) -> list[str] | None:
    """Undo an unfinished operation, if one was left; return the paths restored, or None.

    The caller holds the bank's lock, so the writer that left the journal is gone.
    """
    folder = state_dir(root)
    path = folder / JOURNAL
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        record = {"entries": []}
    try:
        restored = _undo(root, folder, list(record.get("entries") or []))
    except OSError as error:
        raise storage_error(error, root, "recover an unfinished write in") from None
    _note_recovery(root, record, restored)
    return restored


def _note_recovery(root: Path, record: dict[str, Any], restored: list[str]) -> None:
    from memorybank.core.record import RECORD, appended

    entry = {
        "at": clock.stamp(),
        "action": "recovered",
        "reason": f"an operation started at {record.get('started', '?')} by process {record.get('pid', '?')} "
        "did not finish; the bank was put back as it was before it",
        "restored": restored,
    }
    if (root / RECORD).parent.is_dir():
        with contextlib.suppress(OSError):
            data = appended(root, entry)
            temp = root / f"{RECORD}.recover.tmp"
            temp.write_bytes(data)
            os.replace(temp, root / RECORD)


def current(root: Path) -> Journal | None:
    """The journal of the operation this thread has open on ``root``, if any."""
    stack: list[Journal] = getattr(_local, "stack", [])
    return next((j for j in reversed(stack) if j.root == root), None)


@contextmanager
def operation(root: Path) -> Iterator[Journal]:
    """One all-or-nothing operation, however many transactions it commits: on an exception every
    file it touched is put back; if the process dies, the next one puts them back."""
    outer = current(root)
    if outer is not None:
        yield outer
        return
    journal = Journal(root)
    journal.begin()
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    stack.append(journal)
    try:
        yield journal
    except BaseException:
        stack.pop()
        journal.rollback()
        raise
    stack.pop()
    journal.finish()
