"""Trimming the JSON Schemas pydantic writes for tool parameters, which every request pays for.

Pydantic titles every property and spells an optional parameter as ``anyOf [X, null]`` with
``default: null``. Neither tells a model anything the parameter names and types do not, so both go:
an optional parameter is published as its own type, and omitting it is how a caller says "none"
(the server still accepts an explicit null).
"""

from __future__ import annotations

from typing import Any

_NULL = {"type": "null"}
_NESTED_MAPS = ("properties", "$defs")
_NESTED_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_NESTED_ONE = ("items", "additionalProperties")


def slim_input(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's input schema without titles, optional parameters folded to their own type."""
    return _walk(schema)


def _walk(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue  # the keyword; a property named "title" lives under "properties" and is kept
        if key in _NESTED_MAPS and isinstance(value, dict):
            out[key] = {name: _walk(sub) for name, sub in value.items()}
        elif key in _NESTED_LISTS and isinstance(value, list):
            out[key] = [_walk(sub) for sub in value]
        elif key in _NESTED_ONE and isinstance(value, dict):
            out[key] = _walk(value)
        else:
            out[key] = value
    options = out.get("anyOf")
    if isinstance(options, list) and len(options) == 2 and _NULL in options:
        other = next(option for option in options if option != _NULL)
        rest = {k: v for k, v in out.items() if k != "anyOf"}
        if rest.get("default", ...) is None:
            del rest["default"]
        return {**other, **rest}
    return out
