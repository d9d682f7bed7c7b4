"""Finding the bank for a command from ``--root``, ``$MEMORYBANK_ROOT`` or the working directory."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from memorybank.core.bank import Bank, find_root
from memorybank.core.errors import BankNotFound


def root_path(args: argparse.Namespace) -> Path | None:
    return find_root(getattr(args, "root", None))


def open_bank(args: argparse.Namespace) -> Bank:
    """The bank, with a document path given from the working directory (``../memory_bank/x.md``
    from ``src/``, what shell completion offers there) made the bank's own path."""
    bank = Bank.open(getattr(args, "root", None))
    given = getattr(args, "path", None)
    if isinstance(given, str):
        args.path = from_here(bank, given)
    return bank


def from_here(bank: Bank, given: str) -> str:
    """``given`` as a path of the bank when it names, from the working directory, a file inside it;
    otherwise as given (a bank path, a ``memory_bank/`` prefix, a file still to be created)."""
    if not given or Path(given).is_absolute():
        return given
    here = Path.cwd() / given
    if not here.exists():
        return given
    try:
        return Path(os.path.realpath(here)).relative_to(os.path.realpath(bank.root)).as_posix()
    except ValueError:
        return given


def require_root(args: argparse.Namespace) -> Path:
    """The root a command works on, even if the directory does not exist yet (``init``)."""
    root = root_path(args)
    if root is None:
        raise BankNotFound(
            "No bank found: pass --root PATH (for example --root ./memory_bank); `memorybank init NAME` creates one."
        )
    return root
