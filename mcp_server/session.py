"""One session's side of a tool call: who the client is, and the activity record the workbench shows.

Kept apart from the server object so the tool modules can name the client without importing the
server that imports them.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memorybank.core.write.values import stamped_name

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context

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
    name = getattr(info, "name", None)
    return stamped_name(name) if isinstance(name, str) else None  # stamped on notes, shown to the owner


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
