"""The ``memorybank`` command: a thin composition root over ``core``, ``mcp_server`` and the app.

``memorybank mcp`` takes a short path that imports only what serving needs: MCP clients start the
server on every session, and its start-up time is theirs to wait for.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["mcp"]:
            from memorybank.tui.cli.serving import serve_main

            return serve_main(arguments[1:])
        from memorybank.tui.cli.main import main as full

        return full(arguments)
    except KeyboardInterrupt:  # Ctrl-C before a command ran (while it starts): no traceback
        return 130


__all__ = ["main"]
