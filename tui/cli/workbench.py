"""Workbench commands: ``tui`` (the default command) opens the app on the bank; ``demo`` builds the
demo bank in a temporary git repository and opens the app on it.

Textual is imported only when one of these runs, so every other command (``mcp`` above all) starts
without it.
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add this family's subcommands to the parser."""
    p = sub.add_parser("tui", parents=[common], help="open the workbench on the bank (the default command)")
    p.add_argument(
        "--serve-mcp",
        metavar="PORT",
        help="also serve the bank to agents over MCP (streamable HTTP on 127.0.0.1:PORT, or HOST:PORT on "
        "loopback); the Activity pane lists every tool call",
    )
    p.set_defaults(handler=run_tui)
    p = sub.add_parser("demo", parents=[common], help="build a demo bank with history, drift and an inbox, and open it")
    p.add_argument("--dest", help="build the demo repository in this directory (default: a new temporary one)")
    p.add_argument("--no-open", action="store_true", help="build it and print its path, without opening the app")
    p.set_defaults(handler=run_demo)


def run_tui(args: argparse.Namespace) -> int:
    from memorybank.tui.app import make_app

    address = getattr(args, "serve_mcp", None)
    if not address:
        make_app(getattr(args, "root", None)).run()
        return 0
    from memorybank.tui.cli.serving import server_root
    from memorybank.tui.mcp_host import McpHost

    host = McpHost.bind(server_root(args), address)  # a taken port is refused before the app starts
    try:
        make_app(getattr(args, "root", None), mcp=host).run()
    finally:
        host.stop()
    sys.stderr.write(f"The MCP server at {host.url} stopped with the workbench.\n")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    from memorybank.core.demo import build_demo

    root = build_demo(args.dest)
    if args.no_open:
        print(root)
        return 0
    from memorybank.tui.app import make_app

    make_app(root).run()
    sys.stderr.write(f"The demo bank stays at {root}; try `memorybank validate --root {root}`.\n")
    return 0
