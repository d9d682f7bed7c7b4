"""The MCP server for one bank: ``build_server(root)`` registers every tool, resource and prompt,
and the server lists only what its surface state allows.

Everything is registered whatever the state; the state decides what is listed and callable (the
reference's registered-but-disabled handles). Tool definitions are published with trimmed schemas
(``schema.py``), because every request pays for them. Each tool call is reported to the optional
``activity`` hook, which the workbench uses to show what agents did.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp_types import CallToolResult, GetPromptResult, Prompt, Resource, Tool

from core.bank import Bank
from mcp_server import surface
from mcp_server.schema import slim_input

log = logging.getLogger("memorybank.mcp")

INBOX_EXITS = ("owner", "agent")
ARGUMENT_CHARS = 40


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call an agent made, as the activity hook receives it."""

    time: _dt.datetime
    """When the call finished (UTC)."""
    client: str
    """The client's name from the session (``clientInfo.name``), or ``unknown``."""
    tool: str
    arguments: str
    """The arguments, shortened to one line."""
    ok: bool
    outcome: str
    """``ok``, or the refusal or error message the model received."""


Activity = Callable[[ToolCall], None]


def client_name(context: Context | None) -> str | None:
    """The connected client's ``clientInfo.name``, when it sent one."""
    try:
        params = context.session.client_params if context is not None else None
    except (ValueError, AttributeError):
        return None
    info = getattr(params, "client_info", None)
    return getattr(info, "name", None) or None


def short_arguments(arguments: dict[str, Any] | None) -> str:
    """``key=value`` pairs on one line, long values cut, so a log line stays a line."""
    parts = []
    for key, value in (arguments or {}).items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        text = " ".join(text.split())
        if len(text) > ARGUMENT_CHARS:
            text = text[: ARGUMENT_CHARS - 1] + "…"
        parts.append(f"{key}={text}")
    return " ".join(parts)


class BankServer(MCPServer):
    """An ``MCPServer`` over one bank whose listings follow the surface state."""

    def __init__(self, bank: Bank, *, state: str, inbox_exits: str, activity: Activity | None, version: str) -> None:
        self.bank = bank
        self.state = state
        self.inbox_exits = inbox_exits
        self.activity = activity
        super().__init__(
            "memorybank",
            version=version,
            instructions=surface.instructions(state, bank.root, inbox_exits),
            log_level="WARNING",
        )
        self._published: dict[str, Tool] = {}
        self.tool_names: set[str] = set()
        """Every tool registered, listed or not."""

    # -- what the state allows ------------------------------------------------------------

    def offers_tool(self, name: str) -> bool:
        return self.state == surface.FULL or (self.state == surface.SEED and name == "bank_init")

    @property
    def offers_the_rest(self) -> bool:
        """Resources and prompts: only on the full surface."""
        return self.state == surface.FULL

    def _unavailable(self) -> str:
        if self.state == surface.OFF:
            return "memorybank is switched off for this project."
        return f"There is no bank at {self.bank.root} yet: only bank_init is available, and it creates one."

    async def open_full_surface(self, context: Context | None) -> None:
        """After a successful ``bank_init``: list everything, and tell the client the lists changed."""
        if self.state != surface.SEED:
            return
        self.state = surface.FULL
        # Sessions that start later (over HTTP) are greeted as a full surface.
        self._lowlevel_server.instructions = surface.instructions(self.state, self.bank.root, self.inbox_exits)
        if context is None:
            return
        # Handshake-era clients hear it on their session, 2026-07-28 clients through
        # subscriptions/listen; a transport with no way back drops it, and the next listing shows it.
        session = context.session
        for announce in (
            session.send_tool_list_changed,
            session.send_resource_list_changed,
            session.send_prompt_list_changed,
            context.notify_tools_changed,
            context.notify_resources_changed,
            context.notify_prompts_changed,
        ):
            with suppress(Exception):
                await announce()

    # -- listings and calls ---------------------------------------------------------------

    async def list_tools(self) -> list[Tool]:
        if not self._published:
            for tool in await super().list_tools():
                self._published[tool.name] = tool.model_copy(update={"input_schema": slim_input(tool.input_schema)})
        return [tool for name, tool in self._published.items() if self.offers_tool(name)]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> CallToolResult:
        if name in self.tool_names and not self.offers_tool(name):
            error = ToolError(f"{name} is not available: {self._unavailable()}")
            self._report(context, name, arguments, False, str(error))
            raise error
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as error:
            self._report(context, name, arguments, False, str(error))
            raise
        self._report(context, name, arguments, not getattr(result, "is_error", False), "ok")
        return result

    async def list_resources(self) -> list[Resource]:
        return await super().list_resources() if self.offers_the_rest else []

    async def read_resource(self, uri: Any, context: Context | None = None) -> Any:
        if not self.offers_the_rest:
            raise ResourceNotFoundError(f"Unknown resource {uri}: {self._unavailable()}")
        return await super().read_resource(uri, context)

    async def list_prompts(self) -> list[Prompt]:
        return await super().list_prompts() if self.offers_the_rest else []

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context | None = None
    ) -> GetPromptResult:
        if not self.offers_the_rest:
            raise ValueError(f"Unknown prompt {name}: {self._unavailable()}")
        return await super().get_prompt(name, arguments, context)

    def _report(
        self, context: Context | None, tool: str, arguments: dict[str, Any] | None, ok: bool, outcome: str
    ) -> None:
        if self.activity is None:
            return
        prefix = f"Error executing tool {tool}: "
        message = outcome[len(prefix) :] if outcome.startswith(prefix) else outcome
        call = ToolCall(
            _dt.datetime.now(_dt.UTC), client_name(context) or "unknown", tool, short_arguments(arguments), ok, message
        )
        try:
            self.activity(call)
        except Exception:  # the hook is a spectator: it never breaks a call
            log.exception("The activity hook failed on %s", tool)


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
) -> BankServer:
    """A fresh server over the bank at ``root``.

    Args:
        root: the bank directory; it need not exist (the seed surface offers ``bank_init``).
        off_paths: ``--off`` paths: a root at or under one of them gets the off surface.
        inbox_exits: ``owner`` (default): ``bank_promote``/``bank_discard`` record a proposal after a
            full dry run; ``agent``: they move or delete the note, as the reference does.
        activity: called after every tool call with a ``ToolCall``.
        state: force a surface state instead of deciding it from the disk (``memorybank surface``).
    """
    from mcp_server import prompts, resources
    from mcp_server.tools import checks, inbox, reads, seed, writes

    if inbox_exits not in INBOX_EXITS:
        raise ValueError(f"inbox_exits must be one of {', '.join(INBOX_EXITS)}, not {inbox_exits!r}")
    path = Path(root).expanduser().absolute()
    chosen = state or surface.decide(path, off_paths)
    if chosen not in surface.STATES:
        raise ValueError(f"state must be one of {', '.join(surface.STATES)}, not {chosen!r}")
    server = BankServer(Bank(path), state=chosen, inbox_exits=inbox_exits, activity=activity, version=package_version())
    for family in (reads, checks, seed, writes, inbox):
        family.register(server)
    resources.register(server)
    prompts.register(server)
    return server
