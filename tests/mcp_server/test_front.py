"""The stdio front door: the handshake answered from the SDK's own earlier answers, never wrongly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from memorybank.mcp_server.front import ROOT

COMMAND = str(Path(sys.executable).parent / "memorybank")
HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "bank_route", "arguments": {"question": "product"}},
    },
    {"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
]


META = {
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
}
MODERN = [
    {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": META},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": META},
    {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "bank_route", "arguments": {"question": "product"}, **META},
    },
    {"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": META},
]


def session(root: Path, cache: Path, messages: list[dict] = HANDSHAKE) -> list[dict]:
    """Every line the server wrote, the input held open until each request has its reply (the SDK
    drops a call still running when its input closes)."""
    env = {**os.environ, "MEMORYBANK_CACHE_DIR": str(cache)}
    process = subprocess.Popen(
        [COMMAND, "mcp", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
    process.stdin.flush()
    replies: list[dict] = []
    waiting = {m["id"] for m in messages if "id" in m}
    while waiting:
        line = process.stdout.readline()
        assert line, "the server stopped before answering everything"
        replies.append(json.loads(line))
        waiting.discard(replies[-1].get("id"))
    process.stdin.close()
    replies.extend(json.loads(line) for line in process.stdout.read().splitlines())
    assert process.wait(timeout=30) == 0
    return replies


def listings(cache: Path) -> list[Path]:
    return sorted((cache / "listings").glob("*.json"))


def stored(cache: Path, root: Path) -> dict:
    """The kept answers, as they are replayed for ``root``."""
    return json.loads(listings(cache)[0].read_text().replace(ROOT, str(root)))


def test_a_second_start_answers_the_handshake_from_the_cache_exactly_as_the_sdk_did(seeded_root, tmp_path):
    cache = tmp_path / "cache"
    first = session(seeded_root, cache)
    assert sorted(r["id"] for r in first) == [1, 2, 3, 4], "one reply per request, none twice"
    assert len(listings(cache)) == 1
    answers = stored(cache, seeded_root)
    by_id = {r["id"]: r for r in first}
    assert answers["initialize 2025-06-18"] == by_id[1]["result"]
    assert answers["tools/list 2025-06-18"] == by_id[2]["result"]
    second = session(seeded_root, cache)
    assert sorted(r["id"] for r in second) == [1, 2, 3, 4]
    assert {r["id"]: r.get("result") for r in second}.keys() == by_id.keys()
    for ident in (1, 2, 4):
        assert next(r for r in second if r["id"] == ident) == by_id[ident]
    routed = next(r for r in second if r["id"] == 3)["result"]
    assert not routed.get("isError") and routed["structuredContent"]["hits"]


def test_a_stale_listing_is_corrected_and_announced(seeded_root, tmp_path):
    cache = tmp_path / "cache"
    truth = {r["id"]: r for r in session(seeded_root, cache)}
    path = listings(cache)[0]
    kept = json.loads(path.read_text())
    kept["tools/list 2025-06-18"] = {"tools": kept["tools/list 2025-06-18"]["tools"][:1]}
    path.write_text(json.dumps(kept))
    replies = session(seeded_root, cache)
    stale = next(r for r in replies if r.get("id") == 2)
    assert len(stale["result"]["tools"]) == 1
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in replies
    assert next(r for r in replies if r.get("id") == 4) == truth[4]
    assert json.loads(path.read_text())["tools/list 2025-06-18"] == truth[2]["result"]


def test_a_corrupt_listing_is_ignored(seeded_root, tmp_path):
    cache = tmp_path / "cache"
    truth = {r["id"]: r for r in session(seeded_root, cache)}
    listings(cache)[0].write_text("{not json")
    replies = {r["id"]: r for r in session(seeded_root, cache)}
    assert replies[1] == truth[1] and replies[2] == truth[2]


def test_the_2026_era_discovery_is_answered_from_the_cache_too(seeded_root, tmp_path):
    cache = tmp_path / "cache"
    first = {r["id"]: r for r in session(seeded_root, cache, MODERN)}
    answers = stored(cache, seeded_root)
    assert answers["server/discover 2026-07-28"] == first[1]["result"]
    assert answers["tools/list 2026-07-28"] == first[2]["result"]
    second = session(seeded_root, cache, MODERN)
    assert sorted(r["id"] for r in second) == [1, 2, 3, 4]
    assert {r["id"]: r for r in second}[2] == first[2]


def test_one_projects_answers_serve_another_with_its_own_root(seeded_root, tmp_path):
    cache = tmp_path / "cache"
    session(seeded_root, cache)
    path = listings(cache)[0]
    kept = json.loads(path.read_text())
    assert str(seeded_root) not in path.read_text(), "the root is stored as a placeholder"
    kept["initialize 2025-06-18"]["instructions"] += " MARK"
    path.write_text(json.dumps(kept))
    other = tmp_path / "elsewhere" / "memory_bank"
    shutil.copytree(seeded_root, other)
    replies = {r.get("id"): r for r in session(other, cache)}
    instructions = replies[1]["result"]["instructions"]
    assert instructions.endswith(" MARK"), "answered from the kept answers"
    assert str(other) in instructions and str(seeded_root) not in instructions
    assert "MARK" not in path.read_text(), "the SDK's own answer replaced the doctored one"
