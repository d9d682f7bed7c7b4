"""Writes land whole or not at all: a fault at every step of a commit, and many writers at once."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import memorybank.core.write.transaction as transaction
import pytest
from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.fold import fold
from memorybank.core.write.inbox import promote
from memorybank.core.write.proposals import apply_proposals, propose

from tests.conftest import PROJECT, tree_snapshot


class Fault(Exception):
    pass


def steps_of(operation, bank_factory) -> list[str]:
    """The checkpoint names one run of ``operation`` passes through."""
    seen: list[str] = []
    bank = bank_factory()
    original = transaction.checkpoint
    transaction.checkpoint = seen.append
    try:
        operation(bank)
    finally:
        transaction.checkpoint = original
    return seen


def no_temp_files(root) -> bool:
    return not [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def check_every_step(operation, make_bank, monkeypatch):
    steps = steps_of(operation, make_bank)
    assert "committed" in steps and any(s.startswith("after-rename") for s in steps)
    for step in steps:
        bank = make_bank()
        before = tree_snapshot(bank.root)

        def boom(name: str, step=step) -> None:
            if name == step:
                raise Fault(step)

        monkeypatch.setattr(transaction, "checkpoint", boom)
        with pytest.raises(Fault):
            operation(bank)
        monkeypatch.setattr(transaction, "checkpoint", lambda name: None)
        assert tree_snapshot(bank.root) == before, f"a fault at {step} left a mix"
        assert no_temp_files(bank.root)
    return steps


def test_a_fault_at_any_step_of_a_create_with_a_new_section_leaves_the_old_bank(tmp_path, monkeypatch):
    counter = iter(range(1000))

    def make_bank() -> Bank:
        root = tmp_path / f"bank{next(counter)}" / "memory_bank"
        init(root, name="Faults")
        return Bank.open(root)

    def operation(bank: Bank) -> None:
        create(
            bank,
            doc_kind="epic",
            path="epics/EP-1/charter.md",
            title="EP-1",
            purpose="An epic.",
            derived_from=["../../dna/principles.md"],
        )

    steps = check_every_step(operation, make_bank, monkeypatch)
    assert any("epics/README.md" in s for s in steps) and any(s.endswith(":README.md") for s in steps)


def test_a_fault_at_any_step_of_a_promotion_leaves_the_old_bank(tmp_path, monkeypatch):
    counter = iter(range(1000))

    def make_bank() -> Bank:
        root = tmp_path / f"bank{next(counter)}" / "memory_bank"
        init(root, name="Faults")
        bank = Bank.open(root)
        create(
            bank,
            doc_kind="domain",
            path="note.md",
            title="Note",
            purpose="A fact.",
            inbox=True,
            derived_from=["../product/context.md"],
        )
        return bank

    def operation(bank: Bank) -> None:
        promote(bank, path="_inbox/note.md", to="domain/note.md")

    steps = check_every_step(operation, make_bank, monkeypatch)
    assert "before-delete:_inbox/note.md" in steps


def inbox_bank(tmp_path, notes=("note.md",), propose_to=None):
    """A fresh bank holding captured notes, each with a promote proposal when ``propose_to`` says where."""
    counter = iter(range(1000))

    def make_bank() -> Bank:
        root = tmp_path / f"bank{next(counter)}" / "memory_bank"
        init(root, name="Faults")
        bank = Bank.open(root)
        for name in notes:
            create(
                bank,
                doc_kind="domain",
                path=name,
                title=name.removesuffix(".md").title(),
                purpose="A fact.",
                inbox=True,
                body="Nightly bursts double the queue.",
                derived_from=["../product/context.md"],
            )
            if propose_to is not None:
                propose(bank, action="promote", path=f"_inbox/{name}", to=f"{propose_to}/{name}", client="agent")
        return bank

    return make_bank


def test_a_fault_at_any_step_of_a_fold_leaves_the_old_bank(tmp_path, monkeypatch):
    """The section change, the record line and the note's removal land together or not at all."""

    def operation(bank: Bank) -> None:
        fold(bank, note="_inbox/note.md", path="product/context.md", section="Problem", mode="append")

    steps = check_every_step(operation, inbox_bank(tmp_path), monkeypatch)
    assert {"after-rename:product/context.md", "after-rename:_inbox/.record.jsonl"} <= set(steps)
    assert "before-delete:_inbox/note.md" in steps


def test_a_fault_at_any_step_of_a_batch_of_proposals_leaves_the_old_bank(tmp_path, monkeypatch):
    """Three promotions applied together: a fault in the last undoes the first two as well."""
    names = ("one.md", "two.md", "three.md")

    def operation(bank: Bank) -> None:
        batch = apply_proposals(bank, [f"_inbox/{n}" for n in names])
        assert not batch.refused

    steps = check_every_step(operation, inbox_bank(tmp_path, names, propose_to="domain"), monkeypatch)
    assert sum(step == "committed" for step in steps) == 3


def test_without_a_fault_the_new_bank_is_whole(tmp_path):
    root = tmp_path / "memory_bank"
    init(root, name="Whole")
    bank = Bank.open(root)
    create(
        bank,
        doc_kind="epic",
        path="epics/EP-1/charter.md",
        title="EP-1",
        purpose="An epic.",
        derived_from=["../../dna/principles.md"],
    )
    assert validate(bank).findings == [] and no_temp_files(root)


WRITER = textwrap.dedent(
    """
    import sys
    from memorybank.core.bank import Bank
    from memorybank.core.write.create import create
    root, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    bank = Bank.open(root)
    for n in range(count):
        create(bank, doc_kind="domain", path=f"domain/w{worker}-{n:03d}.md", title=f"Worker {worker} note {n}",
               purpose=f"Written by worker {worker}.", derived_from=["../product/context.md"])
    """
)


@pytest.mark.slow
def test_processes_creating_in_one_section_lose_no_registration(tmp_path):
    root = tmp_path / "memory_bank"
    init(root, name="Concurrent")
    workers, each = 4, 50
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root), str(w), str(each)],
            cwd=PROJECT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    bank = Bank.open(root)
    index = (root / "domain/README.md").read_text()
    for w in range(workers):
        for n in range(each):
            assert index.count(f"(w{w}-{n:03d}.md)") == 1
    assert len([p for p in bank.documents if p.startswith("domain/w")]) == workers * each
    assert validate(bank).findings == [] and no_temp_files(root)
