"""How routing weighs its evidence together: a package's members share its headers, and a section
counts by how much of the question it holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from memorybank.core import families as families_module
from memorybank.core import section_index
from memorybank.core.bank import Bank
from memorybank.core.families import families
from memorybank.core.route import route
from memorybank.core.section_index import best_sections, split_sections
from memorybank.tui.cli.main import main

from tests.core.route_banks import doc, small_bank


def _package(tmp_path: Path) -> Bank:
    return small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-7/brief.md": doc(
                "FT-7: Invoice export",
                "Export invoices for accountants.",
                "Invoice export: a monthly gzip archive for accountants.",
            ),
            "features/FT-7/plan.md": doc(
                "FT-7: Plan",
                "Steps of the work.",
                "## Steps\n\nWire the exporter; the archive is gzip compressed.\n",
            ),
            "features/FT-7/README.md": doc("FT-7", "The package.", "[brief](brief.md), [plan](plan.md)"),
            "domain/billing.md": doc("Billing", "Invoices and payments.", "Invoices are numbered per year."),
            "prompts/a/one.md": doc("Invoice export prompt", "A prompt.", "Ask about export."),
        },
    )


def test_a_package_folder_is_a_family_and_a_top_level_folder_is_not(tmp_path):
    found = families(_package(tmp_path))
    assert found.family_of["features/FT-7/plan.md"] == "features/FT-7"
    assert "features/FT-7/README.md" not in found.receivers["features/FT-7"]  # an index never receives
    assert "features/FT-7/README.md" in found.indexes  # and never gives
    assert "domain/billing.md" not in found.family_of and "prompts/a/one.md" not in found.family_of


def test_a_member_whose_body_answers_inherits_its_familys_headers_and_leads(tmp_path, monkeypatch):
    bank = _package(tmp_path)
    question = "is the invoice export archive gzip compressed"
    first, second = route(bank, question).hits[:2]
    assert first.path == "features/FT-7/plan.md" and first.breakdown.family > 0 and first.breakdown.raw == 0
    assert second.path == "features/FT-7/brief.md" and second.breakdown.family == 0  # its own headers
    headers_only = route(bank, question, body_evidence=False).hits  # the reference's ranking, untouched
    assert [h.path for h in headers_only][:1] == ["features/FT-7/brief.md"]
    assert all(h.breakdown.family == 0 for h in headers_only)
    monkeypatch.setattr(families_module, "FAMILY_SHARE", 0.0)
    bank = _package(tmp_path / "again")
    assert route(bank, question).hits[0].path == "features/FT-7/brief.md"  # without the family's headers


def test_a_folders_index_lends_its_collections_name_to_no_member(tmp_path):
    """A runbook folder's README names the collection ("procedures of the shop bot"): a question
    sharing that word with it must not lift every runbook over the document whose body answers."""
    files = {
        "ops/runbooks/README.md": doc(
            "Runbooks", "Operational procedures of the shop bot.", "- [Postgres tests](postgres.md)"
        ),
        "ops/runbooks/postgres.md": doc(
            "Postgres integration tests",
            "Running the database tests locally.",
            "Start the container; the tests use the asyncpg library from a pytest handler fixture.",
        ),
        "engineering/coding-style.md": doc(
            "Coding style",
            "How code is written here.",
            "## Async\n\nNever call a blocking library from a bot handler: use async clients.",
        ),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    hits = {h.path: h for h in route(bank, "can a bot handler call a blocking library").hits}
    assert hits["ops/runbooks/postgres.md"].breakdown.family == 0
    assert next(iter(hits)) == "engineering/coding-style.md"


def test_the_explained_route_says_what_the_family_lent(tmp_path, capsys):
    bank = _package(tmp_path)
    assert main(["route", "is the invoice export archive gzip compressed", "--root", str(bank.root), "--explain"]) == 0
    first = capsys.readouterr().out.split(" 2. ")[0]
    assert first.startswith(" 1. features/FT-7/plan.md") and " + family headers " in first


def test_an_archived_member_shares_its_familys_headers_without_its_own_status_discount(tmp_path):
    files = {
        "features/FT-3/feature.md": doc(
            "FT-3: League table",
            "Show the league table on the home page.",
            "The table lists twenty teams with their crests.",
        ),
        "features/FT-3/implementation-plan.md": doc(
            "FT-3: Implementation plan",
            "Steps.",
            "## Risks\n\nWhen the crests CDN is blocked the table falls back to team initials.\n",
        ).replace("status: active", "status: archived"),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    hits = route(bank, "crests CDN blocked, what does the league table show").hits
    assert hits[0].path == "features/FT-3/implementation-plan.md"
    assert hits[0].breakdown.status_weight == 0.2


def test_a_family_is_at_most_a_handful_of_documents(tmp_path):
    files = {f"notes/many/n{i}.md": doc(f"Note {i}", "A note.") for i in range(families_module.MAX_MEMBERS + 1)}
    assert not families(small_bank(tmp_path / "memory_bank", files)).family_of


def test_a_section_holding_every_word_of_the_question_beats_one_repeating_a_few(monkeypatch):
    lines = [
        "## Timeouts",
        "Timeout, timeout, timeout: each upload has a timeout, every upload, any upload.",
        "## Limits",
        "An upload timeout aborts a chunked transfer after thirty seconds of silence on the socket, logged and "
        "reported to the operator who decides what happens next.",
    ]
    sections = {"doc.md": split_sections([line.lower() for line in lines], first_line=1)}
    concepts = [(3.0, {"timeout": 1.0}), (3.0, {"upload": 1.0}), (2.0, {"chunked": 1.0}), (2.0, {"transfer": 1.0})]
    best = best_sections(sections.__getitem__, ["doc.md"], concepts)
    assert best["doc.md"][1].heading == "limits"
    # Apart, the section holding every word gains on the repeating one by the share it holds.
    apart = {"a.md": sections["doc.md"][:1], "b.md": sections["doc.md"][1:]}

    def lead() -> float:
        scores = best_sections(apart.__getitem__, ["a.md", "b.md"], concepts)
        return scores["b.md"][0] / scores["a.md"][0]

    covered = lead()
    monkeypatch.setattr(section_index, "COVERAGE_FLOOR", 1.0)
    assert covered == pytest.approx(lead() * 1.0 / (0.5 + 0.5 * 2 / 4))


def test_a_word_every_candidate_section_holds_hardly_counts():
    """The question's words weigh by their rarity among the candidates' sections, not the bank's
    bodies: "upload", rare in the bank but in every section in contention, does not let the section
    repeating it beat the one holding the word that sets it apart."""
    sections = {
        "a.md": split_sections(["## uploads", " ".join(["upload"] * 8)], first_line=1),
        "b.md": split_sections(["## transfers", "each upload is a chunked transfer"], first_line=1),
    }
    concepts = [(3.0, {"upload": 1.0}), (0.5, {"chunked": 1.0})]
    best = best_sections(sections.__getitem__, ["a.md", "b.md"], concepts)
    assert best["b.md"][0] > best["a.md"][0]


def test_a_header_match_naming_a_sliver_of_the_question_leaves_the_answer_to_the_bodies(tmp_path, monkeypatch):
    """The bank's headers know most of the question's words, spread over several documents; the
    best header match names two of them. The bodies, not that match, decide which document answers."""
    from memorybank.core import route as route_module

    files = {
        "domain/catalog.md": doc(
            "Catalog",
            "The products buyers see.",
            "The catalog service returns the products of a category; when a product id is unknown the buyer sees an error.",
        ),
        "domain/architecture.md": doc(
            "Architecture",
            "Layers of the bot.",
            "## Services\n\nA catalog service never raises when a product id is unknown: it returns an empty list,"
            " and the handler decides what to show.",
        ),
        "engineering/errors.md": doc("Error handling", "How errors are logged.", "Errors are logged with their id."),
        "product/empty-states.md": doc("Empty states", "What an empty screen shows.", "A placeholder and a hint."),
        "product/lists.md": doc("Lists and pagination", "How long lists are split.", "Ten rows a page."),
        "product/returns.md": doc("Return policy", "When a buyer may return an order.", "Within 14 days."),
    }
    bank = small_bank(tmp_path / "memory_bank", files)
    question = "does the catalog service raise an error or return an empty list when a product id is unknown"
    assert route(bank, question).hits[0].path == "domain/architecture.md"
    monkeypatch.setattr(route_module, "FULL_MATCH", 0.0)
    assert route(bank, question).hits[0].path == "domain/catalog.md"  # bodies scaled to the best match only
