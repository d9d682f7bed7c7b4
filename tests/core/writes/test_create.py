"""bank_create: templates, frontmatter, registration in every index shape, lazy sections, gates.

Every refusal is checked twice: for its message, and for leaving every file of the bank
byte-identical (no partial document, no orphan index line, no lazily created section).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memorybank.core import yamlio
from memorybank.core.bank import Bank
from memorybank.core.errors import PathRefused, Refusal, UsageError
from memorybank.core.parse import split_frontmatter
from memorybank.core.validate import validate
from memorybank.core.write.create import create

from tests.conftest import REAL_BANKS, checkout, tree_snapshot


def front_of(bank, path):
    text = (bank.root / path).read_text()
    return yamlio.load(split_frontmatter(text).yaml_text), text


def test_the_bank_template_is_unwrapped_retitled_and_its_governance_carried(fixture_copy):
    result = create(
        fixture_copy,
        doc_kind="adr",
        path="adr/ADR-005-y.md",
        title="ADR-005: Y",
        purpose="Why Y.",
        derived_from=["../domain/rules.md"],
    )
    assert result.template == "flows/templates/adr/ADR-ID.md"
    front, text = front_of(fixture_copy, "adr/ADR-005-y.md")
    assert front["doc_function"] == "canonical" and front["title"] == "ADR-005: Y"
    assert front["decision_status"] == "proposed" and front["must_not_define"] == ["current_system_state"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", front["date"])
    assert "template_for" not in front and "template_target_path" not in front
    assert "## Context" in text and "# ADR-005: Y" in text and "Wrapper Notes" not in text
    assert front["derived_from"] == ["../domain/rules.md"]  # the template's placeholder edge is dropped
    assert list(front)[:4] == ["title", "doc_kind", "doc_function", "purpose"]


def test_a_purpose_with_a_colon_is_quoted_and_reads_back(fixture_copy):
    create(
        fixture_copy,
        doc_kind="domain",
        path="domain/x.md",
        title="X",
        purpose="Read when: the build breaks",
        derived_from=["rules.md"],
    )
    front, text = front_of(fixture_copy, "domain/x.md")
    assert front["purpose"] == "Read when: the build breaks" and "purpose: 'Read when: the build breaks'" in text
    assert fixture_copy.document("domain/x.md").parse_error is None


@pytest.mark.parametrize("value", ["1e3", "0o17", "1.0e3", "+1e3", "-1e-3", "0x1F", ".inf", "2026-12-02", "1:30"])
def test_a_value_the_reader_would_take_for_a_number_or_a_date_is_quoted(fixture_copy, value):
    create(
        fixture_copy,
        doc_kind="domain",
        path="domain/x.md",
        title=value,
        purpose=value,
        derived_from=["rules.md"],
        extra={"owner": value},
    )
    front, _text = front_of(fixture_copy, "domain/x.md")
    assert (front["title"], front["purpose"], front["owner"]) == (value, value, value)


@settings(max_examples=300)
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=40))
def test_any_one_line_string_reads_back_as_written(value):
    assert yamlio.load(yamlio.dump({"title": value}))["title"] == value


def test_registration_copies_a_table_row_with_backticked_labels(fixture_copy):
    create(
        fixture_copy,
        doc_kind="adr",
        path="adr/ADR-005-y.md",
        title="ADR-005: Y",
        purpose="Why Y.",
        derived_from=["ADR-001-queue-choice.md"],
    )
    index = (fixture_copy.root / "adr/README.md").read_text().splitlines()
    assert index[-1] == "| [`ADR-005: Y`](ADR-005-y.md) | Why Y. |"


def test_a_registry_table_gets_each_value_in_the_column_its_header_names(seeded, write_file):
    """zelma's use-case registry labels each row by its identifier and gives the title, status and
    more their own columns: a new row put the title in the ID column and the purpose under Title."""
    write_file(
        seeded.root,
        "use-cases/README.md",
        "---\ntitle: Use Cases\ndoc_kind: use_case\ndoc_function: index\npurpose: The use cases.\n"
        "derived_from:\n  - ../dna/governance.md\nstatus: active\n---\n# Use Cases\n\n"
        "| UC ID | Title | Status | Summary | Review status |\n| --- | --- | --- | --- | --- |\n"
        "| [`UC-001`](UC-001-search.md) | Search | `active` | Find a book. | `ok` |\n",
    )
    write_file(seeded.root, "use-cases/UC-001-search.md", "---\ntitle: Search\n---\n# Search\n")
    create(
        Bank.open(seeded.root),
        doc_kind="use_case",
        path="use-cases/UC-002-export.md",
        title="UC-002: Export | share",
        purpose="Take the books out.",
        derived_from=["../product/context.md"],
    )
    row = (seeded.root / "use-cases/README.md").read_text().splitlines()[-1]
    assert row == "| [`UC-002`](UC-002-export.md) | Export \\| share | `draft` | Take the books out. |  |"


def test_registration_copies_a_bullet_after_the_last_sibling(fixture_copy):
    result = create(
        fixture_copy,
        doc_kind="domain",
        path="domain/limits.md",
        title="Domain Limits",
        purpose="Canonical limits.",
        derived_from=["rules.md"],
    )
    assert result.registered_in == ["domain/README.md"]
    assert "- [`Domain Limits`](limits.md) — Canonical limits." in (fixture_copy.root / "domain/README.md").read_text()


def test_registration_continues_a_numbered_list(tmp_path, write_file):
    from memorybank.core.bank import Bank

    write_file(tmp_path, "README.md", "# Index\n\n1. [A](a.md) — a\n2. [B](b.md) — b\n\nTrailing prose.\n")
    write_file(tmp_path, "a.md", "# A\n")
    write_file(tmp_path, "b.md", "# B\n")
    bank = Bank.open(tmp_path)
    create(bank, doc_kind="note", path="c.md", title="C", purpose="c.")
    assert (
        tmp_path / "README.md"
    ).read_text() == "# Index\n\n1. [A](a.md) — a\n2. [B](b.md) — b\n3. [C](c.md) — c.\n\nTrailing prose.\n"


def test_a_new_package_is_registered_among_the_package_folders_an_index_lists(tmp_path, write_file):
    """An index listing its packages by folder (``[FT-001/](FT-001/)``) gets a new package's document
    after the last of them, labelled as they are, not after a later prose bullet that links one
    document and its continuation bullet (the shop bot's ``features/README.md``)."""
    from memorybank.core.bank import Bank

    index = (
        "# Features\n\n## Current State\n\n"
        "- [`FT-001/`](FT-001/) — checkout.\n"
        "- [`FT-002/`](FT-002/) — payment.\n"
        "- Early work moved to [`legacy/README.md`](legacy/README.md).\n"
        "- Its contracts now live in `domain/*`.\n"
    )
    write_file(tmp_path, "features/README.md", index)
    for path in ("features/FT-001/feature.md", "features/FT-002/feature.md", "features/legacy/README.md"):
        write_file(tmp_path, path, "# Doc\n")
    bank = Bank.open(tmp_path)
    create(bank, doc_kind="feature", path="features/FT-003/feature.md", title="FT-003", purpose="Returns.")
    assert (tmp_path / "features/README.md").read_text() == index.replace(
        "payment.\n", "payment.\n- [`FT-003`](FT-003/feature.md) — Returns.\n"
    )


def test_a_purpose_never_lands_in_a_column_whose_cells_hold_links(tmp_path, write_file):
    """feedium's feature registry: after the package link comes an "Upstream PRD" column of links,
    not a sentence; the purpose is left out of it (the document itself still says it)."""
    from memorybank.core.bank import Bank

    header = "| Feature | Package | Upstream PRD | Status |\n|---|---|---|---|\n"
    row = "| `FT-001` Setup | [FT-001-setup/](FT-001-setup/) | [PRD-001](../prd/PRD-001.md) | done |\n"
    write_file(tmp_path, "features/index.md", "---\ntitle: F\ndoc_function: index\n---\n# F\n\n" + header + row)
    write_file(tmp_path, "features/FT-001-setup/brief.md", "# B\n")
    write_file(tmp_path, "prd/PRD-001.md", "# P\n")
    bank = Bank.open(tmp_path)
    create(bank, doc_kind="feature", path="features/FT-002-cache/brief.md", title="FT-002 Cache", purpose="A cache.")
    last = (tmp_path / "features/index.md").read_text().splitlines()[-1]
    assert last == "|  | [FT-002 Cache](FT-002-cache/brief.md) |  | draft |"


def test_the_first_registration_removes_the_empty_placeholder(seeded):
    create(
        seeded,
        doc_kind="use_case",
        path="use-cases/UC-001-search.md",
        title="UC-001: Search",
        purpose="How people search.",
        derived_from=["../product/context.md"],
    )
    text = (seeded.root / "use-cases/README.md").read_text()
    assert "Empty. A first document" not in text and "[UC-001: Search](UC-001-search.md)" in text
    assert validate(seeded).total == 0


def test_a_refused_write_changes_no_byte_of_the_bank(fixture_copy):
    cases = [
        (dict(path="domain/rules.md"), Refusal, "Refusing to overwrite"),
        (dict(derived_from=["../does-not-exist.md"]), Refusal, "does not resolve to a document of this bank"),
        (dict(derived_from=["domain/rules.md"]), Refusal, "relative to the document: rules.md reaches domain/rules.md"),
        (dict(canonical_for=["filter_thresholds"]), Refusal, r"already owned by conflict\.md, domain/rules\.md"),
        (dict(path="../escape.md"), PathRefused, "must stay inside the bank"),
        (dict(path="domain/notes.txt"), Refusal, r"must end in \.md"),
        (dict(purpose="  "), Refusal, "`purpose` is required"),
        (dict(title=""), Refusal, "`title` is required"),
        (
            dict(status="active", derived_from=[]),
            Refusal,
            "non-root document to declare derived_from: give derivedFrom",
        ),
        (dict(canonical_for=["k"], must_not_define=["k"]), Refusal, "also in must_not_define"),
        (dict(extra={"status": "active"}), Refusal, "cannot set status"),
        (dict(extra={"review_note": "Approved by the owner"}), Refusal, "only the bank's owner writes it"),
        (dict(extra={"Status": "active"}), Refusal, "cannot set Status"),
        (dict(extra={"Review_Note": "Approved"}), Refusal, "cannot set Review_Note"),
        (dict(status="archived", canonical_for=["squatted_key"]), Refusal, "born archived while owning"),
        (dict(body="Deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n"), Refusal, "private key"),
        (dict(body="# New\n\n... existing content ...\n"), Refusal, "instead of holding the content"),
        (dict(body="x", body_file="/tmp/x.md"), UsageError, "either body or bodyFile"),
        (dict(body_file="/no/such/file.md"), Refusal, "outside the project"),
        (dict(body_file="no-such-file.md", cwd=fixture_copy.root), Refusal, "No such file"),
        (dict(doc_kind=""), Refusal, "`docKind` is required"),
    ]
    before = tree_snapshot(fixture_copy.root)
    for overrides, error, pattern in cases:
        args = dict(
            doc_kind="domain", path="domain/new.md", title="New", purpose="A new document.", derived_from=["rules.md"]
        )
        args.update(overrides)
        with pytest.raises(error, match=pattern):
            create(fixture_copy, **args)
        assert tree_snapshot(fixture_copy.root) == before, overrides


def test_an_unindexed_file_in_the_way_is_not_overwritten(fixture_copy):
    (fixture_copy.root / "domain" / "stray.md.txt").write_text("x")
    (fixture_copy.root / "domain" / "hidden").mkdir()
    target = fixture_copy.root / "notes.md"
    target.symlink_to(fixture_copy.root / "nowhere.md")  # a dangling link the walk does not index
    with pytest.raises(Refusal, match="not indexed"):
        create(fixture_copy, doc_kind="domain", path="notes.md", title="N", purpose="n.")


def test_body_file_is_capped(tmp_path, fixture_copy):
    big = tmp_path / "big.md"
    big.write_text("x" * 1_000_001)
    with pytest.raises(Refusal, match="past the 1,000,000 a write accepts"):
        create(fixture_copy, doc_kind="domain", path="domain/big.md", title="Big", purpose="b.", body_file=str(big))
    with pytest.raises(Refusal, match="past the 1,000,000 a write accepts"):
        create(fixture_copy, doc_kind="domain", path="domain/big.md", title="Big", purpose="b.", body="x" * 1_000_001)


@pytest.mark.parametrize("outside", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/etc/no-such-file"])
def test_a_body_file_outside_the_project_is_refused_in_the_same_words_whether_it_exists_or_not(fixture_copy, outside):
    with pytest.raises(Refusal, match="is outside the project") as refused:
        create(
            fixture_copy,
            doc_kind="domain",
            path="domain/x.md",
            title="X",
            purpose="x.",
            body_file=outside,
            dry_run=True,
        )
    assert refused.value.reason == "outside-project" and "root:" not in refused.value.message


def test_a_body_file_inside_gits_own_folder_is_refused(fixture_copy, tmp_path):
    """``.git/config`` lies inside the project but holds remotes, perhaps with a token in their URL:
    no text for a bank comes from git's own files."""
    from tests.conftest import git

    git(tmp_path, "init", "-q")
    config = tmp_path / ".git" / "config"
    for path in (str(config), str(tmp_path / "memory_bank" / ".." / ".git" / "config")):
        with pytest.raises(Refusal, match="git's own folder") as refused:
            create(fixture_copy, doc_kind="domain", path="domain/x.md", title="X", purpose="x.", body_file=path)
        assert refused.value.reason == "git-internal"
    assert not (fixture_copy.root / "domain" / "x.md").exists()


def test_a_fifo_or_a_folder_inside_the_project_is_refused_without_blocking(fixture_copy, tmp_path):
    import os

    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    for name, expected in ((str(fifo), "not a regular file"), (str(tmp_path), "not a regular file")):
        with pytest.raises(Refusal, match=expected):
            create(fixture_copy, doc_kind="domain", path="domain/x.md", title="X", purpose="x.", body_file=name)


def test_a_body_file_with_a_nul_byte_is_refused_by_name(fixture_copy):
    with pytest.raises(Refusal, match="NUL byte") as refused:
        create(fixture_copy, doc_kind="domain", path="domain/x.md", title="X", purpose="x.", body_file="notes.md\x00")
    assert refused.value.reason == "nul-byte"


def test_a_server_may_switch_supplied_files_off(fixture_copy, tmp_path):
    body = tmp_path / "body.md"
    body.write_text("Text.\n")
    fixture_copy.supplied_files = False
    with pytest.raises(Refusal, match="switched off") as refused:
        create(fixture_copy, doc_kind="domain", path="domain/x.md", title="X", purpose="x.", body_file=str(body))
    assert refused.value.reason == "files-off"


def test_a_supplied_body_replaces_the_template_prose_with_a_warning(fixture_copy, tmp_path):
    body = tmp_path / "body.md"
    body.write_text("## Context\n\nWe need a queue.\n")
    result = create(fixture_copy, doc_kind="adr", path="adr/ADR-9.md", title="ADR-9", purpose="p.", body_file=str(body))
    text = (fixture_copy.root / "adr/ADR-9.md").read_text()
    assert text.endswith("# ADR-9\n\n## Context\n\nWe need a queue.\n")
    assert any("prose of flows/templates/adr/ADR-ID.md was not used" in w for w in result.warnings)


def test_a_body_that_brings_its_own_h1_is_retitled_not_doubled_and_says_so(fixture_copy):
    result = create(
        fixture_copy,
        doc_kind="domain",
        path="domain/h.md",
        title="Real Title",
        purpose="p.",
        body="# Draft title\n\nText.",
    )
    text = (fixture_copy.root / "domain/h.md").read_text()
    assert text.count("\n# ") == 1 and "# Real Title\n\nText." in text
    assert any('"# Draft title" became "# Real Title"' in w for w in result.warnings)
    same = create(
        fixture_copy, doc_kind="domain", path="domain/i.md", title="Same", purpose="p.", body="# Same\n\nText."
    )
    assert not any("heading" in w for w in same.warnings)


def test_unknown_kind_warns_and_still_creates(fixture_copy):
    result = create(
        fixture_copy,
        doc_kind="runbook",
        path="domain/run.md",
        title="Run",
        purpose="How to run.",
        derived_from=["rules.md"],
    )
    assert result.created and any('doc_kind "runbook"' in w for w in result.warnings)
    assert any('No template matched doc_kind "runbook"' in w for w in result.warnings)


def test_dry_run_computes_everything_and_writes_nothing(fixture_copy):
    before = tree_snapshot(fixture_copy.root)
    result = create(fixture_copy, doc_kind="adr", path="adr/ADR-7.md", title="ADR-7", purpose="p.", dry_run=True)
    assert not result.created and result.dry_run and "ADR-7" in result.preview
    assert result.registered_in == ["adr/README.md"]
    assert tree_snapshot(fixture_copy.root) == before


def _first_epic(bank: Bank):
    return create(
        bank,
        doc_kind="epic",
        path="epics/EP-01/charter.md",
        title="EP-01 Charter",
        purpose="The first epic.",
        derived_from=["../../dna/principles.md"],
        body="Body.",
    )


def test_lazy_section_is_created_once_with_its_root_entry(seeded):
    first = _first_epic(seeded)
    assert "epics/README.md" in first.registered_in
    assert any('Section "epics/README.md" did not exist yet' in w for w in first.warnings)
    create(
        seeded,
        doc_kind="epic",
        path="epics/EP-02/charter.md",
        title="EP-02 Charter",
        purpose="The second epic.",
        derived_from=["../../dna/principles.md"],
        body="Body.",
    )
    root = (seeded.root / "README.md").read_text()
    assert root.count("(epics/README.md)") == 1
    index = (seeded.root / "epics/README.md").read_text()
    assert "EP-01/charter.md" in index and "EP-02/charter.md" in index
    # the new entry sits with the other sections, before the flows entry and the task table
    assert root.index("(epics/README.md)") < root.index("(flows/README.md)") < root.index("## Task-Specific Routes")
    assert validate(seeded).total == 0


def test_a_lazily_created_section_lists_the_documents_already_in_its_folder(seeded):
    charter = "---\ntitle: EP-00 Charter\npurpose: The epic before the index.\n---\n# EP-00 Charter\n"
    (seeded.root / "epics/EP-00").mkdir(parents=True)
    (seeded.root / "epics/EP-00/charter.md").write_text(charter)
    (seeded.root / "epics/EP-00/notes.md").write_text("# Loose notes\n")
    (seeded.root / "epics/EP-00/plan.md").write_text("# Loose notes\n")  # a title two documents share
    archived = "---\ntitle: EP-X Charter\npurpose: An epic dropped.\nstatus: archived\n---\n# EP-X\n"
    (seeded.root / "epics/EP-X").mkdir(parents=True)
    (seeded.root / "epics/EP-X/charter.md").write_text(archived)
    (seeded.root / "epics/old").mkdir()
    (seeded.root / "epics/old/README.md").write_text("# Old epics\n\n- [A](a.md)\n")
    (seeded.root / "epics/old/a.md").write_text("# A\n")  # its folder's index speaks for it
    bank = Bank.open(seeded.root)
    result = _first_epic(bank)
    assert any(
        "was created to register this document, with the 5 already in the folder; README.md lists it." in w
        for w in result.warnings
    )
    registry = (seeded.root / "epics/README.md").read_text().split("## Registry")[1]
    assert registry.strip().splitlines() == [
        "- [EP-00 Charter](EP-00/charter.md) — The epic before the index.",
        "- [Loose notes (notes.md)](EP-00/notes.md)",
        "- [Loose notes (plan.md)](EP-00/plan.md)",
        "- [EP-X Charter (archived)](EP-X/charter.md) — An epic dropped.",
        "- [Old epics](old/README.md)",
        "- [EP-01 Charter](EP-01/charter.md) — The first epic.",
    ]


def test_an_entry_after_a_prose_line_is_set_apart_from_it(tmp_path, write_file):
    write_file(tmp_path, "README.md", "# Index\n\n- [X](x/x.md) — x\n\nSee also [A](a.md) for agents.\n")
    write_file(tmp_path, "a.md", "---\ntitle: A\npurpose: a\n---\n# A\n")
    bank = Bank.open(tmp_path)
    create(bank, doc_kind="guide", path="b.md", title="B", purpose="b.", body="Body.")
    assert (tmp_path / "README.md").read_text().endswith("for agents.\n\n- [B](b.md) — b.\n")


def test_a_refused_create_leaves_no_lazily_created_section(seeded):
    """The reference wrote the section index before the gates, and left it behind on a refusal."""
    before = tree_snapshot(seeded.root)
    with pytest.raises(Refusal):
        create(seeded, doc_kind="prd", path="prd/PRD-1.md", title="PRD 1", purpose="p.", derived_from=["../nowhere.md"])
    assert tree_snapshot(seeded.root) == before and not (seeded.root / "prd").exists()


def test_a_dry_run_in_a_missing_section_only_warns(seeded):
    result = create(seeded, doc_kind="prd", path="prd/PRD-1.md", title="PRD 1", purpose="p.", dry_run=True)
    assert any("prd/README.md" in w and "would be created" in w for w in result.warnings)
    assert not (seeded.root / "prd").exists()


def test_an_unknown_folder_gets_no_section_index(seeded):
    create(seeded, doc_kind="engineering", path="inventions/thing.md", title="Thing", purpose="p.")
    assert not (seeded.root / "inventions/README.md").exists()


def test_inbox_capture_is_flattened_drafted_stamped_and_unregistered(fixture_copy):
    result = create(
        fixture_copy,
        doc_kind="domain",
        path="domain/deep/idea.md",
        title="Idea",
        purpose="An idea.",
        status="active",
        inbox=True,
        client="claude-code",
    )
    assert result.path == "_inbox/idea.md" and result.template is None and result.registered_in == []
    assert not any("derived_from" in w for w in result.warnings)  # a note rests on nothing until it is placed
    doc = fixture_copy.document("_inbox/idea.md")
    assert doc.status == "draft" and doc.layer == "inbox"
    assert doc.frontmatter["captured_by"] == "claude-code" and doc.frontmatter["captured_at"]
    assert "unregistered-doc" not in {f.rule for f in validate(fixture_copy).findings if f.path == "_inbox/idea.md"}


def test_the_bank_never_gets_worse(fixture_copy):
    before = validate(fixture_copy).findings
    create(
        fixture_copy,
        doc_kind="adr",
        path="adr/ADR-005-y.md",
        title="ADR-005: Y",
        purpose="Why Y.",
        derived_from=["ADR-001-queue-choice.md"],
    )
    create(fixture_copy, doc_kind="domain", path="note.md", title="Note", purpose="A note.", inbox=True)
    assert validate(fixture_copy).findings == before


def test_a_create_that_would_close_a_cycle_is_refused(fixture_copy, write_file):
    write_file(fixture_copy.root, "domain/a.md", "---\ntitle: A\nderived_from:\n  - b.md\nstatus: draft\n---\n# A\n")
    fixture_copy.refresh()
    with pytest.raises(Refusal, match="would close a cycle"):
        create(fixture_copy, doc_kind="domain", path="domain/b.md", title="B", purpose="b.", derived_from=["a.md"])


def test_shipped_feature_support_templates_are_reachable(seeded):
    """The reference looked for feature-support templates in feature/, where there are none."""
    result = create(
        seeded,
        doc_kind="feature-support",
        path="features/FT-1/ui-reference.md",
        title="FT-1 UI",
        purpose="Screens of FT-1.",
        derived_from=["../../product/context.md"],
    )
    assert result.template == "flows/templates/feature/support/ui-reference.md"


def test_a_template_body_with_nested_fences_is_kept_whole(seeded):
    """The reference cut the prompt template's body at its inner fence."""
    create(
        seeded,
        doc_kind="prompt",
        path="prompts/PROMPT-1.md",
        title="PROMPT-1",
        purpose="A reusable prompt.",
        derived_from=["../dna/governance.md"],
    )
    text = (seeded.root / "prompts/PROMPT-1.md").read_text()
    assert text.count("```") >= 2 and text.count("```") % 2 == 0
    assert validate(seeded).total == 0


def test_a_relative_body_file_outside_the_project_says_where_relative_paths_are_read_from(fixture_copy, tmp_path):
    with pytest.raises(Refusal, match="read from the server's working directory"):
        create(
            fixture_copy,
            doc_kind="domain",
            path="domain/x.md",
            title="X",
            purpose="x.",
            body_file="notes.md",
            cwd=tmp_path.parent,  # the project is the bank's parent folder: this is above it
        )


def test_a_note_needs_no_kind_and_no_path_and_a_place_outside_the_inbox_is_said_to_move(seeded):
    first = create(seeded, title="Cache TTL: 5 min?", purpose="What we saw.", inbox=True, body="Seen in prod.")
    again = create(seeded, title="Cache TTL: 5 min?", purpose="Seen again.", inbox=True, body="Twice.")
    assert (first.path, again.path) == ("_inbox/cache-ttl-5-min.md", "_inbox/cache-ttl-5-min-2.md")
    assert not [w for w in first.warnings if "already captured" in w]
    assert (
        "A note of this title is already captured (_inbox/cache-ttl-5-min.md); this one is "
        "_inbox/cache-ttl-5-min-2.md. If it says the same, there is no need for both." in again.warnings
    )
    moved = create(seeded, path="ops/x.md", title="X", purpose="X.", inbox=True, body="x")
    assert moved.path == "_inbox/x.md" and "A note is captured into _inbox/: ops/x.md became _inbox/x.md." in (
        moved.warnings
    )


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_a_bank_whose_folders_are_indexed_by_index_md_registers_there_and_makes_no_readme(tmp_path):
    """feedium indexes each folder with index.md: a create in engineering/ went to a new
    engineering/README.md, a second index beside the bank's own."""
    root = tmp_path / "memory_bank"
    checkout(next(p for p in REAL_BANKS if p.parent.name == "4itosik__feedium"), root)
    bank = Bank.open(root)
    unregistered = sum(1 for f in validate(bank).findings if f.rule == "unregistered-doc")
    result = create(bank, doc_kind="engineering", path="engineering/new-rule.md", title="New rule", purpose="a rule.")
    assert result.registered_in == ["engineering/index.md"] and not (root / "engineering" / "README.md").exists()
    assert "[New rule](new-rule.md)" in (root / "engineering" / "index.md").read_text(encoding="utf-8")
    assert sum(1 for f in validate(bank).findings if f.rule == "unregistered-doc") == unregistered


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_a_create_warns_of_the_placeholders_it_leaves_not_of_those_its_own_values_replace(tmp_path):
    """zelma's use-case template titles its contract ``UC-XXX: Use Case Name``: every create warned
    of it though the title given replaced it, and said nothing of PRD-XXX and FT-XXX left in the
    body's Traceability table."""
    root = tmp_path / "memory_bank"
    checkout(next(p for p in REAL_BANKS if p.parent.name == "dapi__zelma"), root)
    result = create(
        Bank.open(root),
        doc_kind="use_case",
        path="use-cases/UC-099-test.md",
        title="UC-099: Test",
        purpose="A test.",
        derived_from=["../product/context.md"],
        dry_run=True,
    )
    assert not [w for w in result.warnings if '"title"' in w], result.warnings
    assert (
        "The template's body still holds placeholders: PRD-XXX, FT-XXX, FT-YYY, ADR-XXX in ## Traceability. "
        "Fill them before activating." in result.warnings
    )


def test_a_document_may_take_a_function_the_bank_declares_through_extra(seeded):
    """An agent writing a decision log where the bank declares one: extra's doc_function, checked
    against dna/; never a template or an index, never a value dna/ does not list."""
    from memorybank.core.errors import Refusal

    common = dict(doc_kind="domain", title="Decisions", purpose="p", derived_from=["../product/context.md"])
    done = create(seeded, path="domain/decisions.md", extra={"doc_function": "decision_log"}, **common)
    assert done.frontmatter["doc_function"] == "decision_log"
    for function, said in (("index", "index"), ("template", "template"), ("convention", "not among those dna/")):
        with pytest.raises(Refusal, match=said):
            create(seeded, path=f"domain/{function}.md", extra={"doc_function": function}, **common)


def _variant(name: str, words: str) -> str:
    return (
        f"---\ntitle: FT-XXX {name}\ndoc_kind: feature\ndoc_function: template\npurpose: The {name} feature.\n"
        f"status: active\n---\n# FT-XXX {name}\n\n## What\n\n{words}\n"
    )


@pytest.fixture
def variants(seeded) -> Bank:
    """A bank with its own short and large feature templates, neither named like feature.md."""
    for name in ("short", "large"):
        (seeded.root / f"flows/templates/feature/{name}.md").parent.mkdir(parents=True, exist_ok=True)
        (seeded.root / f"flows/templates/feature/{name}.md").write_text(_variant(name, f"The {name} one's words."))
    return Bank.open(seeded.root)


FEATURE = dict(doc_kind="feature", path="features/FT-9/feature.md", title="FT-9", purpose="What FT-9 does.")


def test_a_kind_with_several_templates_says_which_was_used_and_the_caller_may_name_another(variants):
    default = create(variants, **FEATURE, dry_run=True)
    assert default.template == "flows/templates/feature/short.md"  # the bank's own copy of the default
    assert "The short one's words." in default.preview
    (warning,) = [w for w in default.warnings if "templates for doc_kind" in w]
    assert "flows/templates/feature/large.md" in warning and warning.endswith(
        "so flows/templates/feature/short.md was used. Pass `template` to choose another."
    )
    large = create(variants, **FEATURE, template="flows/templates/feature/large.md")
    assert large.template == "flows/templates/feature/large.md"
    assert "The large one's words." in (variants.root / "features/FT-9/feature.md").read_text()
    assert not [w for w in large.warnings if "templates for doc_kind" in w]


def test_a_template_of_another_kind_or_none_at_all_is_refused_and_nothing_is_written(variants):
    before = tree_snapshot(variants.root)
    for wrong in ("flows/templates/adr/ADR-XXX.md", "flows/templates/feature/nope.md"):
        with pytest.raises(Refusal, match=r'is not a template for doc_kind "feature"\. Templates for it: .*large\.md'):
            create(variants, **FEATURE, template=wrong)
    with pytest.raises(Refusal, match="has no template"):
        create(variants, title="Idea", purpose="A thought.", inbox=True, template="flows/templates/feature/large.md")
    assert tree_snapshot(variants.root) == before
