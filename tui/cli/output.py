"""Printing for the command line: JSON for scripts, aligned text for people, errors to stderr."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any, TextIO


def to_plain(value: Any) -> Any:
    """Dataclasses, tuples and sets as plain JSON-ready values; None fields of dataclasses dropped."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not None
        }
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_plain(v) for v in value)
    return value


def emit_json(value: Any, stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    out.write(json.dumps(to_plain(value), ensure_ascii=False, indent=2, default=str))
    out.write("\n")


def error(message: str) -> None:
    sys.stderr.write(f"memorybank: {message}\n")


def rows(pairs: list[tuple[str, str]], indent: int = 0) -> str:
    """Two aligned columns."""
    if not pairs:
        return ""
    width = max(len(k) for k, _ in pairs)
    pad = " " * indent
    return "\n".join(f"{pad}{k.ljust(width)}  {v}".rstrip() for k, v in pairs)


def human_bytes(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KB"
    return f"{count / 1024 / 1024:.1f} MB"
