"""Finding the bank for a command from ``--root``, ``$MEMORYBANK_ROOT`` or the working directory."""

from __future__ import annotations

import argparse
from pathlib import Path

from memorybank.core.bank import Bank, find_root
from memorybank.core.errors import BankNotFound


def root_path(args: argparse.Namespace) -> Path | None:
    return find_root(getattr(args, "root", None))


def open_bank(args: argparse.Namespace) -> Bank:
    return Bank.open(getattr(args, "root", None))


def require_root(args: argparse.Namespace) -> Path:
    """The root a command works on, even if the directory does not exist yet (``init``)."""
    root = root_path(args)
    if root is None:
        raise BankNotFound("No bank found: pass --root PATH (for example --root ./memory_bank).")
    return root
