"""``memorybank setup`` run as a user runs it, on config files their owners wrote by hand.

Every run gets its own HOME and CODEX_HOME under tmp_path, never the real ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from memorybank.core import jsonc
from memorybank.tui.cli.doctor import handshake, run_checks

from tests.conftest import tree_snapshot

BIN = Path(sys.executable).parent

VSCODE = """\
{
  // Servers for this workspace. Docs: https://code.visualstudio.com/docs/copilot/chat/mcp-servers
  "servers": {
    "fetch": {
      "type": "http",
      "url": "https://example.com//mcp", /* a URL: its // is not a comment */
    },
  },
  /* inputs come later
     (a block comment over two lines) */
  "inputs": [],
}
"""

CODEX = """\
# My Codex settings. Keep this comment.
model = "o3"  # the one I like

[mcp_servers.docs]
command = "docs-server"  # a server of mine
args = ["--quiet"]

# end of my settings
"""


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    return {
        **os.environ,
        "HOME": str(home),
        "CODEX_HOME": str(tmp_path / "codex-home"),
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
    }


def setup(project: Path, env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memorybank", "setup", *args, "--root", str(project / "memory_bank")],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or project,
        timeout=120,
    )


def test_a_commented_vscode_config_keeps_its_comments_and_gets_our_entry(project, env):
    path = project / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_text(VSCODE)
    done = setup(project, env, "vscode")
    assert done.returncode == 0, done.stderr
    text = path.read_text()
    for comment in ("// Servers for this workspace.", "/* a URL: its // is not a comment */", "(a block comment"):
        assert comment in text
    servers = jsonc.load(text, comments=True)["servers"]
    assert servers["fetch"] == {"type": "http", "url": "https://example.com//mcp"}
    assert servers["memorybank"] == {
        "type": "stdio",
        "command": "memorybank",
        "args": ["mcp", "--root", "${workspaceFolder}/memory_bank"],
    }
    # the owner's bytes are all there: ours is one block after the last sibling, with the owner's trailing comma
    block = '\n    "memorybank": ' + json.dumps(servers["memorybank"], indent=2).replace("\n", "\n    ") + ","
    assert text == VSCODE.replace("    },\n  },", "    }," + block + "\n  },")
    first = path.read_bytes()
    again = setup(project, env, "vscode")
    assert again.returncode == 0 and "already set up" in again.stdout
    assert path.read_bytes() == first


def test_a_commented_codex_config_keeps_its_comments_in_the_project(project, env, tmp_path):
    path = project / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(CODEX)
    done = setup(project, env, "codex")
    assert done.returncode == 0, done.stderr
    text = path.read_text()
    assert text.startswith(CODEX) and "# a server of mine" in text and "# end of my settings" in text
    entry = tomllib.loads(text)["mcp_servers"]["memorybank"]
    assert entry == {"command": "memorybank", "args": ["mcp", "--root", str((project / "memory_bank").resolve())]}
    assert not (tmp_path / "codex-home").exists() and not (tmp_path / "home" / ".codex").exists()
    first = path.read_bytes()
    assert setup(project, env, "codex").returncode == 0 and path.read_bytes() == first


def test_codex_user_config_follows_codex_home(project, env, tmp_path):
    user = tmp_path / "codex-home" / "config.toml"
    user.parent.mkdir()
    user.write_text(CODEX)
    done = setup(project, env, "codex", "--user")
    assert done.returncode == 0, done.stderr
    assert user.read_text().startswith(CODEX) and "memorybank" in tomllib.loads(user.read_text())["mcp_servers"]
    assert not (project / ".codex").exists() and not (tmp_path / "home" / ".codex").exists()
    # without CODEX_HOME, the user config is ~/.codex
    plain = {k: v for k, v in env.items() if k != "CODEX_HOME"}
    assert setup(project, plain, "codex", "--user").returncode == 0
    assert "memorybank" in tomllib.loads((tmp_path / "home" / ".codex" / "config.toml").read_text())["mcp_servers"]


def test_an_earlier_setups_codex_block_is_updated_in_place(project, env):
    old = '# memorybank:start\n[mcp_servers.memorybank]\ncommand = "memorybank"\nargs = ["mcp"]  # the bank is found from the working directory (memory_bank/ or memory-bank/)\n# memorybank:end\n'
    (project / ".codex").mkdir()
    (project / ".codex" / "config.toml").write_text("# mine\n" + old)
    assert setup(project, env, "codex").returncode == 0
    text = (project / ".codex" / "config.toml").read_text()
    assert text.startswith("# mine\n# memorybank:start\n") and "working directory" not in text
    assert tomllib.loads(text)["mcp_servers"]["memorybank"]["args"][1] == "--root"


@pytest.mark.parametrize(
    ("client", "rel", "text", "said"),
    [
        ("vscode", ".vscode/mcp.json", '{\n  "servers": {\n    "a": {}\n    "b": {}\n  }\n}\n', "line 4, column 5"),
        ("cursor", ".cursor/mcp.json", '{\n  "mcpServers": { /* open\n}\n', "line 2, column 19"),
        ("claude-code", ".mcp.json", '{\n  // a comment Claude Code would refuse\n  "mcpServers": {}\n}\n', "line 2"),
        ("codex", ".codex/config.toml", '# mine\nmodel = "o3"\n[mcp_servers\n', "line 3"),
    ],
)
def test_a_malformed_config_is_refused_and_left_byte_identical(project, env, tmp_path, client, rel, text, said):
    path = project / rel
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    before = tree_snapshot(tmp_path)
    done = setup(project, env, client)
    assert done.returncode == 1
    assert str(path) in done.stderr and said in done.stderr and "nothing was written" in done.stderr
    assert tree_snapshot(tmp_path) == before


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode", "codex"])
def test_the_written_root_serves_the_bank_from_any_working_directory(project, env, tmp_path, client, monkeypatch):
    """Start ``memorybank mcp`` with the args the client would use, from a directory that is not the
    project, and list the tools: a relative --root would find no bank there."""
    assert setup(project, env, client).returncode == 0
    if client == "codex":
        entry = tomllib.loads((project / ".codex/config.toml").read_text())["mcp_servers"]["memorybank"]
    else:
        rel, section = {
            "claude-code": (".mcp.json", "mcpServers"),
            "cursor": (".cursor/mcp.json", "mcpServers"),
            "vscode": (".vscode/mcp.json", "servers"),
        }[client]
        entry = jsonc.load((project / rel).read_text(), comments=True)[section]["memorybank"]
    root = entry["args"][entry["args"].index("--root") + 1]
    if client == "vscode":
        assert root.startswith("${workspaceFolder}/")
    else:
        assert Path(root).is_absolute()
    args = [a.replace("${workspaceFolder}", str(project)) for a in entry["args"]]  # as VS Code expands it
    elsewhere = tmp_path / "somewhere-else"
    elsewhere.mkdir()
    monkeypatch.setenv("PATH", env["PATH"])
    count, _ = handshake(entry["command"], args, cwd=elsewhere)
    assert count == 17


def test_surface_is_passed_on_and_shown_in_the_plan(project, env):
    plan = setup(project, env, "cursor", "--surface", "read-only", "--plan")
    assert plan.returncode == 0, plan.stderr
    assert "surface read-only" in plan.stdout and '+        "--surface",' in plan.stdout
    assert '+        "read-only"' in plan.stdout and not (project / ".cursor").exists()
    assert setup(project, env, "vscode", "--surface", "capture").returncode == 0
    args = jsonc.load((project / ".vscode/mcp.json").read_text(), comments=True)["servers"]["memorybank"]["args"]
    assert args[-2:] == ["--surface", "capture"]
    kept = setup(project, env, "vscode")  # a teammate re-running setup keeps the owner's surface
    assert kept.returncode == 0 and "surface capture" in kept.stdout and "nothing to change" in kept.stdout
    assert setup(project, env, "vscode", "--surface", "full").returncode == 0  # asked for: the flag goes away
    args = jsonc.load((project / ".vscode/mcp.json").read_text(), comments=True)["servers"]["memorybank"]["args"]
    assert "--surface" not in args
    refused = setup(project, env, "vscode", "--user")
    assert refused.returncode == 2 and "codex only" in refused.stderr


def test_doctor_reads_both_codex_configs_and_commented_json(project, env, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", env["PATH"])
    monkeypatch.setenv("CODEX_HOME", env["CODEX_HOME"])
    (project / ".vscode").mkdir()
    (project / ".vscode/mcp.json").write_text(VSCODE)
    for args in (["vscode"], ["codex"], ["codex", "--user"]):
        assert setup(project, env, *args).returncode == 0
    (project / ".cursor").mkdir()
    (project / ".cursor/mcp.json").write_text(
        '{"mcpServers": {"memorybank": {"command": "memorybank", "args": ["mcp", "--root", "memory_bank"]}}}'
    )
    checks = {c.name: c for c in run_checks(project / "memory_bank", home=tmp_path / "home")}
    assert checks["vscode config"].status == "ok"
    assert (
        checks["codex project config"].status == "ok" and ".codex/config.toml" in checks["codex project config"].detail
    )
    assert checks["codex user config"].status == "ok" and "codex-home" in checks["codex user config"].detail
    relative = checks["cursor config"]
    assert relative.status == "warn" and "relative" in relative.detail and "setup cursor" in relative.fix


def test_a_root_that_is_the_project_is_refused_with_its_bank(project, env):
    """`setup --root <project>` would point every client at a folder without a contract."""
    refused = subprocess.run(
        [sys.executable, "-m", "memorybank", "setup", "claude-code", "--root", str(project)],
        capture_output=True, text=True, env=env, cwd=project, timeout=120,
    )  # fmt: skip
    assert refused.returncode == 2 and f"its bank is {project / 'memory_bank'}" in refused.stderr
    assert not (project / ".mcp.json").exists()
