"""Reading the client's wire: one JSON-RPC message a line, and no line past a bound, so a client
cannot make the server hold a message of any size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MESSAGE_BYTES = 16 * 1024 * 1024
"""The longest message line the server reads: a write's text (1,000,000 characters) escaped in
JSON fits several times over."""
TOO_LARGE = (
    f"Request too large: a message holds at most {MESSAGE_BYTES // (1024 * 1024)} MiB; nothing was read from it."
)


def bounded_lines(stream: Any, limit: int = MESSAGE_BYTES) -> Iterator[bytes | None]:
    """The lines of ``stream``; None for a line longer than ``limit`` bytes, which is read through
    and dropped a chunk at a time, so a client cannot make the server hold a message of any size."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit:
            yield line
            continue
        while not line.endswith(b"\n"):
            line = stream.readline(1024 * 1024)
            if not line:
                break
        yield None
