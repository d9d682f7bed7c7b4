"""Documents written to hang a reader: a heading of 50,000 spaces, the same run inside invalid YAML,
20,000 headings, a YAML alias bomb, 20,000 broken ``derived_from`` entries (each finding located
by line), one line of 20,000 links. Reading is linear in its input, so every command on a bank
holding them answers at once: each is timed in CPU seconds (what the process spent, whatever else
the machine was doing) and must stay under two.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.init import init

from tests.conftest import PROJECT

SPACES = " " * 50_000
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9)
)
FILES = {
    "domain/wide-heading.md": f"---\ntitle: Wide\n---\n# Wide\n\n## x{SPACES}y\n\ntext\n",
    "domain/wide-purpose.md": f"---\ntitle: Wide purpose\npurpose: read this: when{SPACES}y\n---\n# W\n",
    "domain/many-headings.md": "---\ntitle: Many\n---\n# Many\n\n" + "## Heading\n\nx\n\n" * 20_000,
    "domain/bomb.md": f"---\ntitle: Bomb\n{BOMB}---\n# Bomb\n",
    "domain/deep-list.md": "---\ntitle: Deep\nderived_from:\n" + "  - ../nowhere.md\n" * 20_000 + "---\n# Deep\n",
    "domain/link-line.md": "---\ntitle: Links\n---\n# Links\n\n"
    + "".join(f"[a{i}](../ops/x.md) " for i in range(20_000)),
}


@pytest.fixture(scope="module")
def hostile_bank(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "memory_bank"
    init(root, name="Hostile")
    for rel, text in FILES.items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


def cpu_of(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "memorybank", *argv],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


@pytest.mark.parametrize(
    "argv",
    [
        ["validate"],
        ["stats"],
        ["read", "domain/wide-heading.md"],
        ["read", "domain/many-headings.md", "--section", "Heading"],
        ["read", "domain/bomb.md"],
        ["read", "domain/wide-purpose.md"],
        ["route", "heading bomb wide"],
        ["search", "Heading"],
        ["graph", "domain/bomb.md"],
    ],
    ids=lambda argv: " ".join(argv)[:30],
)
def test_every_command_answers_within_two_cpu_seconds(hostile_bank, argv):
    seconds, done = cpu_of([*argv, "--root", str(hostile_bank)])
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    assert seconds < 2.0, f"{' '.join(argv)} took {seconds:.2f} CPU s"


def test_the_alias_bomb_is_a_finding_and_its_values_stay_unexpanded(hostile_bank):
    doc = Bank.open(hostile_bank).document("domain/bomb.md")
    assert doc.parse_error and "aliases" in doc.parse_error
    assert len(repr(doc.frontmatter)) < 2_000
