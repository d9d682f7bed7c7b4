"""``memorybank mcp`` (serve the bank to agents) and ``memorybank surface`` (what that costs per request).

The MCP SDK is imported inside the handlers, so other commands do not pay for it; nothing here
imports Textual, so ``memorybank mcp`` starts fast.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from memorybank.core.roots import find_root
from memorybank.mcp_server.surface import SUBSETS
from memorybank.tui.cli.helptext import Parser, examples

SURFACE_HELP = (
    "which tools agents get: full (default); read-only (route, read, search, validate, graph, drift, changed); "
    "capture (those and bank_capture, a note into _inbox/)"
)
MCP_DESCRIPTION = (
    "Serve the bank to coding agents over MCP: the bank_* tools, resources and prompts, with every write "
    "going through the bank's gates. Agent clients start it themselves (memorybank setup writes their "
    "config); over stdio by default, or streamable HTTP on a loopback address with --http."
)
MCP_EPILOG = examples(
    "# what a client runs: stdio, the bank found from the working directory",
    "memorybank mcp",
    "# HTTP for clients that take a URL: http://127.0.0.1:8765/mcp",
    "memorybank mcp --http 127.0.0.1:8765",
    "# let agents promote and discard notes themselves, and stay off in ~/scratch",
    "memorybank mcp --inbox-exits agent --off ~/scratch",
    "# an agent that may read the bank and file notes for the owner, nothing more",
    "memorybank mcp --surface capture",
)
EXITS_HELP = (
    "owner (default): bank_promote/bank_discard only record a proposal the owner applies, and agents may not "
    "change what dna/ declares; agent: they move or delete the note at once, and dna/'s law is the agents' too"
)


def serve_main(argv: list[str]) -> int:
    """``memorybank mcp ARGS`` without building the whole command line (see ``tui/cli/__init__``)."""
    parser = Parser(prog="memorybank mcp", description=MCP_DESCRIPTION, epilog=MCP_EPILOG)
    parser.add_argument("--root", help="the bank directory (default: $MEMORYBANK_ROOT, else memory_bank/ found upward)")
    _mcp_options(parser)
    from memorybank.tui.cli.errors import run_handler

    return run_handler(run_mcp, parser.parse_args(argv))


def _mcp_options(mcp: argparse.ArgumentParser) -> None:
    mcp.add_argument(
        "--off",
        action="append",
        default=[],
        metavar="PATH",
        help="offer nothing for banks at or under PATH (repeatable)",
    )
    mcp.add_argument("--inbox-exits", choices=("owner", "agent"), default="owner", help=EXITS_HELP)
    mcp.add_argument("--surface", choices=SUBSETS, default="full", help=SURFACE_HELP)
    mcp.add_argument(
        "--http", metavar="127.0.0.1:PORT", help="serve streamable HTTP on a loopback address instead of stdio"
    )
    mcp.add_argument(
        "--allow-files",
        action="store_true",
        help="over --http, let bodyFile and contentFile read files of the project (off by default: any local "
        "program can reach the port)",
    )


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``mcp`` and ``surface``."""
    mcp = sub.add_parser(
        "mcp",
        parents=[common],
        help="serve the bank to coding agents over MCP (stdio, or --http)",
        description=MCP_DESCRIPTION,
        epilog=MCP_EPILOG,
    )
    _mcp_options(mcp)
    mcp.set_defaults(handler=run_mcp)

    surface = sub.add_parser(
        "surface",
        parents=[common],
        help="characters and estimated tokens the MCP surface costs per request, per state",
        description="Print what the MCP surface (tool descriptions and schemas, resources, prompts) costs in "
        "characters and estimated tokens on every request a client sends, part by part, for each "
        "state of the server (full; seed, with no bank yet and only bank_init; off), then what reading each "
        "resource costs on this bank.",
        epilog=examples("memorybank surface", "memorybank surface --inbox-exits agent --json"),
    )
    surface.add_argument("--inbox-exits", choices=("owner", "agent"), default="owner", help=EXITS_HELP)
    surface.add_argument("--json", action="store_true", help="print JSON")
    surface.set_defaults(handler=run_surface)


def server_root(args: argparse.Namespace) -> Path:
    """The bank the server works on; without one, ``./memory_bank``, which ``bank_init`` can create."""
    return find_root(getattr(args, "root", None)) or Path.cwd() / "memory_bank"


def run_mcp(args: argparse.Namespace) -> int:
    if not args.http:
        from memorybank.mcp_server.front import serve_stdio

        serve_stdio(server_root(args), off_paths=args.off, inbox_exits=args.inbox_exits, subset=args.surface)
        return 0
    from memorybank.mcp_server.http import parse_address, serve
    from memorybank.mcp_server.server import build_server

    parse_address(args.http)  # refuse a bad address before anything starts
    server = build_server(server_root(args), off_paths=args.off, inbox_exits=args.inbox_exits, subset=args.surface)
    server.bank.supplied_files = args.allow_files
    serve(server, args.http)
    return 0


def run_surface(args: argparse.Namespace) -> int:
    import anyio
    from memorybank.mcp_server.server import build_server
    from memorybank.mcp_server.surface import BUDGET_TOKENS, FULL, OFF, SEED, measure, resource_sizes
    from memorybank.mcp_server.surface import decide as surface_state

    root = server_root(args)
    measured = [(FULL, subset) for subset in SUBSETS] + [(SEED, FULL), (OFF, FULL)]

    async def costs() -> list[Any]:
        return [
            await measure(build_server(root, inbox_exits=args.inbox_exits, state=state, subset=subset))
            for state, subset in measured
        ]

    async def sizes() -> list[Any]:
        return await resource_sizes(build_server(root, inbox_exits=args.inbox_exits, state="full"))

    results = anyio.run(costs)
    reads = anyio.run(sizes) if surface_state(root) == "full" else []
    if args.json:
        from memorybank.tui.cli.output import emit_json

        read_costs = [{"resource": r.uri, "chars": r.chars, "tokens": round(r.tokens)} for r in reads]
        emit_json(
            [
                {**cost.plain(), **({"reads": read_costs} if (cost.state, cost.surface) == (FULL, FULL) else {})}
                for cost in results
            ]
        )
        return 0
    for number, cost in enumerate(results):
        if number:
            print()
        budget = f" (budget {BUDGET_TOKENS:,})" if (cost.state, cost.surface) == (FULL, FULL) else ""
        print(
            f"{cost.name} surface, inbox exits {cost.inbox_exits}: {cost.chars:,} chars, "
            f"~{cost.tokens:,.0f} tokens{budget}"
        )
        width = max(len(line.part) for line in cost.lines)
        print(f"  {'part'.ljust(width)}  {'chars':>6}  {'tokens':>6}")
        for line in cost.lines:
            print(f"  {line.part.ljust(width)}  {line.chars:>6,}  {line.tokens:>6,.0f}")
    if reads:
        print(f"\nreading each resource on {root}:")
        width = max(len(r.uri) for r in reads)
        print(f"  {'resource'.ljust(width)}  {'chars':>7}  {'tokens':>6}")
        for r in reads:
            print(f"  {r.uri.ljust(width)}  {r.chars:>7,}  {r.tokens:>6,.0f}")
    return 0
