"""A write confirmed after a preview lands only on the files the preview read: another process's
edit in between is a refusal, never a silent overwrite (the owner confirmed what they saw)."""

from __future__ import annotations

import pytest
from memorybank.core.errors import Refusal
from memorybank.core.write.create import create
from memorybank.core.write.fold import fold
from memorybank.core.write.fold import plan_fold as fold_planner
from memorybank.core.write.gates import preview
from memorybank.core.write.proposals import apply_proposals, propose

from tests.conftest import tree_snapshot

OWNER = "engineering/testing-policy.md"
SECTION = "what must be tested"


def _note(bank, path="_inbox/parsers.md", body="Round-trip tests caught two bugs.\n"):
    create(
        bank, path=path, title="Parsers need round-trip tests", purpose="Every parser is tested.", body=body, inbox=True
    )
    return path


def _fold_args(note):
    return dict(note=note, path=OWNER, section=SECTION, content="Parsers get round-trip tests.", mode="replace")


def test_a_fold_confirmed_after_another_process_edited_its_owner_is_refused_and_writes_nothing(seeded):
    note = _note(seeded)
    shown = preview(seeded, fold_planner, **_fold_args(note)).plan
    owner = seeded.root / OWNER
    owner.write_bytes(owner.read_bytes() + b"\nA line another process added after the preview.\n")
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match="changed since the preview") as refused:
        fold(seeded, **_fold_args(note), shown=shown)
    assert refused.value.reason == "changed-since-preview" and OWNER in refused.value.message
    assert tree_snapshot(seeded.root) == before  # the outside line kept, the note still in the inbox


def test_a_fold_confirmed_on_the_files_it_previewed_lands(seeded):
    note = _note(seeded)
    shown = preview(seeded, fold_planner, **_fold_args(note)).plan
    result = fold(seeded, **_fold_args(note), shown=shown)
    assert result.folded and not (seeded.root / note).exists()
    assert "Parsers get round-trip tests." in (seeded.root / OWNER).read_text(encoding="utf-8")


def test_a_batch_of_proposals_confirmed_after_a_note_changed_applies_none(seeded):
    first, second = _note(seeded), _note(seeded, "_inbox/second.md", body="Another fact.\n")
    for path in (first, second):
        propose(seeded, action="discard", path=path, reason="duplicate", client="codex")
    previewed = apply_proposals(seeded, [first, second], dry_run=True)
    shown = previewed.outcomes[0].plan + previewed.outcomes[1].plan
    (seeded.root / second).write_text(
        (seeded.root / second).read_text(encoding="utf-8") + "An edit.\n", encoding="utf-8"
    )
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match=second):
        apply_proposals(seeded, [first, second], shown=shown)
    assert tree_snapshot(seeded.root) == before
