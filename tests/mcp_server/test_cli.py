"""``memorybank surface`` prints the cost table; ``memorybank mcp`` starts without loading Textual."""

from __future__ import annotations

import json
import subprocess
import sys

from memorybank.tui.cli.main import main

from tests.conftest import PROJECT
from tests.mcp_server.conftest import OPENING


def test_surface_prints_every_part_per_state(capsys, seeded_root):
    assert main(["surface", "--root", str(seeded_root)]) == 0
    out = capsys.readouterr().out
    assert "full surface, inbox exits owner:" in out and "(budget 4,500)" in out
    assert "tool bank_create" in out and "prompts (5)" in out and "resources (4)" in out
    assert "seed surface" in out and "off surface" in out
    assert "reading each resource on" in out and "memorybank://health" in out
    assert "(largest page of memorybank://index/{section}{?page})" in out


def test_surface_json_stays_in_budget_in_both_modes(capsys, seeded_root):
    for exits in ("owner", "agent"):
        assert main(["surface", "--json", "--inbox-exits", exits, "--root", str(seeded_root)]) == 0
        states = {s["state"]: s for s in json.loads(capsys.readouterr().out) if s["surface"] == "full"}
        assert set(states) == {"full", "seed", "off"}
        assert states["full"]["tokens"] <= states["full"]["budget_tokens"] == 4500
        assert [p["part"] for p in states["seed"]["parts"]] == ["instructions", "tool bank_init"]
        assert sum(p["chars"] for p in states["full"]["parts"]) == states["full"]["chars"]
        reads = {r["resource"]: r for r in states["full"]["reads"]}
        assert reads["memorybank://index"]["chars"] > 0 and "reads" not in states["seed"]


def handshake(root, *, cwd, env=None, extra: str = ""):
    """Run ``memorybank mcp`` (in-process ``main``) through initialize and tools/list; return the
    replies and what the process reports on stderr after the session."""
    lines = [
        *OPENING,
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    code = (
        "import sys\n"
        "from memorybank.tui.cli.main import main\n"
        f"code = main(['mcp', *{(['--root', str(root)] if root else [])!r}])\n"
        "print('TEXTUAL', any(m.split('.')[0] == 'textual' for m in sys.modules), file=sys.__stderr__)\n"
        f"{extra}"
        "sys.exit(code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def test_mcp_serves_stdio_without_importing_textual(seeded_root):
    """The whole ``memorybank mcp`` path, through a handshake, in a fresh interpreter."""
    replies, errors = handshake(seeded_root, cwd=PROJECT)
    assert [r["id"] for r in replies] == [1, 2]
    assert "Read memorybank://" in replies[0]["result"]["instructions"]
    assert len(replies[1]["result"]["tools"]) == 17
    assert "TEXTUAL False" in errors


def test_mcp_without_a_bank_serves_the_seed_surface_for_the_working_directory(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(PROJECT)}
    replies, _ = handshake(None, cwd=tmp_path, env=env)
    assert f"No memory bank at {tmp_path / 'memory_bank'}" in replies[0]["result"]["instructions"]
    assert [t["name"] for t in replies[1]["result"]["tools"]] == ["bank_init"]


def test_every_request_sent_before_the_end_of_input_is_answered(seeded_root):
    """Forty writes sent back to back, then stdin closed: all forty land and all forty are answered
    before the server exits (the SDK alone would drop the calls still running at end of input)."""
    lines = [
        *OPENING,
    ] + [
        {
            "jsonrpc": "2.0",
            "id": 100 + n,
            "method": "tools/call",
            "params": {
                "name": "bank_create",
                "arguments": {
                    "docKind": "domain",
                    "path": f"domain/n{n}.md",
                    "title": f"N{n}",
                    "purpose": "p",
                    "derivedFrom": ["../product/context.md"],
                },
            },
        }
        for n in range(40)
    ]
    done = subprocess.run(
        [sys.executable, "-m", "memorybank", "mcp", "--root", str(seeded_root)],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    answered = {json.loads(line).get("id") for line in done.stdout.splitlines() if line.strip()}
    assert set(range(100, 140)) <= answered
    assert all((seeded_root / f"domain/n{n}.md").exists() for n in range(40))
