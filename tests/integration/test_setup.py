"""``memorybank setup`` for each client: plan, apply, idempotent, user content preserved."""

from __future__ import annotations

import json

import pytest
from memorybank.core.init import init
from memorybank.core.setup import CLIENTS, apply_setup, plan_setup

from tests.conftest import git, tree_snapshot


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    init(root / "memory_bank", name="Wired")
    git(root, "init", "-q")
    return root


@pytest.mark.parametrize("client", CLIENTS)
def test_plan_writes_nothing_apply_writes_and_a_second_run_changes_nothing(project, tmp_path, client):
    home = tmp_path / "home"
    before = tree_snapshot(tmp_path)
    plan = plan_setup(client, project / "memory_bank", home=home, command="memorybank")
    assert plan.changes and all(c.changed for c in plan.changes if c.before is None)
    assert tree_snapshot(tmp_path) == before
    written = apply_setup(plan)
    assert written
    again = plan_setup(client, project / "memory_bank", home=home, command="memorybank")
    assert not any(c.changed for c in again.changes)


def test_claude_code_entry_instructions_and_hook(project, tmp_path):
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path, command="/opt/bin/memorybank"))
    server = json.loads((project / ".mcp.json").read_text())["mcpServers"]["memorybank"]
    bank = str((project / "memory_bank").resolve())
    assert server == {"type": "stdio", "command": "/opt/bin/memorybank", "args": ["mcp", "--root", bank]}
    assert "bank_route" in (project / "CLAUDE.md").read_text()
    stop = json.loads((project / ".claude/settings.json").read_text())["hooks"]["Stop"]
    assert stop == [{"hooks": [{"type": "command", "command": "/opt/bin/memorybank hook stop"}]}]


def test_existing_user_content_is_preserved(project, tmp_path):
    (project / "CLAUDE.md").write_text("# House rules\n\nAlways run the tests.\n")
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"other": {"command": "other"}}}))
    (project / ".claude").mkdir()
    (project / ".claude/settings.json").write_text(
        json.dumps({"model": "x", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}})
    )
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path, command="memorybank"))
    claude = (project / "CLAUDE.md").read_text()
    assert claude.startswith("# House rules\n\nAlways run the tests.\n") and "<!-- memorybank:start -->" in claude
    servers = json.loads((project / ".mcp.json").read_text())["mcpServers"]
    assert set(servers) == {"other", "memorybank"}
    settings = json.loads((project / ".claude/settings.json").read_text())
    assert settings["model"] == "x" and len(settings["hooks"]["Stop"]) == 2
    # the paragraph is replaced in place when it changes, never duplicated
    (project / "CLAUDE.md").write_text(claude.replace("bank_route", "bank_route (old wording)") + "\nMore user text.\n")
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path, command="memorybank"))
    text = (project / "CLAUDE.md").read_text()
    assert (
        text.count("<!-- memorybank:start -->") == 1
        and "(old wording)" not in text
        and text.endswith("More user text.\n")
    )


def test_a_broken_config_is_refused_not_overwritten(project, tmp_path):
    (project / ".mcp.json").write_text("{ not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        plan_setup("claude-code", project / "memory_bank", home=tmp_path)
    assert (project / ".mcp.json").read_text() == "{ not json"


def test_the_plan_shows_the_exact_diff(project, tmp_path, capsys):
    from memorybank.tui.cli.main import main

    assert main(["setup", "cursor", "--plan", "--root", str(project / "memory_bank")]) == 0
    out = capsys.readouterr().out
    assert '+    "memorybank": {' in out and "nothing was written" in out
    assert not (project / ".cursor").exists()
