"""Workbench commands: ``tui`` (the default command) opens the app on the bank; ``demo`` builds the
demo bank in a temporary git repository and opens the app on it.

Textual is imported only when one of these runs, so every other command (``mcp`` above all) starts
without it.
"""

from __future__ import annotations

import argparse
import sys

from memorybank.core.errors import UsageError
from memorybank.tui.cli.helptext import examples


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this family's subcommands to the parser."""
    p = sub.add_parser(
        "tui",
        parents=[common],
        help="open the workbench on the bank (the default command)",
        description="Open the workbench, the terminal app for the bank's owner: browse and route, triage the "
        "inbox, review validation and drift. It is what `memorybank` with no command runs; with no bank "
        "found it opens a welcome screen that can create one.",
        epilog=examples(
            "# the bank found from the working directory",
            "memorybank tui",
            "# and serve the same bank to agents at http://127.0.0.1:8765/mcp, watching their calls",
            "memorybank tui --serve-mcp 8765",
        ),
    )
    p.add_argument(
        "--serve-mcp",
        metavar="PORT",
        help="also serve the bank to agents over MCP (streamable HTTP on 127.0.0.1:PORT, or HOST:PORT on "
        "loopback); the Activity pane lists every tool call",
    )
    p.set_defaults(handler=run_tui)
    p = sub.add_parser(
        "demo",
        parents=[common],
        help="build a demo bank with history, drift and an inbox, and open it",
        description="Build a realistic demo bank (a billing project, harbor/) in a new git repository, with "
        "commit history, code that drifted from its documents, validation findings and inbox notes, then "
        "open the workbench on it. Use it to try memorybank without touching a project of your own.",
        epilog=examples(
            "memorybank demo",
            "# build it in ./demo and print the bank's path, without opening the app",
            "memorybank demo --dest demo --no-open",
        ),
    )
    p.add_argument(
        "--dest", metavar="DIR", help="build the demo repository in this directory (default: a new temporary one)"
    )
    p.add_argument("--no-open", action="store_true", help="build it and print its path, without opening the app")
    p.set_defaults(handler=run_demo)


def needs_terminal(what: str, instead: str = "memorybank validate, route, search, read") -> None:
    """Refuse to draw a full-screen app where no one can see it: in CI, a pipe or a file it would
    fill with escape codes and wait forever for keys."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            f"{what} needs a terminal, and stdin or stdout is not one here. In a script or CI, run "
            f"{instead} instead (memorybank --help lists the commands)."
        )


def run_tui(args: argparse.Namespace) -> int:
    from memorybank.tui.app import make_app

    address = getattr(args, "serve_mcp", None)
    if not address:
        needs_terminal("The workbench")
        make_app(getattr(args, "root", None)).run()
        return 0
    from memorybank.tui.cli.serving import server_root
    from memorybank.tui.mcp_host import McpHost

    host = McpHost.bind(server_root(args), address)  # a taken port is refused before the app starts
    try:
        needs_terminal("The workbench")
        make_app(getattr(args, "root", None), mcp=host).run()
    finally:
        host.stop()
    sys.stderr.write(f"The MCP server at {host.url} stopped with the workbench.\n")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    from memorybank.core.demo import build_demo

    if not args.no_open:
        needs_terminal("The demo's workbench", instead="memorybank demo --no-open (it prints where the bank is)")
    root = build_demo(args.dest)
    if args.no_open:
        print(root)
        return 0
    from memorybank.tui.app import make_app

    make_app(root).run()
    sys.stderr.write(f"The demo bank stays at {root}; try `memorybank validate --root {root}`.\n")
    return 0
