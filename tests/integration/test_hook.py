"""The Stop hook's decisions on crafted inputs, in real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from memorybank.core.hook import run_stop_hook, stop_decision
from memorybank.core.init import init

from tests.conftest import git


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    init(root / "memory_bank", name="Hooked")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(
        root,
        "commit",
        "-qm",
        "seed",
        env={"GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z"},
    )
    return root


def env_for(tmp_path, **extra):
    return {"TMPDIR": str(tmp_path), "PATH": os.environ["PATH"], **extra}


def payload(project, session="s1", **extra):
    return {"cwd": str(project), "session_id": session, **extra}


def test_a_dirty_tree_asks_once_then_not_for_the_same_state(project, tmp_path):
    (project / "src.py").write_text("x = 1\n")
    env = env_for(tmp_path)
    first = stop_decision(payload(project), env=env)
    assert first.ask and "bank_create" in first.message and "inbox: true" in first.message
    out = json.loads(first.output())
    assert out["decision"] == "block" and out["reason"] == first.message
    again = stop_decision(payload(project), env=env, now=time.time() + 3600 * 5)
    assert not again.ask and "exactly this state" in again.why


def test_a_clean_tree_with_new_commits_since_the_last_ask_asks(project, tmp_path):
    """The reference's hook never asked a workflow that commits every turn: the tree was always clean."""
    env = env_for(tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="0")
    (project / "a.py").write_text("a\n")
    assert stop_decision(payload(project), env=env).ask  # dirty: asks, remembers HEAD
    git(project, "add", "-A")
    git(project, "commit", "-qm", "work")
    decision = stop_decision(payload(project), env=env)
    assert decision.ask and decision.why == "commits since the last ask"
    assert not stop_decision(payload(project), env=env).ask  # nothing new since


def test_a_recent_commit_counts_as_work_on_the_first_stop(project, tmp_path):
    (project / "b.py").write_text("b\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "turn")
    assert stop_decision(payload(project, session="fresh"), env=env_for(tmp_path)).ask


def test_an_old_clean_history_stays_silent(project, tmp_path):
    decision = stop_decision(payload(project), env=env_for(tmp_path))
    assert not decision.ask and "clean" in decision.why


def test_the_cooldown_holds_between_asks(project, tmp_path):
    env = env_for(tmp_path, MEMORYBANK_CAPTURE_COOLDOWN_MIN="30")
    (project / "c.py").write_text("1\n")
    now = time.time()
    assert stop_decision(payload(project), env=env, now=now).ask
    (project / "c.py").write_text("2\n")
    held = stop_decision(payload(project), env=env, now=now + 60)
    assert not held.ask and "cooldown" in held.why
    assert stop_decision(payload(project), env=env, now=now + 31 * 60).ask


def test_the_recursion_guard_and_no_bank(project, tmp_path):
    (project / "d.py").write_text("1\n")
    assert not stop_decision(payload(project, stop_hook_active=True), env=env_for(tmp_path)).ask
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    decision = stop_decision({"cwd": str(elsewhere), "session_id": "x"}, env=env_for(tmp_path))
    assert not decision.ask and "no bank" in decision.why


def test_notes_piling_up_add_a_reminder(project, tmp_path):
    inbox = project / "memory_bank" / "_inbox"
    inbox.mkdir()
    for n in range(3):
        note = inbox / f"n{n}.md"
        note.write_text("# n\n")
        os.utime(note, (time.time() - 20 * 86400, time.time() - 20 * 86400))
    decision = stop_decision(payload(project), env=env_for(tmp_path))
    assert decision.ask and "3 notes wait in _inbox/, 3 of them older than 14 days" in decision.message
    assert "review-inbox" in decision.message


def test_internal_errors_fail_open(project, tmp_path, monkeypatch):
    assert run_stop_hook("{not json") == ""
    assert run_stop_hook("[1, 2]") == ""
    import memorybank.core.hook as hook

    monkeypatch.setattr(hook, "stop_decision", lambda *a, **k: 1 / 0)
    assert run_stop_hook(json.dumps(payload(project))) == ""


def test_the_command_end_to_end(project, tmp_path):
    (project / "e.py").write_text("1\n")
    result = subprocess.run(
        [sys.executable, "-m", "memorybank", "hook", "stop"],
        input=json.dumps(payload(project, session="cli")),
        capture_output=True,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 0 and json.loads(result.stdout)["decision"] == "block"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_the_command_reads_a_bounded_payload_from_an_endless_stdin(tmp_path):
    """Whatever is piped in, the hook reads at most a payload's worth and stays silent."""
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run(
            [sys.executable, "-m", "memorybank", "hook", "stop"],
            stdin=zero,
            capture_output=True,
            timeout=30,
            env={**os.environ, "TMPDIR": str(tmp_path)},
        )
    assert result.returncode == 0 and result.stdout == b"" and b"Traceback" not in result.stderr


def test_the_command_run_by_hand_in_a_terminal_does_not_wait_for_input(project, tmp_path):
    """No hook payload comes from a terminal: `memorybank hook stop` typed by hand answers at once."""
    import pty

    leader, follower = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "memorybank", "hook", "stop"],
            stdin=follower,
            capture_output=True,
            timeout=30,
            cwd=project,
            env={**os.environ, "TMPDIR": str(tmp_path)},
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert result.returncode == 0 and b"Traceback" not in result.stderr


def test_the_command_takes_a_payload_that_is_not_utf8_silently(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "memorybank", "hook", "stop"],
        input=b'{"cwd": "caf\xe9"}',
        capture_output=True,
        timeout=30,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert result.returncode == 0 and b"Traceback" not in result.stderr


def test_the_command_as_setup_writes_it_finds_a_bank_in_a_subfolder_and_names_the_clients_tool(tmp_path):
    """A monorepo: the session runs at the repository's top, the bank is two folders down. Claude
    Code runs the command through a shell with $CLAUDE_PROJECT_DIR set; a capture client is asked
    to use bank_capture, the one write it has."""
    from memorybank.core.setup import hook_command

    repo = tmp_path / "mono"
    init(repo / "apps" / "web" / "memory_bank", name="Web")
    git(repo, "init", "-q")
    (repo / "apps" / "web" / "page.ts").write_text("x\n")
    command = hook_command("memorybank", "apps/web/memory_bank", "capture")
    assert command == 'memorybank hook stop --root "$CLAUDE_PROJECT_DIR/apps/web/memory_bank" --surface capture'
    command = command.replace("memorybank", f"{sys.executable} -m memorybank", 1)
    result = subprocess.run(
        ["sh", "-c", command],
        input=json.dumps(payload(repo, session="mono")),
        capture_output=True,
        text=True,
        cwd=repo,
        env={**os.environ, "TMPDIR": str(tmp_path), "CLAUDE_PROJECT_DIR": str(repo)},
    )
    assert result.returncode == 0, result.stderr
    reason = json.loads(result.stdout)["reason"]
    assert "bank_capture" in reason and "bank_create" not in reason


def test_hook_without_a_name_is_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "memorybank", "hook"], capture_output=True, text=True)
    assert result.returncode == 2 and "name the hook to run: stop" in result.stderr
