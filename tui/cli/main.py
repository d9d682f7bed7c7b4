"""The ``memorybank`` entry point: builds the parser and turns core errors into exit codes.

Exit codes: 0 success; 1 an error or a refusal (and, for ``validate``, error findings); 2 a usage
error. Errors go to stderr; a refusal names its reason.

A command named first on the line builds only its own module's parser, so ``memorybank validate``
or ``memorybank hook stop`` (run on every commit and every agent turn) import what they use and
nothing else: never Textual, never the MCP SDK.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from memorybank.tui.cli.errors import run_handler
from memorybank.tui.cli.helptext import Parser, examples

MODULES = (
    "workbench",
    "reading",
    "routing",
    "history",
    "validating",
    "writing",
    "quarantine",
    "serving",
    "client",
    "completion",
)
"""The modules of ``tui/cli`` that register commands, in the order ``--help`` lists them."""

COMMANDS = {
    "tui": "workbench",
    "demo": "workbench",
    "stats": "reading",
    "read": "reading",
    "route": "routing",
    "search": "routing",
    "eval": "routing",
    "graph": "history",
    "drift": "history",
    "changed": "history",
    "validate": "validating",
    "init": "writing",
    "materialize-flows": "writing",
    "create": "writing",
    "edit": "writing",
    "update-section": "writing",
    "set-status": "writing",
    "set-field": "writing",
    "promote": "quarantine",
    "discard": "quarantine",
    "inbox": "quarantine",
    "mcp": "serving",
    "surface": "serving",
    "setup": "client",
    "doctor": "client",
    "hook": "client",
    "completion": "completion",
}
"""Which module registers each command (a test checks it against the full parser)."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (``only``) just the commands of one module."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--root",
        default=argparse.SUPPRESS,
        help="the bank directory (default: $MEMORYBANK_ROOT, else memory_bank/ or memory-bank/ found upward)",
    )
    parser = Parser(
        prog="memorybank",
        description="Keep a project's memory bank true: route, read, validate, write through gates. With no "
        "command it opens the workbench on the bank. `memorybank COMMAND --help` explains each command.",
        epilog=examples(
            "# open the workbench on ./memory_bank (found upward from the working directory)",
            "memorybank",
            "# which documents answer a question, and the section to start reading at",
            'memorybank route "how are failed card payments retried"',
            "# check the bank in CI or before a commit (exit 1 when a finding is an error)",
            "memorybank validate",
            "# a bank elsewhere",
            "memorybank stats --root ~/src/harbor/memory_bank",
        ),
        parents=[common],
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only else MODULES:
        importlib.import_module(f"memorybank.tui.cli.{name}").register(sub, common)
    return parser


class _Version(argparse.Action):
    """``--version``, reading the package metadata only when asked (every start would pay for it)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"memorybank {installed_version()}")
        parser.exit()


def installed_version() -> str:
    """The version the package was installed as (its metadata), or "unknown" in a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memorybank")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(COMMANDS.get(arguments[0]) if arguments else None)
    commands = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    args, extras = parser.parse_known_args(arguments)
    handler = getattr(args, "handler", None)
    if handler is None and "tui" in commands:
        args, extras = parser.parse_known_args(["tui", *arguments])  # the workbench is the default command
        handler = getattr(args, "handler", None)
    if extras:  # said under the command's own usage, with the option likely meant
        command = commands.get(getattr(args, "command", None) or "", parser)
        (command if isinstance(command, Parser) else parser).unrecognized(extras)
    if handler is None:
        parser.print_help()
        return 0
    return run_handler(handler, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
