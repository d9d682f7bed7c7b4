"""``memorybank doctor`` on a healthy setup and on broken ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memorybank.core.setup import apply_setup, plan_setup
from memorybank.tui.cli.doctor import run_checks

BIN = Path(sys.executable).parent


def by_name(checks):
    return {c.name: c for c in checks}


def test_a_healthy_setup_is_all_green(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{os.environ['PATH']}")
    apply_setup(plan_setup("claude-code", project / "memory_bank", home=tmp_path / "home"))
    checks = by_name(run_checks(project / "memory_bank", home=tmp_path / "home"))
    assert {c.status for c in checks.values()} == {"ok"}, [c for c in checks.values() if c.status != "ok"]
    assert "listed 17 tools" in checks["mcp handshake"].detail
    assert {"claude-code config", "claude-code stop hook", "bank", "contract", "validation"} <= set(checks)


def test_broken_configs_are_named_with_their_fix(project, tmp_path):
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"memorybank": {"command": "/nowhere/memorybank", "args": ["mcp"]}}})
    )
    (project / ".cursor").mkdir()
    (project / ".cursor/mcp.json").write_text(
        json.dumps({"mcpServers": {"memorybank": {"command": sys.executable, "args": ["mcp", "--root", "gone"]}}})
    )
    (project / ".vscode").mkdir()
    (project / ".vscode/mcp.json").write_text("{ broken")
    checks = by_name(run_checks(project / "memory_bank", home=tmp_path / "home"))
    assert checks["claude-code config"].status == "fail" and "not found" in checks["claude-code config"].detail
    assert "setup claude-code" in checks["claude-code config"].fix
    assert checks["cursor config"].status == "fail" and "--root gone does not exist" in checks["cursor config"].detail
    assert checks["vscode config"].status == "fail" and "not valid JSON" in checks["vscode config"].detail


def test_no_bank_and_degraded_mode(tmp_path, write_file):
    missing = by_name(run_checks(None, home=tmp_path))
    assert missing["bank"].status == "fail" and "memorybank init" in missing["bank"].fix
    write_file(tmp_path, "bare/notes.md", "# Notes\n")
    degraded = by_name(run_checks(tmp_path / "bare", home=tmp_path))
    assert degraded["contract"].status == "warn" and "degraded" in degraded["contract"].detail


def test_the_command_exits_non_zero_on_a_problem(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "memorybank", "doctor", "--root", str(tmp_path / "none")], capture_output=True, text=True
    )
    assert result.returncode == 1 and "bank: no bank found" in result.stdout and "fix:" in result.stdout
    counted = result.stdout.rstrip().splitlines()[-1]
    assert counted.startswith("1 problem, ") and "1 problems" not in counted


def test_ctrl_c_while_the_server_is_asked_stops_doctor_instead_of_failing_the_check(project, tmp_path):
    """Ctrl-C during the handshake read as a server that did not answer: a red check, the other
    checks run on, exit 1. It stops doctor, exit 130, as every command does."""
    import signal
    import time

    fake = tmp_path / "bin" / "memorybank"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexec sleep 60\n", encoding="utf-8")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}
    doctor = subprocess.Popen(
        [sys.executable, "-m", "memorybank", "doctor", "--root", str(project / "memory_bank")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(4)  # imports done, the handshake waits on the server that never answers
    doctor.send_signal(signal.SIGINT)
    out, err = doctor.communicate(timeout=30)
    assert doctor.returncode == 130, (out, err)
    assert "did not answer" not in out + err and "Traceback" not in err
