"""``memorybank setup`` for each client: plan, apply, idempotent, user content preserved."""

from __future__ import annotations

import json

import pytest
from memorybank.core.init import init
from memorybank.core.setup import CLIENTS, apply_setup, plan_setup

from tests.conftest import tree_snapshot


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
    command = '/opt/bin/memorybank hook stop --root "$CLAUDE_PROJECT_DIR/memory_bank"'
    assert stop == [{"hooks": [{"type": "command", "command": command}]}]


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


def _stop_hooks(project) -> list[str]:
    settings = project / ".claude/settings.json"
    groups = json.loads(settings.read_text()).get("hooks", {}).get("Stop", []) if settings.exists() else []
    return [hook["command"] for group in groups for hook in group["hooks"]]


@pytest.mark.parametrize("surface", ["capture", "read-only"])
def test_the_paragraph_and_the_hook_name_only_the_tools_the_surface_gives(project, tmp_path, surface):
    """A capture client has bank_capture and no bank_create; a read-only one has no write at all and
    no Stop hook asking it to write."""
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path, command="mb", surface=surface))
    paragraph = (project / "CLAUDE.md").read_text()
    assert "bank_route" in paragraph and "bank_create" not in paragraph and "bank_edit" not in paragraph
    assert ("bank_capture" in paragraph) == (surface == "capture")
    assert _stop_hooks(project) == (
        ['mb hook stop --root "$CLAUDE_PROJECT_DIR/memory_bank" --surface capture'] if surface == "capture" else []
    )


def test_a_second_run_keeps_the_surface_and_what_the_owner_added_to_the_entry(project, tmp_path):
    """A teammate re-running setup must not widen a read-only client or drop the owner's settings."""
    bank = project / "memory_bank"
    apply_setup(plan_setup("claude-code", bank, home=tmp_path, command="mb", surface="read-only"))
    config = project / ".mcp.json"
    data = json.loads(config.read_text())
    entry = data["mcpServers"]["memorybank"]
    entry["args"] += ["--inbox-exits", "agent"]
    entry["env"] = {"MEMORYBANK_INBOX_LIMIT": "3"}
    config.write_text(json.dumps(data, indent=2) + "\n")
    again = plan_setup("claude-code", bank, home=tmp_path, command="mb")
    assert again.surface == "read-only" and not any(c.changed for c in again.changes)
    wider = plan_setup("claude-code", bank, home=tmp_path, command="mb", surface="full")
    apply_setup(wider)
    entry = json.loads(config.read_text())["mcpServers"]["memorybank"]
    assert entry["args"] == ["mcp", "--root", str(bank.resolve()), "--inbox-exits", "agent"]
    assert entry["env"] == {"MEMORYBANK_INBOX_LIMIT": "3"}
    assert "bank_edit" in (project / "CLAUDE.md").read_text() and len(_stop_hooks(project)) == 1


def test_an_older_hook_of_ours_is_rewritten_and_others_stay(project, tmp_path):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    other = {"type": "command", "command": "make lint"}
    stale = {"type": "command", "command": "/old/venv/bin/memorybank hook stop"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [other, stale]}]}}))
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path, command="mb"))
    assert _stop_hooks(project) == ["make lint", 'mb hook stop --root "$CLAUDE_PROJECT_DIR/memory_bank"']


@pytest.mark.parametrize(
    "text", ["<!-- memorybank:start -->\nold text\n\nMore rules.\n", "a\n<!-- memorybank:end -->\n"]
)
def test_unpaired_markers_are_refused_and_the_file_kept(project, tmp_path, text):
    agents = project / "AGENTS.md"
    agents.write_text(text)
    with pytest.raises(ValueError, match="markers do not pair up"):
        plan_setup("cursor", project / "memory_bank", home=tmp_path, command="mb")
    assert agents.read_text() == text


def test_the_paragraph_keeps_the_files_line_endings(project, tmp_path):
    agents = project / "AGENTS.md"
    agents.write_bytes(b"# Rules\r\n\r\nBe kind.\r\n")
    apply_setup(plan_setup("cursor", project / "memory_bank", home=tmp_path, command="mb"))
    written = agents.read_bytes()
    assert written.startswith(b"# Rules\r\n\r\nBe kind.\r\n\r\n<!-- memorybank:start -->\r\n")
    assert b"\n" not in written.replace(b"\r\n", b"")


def test_a_user_wide_entry_pointed_at_another_bank_says_so(tmp_path):
    home = tmp_path / "home"
    first, second = tmp_path / "one" / "memory_bank", tmp_path / "two" / "memory_bank"
    for bank in (first, second):
        init(bank, name="Wired")
    apply_setup(plan_setup("codex", first, home=home, command="mb", codex_scope="user", env={}))
    plan = plan_setup("codex", second, home=home, command="mb", codex_scope="user", env={})
    assert any(f"served {first.resolve()}" in note and "every session" in note for note in plan.notes)


def test_an_inline_mcp_servers_table_in_codex_is_refused_with_the_fix(project, tmp_path):
    config = project / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('mcp_servers = { other = { command = "x" } }\n')
    with pytest.raises(ValueError, match=r"written inline .*\[mcp_servers\.NAME\] table"):
        plan_setup("codex", project / "memory_bank", home=tmp_path, command="mb")
    assert config.read_text() == 'mcp_servers = { other = { command = "x" } }\n'
