"""``build_server(root)``: a fresh MCP server for one bank, with every tool, resource and prompt.

The server object lives in ``bank_server.py``, the session and activity record in ``session.py``;
the names are re-exported here for the faces that embed a server.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.mcp_server import surface
from memorybank.mcp_server.bank_server import INBOX_EXITS, BankServer
from memorybank.mcp_server.session import Activity, ToolCall, client_name, short_arguments

__all__ = ["INBOX_EXITS", "Activity", "BankServer", "ToolCall", "build_server", "client_name", "short_arguments"]


def package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memorybank")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0.0.0"


def build_server(
    root: str | os.PathLike[str],
    *,
    off_paths: Iterable[str | os.PathLike[str]] = (),
    inbox_exits: str = "owner",
    activity: Activity | None = None,
    state: str | None = None,
    subset: str = surface.FULL,
) -> BankServer:
    """A fresh server over the bank at ``root``.

    Args:
        root: the bank directory; it need not exist (the seed surface offers ``bank_init``).
        off_paths: ``--off`` paths: a root at or under one of them gets the off surface.
        inbox_exits: ``owner`` (default): ``bank_promote``/``bank_discard`` record a proposal after a
            full dry run; ``agent``: they move or delete the note, as the reference does.
        activity: called after every tool call with a ``ToolCall``.
        state: force a surface state instead of deciding it from the disk (``memorybank surface``).
        subset: ``full`` (default), ``read-only`` or ``capture`` (``--surface``): which tools an agent
            gets; the ones left out are refused by name.
    """
    from memorybank.mcp_server import prompts, resources
    from memorybank.mcp_server.tools import capture, checks, inbox, reads, seed, writes

    if inbox_exits not in INBOX_EXITS:
        raise ValueError(f"inbox_exits must be one of {', '.join(INBOX_EXITS)}, not {inbox_exits!r}")
    path = Path(root).expanduser().absolute()
    chosen = state or surface.decide(path, off_paths)
    if chosen not in surface.STATES:
        raise ValueError(f"state must be one of {', '.join(surface.STATES)}, not {chosen!r}")
    if subset not in surface.SUBSETS:
        raise ValueError(f"surface must be one of {', '.join(surface.SUBSETS)}, not {subset!r}")
    server = BankServer(
        Bank(path, cache=True),
        state=chosen,
        inbox_exits=inbox_exits,
        activity=activity,
        version=package_version(),
        subset=subset,
    )
    for family in (reads, checks, seed, writes, inbox, capture):
        family.register(server)
    resources.register(server)
    prompts.register(server)
    return server
