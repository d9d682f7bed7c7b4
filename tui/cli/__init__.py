"""The ``memorybank`` command: a thin composition root over ``core``, ``mcp_server`` and the app."""

from tui.cli.main import main

__all__ = ["main"]
