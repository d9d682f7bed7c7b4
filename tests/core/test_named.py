"""A question that names a document by its identifier or its path gets that document first."""

from __future__ import annotations

import pytest
from memorybank.core.named import identifier
from memorybank.core.route import route

from tests.core.route_banks import doc, small_bank

MENTIONS = "Builds on ADR-001 and FT-001; see adr/ADR-001-storage-choice.md. " * 6


@pytest.fixture
def bank(tmp_path):
    return small_bank(
        tmp_path / "bank",
        {
            "adr/ADR-001-storage-choice.md": doc("Storage choice", "Where blobs live.", "We keep blobs in S3."),
            "adr/ADR-010-queue.md": doc("Queue", "The queue we run.", "One shared queue."),
            "features/FT-001-import/brief.md": doc("FT-001: Import brief", "Why import.", "Import feeds."),
            "features/FT-001-import/feature.md": doc("FT-001: Import", "What import does.", "Import feeds, FT-001."),
            "features/FT-0010-export/brief.md": doc("Export brief", "Why export.", "Export feeds."),
            "prompts/PROMPT-003-review.md": doc("Review prompt", "How to review.", "Review."),
            "plans/roadmap.md": doc("Roadmap", "What comes next.", MENTIONS),
            "plans/notes.md": doc("Notes", "Loose notes.", MENTIONS + " PROMPT-003 PROMPT-003 review prompt."),
            "features/FT-HW1-05-links/feature.md": doc("FT-HW1-05: Links", "Links between things.", "Links."),
            "issues/a/plan-v2.md": doc("Plan, second cut", "A plan.", "Steps for a."),
            "issues/b/plan-v2.md": doc("Plan, second cut", "A plan.", "Steps for b."),
            "domain/storage.md": doc("Storage", "Blob storage.", "Blobs.", canonical_for="[blob_storage]"),
        },
    )


def test_an_identifier_is_the_longest_start_of_a_name_ending_in_a_digit():
    assert identifier("adr-001-storage-choice") == "adr-001"
    assert identifier("ft-hw1-04-branches") == "ft-hw1-04"
    assert identifier("ft-ntf-001") == "ft-ntf-001"
    assert identifier("mvp-cli") == identifier("0018-task-model") == identifier("adr") == ""


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("ADR-001", "adr/ADR-001-storage-choice.md"),  # its file name starts with it
        ("what did adr-001 decide", "adr/ADR-001-storage-choice.md"),
        ("PROMPT-003", "prompts/PROMPT-003-review.md"),  # though another body repeats it
        ("adr/ADR-001-storage-choice.md", "adr/ADR-001-storage-choice.md"),
        ("see [it](../../adr/ADR-001-storage-choice.md)", "adr/ADR-001-storage-choice.md"),
        ("ADR-010", "adr/ADR-010-queue.md"),  # not ADR-001's prefix
        ("what did ADR\u2013001 decide", "adr/ADR-001-storage-choice.md"),  # an en dash
        ("read features/FT-001-import/brief.md", "features/FT-001-import/brief.md"),  # the path, not its package
        ("what does bank/adr/ADR-010-queue.md say", "adr/ADR-010-queue.md"),  # from the repository's root
        ("blob storage in ADR-010", "adr/ADR-010-queue.md"),  # before the owner of blob_storage
        ("what does adr\\ADR-010-queue.md say", "adr/ADR-010-queue.md"),  # a Windows path
        ("see plans/../adr/ADR-010-queue.md", "adr/ADR-010-queue.md"),
    ],
)
def test_a_named_document_leads_and_says_so(bank, question, first):
    hits = route(bank, question).hits
    assert hits[0].path == first
    assert hits[0].why.startswith("the question names it")
    assert not any(h.why.startswith("the question names it") for h in hits[1:])


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("ADR-1", "adr/ADR-001-storage-choice.md"),  # without its leading zeros
        ("what did ADR 1 decide", "adr/ADR-001-storage-choice.md"),  # a space for the hyphen
        ("adr001", "adr/ADR-001-storage-choice.md"),  # glued
        ("ADR 10", "adr/ADR-010-queue.md"),  # not ADR-001
        ("FT 10 export", "features/FT-0010-export/brief.md"),
        ("PROMPT 3", "prompts/PROMPT-003-review.md"),
        ("FT-HW1-5 links", "features/FT-HW1-05-links/feature.md"),
    ],
)
def test_an_identifier_typed_loosely_still_names_its_document(bank, question, first):
    hits = route(bank, question).hits
    assert hits[0].path == first and hits[0].why.startswith("the question names it")


def test_letters_and_a_number_name_nothing_the_bank_has_no_identifier_for(bank):
    for question in ("step 2 storage", "top 10 storage", "ADR 999 storage", "storage v2", "FT-HW1-7 links"):
        hits = route(bank, question).hits
        assert hits and not any(h.breakdown.named for h in hits), question


def test_a_package_named_by_its_folder_takes_one_place_its_best_member(bank):
    hits = route(bank, "FT-001").hits
    assert hits[0].path == "features/FT-001-import/feature.md"  # its body says FT-001 too
    assert [h.path for h in hits if h.breakdown.named] == ["features/FT-001-import/feature.md"]


def test_names_outside_the_bank_and_bare_file_names_change_nothing(bank):
    for question in ("ADR-999 storage", "README.md storage", "utf-8 storage", "FT-HW1-07 links", "plan-v2 steps"):
        hits = route(bank, question).hits
        assert hits and not any(h.breakdown.named for h in hits), question


def test_filters_still_hold_for_a_named_document(bank):
    hits = route(bank, "ADR-001", layer="delivery").hits
    assert all(h.layer == "delivery" for h in hits)
    assert "adr/ADR-001-storage-choice.md" not in [h.path for h in hits]


def test_explain_says_a_named_document_leads_whatever_its_score(bank, capsys):
    from memorybank.tui.cli.main import main

    assert main(["route", "ADR-010", "--root", str(bank.root), "--explain", "--limit", "1"]) == 0
    assert "; first whatever its score: the question names it" in capsys.readouterr().out
