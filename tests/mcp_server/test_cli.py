"""``memorybank surface`` prints the cost table; ``memorybank mcp`` starts without loading Textual."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import PROJECT
from tui.cli.main import main


def test_surface_prints_every_part_per_state(capsys, seeded_root):
    assert main(["surface", "--root", str(seeded_root)]) == 0
    out = capsys.readouterr().out
    assert "full surface, inbox exits owner:" in out and "(budget 4,500)" in out
    assert "tool bank_create" in out and "prompts (5)" in out and "resources (4)" in out
    assert "seed surface" in out and "off surface" in out


def test_surface_json_stays_in_budget_in_both_modes(capsys, seeded_root):
    for exits in ("owner", "agent"):
        assert main(["surface", "--json", "--inbox-exits", exits, "--root", str(seeded_root)]) == 0
        states = {s["state"]: s for s in json.loads(capsys.readouterr().out)}
        assert set(states) == {"full", "seed", "off"}
        assert states["full"]["tokens"] <= states["full"]["budget_tokens"] == 4500
        assert [p["part"] for p in states["seed"]["parts"]] == ["instructions", "tool bank_init"]
        assert sum(p["chars"] for p in states["full"]["parts"]) == states["full"]["chars"]


def test_mcp_builds_its_server_without_importing_textual(seeded_root):
    """The whole ``memorybank mcp`` path up to the transport loop, in a fresh interpreter."""
    code = (
        "import sys\n"
        "from mcp_server.server import BankServer\n"
        "BankServer.run = lambda self, *a, **k: print(self.state, any(m.split('.')[0] == 'textual' for m in sys.modules))\n"
        "from tui.cli.main import main\n"
        f"sys.exit(main(['mcp', '--root', {str(seeded_root)!r}]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "full False"


def test_mcp_without_a_bank_serves_the_seed_surface_for_the_working_directory(tmp_path):
    code = (
        "import sys\n"
        "from mcp_server.server import BankServer\n"
        "BankServer.run = lambda self, *a, **k: print(self.state, self.bank.root)\n"
        "from tui.cli.main import main\n"
        "sys.exit(main(['mcp']))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"seed {tmp_path / 'memory_bank'}"
