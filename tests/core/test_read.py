"""Reads: whole, by section, by line range, and batches under the byte budget."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import NotADocument, SectionAmbiguous, SectionNotFound, UsageError
from memorybank.core.read import BATCH_CEILING, read_document, read_many

from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def bank():
    return Bank.open(FIXTURES / "reference")


def test_section_read_returns_only_that_section(bank):
    whole = read_document(bank, "domain/rules.md")
    part = read_document(bank, "domain/rules.md", section="thresholds")
    assert part.section == "Thresholds"
    assert "L1 rejects below 60." in part.content and "Invariants" not in part.content
    assert part.bytes < whole.bytes
    assert part.frontmatter["doc_kind"] == "domain"


def test_exact_heading_match_wins_over_a_containing_one(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "x.md", "# X\n## Setup details\none\n## Setup\ntwo\n")
    result = read_document(Bank.open(root), "x.md", section="setup")
    assert result.section == "Setup" and "two" in result.content


ADR = "# ADR-6\n## Драйверы решения\none\n## Решение (accepted 2026-04-14)\ntwo\n## Последствия\nthree\n"


def test_a_part_of_one_heading_names_it_and_of_several_names_the_one_it_begins(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "adr.md", ADR)
    bank = Bank.open(root)
    assert read_document(bank, "adr.md", section="## последствия").section == "Последствия"
    assert read_document(bank, "adr.md", section="драйверы").section == "Драйверы решения"
    assert read_document(bank, "adr.md", section="решени").section == "Решение (accepted 2026-04-14)"


@pytest.mark.parametrize("name", ["ы", "ия", "шение", "ре"])
def test_a_name_inside_a_word_or_under_three_letters_names_no_section(fixture_bank, write_file, name):
    root = fixture_bank()
    write_file(root, "adr.md", ADR)
    with pytest.raises(
        SectionNotFound, match=rf'Section "{name}" not found in adr.md. Available: Драйверы решения'
    ) as refused:
        read_document(Bank.open(root), "adr.md", section=name)
    assert ("from 3 letters on" in str(refused.value)) == (len(name) < 3)


def test_a_name_that_begins_several_headings_is_refused_with_them_listed(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "x.md", "# X\n## Setup details\none\n## Setup steps\ntwo\n## Teardown\nthree\n")
    with pytest.raises(
        SectionAmbiguous,
        match=r'Section "setup" is part of 2 headings of x.md: Setup details \| Setup steps. Give the one meant in full.',
    ):
        read_document(Bank.open(root), "x.md", section="setup")


def test_a_missing_section_lists_the_real_ones(bank):
    with pytest.raises(SectionNotFound, match=r"Available: Thresholds \| Invariants"):
        read_document(bank, "domain/rules.md", section="Nope")


def test_line_ranges_address_the_raw_file(bank):
    result = read_document(bank, "domain/rules.md", lines="17-19")
    assert result.lines == [17, 19] and result.content.splitlines()[0] == "## Thresholds"
    assert read_document(bank, "domain/rules.md", lines="19").content == "L1 rejects below 60."
    tail = read_document(bank, "domain/rules.md", lines="22-")
    assert tail.lines == [22, tail.total_lines]
    clamped = read_document(bank, "domain/rules.md", lines="20-999")
    assert clamped.lines == [20, clamped.total_lines]
    for bad in ("abc", "10-5", "0-3", "500-600"):
        with pytest.raises(UsageError):
            read_document(bank, "domain/rules.md", lines=bad)


def test_unknown_paths_fail_clearly(bank):
    with pytest.raises(NotADocument, match="Not a document of this bank"):
        read_document(bank, "../secret.md")


def _big_bank(root, write_file, sizes):
    for index, size in enumerate(sizes):
        write_file(root, f"d{index}.md", f"# D{index}\n\n## Part\n" + "x" * size + "\n")
    return Bank.open(root)


def test_batch_spends_the_budget_in_request_order_and_skips_before_overshooting(tmp_path, write_file):
    bank = _big_bank(tmp_path, write_file, [15_000, 15_000, 15_000, 100])
    result = read_many(bank, ["d0.md", "d1.md", "d2.md", "d3.md"])
    assert [d.path for d in result.documents] == ["d0.md", "d1.md", "d3.md"]
    assert [s.path for s in result.skipped] == ["d2.md"]
    assert result.skipped[0].available_sections == ["Part"] and result.skipped[0].bytes > 15_000
    assert result.bytes <= result.budget_bytes == BATCH_CEILING


def test_the_first_document_is_always_returned_and_failures_are_isolated(tmp_path, write_file):
    bank = _big_bank(tmp_path, write_file, [60_000, 10])
    result = read_many(bank, ["missing.md", "d0.md", "d1.md"], max_bytes=5_000)
    assert [d.path for d in result.documents] == ["d0.md"]
    assert [f.path for f in result.failed] == ["missing.md"]
    assert [s.path for s in result.skipped] == ["d1.md"]


def test_max_bytes_only_lowers_the_budget(tmp_path, write_file):
    bank = _big_bank(tmp_path, write_file, [10])
    raised = read_many(bank, ["d0.md"], max_bytes=200_000)
    assert raised.budget_bytes == BATCH_CEILING and "above the ceiling" in raised.note and "200000" in raised.note
    assert read_many(bank, ["d0.md"], max_bytes=2_000).budget_bytes == 2_000
    with pytest.raises(UsageError):
        read_many(bank, ["d0.md"], max_bytes=10)


def test_sectioned_requests_never_overshoot_but_respect_a_spent_budget(tmp_path, write_file):
    bank = _big_bank(tmp_path, write_file, [39_500, 30_000])
    result = read_many(bank, ["d0.md", {"path": "d1.md", "section": "Part"}])
    assert [d.path for d in result.documents] == ["d0.md", "d1.md"]
    assert result.documents[1].section == "Part"


def test_max_bytes_holds_for_the_first_document_too_with_a_line_to_read_on_from(tmp_path, write_file):
    write_file(tmp_path, "long.md", "# Long\n\n" + "".join(f"line {n} " + "y" * 90 + "\n" for n in range(1, 2001)))
    bank = Bank.open(tmp_path)
    first = read_many(bank, ["long.md"], max_bytes=1_000).documents[0]
    assert first.truncated and first.bytes <= 1_000 and first.continue_at is not None
    last_shown = int(first.content.rsplit("\n", 1)[-1].split()[1])
    rest = read_document(bank, "long.md", lines=f"{first.continue_at}-{first.continue_at}")
    assert rest.content.startswith(f"line {last_shown + 1} ")


def test_a_batch_never_passes_its_budget_and_what_names_nothing_fails_even_when_skipped(tmp_path, write_file):
    bank = _big_bank(tmp_path, write_file, [900, 3_000, 3_000])
    result = read_many(
        bank,
        ["d0.md", {"path": "d1.md", "section": "Part"}, "nope.md", {"path": "d2.md", "section": "Nope"}],
        max_bytes=1_000,
    )
    assert result.bytes <= result.budget_bytes == 1_000
    assert [s.path for s in result.skipped] == ["d1.md"]  # exists, and can be read by section later
    failed = {f.path: f.error for f in result.failed}
    assert "Not a document of this bank" in failed["nope.md"] and 'Section "Nope" not found' in failed["d2.md"]
    cut = read_many(bank, ["d0.md", {"path": "d1.md", "section": "Part"}], max_bytes=1_200).documents[1]
    assert cut.truncated and cut.continue_at is not None and cut.bytes <= 1_200 - 900


def test_a_part_carries_only_the_frontmatter_its_standing_hangs_on(bank):
    whole = read_document(bank, "domain/rules.md")
    assert "purpose" in whole.frontmatter and "derived_from" in whole.frontmatter
    for part in (
        read_document(bank, "domain/rules.md", section="Thresholds"),
        read_document(bank, "domain/rules.md", lines="1-3"),
    ):
        assert (
            set(part.frontmatter) <= {"doc_kind", "status", "decision_status"}
            and part.frontmatter["doc_kind"] == "domain"
        )


def test_a_section_asked_of_a_document_without_any_says_how_to_add_one(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "flat.md", "---\ntitle: Flat\n---\n# Flat\n\nNo sections here.\n")
    with pytest.raises(SectionNotFound, match="it has no ## sections. Read it whole; to add one, bank_edit"):
        read_document(Bank.open(root), "flat.md", section="Rules")


def test_a_section_cut_at_its_budget_lists_the_deeper_sections_it_can_ask_for(fixture_bank, write_file):
    """A read cut at its bytes says what narrower parts it holds, by the names that open them; an
    uncut read lists the ## sections only."""
    root = fixture_bank()
    commands = "".join(f"### `tool {verb}`\n\n{'Runs it. ' * 60}\n\n" for verb in ("send", "list", "stop"))
    write_file(
        root, "contract.md", f"# Contract\n\n## Purpose\n\nA tool.\n\n## Commands\n\n{commands}## Recovery\n\nRetry.\n"
    )
    bank = Bank.open(root)
    cut = read_document(bank, "contract.md", section="Commands", max_bytes=1_000)
    assert cut.truncated
    assert cut.available_sections == [
        "Purpose",
        "Commands",
        "Recovery",
        "Commands > `tool send`",
        "Commands > `tool list`",
        "Commands > `tool stop`",
    ]
    narrow = read_document(bank, "contract.md", section=cut.available_sections[-1])
    assert narrow.section == "`tool stop`" and not narrow.truncated
    assert narrow.available_sections == ["Purpose", "Commands", "Recovery"]
