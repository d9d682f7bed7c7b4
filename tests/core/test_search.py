"""Search: the reference's acceptance checks 35-37 on our fixture, tiers, the strict-then-broader
pass, the incremental index, and the search command."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.search import EMPTY_HINT, body_index, rank_bodies, search
from memorybank.tui.cli.main import main

from tests.benchmarks.generate import generate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "banks" / "reference"


@pytest.fixture(scope="module")
def bank() -> Bank:
    return Bank.open(FIXTURE)


def paths(result) -> list[str]:
    return [hit.path for hit in result.hits]


def test_a_phrase_finds_its_line(bank):
    result = search(bank, "rejects below 60")
    assert paths(result) == ["domain/rules.md"]
    hit = result.hits[0]
    assert hit.excerpt == "L1 rejects below 60." and hit.line == 19
    assert hit.score == 28.0 and hit.hits == 3  # three exact words plus the phrase bonus


def test_every_word_must_match_before_any_partial_match_is_shown(bank):
    result = search(bank, "exponential backoff")
    assert paths(result) == ["broken/bad-yaml.md"] and not result.broadened


def test_when_no_document_holds_every_word_the_broader_pass_says_so(bank):
    result = search(bank, "thresholds kubernetes")
    assert result.broadened and "domain/rules.md" in paths(result)
    assert not search(bank, "thresholds scoring").broadened


def test_templates_and_frontmatter_are_never_searched(bank):
    left_out = search(bank, "placeholder")
    assert left_out.hits == ()  # only a template holds it, and the answer says which instead of "nowhere"
    assert left_out.hint == (
        "No document body contains these terms as written outside templates and inbox notes, which search "
        "leaves out; these hold them: flows/templates/feature/brief.md (bank_read reads them)."
    )
    result = search(bank, "deployment_procedure")  # only in rules.md's frontmatter
    assert result.hits == () and result.hint == EMPTY_HINT
    assert search(bank, "kubernetes").hits == ()


def test_inbox_notes_are_never_searched(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "_inbox/note.md", "---\ntitle: Note\nstatus: draft\n---\n# Note\n\nzanzibar thresholds\n")
    bank = Bank.open(root)
    assert search(bank, "zanzibar").hits == ()
    assert "_inbox/note.md" not in paths(search(bank, "thresholds", limit=50))


def test_an_identifier_is_kept_whole_and_its_pieces_are_a_lower_tier(bank):
    result = search(bank, "filter_thresholds")
    assert {"domain/rules.md", "conflict.md"} <= set(paths(result))
    assert all(hit.score < 1 for hit in result.hits)  # pieces only: weight 1 each
    exact = search(bank, "ft-001")
    assert paths(exact)[0] == "features/FT-001/brief.md" and exact.hits[0].excerpt == "# FT-001: Raise Throughput"


def test_a_russian_word_finds_english_bodies(bank):
    assert "domain/rules.md" in paths(search(bank, "пороги"))
    assert "domain/rules.md" in paths(search(bank, "порогов оценки"))


def test_filters_are_honoured(bank):
    assert paths(search(bank, "queue", layer="decision")) and all(
        p.startswith("adr/") for p in paths(search(bank, "queue", layer="decision"))
    )
    assert paths(search(bank, "queue", doc_kind="feature")) == ["features/FT-001/brief.md"]
    assert search(bank, "queue", status="archived").hits == ()
    with pytest.raises(UsageError):
        search(bank, "queue", limit=501)  # the workbench and the CLI list up to 500; an agent's tool 50


def test_an_archived_document_is_damped(fixture_bank):
    root = fixture_bank()
    conflict = root / "conflict.md"
    conflict.write_text(
        conflict.read_text(encoding="utf-8").replace("status: active", "status: archived"), encoding="utf-8"
    )
    scores = {h.path: h.score for h in search(Bank.open(root), "thresholds").hits}
    assert scores["conflict.md"] < scores["domain/rules.md"]


def test_the_index_is_incremental(fixture_bank):
    root = fixture_bank()
    bank = Bank.open(root)
    index = body_index(bank)
    assert index.reindexed == 17 and len(index.postings) > 100
    bank.refresh()
    assert body_index(bank) is index and index.reindexed == 17  # nothing moved: not even a sync

    orphan = root / "orphan.md"
    orphan.write_text(orphan.read_text(encoding="utf-8") + "\nA quokka lives here.\n", encoding="utf-8")
    os.utime(orphan, (1, 1))
    bank.refresh()
    assert body_index(bank).reindexed == 1
    assert paths(search(bank, "quokka")) == ["orphan.md"]

    orphan.unlink()
    bank.refresh()
    assert body_index(bank).reindexed == 0
    assert search(bank, "quokka").hits == () and "quokka" not in index.postings


def test_a_russian_word_and_its_english_translation_give_the_same_top_three(tmp_path):
    bank = Bank.open(generate(tmp_path / "bank", 150))
    russian, english = paths(search(bank, "модель")), paths(search(bank, "model"))
    assert russian and russian[:3] == english[:3]


def test_the_bm25_baseline_ranks_bodies_only(bank):
    assert rank_bodies(bank, "exponential backoff")[0] == "broken/bad-yaml.md"
    assert not any("templates/" in p for p in rank_bodies(bank, "placeholder"))


def test_the_search_command(capsys):
    assert main(["search", "rejects below 60", "--root", str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert "domain/rules.md:19" in out and "L1 rejects below 60." in out
    assert main(["search", "thresholds kubernetes", "--root", str(FIXTURE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["broadened"] is True and data["hits"]
    assert main(["search", "kubernetes", "--root", str(FIXTURE)]) == 0
    assert "No document body contains these terms. Try `memorybank route`" in capsys.readouterr().out


def test_a_search_says_how_many_documents_hold_the_query_beyond_the_ones_listed(tmp_path, capsys):
    root = tmp_path / "bank"
    root.mkdir()
    for n in range(7):
        (root / f"note-{n}.md").write_text(f"---\ntitle: Note {n}\n---\n# Note {n}\n\nThe ledger closes at noon.\n")
    bank = Bank.open(root)
    result = search(bank, "ledger", limit=3)
    assert len(result.hits) == 3 and result.matched == 7
    assert search(bank, "ledger").matched == 7
    assert main(["search", "ledger", "--root", str(root), "-n", "3"]) == 0
    assert "(the first 3 of 7 documents; --limit shows more)" in capsys.readouterr().out
    assert main(["search", "ledger", "--root", str(root)]) == 0
    assert "first" not in capsys.readouterr().out


def test_broadened_hits_still_name_the_templates_that_hold_the_query_as_written(fixture_bank, write_file):
    root = fixture_bank()
    brief = root / "flows/templates/feature/brief.md"
    brief.write_text(brief.read_text(encoding="utf-8") + "\nWrapper notes go here.\n", encoding="utf-8")
    write_file(root, "domain/wrapper.md", "---\ntitle: Wrapper\n---\n# Wrapper\n\nThe wrapper.\n")
    write_file(root, "domain/notes.md", "---\ntitle: Notes\n---\n# Notes\n\nSome notes.\n")
    result = search(Bank.open(root), "wrapper notes")
    assert result.hits and result.broadened  # each word somewhere, the two together only in the template
    assert "templates and inbox notes" in (result.hint or "") and "flows/templates/feature/brief.md" in result.hint


def test_documents_holding_the_query_as_written_come_first_and_the_cli_says_where_scores_start_again(tmp_path, capsys):
    from tests.core.route_banks import doc, small_bank

    apart = "Run goose, then bring it up. " * 16  # both words, often, never side by side
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "ops/migrations.md": doc(
                "Migrations", "How the schema changes.", "## Rules\n\nRun goose up after review.\n"
            ),
            "ops/dev.md": doc("Development", "Local setup.", f"## Setup\n\n{apart}\n"),
        },
    )
    result = search(bank, "goose up")
    assert [(h.path, h.as_written) for h in result.hits] == [("ops/migrations.md", True), ("ops/dev.md", False)]
    assert result.hits[1].score > result.hits[0].score  # ranked below, though it scores more
    assert main(["search", "goose up", "--root", str(tmp_path / "memory_bank")]) == 0
    out = capsys.readouterr().out.splitlines()
    ranks = [n for n, line in enumerate(out) if line.startswith((" 1.", " 2."))]
    assert out[ranks[1] - 1] == "(the documents below hold the words, not the query as written)"
