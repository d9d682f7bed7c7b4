"""The ``memorybank`` entry point: builds the parser and turns core errors into exit codes.

Exit codes: 0 success; 1 an error or a refusal (and, for ``validate``, error findings); 2 a usage
error. Errors go to stderr; a refusal names its reason.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tui.cli import client, history, reading, routing, serving, validating, workbench, writing
from tui.cli.errors import run_handler


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        default=argparse.SUPPRESS,
        help="the bank directory (default: $MEMORYBANK_ROOT, else memory_bank/ or memory-bank/ found upward)",
    )
    parser = argparse.ArgumentParser(
        prog="memorybank",
        description="Keep a project's memory bank true: route, read, validate, write through gates.",
        parents=[common],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (workbench, reading, routing, history, validating, writing, serving, client):
        module.register(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(arguments)
    handler = getattr(args, "handler", None)
    if handler is None and "tui" in parser._subparsers._group_actions[0].choices:  # type: ignore[union-attr]
        args = parser.parse_args(["tui", *arguments])  # the workbench is the default command
        handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    return run_handler(handler, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
