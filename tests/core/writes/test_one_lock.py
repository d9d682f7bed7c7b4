"""Every process on the machine meets the same lock, whatever its environment.

Two writers started with different ``TMPDIR``s (as a workbench and an agent's server often are)
each create documents in one section and append lines to one section of the same document: no
registration and no acknowledged append is lost. The lock lives with the bank's repository, so the
environment cannot split it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.validate import validate
from memorybank.core.write.lock import lock_path

from tests.conftest import PROJECT

WRITER = textwrap.dedent(
    """
    import sys
    from memorybank.core.bank import Bank
    from memorybank.core.write.create import create
    from memorybank.core.write.edit import update_section
    root, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    bank = Bank.open(root)
    for n in range(count):
        create(bank, doc_kind="domain", path=f"domain/w{worker}-{n:03d}.md", title=f"Worker {worker} note {n}",
               purpose=f"Written by worker {worker}.", derived_from=["../product/context.md"])
        update_section(bank, path="product/context.md", section="Problem", mode="append",
                       content=f"Appended by worker {worker}, number {n}.")
    """
)


def test_two_writers_with_different_tmpdirs_lose_nothing(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path / "project")], check=True)
    root = tmp_path / "project" / "memory_bank"
    init(root, name="Concurrent")
    each = 40
    processes = []
    for worker in range(2):
        own = tmp_path / f"tmp-{worker}"
        own.mkdir()
        env = {**os.environ, "TMPDIR": str(own), "TEMP": str(own), "TMP": str(own), "PYTHONPATH": str(PROJECT)}
        processes.append(
            subprocess.Popen(
                [sys.executable, "-c", WRITER, str(root), str(worker), str(each)],
                cwd=PROJECT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for process in processes:
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
    index = (root / "domain/README.md").read_text()
    context = (root / "product/context.md").read_text()
    for worker in range(2):
        for n in range(each):
            assert index.count(f"(w{worker}-{n:03d}.md)") == 1, (worker, n)
            assert context.count(f"Appended by worker {worker}, number {n}.") == 1, (worker, n)
    assert validate(Bank.open(root)).findings == []


def test_the_lock_does_not_depend_on_the_environment(tmp_path, monkeypatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    root = tmp_path / "memory_bank"
    root.mkdir()
    first = lock_path(root)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("HOME", str(tmp_path / "someone"))
    assert lock_path(root) == first
    assert first.parent.parent.parent == tmp_path / ".git"
