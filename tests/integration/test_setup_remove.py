"""``memorybank setup --remove``: what setup put in comes out, and the owner's files are as they were."""

from __future__ import annotations

import pytest
from memorybank.core.client_files import ConfigError
from memorybank.core.setup import CLIENTS, apply_setup, plan_removal, plan_setup

from tests.conftest import tree_snapshot
from tests.integration.test_setup_configs import CODEX, VSCODE, setup

OWNER_FILES = {
    "CLAUDE.md": "# House rules\r\n\r\nAlways run the tests.\r\n",
    "AGENTS.md": "# Agents\n\nBe brief.\n",
    ".mcp.json": '{\n  "mcpServers": {\n    "other": {"command": "other"}\n  }\n}\n',
    ".claude/settings.json": '{\n  "model": "x",\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", '
    '"command": "notify"}]}]\n  }\n}\n',
    ".vscode/mcp.json": VSCODE,
    ".cursor/mcp.json": '{"mcpServers": {"docs": {"command": "docs"}}}\n',
    ".codex/config.toml": CODEX,
}


def _roundtrip(project, home, client) -> None:
    apply_setup(plan_setup(client, project / "memory_bank", home=home, command="memorybank"))
    apply_setup(plan_removal(client, project / "memory_bank", home=home))


@pytest.mark.parametrize("client", CLIENTS)
def test_files_the_owner_wrote_are_byte_for_byte_as_before(project, tmp_path, client):
    for rel, text in OWNER_FILES.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        with (project / rel).open("w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    home = tmp_path / "home"
    before = tree_snapshot(tmp_path)
    _roundtrip(project, home, client)
    after = tree_snapshot(tmp_path)
    assert after == before


@pytest.mark.parametrize("client", [c for c in CLIENTS if c != "claude-desktop"])
def test_files_and_folders_setup_made_go_again(project, tmp_path, client):
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if ".git" not in p.parts)
    _roundtrip(project, tmp_path / "home", client)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if ".git" not in p.parts) == before


def test_the_paragraph_cursor_vscode_and_codex_share_stays_while_one_of_them_is_wired(project, tmp_path):
    home = tmp_path / "home"
    for client in ("cursor", "codex"):
        apply_setup(plan_setup(client, project / "memory_bank", home=home, command="memorybank"))
    plan = plan_removal("cursor", project / "memory_bank", home=home)
    assert [c.path for c in plan.changes] == [str(project / ".cursor/mcp.json")]
    assert plan.notes == ["AGENTS.md keeps the paragraph: codex still serves the bank here."]
    apply_setup(plan)
    assert "memorybank:start" in (project / "AGENTS.md").read_text(encoding="utf-8")
    apply_setup(plan_removal("codex", project / "memory_bank", home=home))
    assert not (project / "AGENTS.md").exists() and not (project / ".codex").exists()


def test_unpaired_markers_are_refused_on_removal_too(project, tmp_path):
    (project / "CLAUDE.md").write_text("mine\n<!-- memorybank:start -->\nmine too\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="do not pair up"):
        plan_removal("claude-code", project / "memory_bank", home=tmp_path)


def test_the_command_plans_removes_and_says_when_nothing_is_there(project, tmp_path):
    env_home = tmp_path / "home"
    env_home.mkdir()
    import os
    import sys
    from pathlib import Path

    env = {
        **os.environ,
        "HOME": str(env_home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    assert setup(project, env, "claude-code").returncode == 0
    wired = tree_snapshot(project)
    plan = setup(project, env, "claude-code", "--remove", "--plan")
    assert plan.returncode == 0 and tree_snapshot(project) == wired
    assert ".mcp.json (delete)" in plan.stdout and "-<!-- memorybank:start -->" in plan.stdout
    done = setup(project, env, "claude-code", "--remove")
    assert done.returncode == 0 and "changed 3 files" in done.stdout
    assert not (project / ".mcp.json").exists() and not (project / ".claude").exists()
    again = setup(project, env, "claude-code", "--remove")
    assert again.returncode == 0 and "nothing of memorybank's here" in again.stdout
    mixed = setup(project, env, "claude-code", "--remove", "--surface", "capture")
    assert mixed.returncode == 2 and "leave --surface out" in mixed.stderr
