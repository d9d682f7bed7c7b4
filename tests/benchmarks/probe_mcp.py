"""Benchmark probe: start of ``memorybank mcp`` (stdio) to its answer to ``tools/list``.

The clock runs from spawning the installed command to reading the ``tools/list`` response, the
handshake included, as a client that launches the server pays it. The bank is not indexed before
the first tool call, so the figure does not depend on the bank's size.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 5
HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "probe", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def start_to_tools_list(root: str | Path) -> float:
    """Seconds from spawning ``memorybank mcp --root ROOT`` to its ``tools/list`` answer."""
    command = [str(Path(sys.executable).parent / "memorybank"), "mcp", "--root", str(root)]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("".join(json.dumps(message) + "\n" for message in HANDSHAKE))
        process.stdin.flush()
        for _ in range(2):
            reply = json.loads(process.stdout.readline())
        elapsed = time.perf_counter() - started
        assert reply.get("id") == 2 and reply["result"]["tools"], reply
        return elapsed
    finally:
        if process.stdin:
            process.stdin.close()
        process.wait(timeout=10)


def mcp_start(bank) -> dict[str, object]:
    samples = [start_to_tools_list(bank.root) for _ in range(RUNS)]
    return {"mcp_tools_list_ms": round(statistics.median(samples) * 1000)}


PROBES = [("mcp_start", mcp_start)]
