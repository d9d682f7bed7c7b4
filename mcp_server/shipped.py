"""Answers shipped with the package, so the first start after an install answers at once too.

The front door (``front.py``) replays the SDK's answers to the handshake and the first
``tools/list`` from the user's cache; on the first start after an install or an upgrade there is
nothing there yet, and the client waits for the SDK to load. For the default surface (a bank,
inbox exits ``owner``, every tool) the package carries those answers, recorded from the real server
by ``python -m memorybank.mcp_server.shipped``, with the versions of the SDK and pydantic they were
recorded with. They are used only when those are the versions installed, and only where the
user's cache has nothing; the SDK still answers behind them, and a difference is corrected and
announced exactly as for a stale cache (a test holds the file to what the SDK answers).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

FILE = Path(__file__).with_name("shipped_answers.json")
SURFACE = ("full", "owner", "full")
"""The state, inbox-exits mode and ``--surface`` the shipped answers are for."""
PROTOCOLS = ("2025-06-18", "2025-11-25", "2026-07-28")
LIBRARIES = ("mcp", "mcp_types", "pydantic", "pydantic_core")


def installed_versions() -> dict[str, str]:
    """The installed versions of the SDK and pydantic, read from their ``.dist-info`` folders (one
    directory listing; ``importlib.metadata`` would cost more than the answers save)."""
    spec = importlib.util.find_spec("mcp")
    if spec is None or not spec.origin:
        return {}
    site = Path(spec.origin).parent.parent
    try:
        names = os.listdir(site)
    except OSError:
        return {}
    versions = {}
    for name in names:
        if name.endswith(".dist-info") and "-" in name:
            package, version = name[: -len(".dist-info")].split("-", 1)
            if package in LIBRARIES:
                versions[package] = version
    return versions


def answers(state: str, inbox_exits: str, subset: str, placeholder: str, root_text: str) -> dict[str, Any]:
    """The shipped answers for this surface, the root put in, or {} when they do not apply."""
    if (state, inbox_exits, subset) != SURFACE:
        return {}
    try:
        data = json.loads(FILE.read_text(encoding="utf-8").replace(placeholder, root_text))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("versions") != installed_versions():
        return {}
    kept = data.get("answers")
    return kept if isinstance(kept, dict) else {}


def _request(method: str, ident: int, protocol: str) -> dict[str, Any]:
    if protocol >= "2026":
        meta = {
            "io.modelcontextprotocol/protocolVersion": protocol,
            "io.modelcontextprotocol/clientInfo": {"name": "record", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        return {"jsonrpc": "2.0", "id": ident, "method": method, "params": {"_meta": meta}}
    if method == "initialize":
        client = {"name": "record", "version": "1"}
        params = {"protocolVersion": protocol, "capabilities": {}, "clientInfo": client}
        return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
    return {"jsonrpc": "2.0", "id": ident, "method": method}


def record(root: Path, cache: Path) -> dict[str, Any]:
    """The SDK's answers for every protocol in ``PROTOCOLS``, from real ``memorybank mcp`` sessions
    over stdio on the bank at ``root`` with an empty cache at ``cache``."""
    env = {**os.environ, "MEMORYBANK_CACHE_DIR": str(cache), "MEMORYBANK_SHIPPED": "0"}
    for protocol in PROTOCOLS:
        first = "server/discover" if protocol >= "2026" else "initialize"
        lines = [_request(first, 1, protocol)]
        if first == "initialize":
            lines.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
        lines.append(_request("tools/list", 2, protocol))
        text = "".join(json.dumps(line) + "\n" for line in lines)
        subprocess.run(
            [sys.executable, "-m", "memorybank", "mcp", "--root", str(root)],
            input=text,
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=120,
        )
    (kept,) = sorted((cache / "listings").glob("*.json"))
    return json.loads(kept.read_text(encoding="utf-8"))


def main() -> int:
    """Record the shipped answers into this package (run after changing a tool, the instructions or
    the SDK's version)."""
    from memorybank.core.init import init

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "project" / "memory_bank"
        init(root, name="record")
        recorded = record(root, Path(scratch) / "cache")
    keys = sorted(recorded)
    data = {"versions": installed_versions(), "answers": {key: recorded[key] for key in keys}}
    FILE.write_text(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{FILE}: {len(keys)} answers for {', '.join(PROTOCOLS)}, recorded with {data['versions']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
