"""``memorybank eval --file F`` with the files a careless hand gives it: the table is read, anything
else is one line on stderr and exit 2, quickly, whatever the file is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

REFERENCE = str(FIXTURES / "reference")


def run_eval(file: str | Path, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memorybank", "eval", "--file", str(file), "--root", REFERENCE],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_a_table_of_checks_is_evaluated(tmp_path):
    checks = tmp_path / "checks.md"
    checks.write_text("| Question | Expected |\n|---|---|\n| filter thresholds | domain/rules.md |\n", encoding="utf-8")
    done = run_eval(checks)
    assert done.returncode == 0 and "1 route check\n" in done.stdout, done.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "checks.md"
    os.mkfifo(fifo)
    done = run_eval(fifo)
    assert done.returncode == 2 and "not a regular file" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_device_is_refused_not_read_into_memory():
    done = run_eval("/dev/zero")
    assert done.returncode == 2 and "not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_file_that_is_not_utf8_is_one_line_not_a_traceback(tmp_path):
    latin = tmp_path / "checks.md"
    latin.write_bytes("| Question | Expected |\n|---|---|\n| caf\xe9 | domain/rules.md |\n".encode("latin-1"))
    done = run_eval(latin)
    assert done.returncode == 2 and "not UTF-8" in done.stderr and "Traceback" not in done.stderr


def test_a_huge_file_is_refused_by_its_size(tmp_path):
    huge = tmp_path / "checks.md"
    with open(huge, "wb") as handle:
        handle.truncate(50_000_000)
    done = run_eval(huge)
    assert done.returncode == 2 and "bytes" in done.stderr and "Traceback" not in done.stderr
