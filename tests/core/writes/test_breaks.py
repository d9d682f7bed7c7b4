"""A write says which links it breaks: links it writes to nothing, and links left pointing at a
heading it renamed or removed."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.breaks import SHOWN
from memorybank.core.write.edit import edit, update_section

DOC = "---\ntitle: Retries\npurpose: How retries work.\nstatus: active\n---\n# Retries\n\n## Backoff\n\nDelays double.\n\n## Giving up\n\nAfter five tries.\n"


@pytest.fixture
def bank(tmp_path, write_file) -> Bank:
    index = "---\ntitle: I\ndoc_function: index\n---\n- [R](retries.md) — r\n- [Backoff](retries.md#backoff)\n"
    write_file(tmp_path, "README.md", index)
    write_file(tmp_path, "retries.md", DOC)
    write_file(
        tmp_path,
        "notes/ops.md",
        "# Ops\n\nSee [the backoff](../retries.md#Backoff) and [up](../retries.md#giving-up).\n",
    )
    write_file(tmp_path, "_inbox/n.md", "# N\n\n[b](../retries.md#backoff)\n")  # a note: not counted
    return Bank.open(tmp_path)


def test_renaming_a_heading_names_the_links_left_on_its_old_anchor(bank):
    result = edit(bank, path="retries.md", find="## Backoff", replace="## Backoff and jitter")
    assert result.warnings == [
        "No heading of retries.md has the anchor #backoff any more, and 2 links still point at it: "
        "README.md:6, notes/ops.md:3. Point them at #backoff-and-jitter."
    ]


def test_links_the_write_adds_to_nothing_are_named_and_those_it_found_are_not(bank, tmp_path, write_file):
    write_file(tmp_path, "retries.md", DOC.replace("Delays double.", "Delays double ([old](gone.md))."))
    bank = Bank.open(tmp_path)
    result = edit(
        bank,
        path="retries.md",
        find="After five tries.",
        replace="After five tries ([x](missing.md), [y](#nowhere), [z](#backoff), [w](notes/ops.md#ops), [u](https://e.org#x)).",
    )
    assert result.warnings == [
        "Line 14 links to a file that does not exist: missing.md",
        "Line 14 links to a heading retries.md does not have: #nowhere",
    ]


def test_a_section_update_says_so_too_and_a_dry_run_the_same(bank):
    for dry_run in (True, False):
        result = update_section(
            bank, path="retries.md", section="Giving up", content="See [the plan](plan.md#steps).", dry_run=dry_run
        )
        assert result.warnings == ["Line 14 links to a file that does not exist: plan.md#steps"]


def test_an_edit_that_breaks_nothing_warns_of_nothing(bank):
    assert edit(bank, path="retries.md", find="Delays double.", replace="Delays double, capped.").warnings == []


def test_many_links_to_a_lost_anchor_are_counted_past_the_first_few(tmp_path, write_file):
    write_file(tmp_path, "retries.md", DOC)
    for n in range(SHOWN + 2):
        write_file(tmp_path, f"d{n}.md", "# D\n\n[b](retries.md#backoff)\n")
    bank = Bank.open(tmp_path)
    (warning,) = edit(bank, path="retries.md", find="## Backoff", replace="## Waiting").warnings
    assert f"{SHOWN + 2} links still point at it" in warning and "and 2 more." in warning


def test_removing_a_heading_leaves_no_new_anchor_to_name(bank):
    result = edit(bank, path="retries.md", find="## Backoff\n\nDelays double.\n\n", replace="")
    assert result.warnings == [
        "No heading of retries.md has the anchor #backoff any more, and 2 links still point at it: "
        "README.md:6, notes/ops.md:3. The heading they named was removed: point them elsewhere or drop the anchor."
    ]


TWINS = "---\ntitle: Log\npurpose: A log.\n---\n# Log\n\n### Notes\n\nFirst notes.\n\n### Notes\n\nSecond notes.\n"


@pytest.fixture
def twins(tmp_path, write_file) -> Bank:
    """Two equal headings over different text, and a link to each."""
    write_file(tmp_path, "log.md", TWINS)
    write_file(tmp_path, "a.md", "# A\n\n[first](log.md#notes) and [second](log.md#notes-1)\n")
    return Bank.open(tmp_path)


def test_renaming_the_first_of_two_equal_headings_says_where_both_anchors_went(twins):
    result = edit(twins, path="log.md", find="### Notes\n\nFirst", replace="### Remarks\n\nFirst")
    assert result.warnings == [
        "The anchor #notes of log.md now lands on another heading (the one that was #notes-1), and 1 link "
        "points at it: a.md:3. Point it at #remarks.",
        "No heading of log.md has the anchor #notes-1 any more, and 1 link still points at it: a.md:3. "
        "Point it at #notes.",
    ]


def test_a_heading_put_above_its_twin_takes_the_anchor_and_the_warning_says_so(twins):
    result = edit(twins, path="log.md", find="# Log\n", replace="# Log\n\n### Notes\n\nNewest notes.\n")
    assert result.warnings == [
        "The anchor #notes of log.md now lands on another heading (one the edit added), and 1 link points at it: "
        "a.md:3. Point it at #notes-1.",
        "The anchor #notes-1 of log.md now lands on another heading (the one that was #notes), and 1 link points "
        "at it: a.md:3. Point it at #notes-2.",
    ]


def test_rewriting_the_text_under_a_heading_moves_no_anchor(twins):
    assert update_section(twins, path="log.md", section="Notes (line 7)", content="Rewritten.").warnings == []


SAME = TWINS.replace("First notes.", "TBD.").replace("Second notes.", "TBD.")


@pytest.fixture
def same(tmp_path, write_file) -> Bank:
    """Two equal headings over the same text, and a link to each."""
    write_file(
        tmp_path,
        "log.md",
        SAME.replace("# Log\n", "# Log\n\n## Alpha\n").replace("TBD.\n\n###", "TBD.\n\n## Beta\n\n###"),
    )
    write_file(tmp_path, "a.md", "# A\n\n[first](log.md#notes) and [second](log.md#notes-1)\n")
    return Bank.open(tmp_path)


def test_editing_the_text_under_one_of_two_equal_headings_moves_no_anchor(same):
    assert update_section(same, path="log.md", section="Alpha > Notes", content="Done.").warnings == []
    assert edit(same, path="log.md", find="TBD.", replace="Done.", section="Beta > Notes").warnings == []


def test_removing_one_of_two_equal_headings_over_the_same_text_says_both_anchors_changed(same):
    result = edit(same, path="log.md", find="## Alpha\n\n### Notes\n\nTBD.\n\n", replace="## Alpha\n\n")
    assert result.warnings == [
        "The anchor #notes of log.md now lands on another heading (the one that was #notes-1), and 1 link points "
        "at it: a.md:3. The heading it named was removed: point it elsewhere or drop the anchor.",
        "No heading of log.md has the anchor #notes-1 any more, and 1 link still points at it: a.md:3. "
        "Point it at #notes.",
    ]


@pytest.mark.parametrize(
    ("find", "replace", "expected"),
    [
        ("## Backoff\n", "## Backoff and jitter {#backoff}\n", []),  # renamed, its old anchor kept as its id
        ("## Backoff\n\nDelays double.", "## Waiting\n\nDelays double, then cap.", ["#waiting"]),  # both at once
        ("# Retries\n", "# Retry policy\n", []),  # nothing links to the H1: nothing to say
    ],
)
def test_a_renamed_heading_is_known_by_its_place_whatever_else_the_edit_changed(bank, find, replace, expected):
    warnings = edit(bank, path="retries.md", find=find, replace=replace).warnings
    assert [w.rsplit("Point them at ", 1)[-1].rstrip(".") for w in warnings] == expected


def test_dropping_a_custom_id_names_the_slug_left(tmp_path, write_file):
    write_file(tmp_path, "g.md", "# G\n\n## Gamma {#custom-gamma}\n\nText.\n")
    write_file(tmp_path, "a.md", "# A\n\n[g](g.md#custom-gamma)\n")
    bank = Bank.open(tmp_path)
    (warning,) = edit(bank, path="g.md", find=" {#custom-gamma}", replace="").warnings
    assert warning.startswith("No heading of g.md has the anchor #custom-gamma any more") and warning.endswith(
        "Point it at #gamma."
    )
