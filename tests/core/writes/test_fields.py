"""bank_set_status and bank_set_field: one line changes, through the lifecycle gates."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, Refusal
from memorybank.core.init import materialize_flows
from memorybank.core.validate import validate
from memorybank.core.write.create import create
from memorybank.core.write.fields import set_field, set_status

from tests.conftest import tree_snapshot

POLICY = "engineering/testing-policy.md"


def test_activation_flips_only_the_status_line(seeded):
    create(
        seeded,
        doc_kind="domain",
        path="domain/model.md",
        title="Model",
        purpose="The model.",
        derived_from=["../product/context.md"],
    )
    before = (seeded.root / "domain/model.md").read_text()
    result = set_status(seeded, path="domain/model.md", status="active")
    assert (result.previous, result.status, result.changed) == ("draft", "active", True)
    assert (seeded.root / "domain/model.md").read_text() == before.replace("status: draft", "status: active")
    assert validate(seeded).total == 0


def test_a_transition_to_the_current_status_is_a_no_op(seeded):
    before = tree_snapshot(seeded.root)
    assert not set_status(seeded, path=POLICY, status="draft").changed
    assert tree_snapshot(seeded.root) == before


def test_a_no_op_on_the_root_is_a_no_op_not_a_refusal(seeded):
    """The reference ran the derived_from gate before its no-change check and refused this."""
    assert not set_status(seeded, path="dna/principles.md", status="active").changed


def test_activating_without_derived_from_is_refused_and_the_file_kept(seeded):
    create(seeded, doc_kind="domain", path="domain/loose.md", title="Loose", purpose="No upstream.")
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match="derived_from"):
        set_status(seeded, path="domain/loose.md", status="active")
    assert tree_snapshot(seeded.root) == before


def test_status_refusals(seeded):
    materialize_flows(seeded)
    create(seeded, doc_kind="domain", path="n.md", title="N", purpose="n.", inbox=True)
    with pytest.raises(Refusal, match="bank_promote"):
        set_status(seeded, path="_inbox/n.md", status="active")
    with pytest.raises(Refusal, match="template"):
        set_status(seeded, path="flows/templates/adr/ADR-ID.md", status="archived")
    with pytest.raises(NotADocument, match="Not a document of this bank"):
        set_status(seeded, path="nope.md", status="active")
    with pytest.raises(Refusal, match="belongs to archiving"):
        set_status(seeded, path=POLICY, status="active", release_canonical=True)


def test_archiving_an_owner_needs_release_canonical(seeded):
    create(
        seeded,
        doc_kind="domain",
        path="domain/old.md",
        title="Old",
        purpose="Retiring.",
        derived_from=["../product/context.md"],
        canonical_for=["retirement_test_key"],
        status="active",
    )
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal, match='still owns "retirement_test_key"'):
        set_status(seeded, path="domain/old.md", status="archived")
    assert tree_snapshot(seeded.root) == before
    dry = set_status(seeded, path="domain/old.md", status="archived", release_canonical=True, dry_run=True)
    assert (dry.changed, dry.status, dry.released) == (False, "archived", ["retirement_test_key"])
    assert tree_snapshot(seeded.root) == before
    done = set_status(seeded, path="domain/old.md", status="archived", release_canonical=True)
    text = (seeded.root / "domain/old.md").read_text()
    assert (
        done.released == ["retirement_test_key"] and "canonical_for" not in text and "retirement_test_key" not in text
    )
    assert "status: archived" in text and "# Old" in text
    create(
        seeded,
        doc_kind="domain",
        path="domain/new.md",
        title="New",
        purpose="Successor.",
        derived_from=["../product/context.md"],
        canonical_for=["retirement_test_key"],
    )
    assert validate(seeded).total == 0


def test_release_removes_a_column_zero_block_list(tmp_path, write_file):
    """A block list written at column 0 (as many YAML writers do) is removed whole."""
    write_file(tmp_path, "a.md", "---\ntitle: A\ncanonical_for:\n- k1\n- k2\nstatus: active\n---\n# A\n")
    bank = Bank.open(tmp_path)
    set_status(bank, path="a.md", status="archived", release_canonical=True)
    assert (tmp_path / "a.md").read_text() == "---\ntitle: A\nstatus: archived\n---\n# A\n"


def fresh(tmp_path, write_file, head: str) -> Bank:
    write_file(
        tmp_path, "dna/frontmatter.md", "---\ntitle: F\n---\n| `delivery_status` | enum | `planned` / `done` |\n"
    )
    write_file(
        tmp_path,
        "README.md",
        "---\ntitle: I\ndoc_function: index\n---\n- [Doc](doc.md) — Read before the release.\n- [F](dna/frontmatter.md)\n",
    )
    write_file(tmp_path, "doc.md", f"---\n{head}---\n# Doc\n\nBody.\n")
    return Bank.open(tmp_path)


@pytest.mark.parametrize(
    "head, field, value, line",
    [
        (
            "purpose: 'Old.'\n",
            "purpose",
            "Read before the owner's release",
            "purpose: 'Read before the owner''s release'",
        ),
        ('purpose: "Old."\n', "purpose", 'Read "second".', 'purpose: "Read \\"second\\"."'),
        ("purpose: Old.\n", "purpose", "Read when: the build breaks", 'purpose: "Read when: the build breaks"'),
        ("reviewed_on: x\n", "reviewed_on", "2026-09-14", 'reviewed_on: "2026-09-14"'),
        ("reviewed_on: 2026-09-01\n", "reviewed_on", "2026-09-14", "reviewed_on: 2026-09-14"),
        ("purpose: >-\n  folded\n  value\nstatus: draft\n", "purpose", "One line.", "purpose: One line."),
        ("title: Doc\n", "owner", "platform", "owner: platform"),
        # strings under YAML 1.2, not under the 1.1 of PyYAML, python-frontmatter and Ruby's Psych
        ("title: Doc\n", "owner", "yes", 'owner: "yes"'),
        ("purpose: Old.\n", "purpose", "off", 'purpose: "off"'),
        ("title: Doc\n", "window", "1:30", 'window: "1:30"'),
    ],
)
def test_set_field_quoting(tmp_path, write_file, head, field, value, line):
    bank = fresh(tmp_path, write_file, head)
    before = (tmp_path / "doc.md").read_text()
    result = set_field(bank, path="doc.md", field=field, value=value)
    after = (tmp_path / "doc.md").read_text()
    assert result.line == line and line in after.split("\n")
    assert bank.document("doc.md").frontmatter[field] is not None
    assert str(bank.document("doc.md").frontmatter[field]) == value
    assert after.split("---\n", 2)[2] == before.split("---\n", 2)[2]  # the body is untouched


def test_purpose_and_title_carry_into_index_entries_that_repeated_them(tmp_path, write_file):
    bank = fresh(tmp_path, write_file, "title: Doc\npurpose: Read before the release.\n")
    result = set_field(bank, path="doc.md", field="purpose", value="Read before any release.")
    assert result.indexes == ["README.md"] and "— Read before any release." in (tmp_path / "README.md").read_text()
    titled = set_field(bank, path="doc.md", field="title", value="The Doc")
    assert titled.heading and "# The Doc" in (tmp_path / "doc.md").read_text()
    assert "[The Doc](doc.md)" in (tmp_path / "README.md").read_text()


def test_a_hand_written_summary_is_left_alone(tmp_path, write_file):
    bank = fresh(tmp_path, write_file, "title: Doc\npurpose: Something else entirely.\n")
    assert set_field(bank, path="doc.md", field="purpose", value="New.").indexes == []


def test_same_value_is_unchanged_and_dry_run_writes_nothing(tmp_path, write_file):
    bank = fresh(tmp_path, write_file, "title: Doc\npurpose: Read before the release.\n")
    before = tree_snapshot(tmp_path)
    assert not set_field(bank, path="doc.md", field="purpose", value="Read before the release.").changed
    dry = set_field(bank, path="doc.md", field="purpose", value="Changed.", dry_run=True)
    assert not dry.changed and dry.indexes == ["README.md"]
    assert tree_snapshot(tmp_path) == before


def test_set_field_refusals(tmp_path, write_file):
    bank = fresh(tmp_path, write_file, "title: Doc\ntags:\n  - a\nderived_from:\n  - README.md\n")
    cases = [
        ("status", "active", "bank_set_status"),
        ("doc_kind", "x", "re-creating"),
        ("doc_function", "x", "re-creating"),
        ("derived_from", "x", "is a list: pass the whole of it"),
        ("canonical_for", "x", "is a list"),
        ("tags", "x", "list or a mapping"),
        ("delivery_status", "shipped", "Allowed: done | planned"),
        ("purpose", " ", "empty"),
        ("purpose", "two\nlines", "one line"),
        ("two words", "x", "not a frontmatter key"),
        ("promoted_from", "x", "recorded by the server"),
        ("purpose", "token ghp_" + "a" * 36, "GitHub token"),
        ("review_note", "approved", "the owner's"),
        ("Status", "active", "only in case"),
        ("Canonical_For", "x", "only in case"),
    ]
    before = tree_snapshot(tmp_path)
    for field, value, message in cases:
        with pytest.raises(Refusal, match=message):
            set_field(bank, path="doc.md", field=field, value=value)
    assert tree_snapshot(tmp_path) == before
    with pytest.raises(NotADocument):
        set_field(bank, path="nope.md", field="purpose", value="x")


def test_a_purpose_spelled_inside_the_link_is_replaced_in_the_summary_only(tmp_path, write_file):
    write_file(tmp_path, "README.md", "# Bank\n\n- [`Gateway`](api-gateway.md) — api\n")
    write_file(tmp_path, "api-gateway.md", "---\ntitle: Gateway\npurpose: api\n---\n# Gateway\n")
    bank = Bank.open(tmp_path)
    set_field(bank, path="api-gateway.md", field="purpose", value="How requests reach the services")
    assert (tmp_path / "README.md").read_text() == (
        "# Bank\n\n- [`Gateway`](api-gateway.md) — How requests reach the services\n"
    )


def test_a_list_is_set_whole_through_the_gates_its_meaning_carries(seeded):
    """An agent could not change derived_from or canonical_for at all ("change it by hand"), so a
    cycle validate reported, or a missing upstream, could not be fixed through the tools."""
    before = (seeded.root / POLICY).read_text(encoding="utf-8")
    dry = set_field(
        seeded, path=POLICY, field="derived_from", value=["../dna/governance.md", "../product/context.md"], dry_run=True
    )
    assert (dry.previous, dry.value, dry.changed) == (
        "[../dna/governance.md]",
        "[../dna/governance.md, ../product/context.md]",
        False,
    )
    assert (seeded.root / POLICY).read_text(encoding="utf-8") == before
    done = set_field(seeded, path=POLICY, field="derived_from", value=["../dna/governance.md", "../product/context.md"])
    assert done.changed and (seeded.root / POLICY).read_text(encoding="utf-8") == before.replace(
        "  - ../dna/governance.md\n", "  - ../dna/governance.md\n  - ../product/context.md\n"
    )
    assert validate(Bank.open(seeded.root)).total == 0
    same = set_field(seeded, path=POLICY, field="derived_from", value=["../dna/governance.md", "../product/context.md"])
    assert not same.changed
    untouched = tree_snapshot(seeded.root)
    for field, value, reason in (
        ("derived_from", ["../nope.md"], "unresolved-derived-from"),
        ("derived_from", ["../dna/governance.md", "../dna/governance.md"], "duplicate-key"),
        ("canonical_for", ["required_test_coverage"], "key-owned"),  # testing-policy owns it
        ("derived_from", "../dna/governance.md", "list-field"),  # a string for a list: the whole list, please
    ):
        with pytest.raises(Refusal) as refused:
            set_field(seeded, path="product/context.md", field=field, value=value)
        assert refused.value.reason == reason, (field, value)
    with pytest.raises(Refusal, match="would close a cycle") as cycle:  # policy rests on context already
        set_field(seeded, path="product/context.md", field="derived_from", value=["../engineering/testing-policy.md"])
    assert cycle.value.reason == "cycle"
    with pytest.raises(Refusal) as owned:
        set_field(seeded, path=POLICY, field="must_not_define", value=["required_test_coverage"])
    assert owned.value.reason == "must-not-define"
    assert tree_snapshot(seeded.root) == untouched


def test_an_active_document_keeps_the_derived_from_its_contract_asks_for(seeded):
    set_status(seeded, path=POLICY, status="active")
    with pytest.raises(Refusal, match="give value the documents it rests on, or move it to draft") as refused:
        set_field(seeded, path=POLICY, field="derived_from", value=[])
    assert refused.value.reason == "missing-derived-from"
    keys = set_field(seeded, path=POLICY, field="canonical_for", value=["required_test_coverage"])
    assert keys.line == "canonical_for:\n  - required_test_coverage"
    assert "manual_verification_policy" not in (seeded.root / POLICY).read_text(encoding="utf-8")
    assert validate(Bank.open(seeded.root)).total == 0


def test_an_upstream_already_in_a_cycle_does_not_block_taking_the_cycles_other_edges_out(seeded):
    """zelma's ADR-001 rests on two documents that rest on it: dropping either edge was refused
    as closing the cycle the other still made, so no write could start fixing it."""
    set_field(seeded, path=POLICY, field="derived_from", value=["../dna/governance.md", "../product/context.md"])
    context = seeded.root / "product" / "context.md"
    text = context.read_text(encoding="utf-8")
    start = text.index("derived_from:")
    end = text.index("\n", text.index("\n", start) + 1)  # the key and its first item
    context.write_text(
        text[:start] + "derived_from:\n  - ../engineering/testing-policy.md\n  - ../dna/governance.md" + text[end:],
        encoding="utf-8",
    )
    bank = Bank.open(seeded.root)
    assert [f.rule for f in validate(bank).findings if f.rule == "cycle-in-derived-from"]
    kept = set_field(bank, path="product/context.md", field="derived_from", value=["../engineering/testing-policy.md"])
    assert kept.changed
    fixed = set_field(bank, path=POLICY, field="derived_from", value=["../dna/governance.md"])
    assert fixed.changed and not [
        f for f in validate(Bank.open(seeded.root)).findings if f.rule == "cycle-in-derived-from"
    ]


def test_a_list_holds_no_invisible_key_no_made_up_outside_upstream_and_no_upstream_twice(seeded, write_file):
    untouched = tree_snapshot(seeded.root)
    for field, value, reason in (
        ("canonical_for", ["required_test_coverage\u200b"], "invisible-character"),  # reads as testing-policy's key
        ("canonical_for", ["Required_Test_Coverage"], "key-owned"),  # so does a case variant
        ("canonical_for", ["r\u0435quired_test_coverage"], "key-owned"),  # and a Cyrillic е
        ("derived_from", ["../../nonexistent.md"], "unresolved-derived-from"),
        ("derived_from", ["../../../../../../../../etc/passwd"], "unresolved-derived-from"),  # outside the project
        ("derived_from", ["../dna/governance.md", "../dna/./governance.md"], "duplicate-key"),
    ):
        with pytest.raises(Refusal) as refused:
            set_field(seeded, path="product/context.md", field=field, value=value)
        assert refused.value.reason == reason, (field, value)
    assert tree_snapshot(seeded.root) == untouched
    write_file(seeded.root.parent, "src/README.md", "# Source\n")  # a file of the project, outside the bank
    done = set_field(
        seeded, path="product/context.md", field="derived_from", value=["../dna/governance.md", "../../src/README.md"]
    )
    assert done.changed and done.warnings == [
        'derived_from "../../src/README.md" points outside the bank; it will not be checked.'
    ]


def test_a_list_whose_items_are_set_apart_by_blank_lines_is_replaced_whole(seeded):
    path = seeded.root / POLICY
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("status: draft\n", "status: draft\nmust_not_define:\n- k1\n\n- k2\n"), encoding="utf-8"
    )
    done = set_field(Bank.open(seeded.root), path=POLICY, field="must_not_define", value=["k1", "k3"])
    assert done.changed and "must_not_define:\n  - k1\n  - k3\n" in path.read_text(encoding="utf-8")
    assert "k2" not in path.read_text(encoding="utf-8")


def test_no_document_rests_on_a_captured_note_or_a_template(seeded):
    create(seeded, title="A note", purpose="Seen once.", inbox=True, body="x")
    materialize_flows(seeded)
    for upstream in ("../_inbox/a-note.md", "../flows/templates/adr/ADR-ID.md"):
        with pytest.raises(Refusal, match="a document rests on documents of the bank"):
            set_field(seeded, path="product/context.md", field="derived_from", value=[upstream])


def test_a_new_title_that_renames_the_h1_names_the_links_left_on_its_old_anchor(tmp_path, write_file):
    write_file(tmp_path, "doc.md", "---\ntitle: Target Doc\npurpose: p.\n---\n# Target Doc\n\nText.\n")
    write_file(tmp_path, "a.md", "# A\n\n[top](doc.md#target-doc)\n")
    bank = Bank.open(tmp_path)
    for dry_run in (True, False):
        result = set_field(bank, path="doc.md", field="title", value="Target Document", dry_run=dry_run)
        assert result.heading and result.warnings == [
            "No heading of doc.md has the anchor #target-doc any more, and 1 link still points at it: a.md:3. "
            "Point it at #target-document."
        ]
