"""``memorybank graph``, ``drift`` and ``changed`` as a user runs them, on the fixture and on real banks
committed into temporary git repositories."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.tui.cli.main import main

from tests.conftest import FIXTURES, REAL_BANKS, checkout, git

REFERENCE = str(FIXTURES / "reference")


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def commit(repo: Path, message: str, date: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})


# -- graph ----------------------------------------------------------------------------------------


def test_graph_text_is_a_tree_with_markers_layers_and_loose_edges(capsys):
    assert main(["graph", "domain/rules.md", "--root", REFERENCE]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:4] == [
        "domain/rules.md  Domain Rules  [domain / knowledge]",
        "  v engineering/architecture.md  Architecture  [engineering / knowledge]",
        "    v adr/ADR-001-queue-choice.md  ADR-001: One Shared Queue  [adr / decision]",
        "  v features/FT-001/brief.md  FT-001: Raise Throughput  [feature / delivery]",
    ]
    assert "4 documents, walking down 2 hops (reached from it: decision 1, delivery 1, knowledge 1)" in out
    assert (
        "external (derived from outside the bank; validate does not check them):\n  features/FT-001/brief.md -> ../../../outside-bank/upstream.md"
        in out
    )
    assert "broken (lead to no document of this bank):\n  engineering/architecture.md -> ../missing/nowhere.md" in out
    assert "truncated" not in out


def test_graph_text_up_shows_the_fit_and_the_truncation(capsys):
    assert main(["graph", "features/FT-001/brief.md", "-d", "up", "--root", REFERENCE]) == 0
    out = capsys.readouterr().out
    assert (
        "  ^ adr/ADR-001-queue-choice.md  ADR-001: One Shared Queue  [adr / decision]\n"
        "      fit: Only the accepted queue topology is reused." in out
    )
    assert main(["graph", "dna/principles.md", "--limit", "3", "--root", REFERENCE]) == 0
    assert "truncated: the cap of 3 documents (root included) was reached" in capsys.readouterr().out


def test_graph_json_speaks_snake_case(capsys):
    data = run_json(
        capsys, "graph", "features/FT-001/brief.md", "--direction", "up", "--depth", "1", "--json", "--root", REFERENCE
    )
    assert data["root"] == "features/FT-001/brief.md" and data["truncated"] is False
    assert [n["path"] for n in data["nodes"]][1:] == ["adr/ADR-001-queue-choice.md", "domain/rules.md"]
    assert data["nodes"][1]["reached_from"] == "features/FT-001/brief.md" and "doc_kind" in data["nodes"][1]
    assert data["by_layer"] == {"decision": 1, "knowledge": 1}
    assert data["neighbours"][0]["unreadable"].startswith("no such file")


def test_graph_diagrams_can_be_pasted(capsys):
    assert main(["graph", "domain/rules.md", "--format", "mermaid", "--root", REFERENCE]) == 0
    mermaid = capsys.readouterr().out
    assert mermaid.startswith("flowchart TD\n")
    assert '  n0["domain/rules.md<br/>Domain Rules"]:::root' in mermaid
    assert "  n0 --> n1" in mermaid and "-.-x" in mermaid and "classDef broken" in mermaid
    assert main(["graph", "features/FT-001/brief.md", "-d", "up", "-f", "dot", "--root", REFERENCE]) == 0
    dot = capsys.readouterr().out
    assert dot.startswith("digraph derived_from {") and dot.rstrip().endswith("}")
    fit = '[label="Only the accepted queue topology is reused."]'
    assert f'"adr/ADR-001-queue-choice.md" -> "features/FT-001/brief.md" {fit};' in dot
    assert dot.count("{") == dot.count("}")


def test_diagram_labels_are_escaped(tmp_path, capsys):
    (tmp_path / "a.md").write_text('---\ntitle: "Say \\"hi\\" <now>"\n---\n', encoding="utf-8")
    assert main(["graph", "a.md", "-f", "mermaid", "--root", str(tmp_path)]) == 0
    assert 'n0["a.md<br/>Say #quot;hi#quot; #lt;now#gt;"]' in capsys.readouterr().out
    assert main(["graph", "a.md", "-f", "dot", "--root", str(tmp_path)]) == 0
    assert 'label="a.md\\nSay \\"hi\\" <now>"' in capsys.readouterr().out


def test_graph_errors_have_exit_codes(capsys):
    assert main(["graph", "nope.md", "--root", REFERENCE]) == 1
    assert "Not a document of this bank: nope.md" in capsys.readouterr().err
    assert main(["graph", "domain/rules.md", "--depth", "9", "--root", REFERENCE]) == 2
    assert "depth must be between 1 and 6" in capsys.readouterr().err


# -- drift and changed ----------------------------------------------------------------------------


@pytest.fixture
def anchored_repo(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    doc = tmp_path / "memory_bank" / "engineering" / "scoring.md"
    text = "---\ntitle: Scoring\nanchors:\n  - src/score.py\n  - src/old.py\n---\n# Scoring\n"
    doc.write_text(text, encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "score.py").write_text("x = 1\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Start", "2026-01-10T09:00:00+00:00")
    (tmp_path / "src" / "score.py").write_text("x = 2\n")
    commit(tmp_path, "Score faster", "2026-06-10T09:00:00+00:00")
    return tmp_path / "memory_bank"


def test_drift_text_names_the_pair_the_gap_and_the_commits(anchored_repo, capsys):
    assert main(["drift", "--root", str(anchored_repo)]) == 0
    out = capsys.readouterr().out
    assert "threshold 90 days; anchored 1, unanchored 15" in out
    assert "engineering/scoring.md -> src/score.py: code 151 days ahead (document 2026-01-10, code 2026-06-10)" in out
    assert "2026-06-10 Score faster" in out
    assert "anchors whose path does not exist:\n  engineering/scoring.md -> src/old.py" in out


def test_drift_json_and_threshold(anchored_repo, capsys):
    data = run_json(capsys, "drift", "--threshold-days", "365", "--json", "--root", str(anchored_repo))
    assert data["mode"] == "git" and data["drifted"] == [] and data["missing"][0]["anchor"] == "src/old.py"
    assert main(["drift", "--threshold-days", "-1", "--root", str(anchored_repo)]) == 2


def test_a_shallow_clone_says_its_dates_cannot_show_drift_instead_of_reporting_none(anchored_repo, tmp_path, capsys):
    """CI checks out one commit: the document and its code both seem changed in it, so the drift the
    full history shows (151 days) vanishes. Say so, in text and JSON, rather than "no drift"."""
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", (anchored_repo.parent).as_uri(), str(shallow))
    assert main(["drift", "--root", str(shallow / "memory_bank")]) == 0
    out = capsys.readouterr().out
    assert "no anchored code is ahead" not in out and "note: This clone is shallow (it starts at " in out
    assert "git fetch --unshallow" in out
    data = run_json(capsys, "drift", "--json", "--root", str(shallow / "memory_bank"))
    assert data["drifted"] == [] and "shallow" in data["note"]
    stale = run_json(capsys, "drift", "--stale", "--json", "--root", str(shallow / "memory_bank"))
    assert "shallow" in stale["note"]
    full = run_json(capsys, "drift", "--json", "--root", str(anchored_repo))
    assert full["drifted"] and "note" not in full


def test_drift_without_anchors_prints_the_note(capsys):
    assert main(["drift", "--root", REFERENCE]) == 0
    out = capsys.readouterr().out
    assert "anchored 0, unanchored 15" in out and "note: No document in this scope declares `anchors:`" in out


def test_changed_text_json_and_errors(anchored_repo, capsys):
    (anchored_repo / "orphan.md").unlink()
    assert main(["changed", "HEAD", "--root", str(anchored_repo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 document changed since HEAD (from ") and "  D orphan.md  orphan  [- / other]" in out
    data = run_json(capsys, "changed", "HEAD~5", "--json", "--root", str(anchored_repo))
    assert data["mode"] == "git" and "reaches past the start" in data["note"]
    assert main(["changed", "nope", "--root", str(anchored_repo)]) == 2  # a ref naming nothing is a usage error
    assert '"nope" is not a commit in' in capsys.readouterr().err
    assert main(["changed", " ", "--root", str(anchored_repo)]) == 2


def test_changed_without_git_says_what_it_could_see(fixture_bank, capsys):
    loose = str(fixture_bank())
    assert main(["changed", "2000-01-01", "--root", loose]) == 0
    out = capsys.readouterr().out
    assert out.startswith("17 documents changed since 2000-01-01; modification times")
    assert "  M domain/rules.md  Domain Rules  [domain / knowledge]" in out and "cannot see deletions" in out
    assert main(["changed", "v1.2.0", "--root", loose]) == 2  # a ref, where no ref names a commit: a usage error
    assert "not inside a git repository" in capsys.readouterr().err


# -- drift --stale --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def aging_repo(tmp_path_factory) -> Path:
    """The project of tests/core/test_staleness.py: documents of 2026-01-10, code moved on since."""
    from tests.core.test_staleness import build

    return build(tmp_path_factory.mktemp("aging") / "project")


@pytest.fixture
def pinned_now(monkeypatch) -> None:
    """The clock a person pins with MEMORYBANK_NOW: 2026-06-15, so the documents are 156 days old."""
    monkeypatch.setenv("MEMORYBANK_NOW", "2026-06-15T12:00:00Z")


def test_drift_stale_text_ranks_documents_with_their_reasons(aging_repo, pinned_now, capsys):
    assert main(["drift", "--stale", "--root", str(aging_repo)]) == 0
    out = capsys.readouterr().out
    assert "untouched for more than 90 days (the default) while the code moved on; live 5, not live 6" in out
    assert (
        "  engineering/billing.md  Billing  (156 days)\n"
        "      64 lines in 4 files changed since 2026-01-10 (2 commits), 1 of them named in the document, "
        "1 beside what it names\n"
        "      named: src/billing/tax.py\n"
    ) in out
    assert (
        out.index("engineering/billing.md") < out.index("engineering/worker.md") < out.index("engineering/overview.md")
    )
    assert "engineering/fresh.md" not in out and "engineering/old-way.md" not in out


def test_drift_stale_days_override_and_json(aging_repo, pinned_now, capsys):
    data = run_json(capsys, "drift", "--stale", "--days", "157", "--format", "json", "--root", str(aging_repo))
    assert (data["mode"], data["days"], data["days_from"], data["stale"]) == ("git", 157, "given", [])
    data = run_json(capsys, "drift", "--stale", "--days", "30", "--json", "--root", str(aging_repo))
    assert [d["path"] for d in data["stale"]][:2] == ["engineering/billing.md", "engineering/worker.md"]
    assert data["stale"][0]["named"] == ["src/billing/tax.py"] and data["stale"][0]["age_days"] == 156
    assert main(["drift", "--stale", "--days", "3651", "--root", str(aging_repo)]) == 2
    assert "between 0 and 3650" in capsys.readouterr().err


def test_drift_stale_honours_the_banks_dna_sentence(aging_repo, pinned_now, tmp_path, capsys):
    copy = tmp_path / "project"
    shutil.copytree(aging_repo.parent, copy, symlinks=True)
    lifecycle = "---\ntitle: Lifecycle\n---\n# Lifecycle\n\nA live document is stale after 200 days.\n"
    (copy / "memory_bank" / "dna").mkdir()
    (copy / "memory_bank" / "dna" / "lifecycle.md").write_text(lifecycle, encoding="utf-8")
    assert main(["drift", "--stale", "--root", str(copy / "memory_bank")]) == 0
    out = capsys.readouterr().out
    assert "more than 200 days (set in dna/lifecycle.md)" in out
    assert "no live document is more than 200 days old with code committed after it" in out
    assert main(["drift", "--stale", "--days", "90", "--root", str(copy / "memory_bank")]) == 0
    assert "(given)" in (out := capsys.readouterr().out) and "engineering/billing.md" in out


def test_drift_stale_options_that_do_not_go_together_are_usage_errors(aging_repo, capsys):
    assert main(["drift", "--days", "30", "--root", str(aging_repo)]) == 2
    assert "--days goes with --stale" in capsys.readouterr().err
    assert main(["drift", "--stale", "--threshold-days", "30", "--root", str(aging_repo)]) == 2
    assert "with --stale, say how old with --days N" in capsys.readouterr().err


def test_drift_stale_without_git_prints_a_clear_note(fixture_bank, capsys):
    assert main(["drift", "--stale", "--root", str(fixture_bank())]) == 0
    out = capsys.readouterr().out
    assert out.startswith("live ") and "note: This bank is not inside a git repository" in out


def test_drift_help_describes_stale_and_shows_examples(capsys):
    with pytest.raises(SystemExit):
        main(["drift", "--help"])
    out = capsys.readouterr().out
    assert "--stale" in out and "--days N" in out and "examples:" in out
    assert "memorybank drift --stale --days 30 --format json" in out


# -- a real bank, committed in two steps ----------------------------------------------------------


def dependents_by_hand(bank: Bank) -> dict[str, set[str]]:
    """Who derives from whom, read straight from each document's edges (not from the index)."""
    found: dict[str, set[str]] = {}
    for doc in bank:
        for edge in doc.derived_from:
            if edge.resolved in bank.documents:
                found.setdefault(edge.resolved, set()).add(doc.path)
    return found


def blast_radius_by_hand(bank: Bank, start: str, depth: int) -> dict[str, int]:
    below = dependents_by_hand(bank)
    seen = {start: 0}
    frontier = [start]
    for level in range(1, depth + 1):
        frontier = sorted({d for f in frontier for d in below.get(f, ()) if d not in seen})
        seen.update({d: level for d in frontier})
    return seen


MESSY = [p for p in REAL_BANKS if p.parent.name in ("dapi__zelma", "Arshev__apartus")]


@pytest.mark.parametrize("source", MESSY, ids=[p.parent.name for p in MESSY])
def test_a_real_bank_committed_twice_reports_exactly_what_was_done(source, tmp_path, capsys):
    repo = tmp_path / "project"
    checkout(source, repo / "memory_bank")
    root = repo / "memory_bank"
    git(repo, "init", "-q")
    commit(repo, "Import the bank", "2026-01-10T09:00:00+00:00")
    bank = Bank.open(root)
    leaves = [d.path for d in bank if "/" in d.path and not bank.incoming(d.path) and not d.is_index and d.size > 300]
    moved, deleted, edited, dirty = leaves[:4]
    renamed = moved.rsplit("/", 1)[0] + "/renamed-" + moved.rsplit("/", 1)[1]
    git(repo, "mv", f"memory_bank/{moved}", f"memory_bank/{renamed}")
    git(repo, "rm", "-q", f"memory_bank/{deleted}")
    with open(root / edited, "a", encoding="utf-8") as handle:
        handle.write("\nOne more line.\n")
    (root / "notes").mkdir(exist_ok=True)
    (root / "notes" / "added-in-test.md").write_text("---\ntitle: Added\n---\n# Added\n", encoding="utf-8")
    commit(repo, "Rename, delete, edit, add", "2026-02-10T09:00:00+00:00")
    with open(root / dirty, "a", encoding="utf-8") as handle:
        handle.write("\nNot committed yet.\n")
    (root / "notes" / "untracked.md").write_text("# Untracked\n", encoding="utf-8")

    data = run_json(capsys, "changed", "HEAD~1", "--json", "--root", str(root))
    got = sorted((c["change_kind"], c["path"], c.get("renamed_from")) for c in data["changes"])
    assert got == sorted(
        [
            ("renamed", renamed, moved),
            ("deleted", deleted, None),
            ("modified", edited, None),
            ("modified", dirty, None),
            ("added", "notes/added-in-test.md", None),
            ("added", "notes/untracked.md", None),
        ]
    )
    head = run_json(capsys, "changed", "HEAD", "--json", "--root", str(root))
    assert sorted((c["change_kind"], c["path"]) for c in head["changes"]) == [
        ("added", "notes/untracked.md"),
        ("modified", dirty),
    ]

    bank = Bank.open(root)
    below = dependents_by_hand(bank)
    hub = max(below, key=lambda p: (len(below[p]), p))
    wide = run_json(capsys, "graph", hub, "--depth", "2", "--limit", "300", "--json", "--root", str(root))
    expected = blast_radius_by_hand(bank, hub, 2)
    if len(expected) <= 300:
        assert {n["path"]: n["depth"] for n in wide["nodes"]} == expected and wide["truncated"] is False
    else:
        assert len(wide["nodes"]) == 300 and wide["truncated"] is True
    capped = run_json(capsys, "graph", hub, "--json", "--root", str(root))  # depth 2, cap 60
    depth_one = sorted(below[hub])
    if len(expected) > 60:
        assert capped["truncated"] is True and len(capped["nodes"]) == 60
        assert [n["path"] for n in capped["nodes"] if n["depth"] == 1] == depth_one[:59]
    else:
        assert capped["truncated"] is False and len(capped["nodes"]) == len(expected)
    for node in capped["nodes"][1:]:
        assert node["via"] == "down" and node["path"] in below[node["reached_from"]]


def test_drift_check_fails_on_what_it_reports_and_on_a_history_that_cannot_tell(anchored_repo, tmp_path, capsys):
    """For CI: without --check drift informs (exit 0); with it, a document behind its code, a gone
    anchor or a shallow clone (which hides the gap) fail, and a bank with nothing anchored passes."""
    assert main(["drift", "--check", "--root", str(anchored_repo)]) == 1  # 151 days, and src/old.py is gone
    assert main(["drift", "--check", "--threshold-days", "365", "--root", str(anchored_repo)]) == 1  # gone anchor
    doc = anchored_repo / "engineering" / "scoring.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("  - src/old.py\n", ""), encoding="utf-8")
    commit(anchored_repo.parent, "Drop the old anchor", "2026-06-11T09:00:00+00:00")
    capsys.readouterr()
    assert main(["drift", "--check", "--threshold-days", "365", "--root", str(anchored_repo)]) == 0
    assert main(["drift", "--check", "--root", str(anchored_repo)]) == 0  # the document was committed after its code
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", anchored_repo.parent.as_uri(), str(shallow))
    capsys.readouterr()
    assert main(["drift", "--check", "--root", str(shallow / "memory_bank")]) == 1
    out, err = capsys.readouterr()
    assert "This clone is shallow" in out and "This clone is shallow" not in err  # said once
    assert err == "drift --check: not a pass: the history could not tell (the note says why)\n"
    assert main(["drift", "--check", "--root", REFERENCE]) == 0  # nothing anchored: nothing to check
    assert main(["drift", "--root", str(shallow / "memory_bank")]) == 0


def test_drift_stale_check_fails_when_a_live_document_is_stale(aging_repo, pinned_now):
    assert main(["drift", "--stale", "--check", "--root", str(aging_repo)]) == 1
    assert main(["drift", "--stale", "--check", "--days", "157", "--root", str(aging_repo)]) == 0
