"""Where the bank is: ``--root``, else ``$MEMORYBANK_ROOT``, else a bank folder found upward.

Kept apart from ``core.bank`` so a command can find its bank without importing the parser (the
MCP server answers its first requests before it has imported anything else).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from memorybank.core.paths import BANK_DIR_NAMES

ENV_ROOT = "MEMORYBANK_ROOT"


def find_root(
    explicit: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> Path | None:
    """Where the bank is: ``explicit``, else ``$MEMORYBANK_ROOT``, else ``memory_bank/`` or
    ``memory-bank/`` found from the working directory upward. None when nothing is found.

    The result is absolute but may not exist (``init`` creates it).
    """
    environment = os.environ if env is None else env
    start = Path(cwd) if cwd is not None else Path.cwd()
    if explicit:
        path = Path(explicit).expanduser()
        return path if path.is_absolute() else (start / path).absolute()
    if environment.get(ENV_ROOT):
        path = Path(environment[ENV_ROOT]).expanduser()
        return path if path.is_absolute() else (start / path).absolute()
    here = start.absolute()
    for directory in (here, *here.parents):
        if directory.name in BANK_DIR_NAMES and directory.is_dir():
            return directory
        for name in BANK_DIR_NAMES:
            candidate = directory / name
            if candidate.is_dir():
                return candidate
    return None


def refuse_a_project(root: Path) -> None:
    """Raise ``BankNotFound`` naming the bank when ``root`` is its project (``project_bank``) or a
    folder inside it (``enclosing_bank``)."""
    from memorybank.core.errors import BankNotFound

    inner = project_bank(root)
    if inner is not None:
        raise BankNotFound(f"No bank at {root}: that is the project, its bank is {inner}. Pass --root {inner}.")
    outer = enclosing_bank(root)
    if outer is not None:
        folder = root.relative_to(outer).as_posix()
        raise BankNotFound(f"No bank at {root}: that is the folder {folder}/ of the bank {outer}. Pass --root {outer}.")


def enclosing_bank(root: Path) -> Path | None:
    """The bank ``root`` lies inside, when it is not a bank itself: it has no ``dna/`` and an
    ancestor is a bank folder (``memory_bank/``, ``memory-bank/``) or has a ``dna/`` beside a root
    index. ``--root memory_bank/features`` would otherwise be read as a bank of its own, without
    its contract and with every link out of it broken."""
    if (root / "dna").is_dir() or root.name in BANK_DIR_NAMES:
        return None
    for parent in root.absolute().parents:
        if parent.name in BANK_DIR_NAMES or ((parent / "dna").is_dir() and (parent / "README.md").is_file()):
            return parent
    return None


def project_bank(root: Path) -> Path | None:
    """The bank inside ``root`` when ``root`` is its project rather than a bank: it has no ``dna/``
    of its own and holds a ``memory_bank/`` (or ``memory-bank/``) that has one or holds markdown.
    ``--root .`` from a repository's top would otherwise be read as a bank without a contract."""
    if (root / "dna").is_dir() or root.name in BANK_DIR_NAMES:
        return None
    for name in BANK_DIR_NAMES:
        inner = root / name
        if inner.is_dir() and ((inner / "dna").is_dir() or any(inner.glob("*.md"))):
            return inner
    return None
