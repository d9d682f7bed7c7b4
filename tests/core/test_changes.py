"""What changed since a ref or a date, against real git repositories (D.17, acceptance check 58)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.changes import changes_since, parse_date
from memorybank.core.errors import GitError, UsageError

from tests.conftest import FIXTURES, git


def commit(repo: Path, message: str, date: str = "2026-01-10T09:00:00+00:00") -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return git(repo, "rev-parse", "HEAD").strip()


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def summary(result) -> list[tuple[str, str, str | None]]:
    return [(c.change_kind, c.path, c.renamed_from) for c in result.changes]


@pytest.fixture
def repo(tmp_path) -> Path:
    """The reference fixture committed on 2026-01-10, then a second commit on 2026-03-01 that
    renames orphan.md, deletes conflict.md, edits the rules and adds a product note."""
    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    write(tmp_path, "src/app.py", "print('hi')\n")
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Start", "2026-01-10T09:00:00+00:00")
    bank = tmp_path / "memory_bank"
    git(tmp_path, "mv", "memory_bank/orphan.md", "memory_bank/engineering/orphan.md")
    (bank / "conflict.md").unlink()
    with open(bank / "domain/rules.md", "a", encoding="utf-8") as handle:
        handle.write("\nL2 rejects below 70.\n")
    write(bank, "product/vision.md", "---\ntitle: Vision\ndoc_kind: product\nstatus: draft\n---\n# Vision\n")
    write(tmp_path, "src/app.py", "print('bye')\n")
    commit(tmp_path, "Second", "2026-03-01T09:00:00+00:00")
    return tmp_path


def test_a_ref_gives_the_exact_delta_with_kind_layer_and_rename_origin(repo):
    result = changes_since(Bank.open(repo / "memory_bank"), "HEAD~1")
    assert result.mode == "git" and result.since == "HEAD~1" and result.repo == str(repo.resolve())
    assert summary(result) == [
        ("deleted", "conflict.md", None),
        ("modified", "domain/rules.md", None),
        ("renamed", "engineering/orphan.md", "orphan.md"),
        ("added", "product/vision.md", None),
    ]
    vision = result.changes[-1]
    assert (vision.title, vision.doc_kind, vision.layer, vision.status) == ("Vision", "product", "knowledge", "draft")
    gone = result.changes[0]
    assert (gone.title, gone.doc_kind, gone.status, gone.layer) == ("conflict", None, None, "other")


def test_changes_are_sorted_by_path_not_grouped_by_kind_name(repo):
    """The reference sorted by the kind's name first (added, deleted, modified, renamed); a reader
    looking for one document finds it in path order, and the kind is on every record."""
    paths = [c.path for c in changes_since(Bank.open(repo / "memory_bank"), "HEAD~1").changes]
    assert paths == sorted(paths)


def test_uncommitted_edits_and_untracked_documents_count(repo):
    bank_root = repo / "memory_bank"
    write(bank_root, "adr/ADR-002-new.md", "---\ntitle: ADR-002\n---\n")
    with open(bank_root / "dna/README.md", "a", encoding="utf-8") as handle:
        handle.write("\nMore.\n")
    write(bank_root, ".obsidian/workspace.md", "hidden\n")
    write(bank_root, "notes.txt", "not markdown\n")
    assert summary(changes_since(Bank.open(bank_root), "HEAD")) == [
        ("added", "adr/ADR-002-new.md", None),
        ("modified", "dna/README.md", None),
    ]


def test_a_commit_hash_and_a_tag_are_refs_too(repo):
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    git(repo, "tag", "v1.0", first)
    bank = Bank.open(repo / "memory_bank")
    by_hash, by_tag = changes_since(bank, first[:10]), changes_since(bank, "v1.0")
    assert summary(by_hash) == summary(by_tag) == summary(changes_since(bank, "HEAD~1"))
    assert changes_since(bank, "v1.0").base == first


def test_a_ref_naming_nothing_is_an_error_that_says_so(repo):
    with pytest.raises(
        GitError, match=r'"no-such-branch" is not a commit in .*Pass a valid ref, an ISO date or a span such as 7d'
    ):
        changes_since(Bank.open(repo / "memory_bank"), "no-such-branch")
    with pytest.raises(GitError, match="is not a commit"):
        changes_since(Bank.open(repo / "memory_bank"), "no-such-branch~2")
    with pytest.raises(GitError, match="is not a commit"):
        changes_since(Bank.open(repo / "memory_bank"), "--output=/tmp/x")


def test_a_ref_past_the_start_of_history_falls_back_to_the_first_commit(repo):
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    for ref in ("HEAD~20", "HEAD^^^", "HEAD~1~1~1"):
        result = changes_since(Bank.open(repo / "memory_bank"), ref)
        assert result.since == ref and result.base == first
        assert result.note == (
            f'"{ref}" reaches past the start of this repository, so the delta is measured from '
            f"its first commit ({first[:8]}) instead."
        )
        assert len(result.changes) == 4


def test_the_walking_fallback_lands_on_the_first_parent_root_not_the_last_root_listed(tmp_path):
    """With two unrelated histories merged, the reference took the last root commit git listed (the
    oldest); walking back by first parents reaches the root of the branch the ref is on."""
    write(tmp_path, "memory_bank/a.md", "---\ntitle: A\n---\n")
    git(tmp_path, "init", "-q")
    main_root = commit(tmp_path, "Main root", "2026-02-01T00:00:00+00:00")
    branch = git(tmp_path, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(tmp_path, "checkout", "-q", "--orphan", "other")
    git(tmp_path, "rm", "-rfq", ".")
    write(tmp_path, "memory_bank/b.md", "---\ntitle: B\n---\n")
    other_root = commit(tmp_path, "Other root", "2025-01-01T00:00:00+00:00")
    git(tmp_path, "checkout", "-q", branch)
    git(
        tmp_path,
        "merge",
        "-q",
        "--allow-unrelated-histories",
        "-m",
        "Join",
        "other",
        env={"GIT_AUTHOR_DATE": "2026-03-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2026-03-01T00:00:00+00:00"},
    )
    assert git(tmp_path, "rev-list", "--max-parents=0", "HEAD").split()[-1] == other_root
    result = changes_since(Bank.open(tmp_path / "memory_bank"), "HEAD~5")
    assert result.base == main_root
    assert summary(result) == [("added", "b.md", None)]


def test_a_date_in_a_repository_is_measured_from_the_last_commit_before_it(repo):
    """The reference answered every date from modification times even inside git; a repository can
    answer exactly, deletions and renames included, so it does."""
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    result = changes_since(Bank.open(repo / "memory_bank"), "2026-02-01")
    assert result.mode == "git" and result.base == first
    assert result.note == (
        f"Measured from commit {first[:8]} (2026-01-10T09:00:00+00:00), the last one before 2026-02-01."
    )
    assert ("deleted", "conflict.md", None) in summary(result) and len(result.changes) == 4


def test_a_date_before_the_first_commit_lists_every_document_as_added(repo):
    bank = Bank.open(repo / "memory_bank")
    result = changes_since(bank, "2025-12-31T23:59:59+00:00")
    assert result.mode == "git" and result.base is None and "No commit is older" in result.note
    assert [c.path for c in result.changes] == list(bank.documents)
    assert {c.change_kind for c in result.changes} == {"added"}


def test_a_date_time_offset_is_honoured(repo):
    bank = Bank.open(repo / "memory_bank")
    assert changes_since(bank, "2026-03-01T10:30:00+02:00").base is not None  # 08:30 UTC: before the second commit
    second = git(repo, "rev-parse", "HEAD").strip()
    assert changes_since(bank, "2026-03-01T10:30:00+01:00").base == second  # 09:30 UTC: after it
    assert changes_since(bank, "2026-03-01T10:30:00+01:00").changes == ()


def test_a_date_alone_means_local_midnight_like_a_date_time_without_zone():
    """The reference read a date alone as UTC but a date-time without a zone as local time."""
    assert parse_date("2026-08-01") == parse_date("2026-08-01T00:00:00")
    assert parse_date("2026-08-01").utcoffset() is not None
    assert parse_date("2026-08-01T00:00:00Z").utcoffset().total_seconds() == 0


def test_a_bank_whose_repository_is_reached_through_a_symlink_works(repo, tmp_path_factory):
    link = tmp_path_factory.mktemp("via") / "link"
    os.symlink(repo, link)
    result = changes_since(Bank.open(link / "memory_bank"), "HEAD~1")
    assert len(result.changes) == 4 and result.repo == str(repo.resolve())


def test_a_bank_that_is_itself_a_symlink_into_the_repository_works(repo, tmp_path_factory):
    link = tmp_path_factory.mktemp("via") / "memory_bank"
    os.symlink(repo / "memory_bank", link)
    assert len(changes_since(Bank.open(link), "HEAD~1").changes) == 4


def test_a_bank_at_the_root_of_its_repository(tmp_path):
    shutil.copytree(FIXTURES / "reference", tmp_path / "bank")
    git(tmp_path / "bank", "init", "-q")
    commit(tmp_path / "bank", "Start")
    (tmp_path / "bank" / "orphan.md").unlink()
    assert summary(changes_since(Bank.open(tmp_path / "bank"), "HEAD")) == [("deleted", "orphan.md", None)]


def test_non_ascii_names_are_reported_as_written(repo):
    write(repo / "memory_bank", "domain/заметки о пороге.md", "---\ntitle: Пороги\n---\n")
    commit(repo, "Russian note", "2026-03-02T00:00:00+00:00")
    (change,) = changes_since(Bank.open(repo / "memory_bank"), "HEAD~1").changes
    assert (change.path, change.title, change.change_kind) == ("domain/заметки о пороге.md", "Пороги", "added")


def test_a_rename_out_of_markdown_is_a_deletion_and_a_type_change_is_a_modification(repo):
    """The reference dropped renames whose new name is not markdown, and ignored T (type change)."""
    bank = repo / "memory_bank"
    git(repo, "mv", "memory_bank/engineering/architecture.md", "memory_bank/engineering/architecture.txt")
    (bank / "adr/README.md").unlink()
    os.symlink("ADR-001-queue-choice.md", bank / "adr/README.md")
    assert summary(changes_since(Bank.open(bank), "HEAD")) == [
        ("modified", "adr/README.md", None),
        ("deleted", "engineering/architecture.md", None),
    ]


def test_changes_outside_the_bank_are_not_listed(repo):
    write(repo, "docs/other.md", "# Other\n")
    write(repo, "memory_bank_old/x.md", "# Old\n")
    assert changes_since(Bank.open(repo / "memory_bank"), "HEAD").changes == ()


def test_a_blank_since_is_a_usage_error(repo):
    with pytest.raises(UsageError, match="`since` is required: a git ref, an ISO date, or a span such as 7d."):
        changes_since(Bank.open(repo / "memory_bank"), "  ")


def test_something_shaped_like_a_date_that_is_not_one_is_a_usage_error(repo):
    with pytest.raises(UsageError, match='"2026-13-45" is neither an ISO date nor a usable git ref.'):
        changes_since(Bank.open(repo / "memory_bank"), "2026-13-45")


# -- without a repository (D.17) ------------------------------------------------------------------


@pytest.fixture
def loose(fixture_bank) -> Bank:
    return Bank.open(fixture_bank())


def test_without_git_a_walking_ref_lists_every_document_from_modification_times(loose):
    result = changes_since(loose, "HEAD~20")
    assert result.mode == "mtime" and result.since == "HEAD~20" and result.repo is None
    assert "not in a git repository" in result.note and '"HEAD~20" has no commit to reach back to' in result.note
    assert [c.path for c in result.changes] == list(loose.documents)
    assert {c.change_kind for c in result.changes} == {"modified"}


@pytest.mark.parametrize("ref", ["v1.2.0", "deadbeef"])
def test_without_git_a_hash_or_tag_is_refused(loose, ref):
    with pytest.raises(GitError, match=f'not inside a git repository, so "{ref}" cannot be resolved. Pass an ISO date'):
        changes_since(loose, ref)


def test_without_git_a_date_lists_documents_modified_since_with_a_note(loose):
    result = changes_since(loose, "2000-01-01")
    assert result.mode == "mtime" and len(result.changes) == len(loose)
    assert "cannot see deletions" in result.note
    assert changes_since(loose, "2999-01-01").changes == ()


def test_a_repository_without_commits_falls_back_to_modification_times_for_a_date(tmp_path):
    write(tmp_path, "memory_bank/a.md", "---\ntitle: A\n---\n")
    git(tmp_path, "init", "-q")
    bank = Bank.open(tmp_path / "memory_bank")
    result = changes_since(bank, "2000-01-01")
    assert result.mode == "mtime" and "no commits yet" in result.note and [c.path for c in result.changes] == ["a.md"]
    with pytest.raises(GitError, match="no commits yet"):
        changes_since(bank, "HEAD~1")


def test_a_date_at_the_calendars_start_is_a_usage_error_not_a_crash():
    """The suite runs in UTC (tests/conftest.py): year 1 has no local time before it to compare with."""
    with pytest.raises(UsageError, match="calendar's ends"):
        parse_date("0001-01-01")
    assert parse_date("9999-12-31").year == 9999


@pytest.fixture
def shallow(repo, tmp_path_factory) -> Path:
    """A clone of ``repo`` holding only its last commit, as CI checks a repository out by default."""
    clone = tmp_path_factory.mktemp("ci") / "checkout"
    git(clone.parent, "clone", "-q", "--depth", "1", f"file://{repo}", str(clone))
    return clone


@pytest.mark.parametrize("since", ["2026-02-01", "HEAD~1"])
def test_a_shallow_clone_says_its_history_is_cut_instead_of_a_false_delta(shallow, since):
    """Past the clone's first commit the history was not fetched: every document is not "added"
    since then, and HEAD~1 is not "the start of this repository". The answer says how to fetch it."""
    with pytest.raises(GitError) as refused:
        changes_since(Bank.open(shallow / "memory_bank"), since)
    assert "shallow" in refused.value.message and "git fetch" in refused.value.message


def test_a_shallow_clone_answers_what_its_history_holds(shallow):
    result = changes_since(Bank.open(shallow / "memory_bank"), "2026-03-02")
    assert result.mode == "git" and summary(result) == []


@pytest.mark.parametrize("span", ["45d", "45 days ago", "6w", "1 month ago", "45D"])
def test_a_span_back_from_now_is_a_date_by_the_products_clock(repo, span):
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    with clock.pinned("2026-03-20T12:00:00+00:00"):  # 45 days back: 2026-02-03, between the commits
        result = changes_since(Bank.open(repo / "memory_bank"), span)
    assert result.mode == "git" and result.base == first and result.since == span
    assert result.note.startswith(
        f"Measured from commit {first[:8]} (2026-01-10T09:00:00+00:00), the last one before {span} ("
    )


def test_yesterday_and_today_start_at_midnight_utc(repo):
    second = git(repo, "rev-parse", "HEAD").strip()
    with clock.pinned("2026-03-02T08:00:00+00:00"):
        assert changes_since(Bank.open(repo / "memory_bank"), "yesterday").base != second  # from 03-01 00:00
        assert changes_since(Bank.open(repo / "memory_bank"), "today").base == second


def test_a_branch_named_like_a_span_is_the_branch(repo):
    second = git(repo, "rev-parse", "HEAD").strip()
    with clock.pinned("2026-03-03T08:00:00+00:00"):
        assert changes_since(Bank.open(repo / "memory_bank"), "1d").base == second  # from 03-02 08:00
        git(repo, "branch", "1d", "HEAD~1")
        assert changes_since(Bank.open(repo / "memory_bank"), "1d").base != second
