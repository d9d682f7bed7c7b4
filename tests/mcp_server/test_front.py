"""The stdio front door: the handshake answered from the SDK's own earlier answers, never wrongly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from memorybank.core.init import init
from memorybank.mcp_server import shipped
from memorybank.mcp_server.listings import ROOT

from tests.mcp_server.conftest import OPENING

COMMAND = str(Path(sys.executable).parent / "memorybank")
HANDSHAKE = [
    *OPENING,
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


def session(root: Path, cache: Path, messages: list[dict] = HANDSHAKE, *, with_shipped: bool = False) -> list[dict]:
    """Every line the server wrote, the input held open until each request has its reply (the SDK
    drops a call still running when its input closes). The package's shipped answers are left out
    unless asked for, so the user's cache is what is tested."""
    env = {**os.environ, "MEMORYBANK_CACHE_DIR": str(cache)}
    if not with_shipped:
        env["MEMORYBANK_SHIPPED"] = "0"
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


@pytest.fixture(scope="module")
def first_start(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[int, dict]]:
    """One first start on a seeded bank, shared by the tests that begin with it (each server start
    costs a second of CPU): the bank, the cache it left, and its replies by id. Tests copy the cache
    (``primed``) before touching it; the sessions only read the bank."""
    base = tmp_path_factory.mktemp("front")
    root = base / "project" / "memory_bank"
    init(root, name="ebook_parser")
    cache = base / "cache"
    replies = session(root, cache)
    assert sorted(r["id"] for r in replies) == [1, 2, 3, 4], "one reply per request, none twice"
    return root, cache, {r["id"]: r for r in replies}


@pytest.fixture
def primed(first_start, tmp_path: Path) -> tuple[Path, Path, dict[int, dict]]:
    """The first start's bank, a private copy of the cache it left, and its replies."""
    root, cache, replies = first_start
    shutil.copytree(cache, tmp_path / "cache")
    return root, tmp_path / "cache", replies


def listings(cache: Path) -> list[Path]:
    return sorted((cache / "listings").glob("*.json"))


def stored(cache: Path, root: Path) -> dict:
    """The kept answers, as they are replayed for ``root``."""
    return json.loads(listings(cache)[0].read_text().replace(ROOT, str(root)))


def test_a_second_start_answers_the_handshake_from_the_cache_exactly_as_the_sdk_did(primed):
    seeded_root, cache, by_id = primed
    assert len(listings(cache)) == 1
    answers = stored(cache, seeded_root)
    assert answers["initialize 2025-06-18"] == by_id[1]["result"]
    assert answers["tools/list 2025-06-18"] == by_id[2]["result"]
    second = session(seeded_root, cache)
    assert sorted(r["id"] for r in second) == [1, 2, 3, 4]
    assert {r["id"]: r.get("result") for r in second}.keys() == by_id.keys()
    for ident in (1, 2, 4):
        assert next(r for r in second if r["id"] == ident) == by_id[ident]
    routed = next(r for r in second if r["id"] == 3)["result"]
    assert not routed.get("isError") and routed["structuredContent"]["hits"]


def test_a_stale_listing_is_corrected_and_announced(primed):
    seeded_root, cache, truth = primed
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


def test_a_corrupt_listing_is_ignored(primed):
    seeded_root, cache, truth = primed
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


def test_one_projects_answers_serve_another_with_its_own_root(primed, tmp_path):
    seeded_root, cache, _ = primed
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


def test_the_shipped_answers_are_what_the_sdk_answers(seeded_root, tmp_path):
    """``mcp_server/shipped_answers.json`` holds, for each protocol it covers, exactly what the real
    server answers today (rerun ``python -m memorybank.mcp_server.shipped`` after changing a tool)."""
    recorded = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    if recorded["versions"] != shipped.installed_versions():
        pytest.skip(f"recorded with {recorded['versions']}, installed {shipped.installed_versions()}")
    fresh = shipped.record(seeded_root, tmp_path / "cache")
    assert recorded["answers"] == fresh
    assert {key.split()[0] for key in fresh} == {"initialize", "server/discover", "tools/list"}


def test_a_first_start_answers_from_the_shipped_answers_and_keeps_nothing(seeded_root, tmp_path):
    """An empty cache (the first start after an install): the handshake and the first listing are the
    shipped ones, identical to the SDK's, so nothing is learned and nothing is written."""
    if not shipped.answers(*shipped.SURFACE, ROOT, str(seeded_root)):
        pytest.skip("the shipped answers were recorded with another SDK")
    cache = tmp_path / "cache"
    replies = {r["id"]: r for r in session(seeded_root, cache, with_shipped=True)}
    assert listings(cache) == [], "the SDK agreed with every shipped answer"
    assert str(seeded_root) in replies[1]["result"]["instructions"]
    assert len(replies[2]["result"]["tools"]) == 17 and replies[4]["result"] == replies[2]["result"]


def test_shipped_answers_apply_only_to_the_sdk_and_surface_they_were_recorded_for(monkeypatch, tmp_path):
    data = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    assert shipped.answers("full", "agent", "full", ROOT, "/x") == {}
    assert shipped.answers("full", "owner", "read-only", ROOT, "/x") == {}
    data["versions"] = {**data["versions"], "mcp": "0.0.1"}
    other = tmp_path / "shipped_answers.json"
    other.write_text(json.dumps(data))
    monkeypatch.setattr(shipped, "FILE", other)
    assert shipped.answers(*shipped.SURFACE, ROOT, "/x") == {}
    other.write_text("{not json")
    assert shipped.answers(*shipped.SURFACE, ROOT, "/x") == {}


def test_a_wrong_shipped_answer_is_corrected_and_announced(seeded_root, tmp_path, monkeypatch):
    """A shipped listing that differs from the SDK's (a file left stale) is treated as a stale cache:
    the SDK's listing is kept and the client told to list again."""
    data = json.loads(shipped.FILE.read_text(encoding="utf-8"))
    data["versions"] = shipped.installed_versions()
    data["answers"]["tools/list 2025-06-18"] = {"tools": data["answers"]["tools/list 2025-06-18"]["tools"][:1]}
    doctored = tmp_path / "shipped" / "shipped_answers.json"
    doctored.parent.mkdir()
    doctored.write_text(json.dumps(data))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "shadow"))
    shadow = tmp_path / "shadow" / "sitecustomize.py"
    shadow.parent.mkdir()
    shadow.write_text(f"import memorybank.mcp_server.shipped as s, pathlib\ns.FILE = pathlib.Path({str(doctored)!r})\n")
    replies = session(seeded_root, tmp_path / "cache", with_shipped=True)
    assert len(next(r for r in replies if r.get("id") == 2)["result"]["tools"]) == 1
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in replies
    assert len(next(r for r in replies if r.get("id") == 4)["result"]["tools"]) == 17


def test_a_server_whose_tools_fail_to_load_answers_every_call_with_the_error_instead_of_never(seeded_root, tmp_path):
    """The handshake is answered from the cache while the SDK loads; when building the server then
    fails (a broken install, a half-written upgrade), a tools/call waited forever and the cause
    reached stderr only once the client gave up. Now every request gets the error, at once."""
    script = (
        "import sys\n"
        "import memorybank.mcp_server.server as server\n"
        "def broken(*args, **kwargs):\n"
        "    raise NameError(\"name 'field' is not defined\")\n"
        "server.build_server = broken\n"
        "from memorybank.tui.cli.serving import serve_main\n"
        "sys.exit(serve_main(['--root', sys.argv[1]]))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(seeded_root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "MEMORYBANK_CACHE_DIR": str(tmp_path / "cache")},
    )
    out, err = process.communicate("".join(json.dumps(m) + "\n" for m in HANDSHAKE), timeout=60)
    replies = {r["id"]: r for r in map(json.loads, out.splitlines()) if "id" in r}
    assert set(replies) >= {3, 4}
    for ident in (3, 4):
        assert "NameError: name 'field' is not defined" in replies[ident]["error"]["message"], replies[ident]
    assert "Traceback" in err and process.returncode == 1
