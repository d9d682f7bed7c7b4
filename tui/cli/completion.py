"""``memorybank completion bash|zsh|fish``: a shell completion script generated from the parser.

shtab writes the script from the full command line, so a new command or option completes as soon
as it exists. It is imported here only, when the script is asked for: no other command pays for it.
"""

from __future__ import annotations

import argparse

from memorybank.tui.cli.helptext import examples

SHELLS = ("bash", "zsh", "fish")

FILE_ARGUMENTS = frozenset({"path", "to", "into", "body_file", "content_file", "file"})
"""Arguments that name a file. Bank paths complete from the working directory too: every command
accepts them with the ``memory_bank/`` prefix that completion from the project directory gives."""

DIRECTORY_ARGUMENTS = frozenset({"root", "dest", "off", "scope"})
"""Arguments that name a directory (a bank, a demo's destination, a scope inside the bank)."""


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``completion``."""
    p = sub.add_parser(
        "completion",
        parents=[common],
        help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for bash, zsh or fish, generated from this command line: "
        "commands with their help, each command's options, and file names where an argument is a path. "
        "Install it once (see the README's Shell completion section); regenerate it after an upgrade.",
        epilog=examples(
            "memorybank completion bash > ~/.local/share/bash-completion/completions/memorybank",
            'memorybank completion zsh > "${fpath[1]}/_memorybank"',
            "memorybank completion fish > ~/.config/fish/completions/memorybank.fish",
        ),
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to write the script for: bash, zsh or fish")
    p.set_defaults(handler=run_completion)


def prepare(parser: argparse.ArgumentParser) -> None:
    """Ready a freshly built parser for shtab: mark the arguments that complete file or directory
    names, and let each command's one-line help, not its description, stand beside it in a menu."""
    for action in parser._actions:
        if action.dest in FILE_ARGUMENTS:
            action.complete = "file"  # type: ignore[attr-defined]
        elif action.dest in DIRECTORY_ARGUMENTS:
            action.complete = "directory"  # type: ignore[attr-defined]
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):
                child.description = None
                prepare(child)


def script(shell: str) -> str:
    """The completion script of the whole command line for ``shell``."""
    import shtab
    from memorybank.tui.cli.main import build_parser

    parser = build_parser()
    prepare(parser)
    return shtab.complete(parser, shell=shell)


def run_completion(args: argparse.Namespace) -> int:
    print(script(args.shell), end="")
    return 0
