"""Operations survive ``kill -9``: a process killed at any moment of a write leaves a journal, and
the next process to open the bank (reading or writing) puts the bank back as it was.

Two kinds of kill: at every named step of a commit (deterministic, in a child process that calls
``os._exit`` there), and at random moments of the command-line writer (``SIGKILL`` after 0-1.5 s,
which lands anywhere: in the interpreter's start-up, between renames, after the last one). After
each, the bank is byte for byte as it was before the operation or as it is after it, no temporary
file remains, and validation finds nothing it did not find before.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.validate import validate
from memorybank.core.write import journal
from memorybank.core.write.create import create
from memorybank.core.write.proposals import propose

from tests.conftest import PROJECT

NOW = "2026-06-01T09:00:00Z"
BATCH = 16
"""Writers killed at once, each on its own copy of the bank (they share nothing but the machine)."""
OPERATIONS = {
    "create-with-new-section": (
        "create(bank, doc_kind='epic', path='epics/EP-1/charter.md', title='EP-1', purpose='An epic.', "
        "derived_from=['../../dna/principles.md'])",
        [
            "create",
            "epics/EP-1/charter.md",
            "--kind",
            "epic",
            "--title",
            "EP-1",
            "--purpose",
            "An epic.",
            "--derived",
            "../../dna/principles.md",
        ],
    ),
    "promote": (
        "promote(bank, path='_inbox/one.md', to='domain/one.md')",
        ["promote", "_inbox/one.md", "--to", "domain/one.md"],
    ),
    "fold": (
        "fold(bank, note='_inbox/one.md', path='product/context.md', section='Problem', mode='append')",
        ["inbox", "fold", "_inbox/one.md", "--into", "product/context.md", "--section", "Problem", "--append"],
    ),
    "batch": ("apply_proposals(bank, ['_inbox/one.md', '_inbox/two.md'])", None),
}

CHILD = textwrap.dedent(
    """
    import os, sys
    import memorybank.core.write.transaction as transaction
    from memorybank.core.bank import Bank
    from memorybank.core.write.create import create
    from memorybank.core.write.fold import fold
    from memorybank.core.write.inbox import promote
    from memorybank.core.write.proposals import apply_proposals
    root, step, operation = sys.argv[1], sys.argv[2], sys.argv[3]
    seen = []
    def at(name):
        seen.append(name)
        if name == step:
            os._exit(137)
    transaction.checkpoint = at
    bank = Bank.open(root)
    exec(operation)
    print("\\n".join(seen))
    """
)


def make_bank(base: Path) -> Path:
    """A bank in a git repository with two captured notes, each carrying a promote proposal."""
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    root = base / "memory_bank"
    init(root, name="Kills")
    bank = Bank.open(root)
    for name in ("one.md", "two.md"):
        create(
            bank,
            doc_kind="domain",
            path=name,
            title=name[:-3].title(),
            purpose="A fact.",
            inbox=True,
            body="Nightly bursts double the queue.",
            derived_from=["../product/context.md"],
            client="agent",
        )
        propose(bank, action="promote", path=f"_inbox/{name}", to=f"domain/{name}", client="agent")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    """The bank's files; the quarantine record without the lines that report a recovery."""
    files = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file() or ".memorybank" in path.parts:
            continue
        data = path.read_bytes()
        if path.name == ".record.jsonl":
            data = b"".join(line for line in data.splitlines(keepends=True) if b'"recovered"' not in line)
            if not data:
                continue
        files[path.relative_to(root).as_posix()] = data
    return files


def temp_files(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*") if p.name.endswith(".tmp")]


def child_env() -> dict[str, str]:
    return {**os.environ, "MEMORYBANK_NOW": NOW, "PYTHONPATH": str(PROJECT)}


def run_to_completion(template: Path, operation: str) -> tuple[dict[str, bytes], list[str]]:
    """The bank after ``operation`` ran whole, and the steps its commits passed through."""
    work = template.parent.parent / f"{template.parent.name}-whole-{operation.split('(')[0]}"
    shutil.copytree(template.parent, work)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(work / "memory_bank"), "-", operation],
        env=child_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return snapshot(work / "memory_bank"), done.stdout.split()


def check_state(root: Path, before: dict[str, bytes], after: dict[str, bytes], findings_before: int) -> str:
    """Open the bank as the next process would, and say which whole state it is in."""
    bank = Bank.open(root)  # the read path undoes an abandoned operation before answering
    assert not journal.pending(root), "the journal outlived the next process"
    assert not temp_files(root), temp_files(root)
    now = snapshot(root)
    assert now in (before, after), sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
    assert len(validate(bank).findings) <= findings_before
    return "before" if now == before else "after"


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_a_kill_at_every_step_leaves_the_old_bank_once_the_next_process_opens_it(tmp_path, name):
    operation = OPERATIONS[name][0]
    template = make_bank(tmp_path / "template")
    before = snapshot(template)
    findings = len(validate(Bank.open(template)).findings)
    after, steps = run_to_completion(template, operation)
    assert steps and after != before
    for number, step in enumerate(steps):
        work = tmp_path / f"kill-{number}"
        shutil.copytree(template.parent, work)
        root = work / "memory_bank"
        killed = subprocess.run(
            [sys.executable, "-c", CHILD, str(root), step, operation], env=child_env(), capture_output=True, text=True
        )
        assert killed.returncode == 137, killed.stderr
        assert journal.pending(root), f"no journal left by a kill at {step}"
        assert check_state(root, before, after, findings) == "before", step
        record = (root / "_inbox" / ".record.jsonl").read_text(encoding="utf-8").splitlines()
        assert json.loads(record[-1])["action"] == "recovered", "a recovery is said on the record"


def sigkill_run(tmp_path: Path, count: int, seed: int) -> dict[str, int]:
    """``count`` command-line writes killed at random moments; returns how many ended in each state."""
    rng = random.Random(seed)
    command = [sys.executable, "-m", "memorybank"]
    outcomes = {"before": 0, "after": 0}
    templates = {}
    for name, (_operation, argv) in OPERATIONS.items():
        if argv is None:
            continue
        template = make_bank(tmp_path / f"template-{name}")
        findings = len(validate(Bank.open(template)).findings)
        whole = tmp_path / f"whole-{name}"
        shutil.copytree(template.parent, whole)
        subprocess.run(
            [*command, *argv, "--root", str(whole / "memory_bank")],
            env=child_env(),
            cwd=PROJECT,
            check=True,
            capture_output=True,
        )
        templates[name] = (template, argv, snapshot(template), snapshot(whole / "memory_bank"), findings)
    names = sorted(templates)
    for start in range(0, count, BATCH):
        running = []
        for attempt in range(start, min(start + BATCH, count)):
            name = names[attempt % len(names)]
            template, argv, before, after, findings = templates[name]
            work = tmp_path / f"run-{attempt}"
            shutil.copytree(template.parent, work)
            root = work / "memory_bank"
            process = subprocess.Popen(
                [*command, *argv, "--root", str(root)],
                env=child_env(),
                cwd=PROJECT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            running.append((time.monotonic() + rng.uniform(0, 1.5), process, root, name))
        for deadline, process, _, _ in sorted(running, key=lambda r: r[0]):
            time.sleep(max(0.0, deadline - time.monotonic()))
            process.send_signal(signal.SIGKILL)
        for _, process, root, name in running:
            process.wait()
            _, _, before, after, findings = templates[name]
            outcomes[check_state(root, before, after, findings)] += 1
            shutil.rmtree(root.parent)
    return outcomes


def test_random_kills_of_the_command_line_writer_leave_a_whole_bank(tmp_path):
    outcomes = sigkill_run(tmp_path, count=9, seed=7)
    assert sum(outcomes.values()) == 9


@pytest.mark.slow
def test_two_hundred_random_kills_leave_a_whole_bank(tmp_path):
    """The reliability figure in README: 200 kills at random moments of CLI promotes, folds and
    creates with a new section."""
    outcomes = sigkill_run(tmp_path, count=200, seed=2026)
    print(f"\n200 kills: {outcomes}")
    assert sum(outcomes.values()) == 200
