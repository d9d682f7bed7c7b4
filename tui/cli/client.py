"""Client wiring: ``setup`` (MCP entry, instructions, Stop hook), ``doctor`` and ``hook stop``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memorybank.core.errors import BankNotFound
from memorybank.core.hook import CAPTURE_TOOLS, run_stop_hook
from memorybank.core.roots import refuse_a_project
from memorybank.core.setup import CLIENTS, SURFACES, apply_setup, plan_removal, plan_setup
from memorybank.tui.cli.context import require_root
from memorybank.tui.cli.helptext import examples
from memorybank.tui.cli.output import counted


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "setup",
        parents=[common],
        help="wire memorybank into an agent client (--plan shows, writes nothing)",
        description="Wire memorybank into an agent client: its MCP server entry (with the bank's absolute path, "
        "or ${workspaceFolder} for VS Code, so it works whatever directory the client starts it in), the "
        "instructions paragraph (CLAUDE.md or AGENTS.md) and, for Claude Code, the Stop hook. It changes only "
        "its own entries: comments and everything else in the files stay as they were, and running it twice "
        "changes nothing; --plan prints each file and the exact diff first. Codex: the project's "
        ".codex/config.toml, or with --user $CODEX_HOME/config.toml (default ~/.codex).",
        epilog=examples(
            "memorybank setup claude-code --plan",
            "memorybank setup claude-code",
            "# Cursor, VS Code and Codex read AGENTS.md",
            "memorybank setup cursor",
            "memorybank setup vscode",
            "# Codex, for this project; --user writes $CODEX_HOME/config.toml instead",
            "memorybank setup codex --plan",
            "# an agent that may read the bank and file notes for the owner, nothing more",
            "memorybank setup claude-code --surface capture",
            "# take it all out again: the entry, the paragraph, the hook",
            "memorybank setup claude-code --remove --plan",
        ),
    )
    p.add_argument("client", choices=CLIENTS, help=f"the agent client: {', '.join(CLIENTS)}")
    p.add_argument("--plan", action="store_true", help="print each file and the exact change; write nothing")
    p.add_argument(
        "--surface",
        choices=SURFACES,
        default=None,
        help="the tools the client gets (memorybank mcp --surface): full, read-only, or capture (read-only "
        "plus inbox capture); default: what the client's entry has, else full",
    )
    p.add_argument(
        "--user",
        action="store_true",
        help="codex only: write the user config $CODEX_HOME/config.toml (default ~/.codex) instead of the "
        "project's .codex/config.toml",
    )
    p.add_argument(
        "--remove",
        action="store_true",
        help="take out what setup put in (the entry, the paragraph, the hook), nothing else; a file left "
        "holding nothing goes",
    )
    p.set_defaults(handler=run_setup)

    p = sub.add_parser(
        "doctor",
        parents=[common],
        help="check the bank, the command, the MCP handshake and client configs",
        description="Check the whole chain an agent depends on: the bank and its contract, validation, the "
        "memorybank command on PATH, Python and package versions, the terminal's encoding, a real MCP "
        "handshake with the installed server, and every client configuration that mentions memorybank. "
        "Each problem comes with its fix; exit 1 when a check fails.",
        epilog=examples("memorybank doctor", "memorybank doctor --root ~/src/harbor/memory_bank --json"),
    )
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(handler=run_doctor)

    hook = sub.add_parser(
        "hook",
        parents=[common],
        help="hooks an agent client runs on its events (the Stop hook)",
        description="Hooks an agent client runs on its own events; setup installs them. Only Claude Code's "
        "Stop hook exists so far.",
        epilog=examples('echo \'{"session_id": "s1", "cwd": "."}\' | memorybank hook stop'),
    )
    hooks = hook.add_subparsers(dest="hook_name", metavar="HOOK")
    p = hooks.add_parser(
        "stop",
        parents=[common],
        help="the Stop hook: ask the agent to capture durable facts into _inbox/",
        description="The Stop hook Claude Code runs when the agent finishes a turn (memorybank setup "
        "claude-code installs it). It reads the hook's JSON on stdin and, when the turn did work (a dirty "
        "tree or new commits), asks the agent once to capture each durable fact as an _inbox/ note. It "
        "never asks twice about the same state, waits a cooldown between asks, and is silent on any "
        "error.",
        epilog=examples(
            "# what Claude Code runs at the end of a turn",
            'echo \'{"session_id": "s1", "cwd": "."}\' | memorybank hook stop',
        ),
    )
    p.add_argument(
        "--surface",
        choices=tuple(CAPTURE_TOOLS),
        default="full",
        help="the server's --surface, so the request names the tool the agent has (bank_capture for capture)",
    )
    p.set_defaults(handler=run_hook_stop)
    hook.set_defaults(handler=lambda args: _name_the_hook(hook))


def _name_the_hook(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("memorybank hook: name the hook to run: stop", file=sys.stderr)
    return 2


def run_setup(args: argparse.Namespace) -> int:
    root = require_root(args)
    if not root.is_dir():
        raise BankNotFound(f"No bank at {root}. Create one first: memorybank init NAME --root {root}")
    refuse_a_project(root)
    if args.user and args.client != "codex":
        print(
            "memorybank: --user applies to codex only (the other clients' entries live in the project)", file=sys.stderr
        )
        return 2
    if args.remove and args.surface:
        print("memorybank: --remove takes the entry out whatever its surface; leave --surface out", file=sys.stderr)
        return 2
    scope = "user" if args.user else "project"
    try:
        if args.remove:
            plan = plan_removal(args.client, root, codex_scope=scope)
        else:
            plan = plan_setup(args.client, root, surface=args.surface, codex_scope=scope)
    except ValueError as error:
        print(f"memorybank: {error}", file=sys.stderr)
        return 1
    surface = "" if args.remove else f", surface {plan.surface}"
    print(f"{args.client}: project {plan.project}, bank {plan.bank}{surface}")
    for change in plan.changes:
        if not change.changed:
            state = "unchanged" if change.before is not None else "no such file"
        else:
            state = "delete" if change.after is None else ("new file" if change.before is None else "update")
        print(f"\n{change.path} ({state}): {change.what}")
        if args.plan and change.changed:
            print(change.diff().rstrip())
    for note in plan.notes:
        print(f"\nnote: {note}")
    if args.plan:
        print("\n(plan only: nothing was written)")
        return 0
    written = apply_setup(plan)
    if args.remove:
        print(
            f"\nchanged {counted(len(written), 'file')}"
            if written
            else "\nnothing of memorybank's here: nothing to change"
        )
    else:
        print(f"\nwrote {counted(len(written), 'file')}" if written else "\nalready set up: nothing to change")
    return 0


def run_doctor(args: argparse.Namespace) -> int:
    from memorybank.tui.cli.doctor import doctor

    return doctor(args)


HOOK_PAYLOAD_LIMIT = 1_000_000
"""Bytes of stdin the Stop hook reads at most: a client's payload is a few hundred."""


def run_hook_stop(args: argparse.Namespace) -> int:
    # A terminal sends no payload (the hook run by hand), and a pipe is read only so far: never wait
    # on a person or read an endless stream.
    stdin = sys.stdin
    if stdin is None or (hasattr(stdin, "isatty") and stdin.isatty()):
        text = ""
    elif hasattr(stdin, "buffer"):
        text = stdin.buffer.read(HOOK_PAYLOAD_LIMIT + 1).decode("utf-8", "replace")
    else:  # a text stream standing in for stdin
        text = stdin.read(HOOK_PAYLOAD_LIMIT + 1)
    root = getattr(args, "root", None)
    output = run_stop_hook(
        "" if len(text) > HOOK_PAYLOAD_LIMIT else text,
        root=Path(root).expanduser() if root else None,
        surface=args.surface,
    )
    if output:
        print(output)
    return 0
