"""The bank index on the reference fixture: records, derived structures, incremental refresh."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from memorybank.core.bank import Bank, find_root

from tests.conftest import FIXTURES


def test_every_document_is_indexed_in_sorted_order():
    bank = Bank.open(FIXTURES / "reference")
    assert len(bank) == 17
    assert list(bank.documents) == sorted(bank.documents)


def test_registration_is_read_from_bullets_tables_prose_and_numbered_items():
    bank = Bank.open(FIXTURES / "reference")
    assert bank.registered_in("domain/README.md") == ["README.md"]  # bullet
    assert bank.registered_in("engineering/architecture.md") == ["README.md"]  # table row
    assert bank.registered_in("features/FT-001/brief.md") == ["README.md"]  # prose
    assert bank.registered_in("conflict.md") == ["README.md"]  # numbered item
    assert bank.registered_in("adr/ADR-001-queue-choice.md") == ["adr/README.md"]  # backticked table row
    assert bank.registered_in("orphan.md") == []


def test_reverse_edges_owners_and_fit():
    bank = Bank.open(FIXTURES / "reference")
    assert set(bank.incoming("domain/rules.md")) >= {"engineering/architecture.md", "features/FT-001/brief.md"}
    assert bank.derived.owners["filter_thresholds"] == ["conflict.md", "domain/rules.md"]
    brief = bank.document("features/FT-001/brief.md")
    fitted = [e for e in brief.derived_from if e.fit]
    assert fitted[0].resolved == "adr/ADR-001-queue-choice.md" and "queue topology" in fitted[0].fit
    external = [e for e in brief.derived_from if e.external]
    assert external[0].raw == "../../../outside-bank/upstream.md" and external[0].resolved is None


def test_contract_sets_and_sentences():
    contract = Bank.open(FIXTURES / "reference").contract
    assert contract.present
    assert sorted(contract.doc_kinds) == ["adr", "domain", "engineering", "feature", "governance"]
    assert sorted(contract.doc_functions) == ["canonical", "index", "template"]
    assert sorted(contract.statuses) == ["active", "archived", "draft"]
    assert sorted(contract.delivery_statuses) == ["cancelled", "done", "in_progress", "planned"]
    assert sorted(contract.decision_statuses) == ["accepted", "proposed", "rejected", "superseded"]
    assert contract.roots == {"dna/principles.md"}
    assert contract.requires_derived_from and contract.forbids_cycles


def test_a_bank_without_dna_runs_in_degraded_mode(tmp_path):
    shutil.copytree(FIXTURES / "reference" / "domain", tmp_path / "domain")  # a bank of its own: no dna/
    bank = Bank.open(tmp_path / "domain")
    assert not bank.contract.present and not bank.contract.requires_derived_from
    assert len(bank) == 2


def test_refresh_counts_added_changed_and_removed(fixture_bank):
    root = fixture_bank()
    bank = Bank.open(root)
    assert (bank.refresh().added, bank.refresh().changed, bank.refresh().removed) == (0, 0, 0)
    generation = bank.generation
    target = root / "orphan.md"
    target.write_text(target.read_text() + "\nMore.\n")
    report = bank.refresh()
    assert (report.added, report.changed, report.removed) == (0, 1, 0)
    (root / "new.md").write_text("# New\n")
    (root / "conflict.md").unlink()
    report = bank.refresh()
    assert (report.added, report.changed, report.removed) == (1, 0, 1)
    assert "new.md" in bank and "conflict.md" not in bank
    assert bank.generation == generation + 2
    assert bank.derived.owners["filter_thresholds"] == ["domain/rules.md"]


def test_a_change_of_the_same_size_within_the_same_second_is_still_seen(fixture_bank):
    root = fixture_bank()
    bank = Bank.open(root)
    path = root / "orphan.md"
    stat = path.stat()
    path.write_text(path.read_text().replace("Nothing links here.", "Nothing points here."))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert bank.refresh().changed == 1


def test_declared_layer_table_overlays_and_removal_leaves_no_stale_layer(fixture_bank, write_file):
    root = fixture_bank()
    write_file(root, "scenarios/s.md", "# S\n")
    table = "---\ndoc_kind: governance\n---\n| Directory | Layer | Weight |\n|-|-|-|\n| scenarios | decision | 1.3 |\n| ops | nowhere | 1 |\n"
    write_file(root, "dna/layers.md", table)
    bank = Bank.open(root)
    assert bank.document("scenarios/s.md").layer == "decision"
    assert bank.layers.weights["decision"] == 1.3
    assert [(r.directory, r.layer, r.source) for r in bank.layers.unknown] == [("ops", "nowhere", "dna/layers.md")]
    assert bank.layers.layer_of("ops/x.md") == "knowledge"
    (root / "dna/layers.md").unlink()
    time.sleep(0.01)
    bank.refresh()
    assert bank.document("scenarios/s.md").layer == "other"  # not the stale "decision"


def test_hidden_directories_and_escaping_symlinks_are_not_indexed(fixture_bank, tmp_path, write_file):
    root = fixture_bank()
    write_file(root, ".obsidian/cache.md", "# hidden\n")
    write_file(root, "node_modules/pkg/readme.md", "# pkg\n")
    outside = write_file(tmp_path, "outside.md", "# outside\n")
    (root / "link-out.md").symlink_to(outside)
    (root / "link-in.md").symlink_to(root / "orphan.md")
    (root / "loop").symlink_to(root, target_is_directory=True)
    bank = Bank.open(root)
    assert "link-in.md" in bank
    assert not any(p.startswith((".obsidian", "node_modules", "loop/")) or p == "link-out.md" for p in bank.documents)


def test_find_root_prefers_explicit_then_environment_then_upward_search(tmp_path: Path):
    project = tmp_path / "project"
    (project / "memory-bank").mkdir(parents=True)
    deep = project / "src" / "pkg"
    deep.mkdir(parents=True)
    assert find_root(None, env={}, cwd=deep) == project / "memory-bank"
    assert find_root(None, env={"MEMORYBANK_ROOT": str(tmp_path / "elsewhere")}, cwd=deep) == tmp_path / "elsewhere"
    assert find_root("custom", env={"MEMORYBANK_ROOT": "x"}, cwd=tmp_path) == tmp_path / "custom"
    assert find_root(None, env={}, cwd=tmp_path) is None


def test_an_edit_whose_mtime_was_put_back_is_seen_by_an_open_bank(fixture_bank):
    root = fixture_bank("reference")
    target = root / "domain" / "rules.md"
    os.utime(target, (1_700_000_000, 1_700_000_000))
    bank = Bank.open(root, cache=False)
    text = bank.text("domain/rules.md")
    swapped = text.replace("a", "b", 1)
    assert len(swapped) == len(text) and swapped != text
    target.write_text(swapped, encoding="utf-8")
    os.utime(target, (1_700_000_000, 1_700_000_000))  # same size, same mtime: only the ctime moved
    bank.refresh()
    assert bank.text("domain/rules.md") == swapped


def test_a_path_that_names_no_document_is_told_the_one_it_most_likely_meant(tmp_path):
    from memorybank.core.errors import NotADocument

    from tests.core.route_banks import doc, small_bank

    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "ops/release.md": doc("Release", "How we release.", "Steps."),
            "adr/ADR-006-article-status-machine.md": doc("ADR-006", "Statuses.", "Why."),
            "adr/ADR-0061-other.md": doc("ADR-0061", "Other.", "Other."),
            "features/FT-005/feature.md": doc("FT-005", "Forum.", "Forum."),
        },
    )
    told = {
        "ops/release": "Did you mean ops/release.md?",
        "Ops/Release.md": "Did you mean ops/release.md?",
        "ADR-006": "Did you mean adr/ADR-006-article-status-machine.md?",
        "FT-005": "Did you mean features/FT-005/feature.md?",
    }
    for given, hint in told.items():
        with pytest.raises(NotADocument, match=f"Not a document of this bank: {given}. {hint}"):
            bank.document(given)
    for far in ("nope.md", "ab", "ADR-00"):
        with pytest.raises(NotADocument) as refused:
            bank.document(far)
        assert "Did you mean" not in refused.value.message, far
