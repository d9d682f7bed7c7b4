"""Reading the client's wire: one JSON-RPC message a line, and no line past a bound, so a client
cannot make the server hold a message of any size."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

MESSAGE_BYTES = 16 * 1024 * 1024
"""The longest message line the server reads: a write's text (1,000,000 characters) escaped in
JSON fits several times over."""
TOO_LARGE = (
    f"Request too large: a message holds at most {MESSAGE_BYTES // (1024 * 1024)} MiB; nothing was read from it."
)


@dataclass(frozen=True, slots=True)
class TooLarge:
    """A line past the bound, read through and dropped; ``ident`` is its request id when one could
    be read where clients write it (before the parameters, or last), so the client's wait ends."""

    ident: int | str | None


_ID_FIRST = re.compile(
    rb'^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")'
)
_ID_LAST = re.compile(rb'[,{]\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")\s*\}\s*$')


def _ident(raw: bytes | None) -> int | str | None:
    return None if raw is None else json.loads(raw)


def bounded_lines(stream: Any, limit: int = MESSAGE_BYTES) -> Iterator[bytes | TooLarge]:
    """The lines of ``stream``; a ``TooLarge`` for a line longer than ``limit`` bytes, which is read
    through and dropped a chunk at a time, so a client cannot make the server hold a message of any
    size (only its first and its last bytes are looked at, for its id)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit:
            yield line
            continue
        first = _ID_FIRST.match(line[:4096])
        tail = line[-512:]
        while not line.endswith(b"\n"):
            line = stream.readline(1024 * 1024)
            if not line:
                break
            tail = (tail + line)[-512:]
        last = None if first else _ID_LAST.search(tail)
        found = first or last
        yield TooLarge(_ident(found.group(1)) if found else None)
