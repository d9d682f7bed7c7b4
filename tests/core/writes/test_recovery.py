"""Operations survive ``kill -9``: a process killed at any moment of a write leaves a journal, and
the next process to open the bank (reading or writing) puts the bank back as it was.

Three kinds of kill: at every named step of a commit (deterministic, in a child process that calls
``os._exit`` there); at random moments of the command-line writer's run (``SIGKILL``, drawn over the
length of the write, in writers forked from a process that imported the command line once, so the
kill lands in the write: between renames, after the last one); and at random moments of whole
interpreters (in their start-up too). After
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


FORKER = textwrap.dedent(
    """
    import json, os, signal, sys, time
    from memorybank.tui.cli.main import build_parser, main
    # What the writers import lazily, imported once here so that each forked writer starts at
    # main() and a random kill lands in the write itself, not in the interpreter's start-up.
    import memorybank.core.write.create, memorybank.core.write.fold, memorybank.core.write.inbox
    import memorybank.core.validate
    build_parser()
    null = os.open(os.devnull, os.O_WRONLY)
    for line in sys.stdin:
        started = []
        for argv, delay in json.loads(line):
            begun = time.monotonic()
            pid = os.fork()
            if pid == 0:
                os.dup2(null, 1)
                os.dup2(null, 2)
                try:
                    code = main(argv)
                except SystemExit as stop:
                    code = stop.code
                os._exit(code if isinstance(code, int) else 1)
            started.append((begun + delay, begun, pid))
        ends = {}
        for deadline, begun, pid in sorted(started):
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() >= deadline:
                    os.kill(pid, signal.SIGKILL)
                    _, status = os.waitpid(pid, 0)
                    break
                time.sleep(min(0.002, max(0.0, deadline - time.monotonic())))
            ends[pid] = [os.waitstatus_to_exitcode(status), time.monotonic() - begun]
        print(json.dumps([ends[pid] for _, _, pid in started]), flush=True)
    """
)


class Writers:
    """A process that has imported the command line once and forks one writer per job, then kills
    each at its moment with ``SIGKILL``; answers each batch with the exit codes (``-9`` for a kill)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", FORKER],
            env=child_env(),
            cwd=PROJECT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, jobs: list[tuple[list[str], float]]) -> list[tuple[int, float]]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(jobs) + "\n")
        self.process.stdin.flush()
        return [tuple(end) for end in json.loads(self.process.stdout.readline())]

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=30)


def sigkill_run(tmp_path: Path, count: int, seed: int) -> dict[str, int]:
    """``count`` command-line writes killed at random moments of their run; returns how many ended in
    each state. Each writer is forked from a process that imported the command line once, and is
    killed at a moment drawn from 0 to 1.2 times the length of the same write left whole (stretched
    by how many writers share each core)."""
    rng = random.Random(seed)
    outcomes = {"before": 0, "after": 0}
    writers = Writers()
    templates = {}
    try:
        for name, (_operation, argv) in OPERATIONS.items():
            if argv is None:
                continue
            template = make_bank(tmp_path / f"template-{name}")
            findings = len(validate(Bank.open(template)).findings)
            whole = tmp_path / f"whole-{name}"
            shutil.copytree(template.parent, whole)
            ((code, took),) = writers.run([([*argv, "--root", str(whole / "memory_bank")], 600.0)])
            assert code == 0, f"{name} failed whole"
            templates[name] = (template, argv, snapshot(template), snapshot(whole / "memory_bank"), findings, took)
        names = sorted(templates)
        for start in range(0, count, BATCH):
            jobs, roots = [], []
            batch = range(start, min(start + BATCH, count))
            sharing = max(1.0, len(batch) / (os.cpu_count() or 1))  # writers at once share the cores
            for attempt in batch:
                name = names[attempt % len(names)]
                template, argv, *_, took = templates[name]
                work = tmp_path / f"run-{attempt}"
                shutil.copytree(template.parent, work)
                jobs.append(([*argv, "--root", str(work / "memory_bank")], rng.uniform(0, 1.2 * took * sharing)))
                roots.append((work / "memory_bank", name))
            for (code, _), (root, name) in zip(writers.run(jobs), roots, strict=True):
                assert code in (0, -signal.SIGKILL), f"a writer failed on its own: exit {code}"
                _, _, before, after, findings, _ = templates[name]
                outcomes[check_state(root, before, after, findings)] += 1
                shutil.rmtree(root.parent)
    finally:
        writers.close()
    return outcomes


def test_cold_command_line_writers_killed_at_random_leave_a_whole_bank(tmp_path):
    """Whole interpreters, killed 0-1.5 s after they start: in the start-up or in the write."""
    rng = random.Random(7)
    command = [sys.executable, "-m", "memorybank"]
    names = [name for name, (_, argv) in OPERATIONS.items() if argv is not None]
    for number in range(6):
        name = names[number % len(names)]
        argv = OPERATIONS[name][1]
        template = make_bank(tmp_path / f"template-{number}")
        before, findings = snapshot(template), len(validate(Bank.open(template)).findings)
        whole = tmp_path / f"whole-{number}"
        shutil.copytree(template.parent, whole)
        subprocess.run(
            [*command, *argv, "--root", str(whole / "memory_bank")], env=child_env(), check=True, capture_output=True
        )
        process = subprocess.Popen(
            [*command, *argv, "--root", str(template)],
            env=child_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0, 1.5))
        process.send_signal(signal.SIGKILL)
        process.wait()
        check_state(template, before, snapshot(whole / "memory_bank"), findings)


def test_random_kills_of_the_command_line_writer_leave_a_whole_bank(tmp_path):
    outcomes = sigkill_run(tmp_path, count=24, seed=7)
    assert sum(outcomes.values()) == 24
    assert outcomes["before"] and outcomes["after"], outcomes  # kills land inside the writes, not only around them


@pytest.mark.slow
def test_two_hundred_random_kills_leave_a_whole_bank(tmp_path):
    """The reliability figure in README: 200 kills at random moments of command-line promotes, folds
    and creates with a new section."""
    outcomes = sigkill_run(tmp_path, count=200, seed=2026)
    print(f"\n200 kills: {outcomes}")
    assert sum(outcomes.values()) == 200


@pytest.mark.parametrize(
    "entry",
    [
        {"path": "domain/README.md/x.md", "temp": "domain/README.md/.x.md.1.ab.tmp", "absent": True},
        {"path": "domain/" + "a" * 300 + ".md", "temp": "domain/." + "a" * 300 + ".md.1.ab.tmp", "absent": True},
    ],
    ids=["under-a-file", "name-too-long"],
)
def test_a_journal_naming_files_that_cannot_exist_is_undone_not_repeated_forever(tmp_path, entry):
    """A temporary file that could never be created (its folder is a file, its name too long) was
    never written: undoing the operation passes over it, and the bank opens and writes again."""
    root = tmp_path / "memory_bank"
    init(root, name="t")
    folder = journal.state_dir(root, create=True)
    (folder / journal.JOURNAL).write_text(json.dumps({"started": NOW, "pid": 1, "entries": [entry]}))
    assert journal.recover(root) == []
    assert not journal.pending(root)
    bank = Bank.open(root)
    create(bank, doc_kind="domain", path="domain/after.md", title="After", purpose="p")
    assert "domain/after.md" in bank
