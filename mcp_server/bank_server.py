"""The server object: an ``MCPServer`` over one bank whose listings follow the surface state.

Everything is registered whatever the state; the state decides what is listed and callable (the
reference's registered-but-disabled handles). Tool definitions are published with trimmed schemas
(``schema.py``), because every request pays for them. Each tool call is reported to the optional
``activity`` hook, which the workbench uses to show what agents did.
"""

from __future__ import annotations

import datetime as _dt
import logging
from contextlib import suppress
from typing import Any

from mcp.server import MCPServer
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, GetPromptResult, Prompt, Resource, ResourceTemplate, Tool
from memorybank.core.bank import Bank
from memorybank.mcp_server import surface
from memorybank.mcp_server.schema import slim_input
from memorybank.mcp_server.session import Activity, ToolCall, client_name, short_arguments
from pydantic import ValidationError

log = logging.getLogger("memorybank.mcp")

INBOX_EXITS = ("owner", "agent")


class BankServer(MCPServer):
    """An ``MCPServer`` over one bank whose listings follow the surface state."""

    def __init__(
        self,
        bank: Bank,
        *,
        state: str,
        inbox_exits: str,
        activity: Activity | None,
        version: str,
        subset: str = surface.FULL,
    ) -> None:
        self.bank = bank
        self.state = state
        self.subset = subset
        """The owner's ``--surface``: full, read-only or capture."""
        self.inbox_exits = inbox_exits
        self.activity = activity
        super().__init__(
            "memorybank",
            version=version,
            instructions=surface.instructions(state, bank.root, inbox_exits, subset),
            log_level="WARNING",
        )
        # The server announces changed lists (bank_init opening the full surface, a corrected
        # listing), so its capabilities say so on every transport.
        lowlevel = self._lowlevel_server
        create = lowlevel.create_initialization_options
        changes = NotificationOptions(prompts_changed=True, resources_changed=True, tools_changed=True)
        lowlevel.create_initialization_options = lambda notification_options=None, *rest, **named: create(  # type: ignore[method-assign]
            notification_options or changes, *rest, **named
        )
        self._published: dict[str, Tool] = {}
        self.tool_names: set[str] = set()
        """Every tool registered, listed or not."""

    # -- what the state allows ------------------------------------------------------------

    def offers_tool(self, name: str) -> bool:
        return surface.offers_tool(self.state, self.subset, name)

    @property
    def offers_the_rest(self) -> bool:
        """Resources and prompts: only on the full surface."""
        return self.state == surface.FULL

    def _unavailable(self) -> str:
        if self.state == surface.OFF:
            return "memorybank is switched off for this project."
        if self.subset != surface.FULL and self.state == surface.FULL:
            offered = "the reading tools" + (" and bank_capture" if self.subset == surface.CAPTURE else "")
            return f"this server offers the {self.subset} surface ({offered}); the owner chose it with --surface."
        if self.subset != surface.FULL:
            return f"there is no bank at {self.bank.root} yet, and this {self.subset} server cannot create one."
        return f"There is no bank at {self.bank.root} yet: only bank_init is available, and it creates one."

    async def open_full_surface(self, context: Context | None) -> None:
        """After a successful ``bank_init``: list everything, and tell the client the lists changed."""
        if self.state != surface.SEED:
            return
        self.state = surface.FULL
        # Sessions that start later (over HTTP) are greeted as a full surface.
        self._lowlevel_server.instructions = surface.instructions(
            self.state, self.bank.root, self.inbox_exits, self.subset
        )
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

    def _check_arguments(self, name: str, arguments: dict[str, Any]) -> None:
        """Refuse what the tool cannot take, in a sentence the model can act on: an unknown or a
        missing parameter (with the list of valid ones), a value of the wrong type. Without this
        an unknown parameter is dropped silently (``dryRun`` on a tool without it writes for real)
        and a wrong type reaches the model as a validation dump naming internal functions."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return
        model = tool.fn_metadata.arg_model
        valid = [field for field in model.model_fields if field != tool.context_kwarg]
        unknown = sorted(set(arguments) - set(valid))
        if unknown:
            raise ToolError(
                f"{name} takes no {', '.join(unknown)}. Its parameters: {', '.join(valid)}. "
                "Send only those; nothing was done."
            )
        try:
            model.model_validate(tool.fn_metadata.pre_parse_json(arguments))
        except ValidationError as error:
            problems: dict[str, str] = {}
            for item in error.errors():
                where = str(item["loc"][0]) if item["loc"] else "arguments"
                problems.setdefault(where, "missing" if item["type"] == "missing" else item["msg"].lower())
            problems = [f"{where}: {what}" for where, what in list(problems.items())[:3]]
            raise ToolError(f"{name} could not take its arguments ({'; '.join(problems)}). Nothing was done.") from None

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> CallToolResult:
        if name == surface.CAPTURE_TOOL and name not in self.tool_names:  # the capture surface's own tool
            instead = (
                "capture a note with bank_create inbox: true instead."
                if self.subset == surface.FULL
                else f"this server offers the {self.subset} surface, which writes nothing."
            )
            error = ToolError(f"{name} is the capture surface's tool; {instead}")
            self._report(context, name, arguments, False, str(error))
            raise error
        if name in self.tool_names and not self.offers_tool(name):
            error = ToolError(f"{name} is not available: {self._unavailable()}")
            self._report(context, name, arguments, False, str(error))
            raise error
        try:
            self._check_arguments(name, arguments or {})
        except ToolError as error:
            self._report(context, name, arguments, False, str(error))
            raise
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as error:
            self._report(context, name, arguments, False, str(error))
            raise
        self._report(context, name, arguments, not getattr(result, "is_error", False), "ok")
        return result

    async def list_resources(self) -> list[Resource]:
        return await super().list_resources() if self.offers_the_rest else []

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        return await super().list_resource_templates() if self.offers_the_rest else []

    async def read_resource(self, uri: Any, context: Context | None = None) -> Any:
        if not self.offers_the_rest:
            raise ResourceNotFoundError(f"Unknown resource {uri}: {self._unavailable()}")
        return await super().read_resource(uri, context)

    async def list_prompts(self) -> list[Prompt]:
        if not self.offers_the_rest:
            return []
        return [p for p in await super().list_prompts() if surface.offers_prompt(self.subset, p.name)]

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context | None = None
    ) -> GetPromptResult:
        if not self.offers_the_rest:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {name}: {self._unavailable()}")
        prompt = self._prompt_manager.get_prompt(name)
        if prompt is not None and not surface.offers_prompt(self.subset, name):
            raise MCPError(INVALID_PARAMS, f"The {name} prompt is not offered: {self._unavailable()}")
        if prompt is None:
            raise MCPError(INVALID_PARAMS, f"Unknown prompt {name}.")
        given = arguments or {}
        missing = [a.name for a in prompt.arguments or [] if a.required and not str(given.get(a.name) or "").strip()]
        if missing:
            raise MCPError(INVALID_PARAMS, f"The {name} prompt needs {', '.join(missing)}.")
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
