"""Where a bank keeps the state of its writes: the lock and the journal, one place per bank.

Every process that writes a bank must meet the same lock and find the same unfinished journal,
whatever its environment (``$TMPDIR``, user, working directory). So the place is derived from the
bank's real path alone: inside the git directory of the repository that holds the bank
(``.git/memorybank/<bank>/``, never shown by ``git status``), or ``<bank>/.memorybank/`` (hidden, so
never indexed) when the bank is not in a git repository.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from memorybank.core.errors import StorageError, storage_error


def work_tree(start: Path) -> Path | None:
    """The top of the git work tree holding ``start``: the nearest folder with a ``.git`` (a folder,
    or a file naming one). None outside a repository."""
    for folder in (start, *start.parents):
        dotgit = folder / ".git"
        if dotgit.is_dir() or dotgit.is_file():
            return folder
    return None


def git_directory(start: Path) -> Path | None:
    """The git directory of the repository holding ``start``: ``.git`` itself, or the directory a
    ``.git`` file points at (a worktree or a submodule). None outside a repository."""
    top = work_tree(start)
    if top is None:
        return None
    dotgit = top / ".git"
    if dotgit.is_dir():
        return dotgit
    try:
        line = dotgit.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if line.startswith("gitdir:"):
        target = Path(line.split(":", 1)[1].strip())
        return target if target.is_absolute() else (top / target).resolve()
    return None


def state_dir(root: Path, *, create: bool = False) -> Path:
    """The folder holding ``root``'s lock and journal (see the module docstring).

    Raises:
        StorageError: ``create`` was asked and the folder cannot be made (read-only, permission).
    """
    real = Path(os.path.realpath(root))
    gitdir = git_directory(real)
    if gitdir is None:
        folder = real / ".memorybank"
    else:
        digest = hashlib.sha256(real.as_posix().encode("utf-8")).hexdigest()[:12]
        folder = gitdir / "memorybank" / f"{real.name}-{digest}"
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise storage_error(error, folder, "create the bank's lock and journal folder") from None
    return folder


__all__ = ["StorageError", "git_directory", "state_dir", "work_tree"]
