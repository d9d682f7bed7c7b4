"""Client wiring: ``setup`` (MCP entry, instructions, Stop hook), ``doctor`` and ``hook stop``."""

from __future__ import annotations

import argparse
import sys

from memorybank.core.errors import BankNotFound
from memorybank.core.hook import run_stop_hook
from memorybank.core.setup import CLIENTS, SURFACES, apply_setup, plan_setup
from memorybank.tui.cli.context import require_root


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "setup",
        parents=[common],
        help="wire memorybank into an agent client (--plan shows, writes nothing)",
        description=(
            "Write the client's MCP server entry (with the bank's absolute path, or ${workspaceFolder} for "
            "VS Code, so it works whatever directory the client starts it in), the instructions paragraph and, "
            "for Claude Code, the Stop hook. Only memorybank's own entries change: comments and everything "
            "else in the files stay as they were. Codex: the project's .codex/config.toml, or with --user "
            "$CODEX_HOME/config.toml (default ~/.codex)."
        ),
        epilog="example: memorybank setup vscode --plan",
    )
    p.add_argument("client", choices=CLIENTS, help="the agent client to wire: %(choices)s")
    p.add_argument("--plan", action="store_true", help="print each file and the exact change; write nothing")
    p.add_argument(
        "--surface",
        choices=SURFACES,
        default="full",
        help="the tools the client gets (memorybank mcp --surface): full (default), read-only, or capture "
        "(read-only plus inbox capture)",
    )
    p.add_argument(
        "--user",
        action="store_true",
        help="codex only: write the user config $CODEX_HOME/config.toml (default ~/.codex) instead of the "
        "project's .codex/config.toml",
    )
    p.set_defaults(handler=run_setup)

    p = sub.add_parser(
        "doctor",
        parents=[common],
        help="check the bank, the command, the MCP handshake and client configs",
        epilog="example: memorybank doctor --json",
    )
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(handler=run_doctor)

    hook = sub.add_parser(
        "hook", parents=[common], help="agent client hooks", epilog="example: memorybank hook stop < event.json"
    )
    hooks = hook.add_subparsers(dest="hook_name", metavar="HOOK", help="the hook to run")
    p = hooks.add_parser(
        "stop",
        parents=[common],
        help="the Stop hook: ask the agent to capture durable facts into _inbox/",
        epilog="example: memorybank hook stop < event.json",
    )
    p.set_defaults(handler=run_hook_stop)


def run_setup(args: argparse.Namespace) -> int:
    root = require_root(args)
    if not root.is_dir():
        raise BankNotFound(f"No bank at {root}. Create one first: memorybank init NAME --root {root}")
    if args.user and args.client != "codex":
        print(
            "memorybank: --user applies to codex only (the other clients' entries live in the project)", file=sys.stderr
        )
        return 2
    try:
        plan = plan_setup(args.client, root, surface=args.surface, codex_scope="user" if args.user else "project")
    except ValueError as error:
        print(f"memorybank: {error}", file=sys.stderr)
        return 1
    print(f"{args.client}: project {plan.project}, bank {plan.bank}, surface {args.surface}")
    for change in plan.changes:
        state = "unchanged" if not change.changed else ("new file" if change.before is None else "update")
        print(f"\n{change.path} ({state}): {change.what}")
        if args.plan and change.changed:
            print(change.diff().rstrip())
    for note in plan.notes:
        print(f"\nnote: {note}")
    if args.plan:
        print("\n(plan only: nothing was written)")
        return 0
    written = apply_setup(plan)
    print(f"\nwrote {len(written)} file(s)" if written else "\nalready set up: nothing to change")
    return 0


def run_doctor(args: argparse.Namespace) -> int:
    from memorybank.tui.cli.doctor import doctor

    return doctor(args)


def run_hook_stop(args: argparse.Namespace) -> int:
    output = run_stop_hook(sys.stdin.read())
    if output:
        print(output)
    return 0
