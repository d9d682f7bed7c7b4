"""What every tool adapter shares: registration with explicit annotations, a fresh index before each
call, core errors as ``ToolError``, and a result carried twice (structured, and as compact text).

A tool module defines plain functions whose parameters are the wire parameters (camelCase, as the
reference names them) and whose return annotation is the core's result dataclass; ``tool(server, ...)``
turns one into a tool. The text copy is compact JSON without null fields, because clients that
ignore ``structuredContent`` show the model that text, and it is paid for in tokens.

No ``outputSchema`` is published. Every request pays for the tool definitions, and the leanest
schemas of these results (titles, defaults and descriptions stripped) came to about 9,000
characters, more than the whole 4,500-token budget leaves once the parameters are described; the
descriptions say what the results hold, and ``structuredContent`` still carries every field.
"""

from __future__ import annotations

import functools
import inspect
import json
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from mcp_types import CallToolResult, TextContent, ToolAnnotations
from memorybank.mcp_server.errors import tool_errors
from pydantic import BeforeValidator, TypeAdapter

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer

F = TypeVar("F", bound=Callable[..., Any])


def _listish(value: Any) -> Any:
    """A list parameter given as one string: a JSON array in a string, or a single item."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except ValueError:
                return [value]
            return parsed
        return [value] if text else []
    return value


StrList = Annotated[list[str], BeforeValidator(_listish)]
"""A list of strings that also accepts a JSON array sent as a string, or one bare string."""


@functools.cache
def _adapter(kind: type) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def compact(value: Any) -> Any:
    """JSON-ready data without null, empty-list and empty-object fields."""
    if isinstance(value, dict):
        return {k: compact(v) for k, v in value.items() if v is not None and v != [] and v != {}}
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


def plain(value: Any) -> Any:
    """A core result (a dataclass) as JSON-ready data, the way it is published."""
    return _adapter(type(value)).dump_python(value, mode="json")


def as_result(value: Any) -> CallToolResult:
    """A core result as structured content plus the same data as compact text."""
    data = plain(value)
    shown = {k: compact(v) for k, v in data.items() if v is not None} if isinstance(data, dict) else compact(data)
    text = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))  # an empty answer still names its list
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def tool(
    server: BankServer,
    *,
    read_only: bool,
    destructive: bool = False,
    idempotent: bool = False,
    name: str | None = None,
    description: str | None = None,
) -> Callable[[F], F]:
    """Register a function as a tool of ``server`` (see the module docstring)."""
    annotations = ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=False if read_only else destructive,
        idempotent_hint=True if read_only else idempotent,
        open_world_hint=False,
    )

    def decorate(fn: F) -> F:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def run(*args: Any, **kwargs: Any) -> Any:
                with tool_errors():
                    server.bank.refresh()
                    return as_result(await fn(*args, **kwargs))
        else:

            @functools.wraps(fn)
            def run(*args: Any, **kwargs: Any) -> Any:
                with tool_errors():
                    server.bank.refresh()
                    return as_result(fn(*args, **kwargs))

        tool_name = name or fn.__name__
        text = " ".join((description or fn.__doc__ or "").split())
        # structured_output=False: no output schema (see the module docstring); the tool returns a
        # finished CallToolResult whose structuredContent is the core result.
        server.add_tool(run, name=tool_name, description=text, annotations=annotations, structured_output=False)
        keep_text_as_given(server, tool_name)
        server.tool_names.add(tool_name)
        return fn

    return decorate


def keep_text_as_given(server: BankServer, name: str) -> None:
    """Hand a tool's text parameters (``body``, ``content``, ``section``: ``str | None``) over as the
    client sent them. The SDK decodes a string argument as JSON whenever its type is not plain
    ``str``, a courtesy for clients that send lists as strings: a body reading ``null`` became no
    body at all, and one reading ``[1, 2]`` was refused as not a string."""
    meta = server._tool_manager.get_tool(name).fn_metadata  # type: ignore[union-attr]
    textual = set()
    for field_name, field in meta.arg_model.model_fields.items():
        if set(typing.get_args(field.annotation)) == {str, type(None)}:
            textual |= {field_name, field.alias or field_name}
    if not textual:
        return
    decode = meta.pre_parse_json

    def pre_parse_json(data: dict[str, Any]) -> dict[str, Any]:
        decoded = decode(data)
        return {key: data[key] if key in textual else value for key, value in decoded.items()}

    object.__setattr__(meta, "pre_parse_json", pre_parse_json)  # a pydantic model: no field of that name
