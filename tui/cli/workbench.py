"""Commands of this family are registered here."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this family's subcommands to the parser."""
