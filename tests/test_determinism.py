"""The suite's history is the same on any day, in any timezone, under any git identity.

The demo bank is what the snapshot tests, the screenshots and a first-time user see; it is built
from fixed dates with a fixed author. Built in a child process a year ahead (the clock's
``MEMORYBANK_NOW``), in another timezone and under another person's global git configuration, it
must come out with the same commits and the same committed bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT

BUILD = "import sys; from memorybank.core.demo import build_demo; print(build_demo(sys.argv[1]))"


def build_in_child(dest: Path, env: dict[str, str]) -> tuple[str, str]:
    out = subprocess.run(
        [sys.executable, "-c", BUILD, str(dest)], cwd=PROJECT, env=env, check=True, capture_output=True, text=True
    )
    repo = Path(out.stdout.strip()).parent
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True).stdout
    log = subprocess.run(
        ["git", "log", "--format=%H %an %ae %aI %cI %s"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    return head.strip(), log


def test_the_demo_history_does_not_depend_on_the_day_the_zone_or_the_git_identity(tmp_path):
    gitconfig = tmp_path / "someone.gitconfig"
    gitconfig.write_text("[user]\n\tname = Someone Else\n\temail = someone@elsewhere.example\n", encoding="utf-8")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "MEMORYBANK_"))}
    here = build_in_child(tmp_path / "here", {**base, "TZ": "UTC"})
    elsewhere = build_in_child(
        tmp_path / "elsewhere",
        {
            **base,
            "TZ": "Pacific/Kiritimati",
            "MEMORYBANK_NOW": "2027-12-01T23:30:00Z",
            "GIT_CONFIG_GLOBAL": str(gitconfig),
            "LC_ALL": "C.UTF-8",
        },
    )
    assert here == elsewhere
    assert "Ada Harbor" in here[1] and "Someone Else" not in elsewhere[1]


def test_the_clock_honours_a_pin_and_the_environment(monkeypatch):
    from memorybank.core import clock

    monkeypatch.setenv("MEMORYBANK_NOW", "2027-12-01T10:00:00Z")
    assert clock.today() == "2027-12-01"
    with clock.pinned("2026-01-05T09:00:00+02:00"):
        assert clock.stamp() == "2026-01-05T07:00:00Z"
    assert clock.stamp() == "2027-12-01T10:00:00Z"
    monkeypatch.setenv("MEMORYBANK_NOW", "not a date")
    assert clock.now().year >= 2026
