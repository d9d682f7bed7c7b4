"""The quarantine: promote, discard, listing, where a note went, and owner-gated proposals."""

from __future__ import annotations

import os
import time

import pytest
from memorybank.core.errors import NotADocument, Refusal
from memorybank.core.read import read_document
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.fold import fold
from memorybank.core.write.inbox import discard, list_inbox, promote
from memorybank.core.write.proposals import apply_proposal, propose, reject_proposal

from tests.conftest import tree_snapshot


def capture(
    bank, name="linked.md", body="Depends on [the model](../domain/model.md) and [a dead link](../gone.md).\n", **extra
):
    args = dict(
        doc_kind="domain",
        path=name,
        title="Linked Note",
        purpose="Why the model is shared.",
        inbox=True,
        body=body,
        derived_from=["../domain/model.md"],
        client="claude-code",
    )
    args.update(extra)
    return create(bank, **args)


@pytest.fixture
def with_model(seeded):
    create(
        seeded,
        doc_kind="domain",
        path="domain/model.md",
        title="Document Model",
        purpose="The model.",
        derived_from=["../product/context.md"],
        canonical_for=["document_model"],
        status="active",
    )
    return seeded


def test_promote_places_registers_relinks_and_removes_the_note(with_model):
    capture(with_model)
    result = promote(with_model, path="_inbox/linked.md", to="domain/linked.md")
    assert result.promoted and result.registered_in == ["domain/README.md"]
    text = (with_model.root / "domain/linked.md").read_text()
    assert "[the model](model.md)" in text and "[a dead link](../gone.md)" in text
    assert "Link rewritten for the new location: ../domain/model.md -> model.md" in result.warnings
    assert "Link to a document that does not exist: gone.md (written ../gone.md from the new place)" in result.warnings
    doc = with_model.document("domain/linked.md")
    assert doc.status == "active" and doc.frontmatter["promoted_from"] == "_inbox/linked.md"
    assert [e.resolved for e in doc.derived_from] == ["domain/model.md"]
    assert "captured_by" not in doc.frontmatter and not (with_model.root / "_inbox/linked.md").exists()
    assert {f.rule for f in validate(with_model).findings} == {"broken-link"}


def test_a_broken_link_still_means_what_the_note_meant_one_folder_deeper_and_is_said(with_model):
    """From _inbox/, ../missing/spec.md means missing/spec.md; copied as it was into features/FT-1/ it
    would mean features/missing/spec.md. It is rewritten, and the preview says the target is missing."""
    capture(with_model, body="See [the spec](../missing/spec.md).\n")
    result = promote(with_model, path="_inbox/linked.md", to="features/FT-1/brief.md", doc_kind="feature", dry_run=True)
    assert "../../missing/spec.md" in result.preview
    assert (
        "Link to a document that does not exist: missing/spec.md (written ../../missing/spec.md from the new place)"
        in result.warnings
    )


def test_edges_written_from_the_inbox_are_rewritten_for_a_deeper_destination(with_model):
    capture(with_model, body="Plain body.")
    result = promote(with_model, path="_inbox/linked.md", to="features/FT-1/brief.md", doc_kind="feature")
    assert result.frontmatter["derived_from"] == ["../../domain/model.md"]
    assert validate(with_model).total == 0


def test_asking_for_a_promoted_note_says_where_it_went(with_model):
    capture(with_model, body="x")
    promote(with_model, path="_inbox/linked.md", to="domain/linked.md")
    with pytest.raises(NotADocument, match="was promoted to domain/linked.md"):
        read_document(with_model, "_inbox/linked.md")


def test_promote_runs_the_create_gates_and_refusals_write_nothing(with_model):
    capture(with_model, body="x")
    create(with_model, doc_kind="domain", path="loose.md", title="Loose", purpose="No upstream.", inbox=True)
    before = tree_snapshot(with_model.root)
    cases = [
        (dict(path="domain/README.md", to="domain/x.md"), "Only quarantined documents can be promoted"),
        (dict(to="_inbox/other.md"), "must leave the quarantine"),
        (dict(to="domain/model.md"), "Refusing to overwrite"),
        (dict(to="domain/x.md", canonical_for=["document_model"]), "already owned by domain/model.md"),
        (dict(path="_inbox/loose.md", to="domain/loose.md"), "requires every active non-root document"),
        (dict(to="domain/x.txt"), r"must end in \.md"),
    ]
    for overrides, message in cases:
        args = dict(path="_inbox/linked.md", to="domain/x.md")
        args.update(overrides)
        with pytest.raises(Refusal, match=message):
            promote(with_model, **args)
    assert tree_snapshot(with_model.root) == before


def test_a_note_without_a_kind_needs_one(with_model):
    create(
        with_model, path="bare.md", title="Bare", purpose="No kind.", inbox=True, derived_from=["../domain/model.md"]
    )
    with pytest.raises(Refusal, match="`docKind` is required"):
        promote(with_model, path="_inbox/bare.md", to="domain/bare.md")
    assert promote(with_model, path="_inbox/bare.md", to="domain/bare.md", doc_kind="domain").promoted


def test_promote_dry_run_writes_nothing(with_model):
    capture(with_model, body="x")
    before = tree_snapshot(with_model.root)
    result = promote(with_model, path="_inbox/linked.md", to="domain/linked.md", dry_run=True)
    assert not result.promoted and result.registered_in == ["domain/README.md"]
    assert tree_snapshot(with_model.root) == before


def test_a_promotion_warns_when_the_note_names_a_key_another_document_owns(with_model):
    capture(with_model, name="restated.md", body="The document model is shared by every pane.\n")
    capture(with_model, name="near.md", body="Each document modelled as a tree; see document_models.\n")
    warned = promote(with_model, path="_inbox/restated.md", to="domain/restated.md", dry_run=True).warnings
    assert 'The note names "document_model", which domain/model.md owns: if it restates that fact, fold it there' in (
        " ".join(warned)
    )
    assert not any(
        "document_model" in w for w in promote(with_model, path="_inbox/near.md", to="domain/near.md").warnings
    )


def test_discard_needs_a_reason_and_only_touches_the_inbox(with_model):
    capture(with_model, body="x")
    with pytest.raises(Refusal, match="reason. is required"):
        discard(with_model, path="_inbox/linked.md", reason=" ")
    with pytest.raises(Refusal, match="Only quarantined documents can be discarded"):
        discard(with_model, path="domain/model.md", reason="no")
    with pytest.raises(Refusal, match="fit on one line"):
        discard(with_model, path="_inbox/linked.md", reason="x\ny")
    dry = discard(with_model, path="_inbox/linked.md", reason="dup", dry_run=True)
    assert not dry.discarded and dry.title == "Linked Note" and (with_model.root / "_inbox/linked.md").exists()
    done = discard(with_model, path="memory_bank/_inbox/linked.md", reason="folded into domain/model.md")
    assert (
        done.discarded and done.purpose == "Why the model is shared." and done.reason == "folded into domain/model.md"
    )
    assert not (with_model.root / "_inbox/linked.md").exists() and validate(with_model).total == 0


def test_listing_is_oldest_first_with_age_origin_and_staleness(with_model):
    capture(with_model, name="new.md", body="x")
    capture(with_model, name="old.md", body="x")
    old = with_model.root / "_inbox/old.md"
    text = old.read_text()
    stamp = text.split("captured_at: ")[1].split("\n")[0]
    old.write_text(text.replace(stamp, "'2026-01-01T00:00:00Z'"))
    with_model.refresh()
    entries = list_inbox(with_model, now=time.time())
    assert [e.path for e in entries] == ["_inbox/old.md", "_inbox/new.md"]
    assert entries[0].stale and entries[0].age_days > 14 and entries[0].captured_by == "claude-code"
    assert not entries[1].stale and entries[1].age_days == 0


def test_age_falls_back_to_the_modification_time(seeded, write_file):
    note = write_file(seeded.root, "_inbox/hand.md", "# Hand-written note\n")
    os.utime(note, (time.time() - 3 * 86400, time.time() - 3 * 86400))
    seeded.refresh()
    assert list_inbox(seeded)[0].age_days == 3


def test_a_proposal_is_a_dry_run_recorded_on_the_note(with_model):
    capture(with_model, body="x")
    before_note = (with_model.root / "_inbox/linked.md").read_text()
    result = propose(
        with_model,
        action="promote",
        path="_inbox/linked.md",
        to="domain/linked.md",
        reason="a real fact",
        client="cursor",
    )
    assert result.recorded and result.preview.registered_in == ["domain/README.md"]
    assert not (with_model.root / "domain/linked.md").exists()
    after_note = (with_model.root / "_inbox/linked.md").read_text()
    assert after_note.split("\n---\n", 1)[1] == before_note.split("\n---\n", 1)[1]  # the body is untouched
    entry = list_inbox(with_model)[0]
    assert entry.proposal["action"] == "promote" and entry.proposal["to"] == "domain/linked.md"
    assert entry.proposal["proposed_by"] == "cursor" and entry.proposal["reason"] == "a real fact"
    applied = apply_proposal(with_model, path="_inbox/linked.md")
    assert applied.path == "domain/linked.md" and "proposal" not in with_model.document("domain/linked.md").frontmatter
    assert validate(with_model).total == 0


def test_a_proposal_that_would_be_refused_is_refused_now(with_model):
    capture(with_model, body="x")
    before = tree_snapshot(with_model.root)
    with pytest.raises(Refusal, match="Refusing to overwrite"):
        propose(with_model, action="promote", path="_inbox/linked.md", to="domain/model.md")
    assert tree_snapshot(with_model.root) == before


def test_rejecting_clears_the_proposal_and_keeps_the_note(with_model):
    capture(with_model, body="x")
    propose(with_model, action="discard", path="_inbox/linked.md", reason="duplicate", client="codex")
    rejected = reject_proposal(with_model, path="_inbox/linked.md", note="keep it, it is new")
    assert rejected["action"] == "discard"
    note = with_model.document("_inbox/linked.md")
    assert "proposal" not in note.frontmatter and note.frontmatter["review_note"] == "keep it, it is new"
    with pytest.raises(Refusal, match="carries no proposal to apply"):
        apply_proposal(with_model, path="_inbox/linked.md")
    with pytest.raises(Refusal, match="carries no proposal to reject"):
        reject_proposal(with_model, path="_inbox/linked.md")


def test_an_applied_discard_proposal_keeps_its_reason(with_model):
    capture(with_model, body="x")
    propose(with_model, action="discard", path="_inbox/linked.md", reason="already in domain/model.md", client="codex")
    result = apply_proposal(with_model, path="_inbox/linked.md")
    assert result.discarded and result.reason == "already in domain/model.md"


def test_notes_leave_on_the_record_and_their_old_path_says_how(with_model):
    import json

    capture(with_model, name="gone.md", body="x")
    capture(with_model, name="placed.md", body="x")
    discard(with_model, path="_inbox/gone.md", reason="already in domain/model.md", by="owner")
    promote(with_model, path="_inbox/placed.md", to="domain/placed.md")
    record = [json.loads(line) for line in (with_model.root / "_inbox/.record.jsonl").read_text().splitlines()]
    assert [(e["action"], e["note"]) for e in record] == [
        ("discarded", "_inbox/gone.md"),
        ("promoted", "_inbox/placed.md"),
    ]
    assert record[0]["reason"] == "already in domain/model.md" and record[0]["by"] == "owner" and record[0]["at"]
    assert record[1]["to"] == "domain/placed.md"
    with pytest.raises(NotADocument, match="was discarded at .*: already in domain/model.md"):
        read_document(with_model, "_inbox/gone.md")
    assert "_inbox/.record.jsonl" not in with_model.documents and validate(with_model).total == 0


def test_notes_captured_the_same_day_are_listed_in_capture_order(with_model):
    for name, stamp in (("later.md", "2026-03-01T10:00:00Z"), ("earlier.md", "2026-03-01T09:00:00Z")):
        capture(with_model, name=name, body="x")
        note = with_model.root / "_inbox" / name
        text = note.read_text()
        note.write_text(text.replace(text.split("captured_at: ")[1].split("\n")[0], f"'{stamp}'"))
    with_model.refresh()
    assert [e.path for e in list_inbox(with_model)] == ["_inbox/earlier.md", "_inbox/later.md"]


def test_a_fold_rewrites_the_notes_links_for_the_owners_folder(with_model):
    """The note's text moves from ``_inbox/`` to the owner's folder: a link that reached a document
    from the note still reaches it from the owner (as a promote rewrites them); a dead link still means
    what it meant (gone.md), so validate names it (in an index: a dangling entry) instead of it pointing
    out of the bank unseen."""
    capture(with_model)
    fold(with_model, note="_inbox/linked.md", path="README.md", section="Start Here")
    text = (with_model.root / "README.md").read_text(encoding="utf-8")
    assert "Depends on [the model](domain/model.md) and [a dead link](gone.md)." in text
    capture(with_model, name="again.md", body="See [the spec](../missing/spec.md).\n")
    result = fold(with_model, note="_inbox/again.md", path="README.md", section="Start Here", dry_run=True)
    assert result.warnings == [
        "Link to a document that does not exist: missing/spec.md (written missing/spec.md from the new place)"
    ]
    found = [(f.rule, f.message) for f in validate(with_model).findings if f.path == "README.md"]
    assert [rule for rule, _ in found] == ["dangling-index-entry"] and "gone.md" in found[0][1]


def test_a_note_s_link_to_itself_reaches_where_its_text_went(with_model):
    """Folded, the note is deleted: a link to it would be dead; it reaches the owner instead, and a
    promoted note's reaches the document it became."""
    capture(with_model, body="See [this note](linked.md#why) and [the model](../domain/model.md).\n")
    fold(with_model, note="_inbox/linked.md", path="README.md", section="Start Here")
    text = (with_model.root / "README.md").read_text(encoding="utf-8")
    assert "See [this note](README.md#why) and [the model](domain/model.md)." in text
    capture(with_model, name="again.md", body="See [this note](again.md).\n")
    promote(with_model, path="_inbox/again.md", to="domain/again.md")
    assert "See [this note](again.md)." in (with_model.root / "domain/again.md").read_text(encoding="utf-8")
    assert not [f for f in validate(with_model).findings if f.rule == "broken-link"]


@pytest.mark.parametrize(
    "reason", ["dup\x1b[1A\x1b[2K proposal: none (owner approved)", "x\x00y", "evil\u202etxt", "x" * 5000]
)
def test_a_reason_with_an_escape_sequence_or_past_a_value_s_length_is_refused_on_both_roads(with_model, reason):
    capture(with_model, body="x")
    before = tree_snapshot(with_model.root)
    with pytest.raises(Refusal) as discarding:
        discard(with_model, path="_inbox/linked.md", reason=reason)
    with pytest.raises(Refusal) as proposing:
        propose(with_model, action="discard", path="_inbox/linked.md", reason=reason, client="codex")
    assert {discarding.value.reason, proposing.value.reason} <= {"control-character", "too-large"}
    assert tree_snapshot(with_model.root) == before


def test_a_discarded_note_is_kept_on_the_record_and_restored_byte_for_byte(with_model):
    import json

    from memorybank.core.write.restore import restore

    capture(with_model, body="The body, with a [link](../domain/model.md).\n")
    note = with_model.root / "_inbox/linked.md"
    original = note.read_bytes()
    discard(with_model, path="_inbox/linked.md", reason="typed by mistake")
    assert not note.exists()
    dry = restore(with_model, path="_inbox/linked.md", dry_run=True)
    assert not dry.restored and dry.reason == "typed by mistake" and not note.exists()
    done = restore(with_model, path="linked.md")
    assert done.restored and done.bytes == len(original) and note.read_bytes() == original
    assert with_model.document("_inbox/linked.md").title == "Linked Note"
    record = [json.loads(line) for line in (with_model.root / "_inbox/.record.jsonl").read_text().splitlines()]
    assert [e["action"] for e in record] == ["discarded", "restored"]
    assert validate(with_model).total == 0


def test_a_restore_never_overwrites_and_needs_a_discard_that_kept_the_text(with_model):
    from memorybank.core.write.restore import restore

    with pytest.raises(Refusal) as never:
        restore(with_model, path="_inbox/never.md")
    assert never.value.reason == "not-discarded"
    capture(with_model, body="x")
    discard(with_model, path="_inbox/linked.md", reason="dup")
    capture(with_model, body="a new note at the same path")
    before = tree_snapshot(with_model.root)
    with pytest.raises(Refusal) as taken:
        restore(with_model, path="_inbox/linked.md")
    assert taken.value.reason == "path-taken" and tree_snapshot(with_model.root) == before
    capture(with_model, name="big.md", body="y" * 300_000)
    discard(with_model, path="_inbox/big.md", reason="too big to keep")
    with pytest.raises(Refusal) as lost:
        restore(with_model, path="_inbox/big.md")
    assert lost.value.reason == "not-kept" and not (with_model.root / "_inbox/big.md").exists()
