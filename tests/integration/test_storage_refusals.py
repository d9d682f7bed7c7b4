"""The operating system's refusals, met from the command line: a read-only mount, an immutable
tree, a full disk. Every write command prints one line naming the cause, exits 3, and leaves no
byte changed and no temporary file behind.

These need root (mounts, ``chattr``); where the machine does not allow them the test is skipped
with the reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.write.create import create

from tests.conftest import PROJECT, tree_snapshot

COMMAND = [sys.executable, "-m", "memorybank"]


def writes(root: Path) -> list[list[str]]:
    """One of each kind of write, all of which would succeed on a writable disk."""
    return [
        [
            "create",
            "domain/queue.md",
            "--kind",
            "domain",
            "--title",
            "Queue",
            "--purpose",
            "Bursts.",
            "--derived",
            "../product/context.md",
        ],
        ["update-section", "product/context.md", "Problem", "--content", "Readers lose their place."],
        ["set-status", "product/context.md", "active"],
        ["promote", "_inbox/note.md", "--to", "domain/note.md"],
        ["inbox", "fold", "_inbox/note.md", "--into", "product/context.md", "--section", "Problem"],
        ["discard", "_inbox/note.md", "--reason", "duplicate"],
        ["init", "Again", "--root", str(root.parent / "second_bank")],
    ]


def seed(root: Path) -> None:
    init(root, name="Storage")
    create(
        Bank.open(root),
        doc_kind="domain",
        path="note.md",
        title="Note",
        purpose="A fact.",
        inbox=True,
        body="Nightly bursts double the queue.",
        derived_from=["../product/context.md"],
    )


def run(root: Path, argv: list[str]) -> subprocess.CompletedProcess[str]:
    extra = [] if "--root" in argv else ["--root", str(root)]
    return subprocess.run(
        [*COMMAND, *argv, *extra],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )


def assert_refused_cleanly(root: Path, words: tuple[str, ...]) -> None:
    before = tree_snapshot(root.parent)
    for argv in writes(root):
        done = run(root, argv)
        assert done.returncode == 3, (argv, done.returncode, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, (argv, done.stderr)
        assert any(word in lines[0] for word in words), (argv, lines[0])
        assert tree_snapshot(root.parent) == before, argv
        assert not [p for p in root.parent.rglob("*") if p.name.endswith(".tmp")], argv


def mount(target: Path, *options: str) -> None:
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", ",".join(("size=2m", *options)), "tmpfs", str(target)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}")


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a file system needs root")
    target = tmp_path / "disk"
    target.mkdir()
    mount(target)
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True)


def test_a_read_only_file_system(tmpfs: Path):
    root = tmpfs / "memory_bank"
    seed(root)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    assert_refused_cleanly(root, ("read-only file system",))


def test_a_full_disk(tmpfs: Path):
    root = tmpfs / "memory_bank"
    seed(root)
    filler = tmpfs / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    with open(tmpfs / "filler-tail", "wb", buffering=0) as handle:  # the last few bytes, so not even a lock file fits
        try:
            while True:
                handle.write(b"\0")
                handle.flush()
        except OSError:
            pass
    assert_refused_cleanly(root, ("No space left",))


def test_an_immutable_tree(tmp_path: Path):
    if os.geteuid() != 0 or not shutil.which("chattr"):
        pytest.skip("chattr +i needs root and chattr")
    base = tmp_path / "project"
    root = base / "memory_bank"
    seed(root)
    (root / ".memorybank").mkdir(exist_ok=True)
    done = subprocess.run(["chattr", "-R", "+i", str(base)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this file system does not take chattr +i: {done.stderr.strip()}")
    try:
        assert_refused_cleanly(root, ("does not permit", "permission denied"))
    finally:
        subprocess.run(["chattr", "-R", "-i", str(base)], capture_output=True)
