"""Drift against real git repositories built with dated commits (D.16, acceptance check 59)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.drift import LEAVES_REPOSITORY, NO_COMMITS, NO_GIT, NOT_IN_REPOSITORY, check_drift
from memorybank.core.errors import UsageError
from memorybank.core.repository import Repository

from tests.conftest import FIXTURES, git


def commit(repo: Path, message: str, date: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def anchored(title: str, anchors: list[str]) -> str:
    listed = "\n".join(f"  - {a}" for a in anchors)
    return (
        f"---\ntitle: {title}\ndoc_kind: engineering\ndoc_function: canonical\nstatus: active\n"
        f"derived_from:\n  - ../domain/rules.md\nanchors:\n{listed}\n---\n# {title}\n"
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The reference fixture plus four anchored documents, first committed on 2026-01-10; the API
    directory moves on 2026-04-10 (exactly 90 days later) and the filter config on 2026-07-10, when
    the legacy uploader is deleted."""
    repo = tmp_path_factory.mktemp("drift") / "project"
    bank = repo / "memory_bank"
    shutil.copytree(FIXTURES / "reference", bank)
    write(bank, "engineering/filtering.md", anchored("Filtering", ["src/filter/config.ts"]))
    write(bank, "engineering/rendering.md", anchored("Rendering", ["./src/render/view.ts"]))
    write(bank, "engineering/api.md", anchored("API", ["src/api/"]))
    write(bank, "engineering/uploads.md", anchored("Uploads", ["src/legacy/uploader.ts"]))
    for rel in ("src/filter/config.ts", "src/render/view.ts", "src/api/routes.ts", "src/legacy/uploader.ts"):
        write(repo, rel, "export {}\n")
    git(repo, "init", "-q")
    commit(repo, "Start", "2026-01-10T09:00:00+00:00")
    write(repo, "src/api/handlers.ts", "export const h = 1\n")
    commit(repo, "Add API handlers", "2026-04-10T09:00:00+00:00")
    write(repo, "src/filter/config.ts", "export const threshold = 70\n")
    (repo / "src/legacy/uploader.ts").unlink()
    commit(repo, "Raise the filter threshold; drop the legacy uploader", "2026-07-10T09:00:00+00:00")
    return bank


@pytest.fixture(scope="module")
def bank(project) -> Bank:
    return Bank.open(project)


def test_code_ahead_of_its_document_is_reported_with_both_dates_and_the_commits(bank):
    drift = check_drift(bank)
    assert drift.mode == "git" and drift.repo == str(bank.root.parent.resolve())
    (pair,) = [p for p in drift.drifted if p.path == "engineering/filtering.md"]
    assert pair.anchor == "src/filter/config.ts" and pair.ahead_days > 170 and pair.ahead_days == 181
    assert "2026-01-10" in pair.doc_touched and "2026-07-10" in pair.code_touched
    assert [c.subject for c in pair.commits] == ["Raise the filter threshold; drop the legacy uploader"]
    assert pair.commit_count == 1 and len(pair.commits[0].short_hash) >= 7
    assert pair.title == "Filtering" and pair.status == "active"


def test_unchanged_code_is_not_reported(bank):
    assert all(p.path != "engineering/rendering.md" for p in check_drift(bank, threshold_days=0).drifted)


def test_a_directory_anchor_takes_the_newest_file_under_it(bank):
    (api,) = [p for p in check_drift(bank, threshold_days=0).drifted if p.path == "engineering/api.md"]
    assert api.anchor == "src/api/" and api.ahead_days == 90 and "2026-04-10" in api.code_touched


def test_the_gap_must_exceed_the_threshold_strictly(bank):
    assert "engineering/api.md" not in {p.path for p in check_drift(bank, threshold_days=90).drifted}
    assert "engineering/api.md" in {p.path for p in check_drift(bank, threshold_days=89).drifted}


def test_deleted_code_is_missing_at_any_threshold(bank):
    drift = check_drift(bank, threshold_days=3650)
    assert drift.drifted == ()
    assert [(m.path, m.anchor, m.reason) for m in drift.missing] == [
        ("engineering/uploads.md", "src/legacy/uploader.ts", NOT_IN_REPOSITORY)
    ]


def test_a_deleted_anchor_is_reported_as_missing_not_also_as_drift(bank):
    """The reference listed a deleted anchor twice at a low threshold (drift and missing)."""
    drift = check_drift(bank, threshold_days=0)
    assert "engineering/uploads.md" not in {p.path for p in drift.drifted}
    assert {m.path for m in drift.missing} == {"engineering/uploads.md"}


def test_threshold_zero_shows_every_gap_widest_first(bank):
    drift = check_drift(bank, threshold_days=0)
    widest = [(p.path, p.ahead_days) for p in drift.drifted]
    assert widest == [("engineering/filtering.md", 181), ("engineering/api.md", 90)]


def test_anchored_and_unanchored_are_counted(bank):
    drift = check_drift(bank)
    assert (drift.anchored, drift.unanchored) == (4, 15)


def test_a_scope_limits_the_documents_considered(bank):
    domain = check_drift(bank, scope="domain")
    assert (domain.mode, domain.anchored) == ("none", 0) and domain.unanchored > 0 and "anchors" in domain.note
    engineering = check_drift(bank, scope="memory_bank/engineering/")
    assert (engineering.scope, engineering.anchored, engineering.unanchored) == ("engineering", 4, 1)


def test_a_scope_that_names_nothing_is_a_usage_error_not_an_all_clear(bank):
    with pytest.raises(UsageError, match='Scope "engneering" names nothing in this bank'):
        check_drift(bank, scope="engneering")


def test_an_unannotated_bank_gets_an_honest_note(tmp_path):
    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Start", "2026-01-10T09:00:00+00:00")
    drift = check_drift(Bank.open(tmp_path / "memory_bank"))
    assert (drift.mode, drift.drifted, drift.anchored, drift.unanchored) == ("none", (), 0, 15)
    assert "repository-relative code paths" in drift.note


def test_a_bank_outside_git_says_there_are_no_commit_dates(tmp_path):
    write(tmp_path, "memory_bank/x.md", anchored("X", ["src/x.py"]))
    drift = check_drift(Bank.open(tmp_path / "memory_bank"))
    assert drift.mode == "none" and drift.note == NO_GIT and drift.anchored == 1


def test_out_of_range_thresholds_are_usage_errors(bank):
    for bad in (-1, 3651):
        with pytest.raises(UsageError, match="between 0 and 3650"):
            check_drift(bank, threshold_days=bad)


def test_one_git_log_pass_for_every_anchor_not_one_process_per_anchor(bank, monkeypatch):
    calls: list[tuple[str, ...]] = []
    original = Repository.run

    def counting(self, *args, **kwargs):
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Repository, "run", counting)
    check_drift(bank, threshold_days=0)
    assert [c[0] for c in calls] == ["log"]


def test_many_anchors_are_read_through_a_few_pathspecs(tmp_path, monkeypatch):
    """Git checks every changed path against every pathspec; a thousand of them made one pass slow."""
    for i in range(40):
        write(tmp_path, f"memory_bank/m{i:02d}.md", anchored(f"M{i}", [f"src/m{i:02d}/main.py"]))
        write(tmp_path, f"src/m{i:02d}/main.py", "0\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Start", "2026-01-01T00:00:00+00:00")
    write(tmp_path, "src/m07/main.py", "1\n")
    write(tmp_path, "src/unanchored.py", "1\n")
    commit(tmp_path, "Change m07", "2026-06-01T00:00:00+00:00")
    seen: list[tuple[str, ...]] = []
    original = Repository.run
    monkeypatch.setattr(Repository, "run", lambda self, *a, **k: seen.append(a) or original(self, *a, **k))
    drift = check_drift(Bank.open(tmp_path / "memory_bank"))
    (args,) = seen
    assert args[args.index("--") + 1 :] == ("memory_bank", "src")
    assert [(p.path, p.anchor) for p in drift.drifted] == [("m07.md", "src/m07/main.py")]


# -- beyond the reference -------------------------------------------------------------------------


@pytest.fixture
def small(tmp_path):
    """A repository with a bank and one document anchored to ``code/`` (committed by each test)."""
    write(tmp_path, "memory_bank/dna/principles.md", "---\ntitle: Principles\n---\n")
    git(tmp_path, "init", "-q")
    return tmp_path


def test_the_newest_commit_under_a_directory_anchor_is_picked_by_real_time_not_by_iso_string(small):
    """ISO strings with different offsets do not sort as times: 2026-05-02T12:00+14:00 is earlier
    than 2026-05-01T23:00-12:00, though it sorts after it as text (the reference compared text)."""
    write(small, "memory_bank/code.md", anchored("Code", ["code"]))
    write(small, "code/a.ts", "1\n")
    write(small, "code/b.ts", "1\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "code/b.ts", "2\n")
    commit(small, "Touch b", "2026-05-02T12:00:00+14:00")
    write(small, "code/a.ts", "2\n")
    commit(small, "Touch a", "2026-05-01T23:00:00-12:00")
    (pair,) = check_drift(Bank.open(small / "memory_bank"), threshold_days=0).drifted
    assert pair.code_touched == "2026-05-01T23:00:00-12:00"
    assert [c.subject for c in pair.commits] == ["Touch a", "Touch b"]


def test_file_names_git_would_quote_still_match(small):
    """git quotes non-ASCII names in its default output, so the reference never matched them."""
    write(small, "memory_bank/заметки.md", anchored("Заметки", ["src/ünï/файл с пробелом.ts"]))
    write(small, "src/ünï/файл с пробелом.ts", "1\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "src/ünï/файл с пробелом.ts", "2\n")
    commit(small, "Change", "2026-06-01T00:00:00+00:00")
    (pair,) = check_drift(Bank.open(small / "memory_bank")).drifted
    assert (pair.path, pair.ahead_days) == ("заметки.md", 151)


def test_only_the_newest_commits_since_the_document_are_listed(small):
    write(small, "memory_bank/code.md", anchored("Code", ["code.py"]))
    write(small, "code.py", "0\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    for day in range(1, 8):
        write(small, "code.py", f"{day}\n")
        commit(small, f"Change {day}", f"2026-03-{day:02d}T00:00:00+00:00")
    (pair,) = check_drift(Bank.open(small / "memory_bank"), threshold_days=0).drifted
    assert pair.commit_count == 7
    assert [c.subject for c in pair.commits] == ["Change 7", "Change 6", "Change 5", "Change 4", "Change 3"]
    assert pair.commits[0].date.startswith("2026-03-07")


def test_a_document_edited_after_its_code_does_not_drift(small):
    write(small, "memory_bank/code.md", anchored("Code", ["code.py"]))
    write(small, "code.py", "0\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "code.py", "1\n")
    commit(small, "Code", "2026-06-01T00:00:00+00:00")
    write(small, "memory_bank/code.md", anchored("Code", ["code.py"]) + "\nUpdated.\n")
    commit(small, "Docs caught up", "2026-06-02T00:00:00+00:00")
    assert check_drift(Bank.open(small / "memory_bank"), threshold_days=0).drifted == ()


def test_an_uncommitted_document_cannot_drift_but_its_missing_anchor_is_reported(small):
    write(small, "code.py", "0\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "memory_bank/new.md", anchored("New", ["code.py", "gone.py"]))
    drift = check_drift(Bank.open(small / "memory_bank"), threshold_days=0)
    assert drift.drifted == () and drift.uncommitted == ("new.md",)
    assert [(m.path, m.anchor) for m in drift.missing] == [("new.md", "gone.py")]


def test_an_anchor_leaving_the_repository_is_missing_and_does_not_spoil_the_others(small):
    """The reference passed it to git, whose refusal emptied the whole log."""
    write(small, "memory_bank/code.md", anchored("Code", ["../elsewhere/x.py", "code.py"]))
    write(small, "code.py", "0\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "code.py", "1\n")
    commit(small, "Code", "2026-06-01T00:00:00+00:00")
    drift = check_drift(Bank.open(small / "memory_bank"))
    assert [p.anchor for p in drift.drifted] == ["code.py"]
    assert [(m.anchor, m.reason) for m in drift.missing] == [("../elsewhere/x.py", LEAVES_REPOSITORY)]


def test_a_repository_without_commits_says_so(small):
    write(small, "memory_bank/code.md", anchored("Code", ["code.py", "gone.py"]))
    write(small, "code.py", "0\n")
    drift = check_drift(Bank.open(small / "memory_bank"))
    assert drift.mode == "git" and drift.note == NO_COMMITS and drift.drifted == ()
    assert [m.anchor for m in drift.missing] == ["gone.py"]


def test_a_bank_reached_through_a_symlink_still_finds_its_history(small, tmp_path_factory):
    write(small, "memory_bank/code.md", anchored("Code", ["code.py"]))
    write(small, "code.py", "0\n")
    commit(small, "Start", "2026-01-01T00:00:00+00:00")
    write(small, "code.py", "1\n")
    commit(small, "Code", "2026-06-01T00:00:00+00:00")
    link = tmp_path_factory.mktemp("elsewhere") / "link"
    os.symlink(small, link)
    (pair,) = check_drift(Bank.open(link / "memory_bank")).drifted
    assert pair.ahead_days == 151
