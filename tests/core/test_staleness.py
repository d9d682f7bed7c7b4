"""Age without anchors, against real git repositories built with dated commits and a pinned clock.

The project: a bank committed on 2026-01-10 with the code it talks about; the billing code moves
on 2026-03-01, the worker and an unrelated file on 2026-05-01; one document is edited 2026-06-01
and another is first committed 2026-05-20, after the last code commit. The clock stands at
2026-06-15, so the documents of 2026-01-10 are 156 days old.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.contract import parse_contract
from memorybank.core.drift import NO_COMMITS, NO_GIT
from memorybank.core.errors import UsageError
from memorybank.core.mentions import CodePlaces
from memorybank.core.repository import Repository
from memorybank.core.staleness import BANK_IS_REPOSITORY, find_stale, is_live

from tests.conftest import git

NOW = "2026-06-15T12:00:00Z"


def commit(repo: Path, message: str, date: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message, env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def doc(title: str, body: str = "", **fields: str) -> str:
    head = "".join(f"{key}: {value}\n" for key, value in {"status": "active", **fields}.items() if value)
    return f"---\ntitle: {title}\n{head}---\n# {title}\n\n{body}\n"


def add(repo: Path, rel: str, lines: int) -> None:
    with open(repo / rel, "a", encoding="utf-8") as handle:
        handle.write("change\n" * lines)


def build(repo: Path) -> Path:
    bank = repo / "memory_bank"
    write(bank, "README.md", "---\ntitle: Index\n---\n# Index\n")
    write(bank, "engineering/billing.md", doc("Billing", "Taxes live in `src/billing/tax.py`."))
    write(bank, "engineering/overview.md", doc("Overview", "The product, in words."))
    write(bank, "engineering/worker.md", doc("Worker", "See worker/queue.py for the queue.", status=""))
    write(bank, "engineering/fresh.md", doc("Fresh", "Names `src/billing/tax.py` too."))
    write(bank, "engineering/old-way.md", doc("Old way", "`src/billing/tax.py`", status="superseded"))
    write(bank, "engineering/sketch.md", doc("Sketch", "`src/billing/tax.py`", status="draft"))
    write(bank, "adr/ADR-1.md", doc("ADR 1", "`src/billing/tax.py`", decision_status="superseded"))
    write(bank, "features/FT-1/brief.md", doc("FT-1", "`src/billing/tax.py`", delivery_status="done"))
    plan = "---\ntitle: FT-1 plan\nstatus: active\nderived_from:\n  - brief.md\n---\n# Plan\n\n`src/billing/tax.py`\n"
    write(bank, "features/FT-1/plan.md", plan)
    for rel in ("src/billing/tax.py", "src/billing/invoice.py", "src/worker/queue.py", "misc/notes.txt"):
        write(repo, rel, "start\n")
    git(repo, "init", "-q")
    commit(repo, "Start", "2026-01-10T09:00:00+00:00")
    add(repo, "src/billing/tax.py", 3)
    add(repo, "src/billing/invoice.py", 10)
    commit(repo, "Billing moves on", "2026-03-01T09:00:00+00:00")
    add(repo, "src/worker/queue.py", 1)
    add(repo, "misc/notes.txt", 50)
    commit(repo, "Worker and notes", "2026-05-01T09:00:00+00:00")
    write(bank, "engineering/late.md", doc("Late", "`src/billing/tax.py`"))
    commit(repo, "A late document", "2026-05-20T09:00:00+00:00")
    add(bank, "engineering/fresh.md", 1)
    commit(repo, "Fresh is edited", "2026-06-01T09:00:00+00:00")
    return bank


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("stale") / "project")


@pytest.fixture(scope="module")
def bank(project) -> Bank:
    return Bank.open(project)


def stale(bank: Bank, **kwargs):
    with clock.pinned(NOW):
        return find_stale(bank, **kwargs)


def test_the_most_affected_document_ranks_first_with_its_reason(bank):
    found = stale(bank)
    assert found.mode == "git" and (found.days, found.days_from) == (90, "default")
    assert [d.path for d in found.stale] == [
        "engineering/billing.md",
        "engineering/worker.md",
        "engineering/overview.md",
    ]
    billing = found.stale[0]
    assert (billing.age_days, billing.commits, billing.files, billing.lines) == (156, 2, 4, 64)
    assert (billing.named_files, billing.named_lines, billing.beside_files, billing.beside_lines) == (1, 3, 1, 10)
    assert billing.named == ("src/billing/tax.py",) and billing.last_commit.startswith("2026-01-10")
    assert billing.reason == (
        "64 lines in 4 files changed since 2026-01-10 (2 commits), 1 of them named in the document, "
        "1 beside what it names"
    )


def test_a_less_affected_document_ranks_below_and_says_so(bank):
    overview = stale(bank).stale[-1]
    assert overview.path == "engineering/overview.md" and overview.named_files == overview.beside_files == 0
    assert overview.reason == "64 lines in 4 files changed since 2026-01-10 (2 commits)"


def test_a_file_named_by_its_tail_counts_and_a_document_without_status_is_live(bank):
    worker = next(d for d in stale(bank).stale if d.path == "engineering/worker.md")
    assert worker.status == "" and worker.named == ("src/worker/queue.py",) and worker.named_lines == 1


def test_a_recently_touched_document_is_not_listed(bank):
    assert "engineering/fresh.md" not in {d.path for d in stale(bank, days=0).stale}


def test_no_commit_outside_the_bank_since_means_not_listed(bank):
    """late.md is older than 0 days but nothing outside the bank was committed after it."""
    found = stale(bank, days=0)
    assert "engineering/late.md" not in {d.path for d in found.stale}
    assert "engineering/billing.md" in {d.path for d in found.stale}


def test_the_age_must_exceed_the_days_strictly(bank):
    """156 days and three hours old: more than 156 days, not more than 157."""
    assert stale(bank, days=156).stale and not stale(bank, days=157).stale


def test_documents_that_are_not_live_are_never_listed(bank):
    found = stale(bank, days=0)
    listed = {d.path for d in found.stale}
    for path in ("engineering/old-way.md", "engineering/sketch.md", "adr/ADR-1.md", "features/FT-1/brief.md"):
        assert path not in listed
    assert "features/FT-1/plan.md" not in listed  # derives from a finished brief in its own folder
    assert "README.md" not in listed  # an index
    assert (found.live, found.not_live) == (5, 6)


def test_is_live_reads_status_decision_and_finished_work(bank):
    documents = bank.documents
    assert is_live(documents["engineering/worker.md"], documents)
    assert not is_live(documents["features/FT-1/plan.md"], documents)
    assert is_live(documents["features/FT-1/plan.md"])  # without the bank, its brief is unknown


def test_a_scope_limits_the_documents_considered(bank):
    found = stale(bank, scope="features")
    assert (found.live, found.stale) == (0, ()) and found.mode == "none"


def test_a_scope_that_names_nothing_is_a_usage_error_not_an_all_clear(bank):
    with pytest.raises(UsageError, match='Scope "featurs" names nothing in this bank'):
        stale(bank, scope="featurs")


def test_days_out_of_range_are_usage_errors(bank):
    for bad in (-1, 3651):
        with pytest.raises(UsageError, match="between 0 and 3650"):
            stale(bank, days=bad)


def test_the_banks_dna_setting_is_honoured_and_days_given_override_it(project, tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(project.parent, copy, symlinks=True)
    write(copy / "memory_bank", "dna/lifecycle.md", doc("Lifecycle", "A live document is stale after 200 days."))
    bank = Bank.open(copy / "memory_bank")
    found = stale(bank)
    assert (found.days, found.days_from, found.stale) == (200, "dna/lifecycle.md", ())
    given = stale(bank, days=30)
    assert given.days_from == "given" and given.stale[0].path == "engineering/billing.md"


def test_one_pass_of_git_whatever_the_number_of_documents(bank, monkeypatch):
    calls: list[tuple[str, ...]] = []
    original = Repository.run

    def counting(self, *args, **kwargs):
        calls.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Repository, "run", counting)
    stale(bank)
    assert [c[0] for c in calls] == ["log", "log", "ls-files"]
    assert "--numstat" in calls[1] and "--name-only" in calls[0]


def test_a_bank_outside_git_says_there_are_no_commit_dates(tmp_path):
    write(tmp_path, "memory_bank/x.md", doc("X"))
    found = stale(Bank.open(tmp_path / "memory_bank"))
    assert (found.mode, found.note, found.stale, found.live) == ("none", NO_GIT, (), 1)


def test_a_repository_without_commits_says_so(tmp_path):
    write(tmp_path, "memory_bank/x.md", doc("X"))
    git(tmp_path, "init", "-q")
    found = stale(Bank.open(tmp_path / "memory_bank"))
    assert (found.mode, found.note, found.uncommitted) == ("git", NO_COMMITS, 1)


def test_a_bank_that_is_the_whole_repository_has_no_code_to_age_against(tmp_path):
    write(tmp_path, "x.md", doc("X"))
    git(tmp_path, "init", "-q")
    commit(tmp_path, "Start", "2026-01-10T09:00:00+00:00")
    found = stale(Bank.open(tmp_path))
    assert (found.mode, found.note) == ("none", BANK_IS_REPOSITORY)


def test_uncommitted_live_documents_are_counted_not_listed(project, tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(project.parent, copy, symlinks=True)
    write(copy / "memory_bank", "engineering/new.md", doc("New", "`src/billing/tax.py`"))
    found = stale(Bank.open(copy / "memory_bank"), days=0)
    assert found.uncommitted == 1 and "engineering/new.md" not in {d.path for d in found.stale}


# -- what a document names -------------------------------------------------------------------------

KNOWN = ["src/billing/tax.py", "src/billing/invoice.py", "src/api/routes.py", "lib/api/routes.py", "main.go"]


def places() -> CodePlaces:
    return CodePlaces("docs/memory_bank", [*KNOWN, "docs/memory_bank/x.md", "docs/guide.md"], ["src/old/gone.py"])


@pytest.mark.parametrize(
    ("mention", "doc_dir", "expected"),
    [
        ("src/billing/tax.py", "docs/memory_bank/eng", "src/billing/tax.py"),
        ("billing/tax.py", "docs/memory_bank/eng", "src/billing/tax.py"),
        ("tax.py", "docs/memory_bank/eng", "src/billing/tax.py"),
        ("routes.py", "docs/memory_bank/eng", None),  # two files end so: ambiguous
        ("api/routes.py", "docs/memory_bank/eng", None),
        ("src/api/routes.py", "docs/memory_bank/eng", "src/api/routes.py"),
        ("../../../src/billing/", "docs/memory_bank/eng", "src/billing"),
        ("../../guide.md", "docs/memory_bank/eng", "docs/guide.md"),
        ("guide.md", "docs/memory_bank/eng", "docs/guide.md"),  # from the directory holding the bank
        ("x.md", "docs/memory_bank/eng", None),  # inside the bank: a document, not code
        ("../../../../etc/passwd", "docs/memory_bank/eng", None),
        ("src/old/gone.py", "docs/memory_bank/eng", "src/old/gone.py"),  # deleted since: still named
        ("billing/", "docs/memory_bank/eng", "src/billing"),
        ("nothing/here.py", "docs/memory_bank/eng", None),
    ],
)
def test_a_mention_resolves_to_one_repository_path(mention, doc_dir, expected):
    assert places().resolve(mention, doc_dir) == expected


def test_regions_name_files_and_deep_directories_and_put_top_directories_beside():
    text = "See `src/billing/tax.py`, [api](https://example.com/src/api/routes.py), `src/` and `lib/api/`."
    named, beside = places().regions(text, "docs/memory_bank/eng")
    assert named == {"src/billing/tax.py", "lib/api"}
    assert beside == {"src/billing", "src"}


def test_a_hostile_run_without_slashes_is_read_in_linear_time():
    """A long token used to be rescanned from every position (quadratic): now it is read once."""
    named, beside = places().regions("a." * 200_000 + " " + "b/" * 100_000, "docs/memory_bank/eng")
    assert named == beside == set()


# -- the setting in dna/ ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("A live document is **stale after 120 days** without a commit.", 120),
        ("A document is stale after\n45 days.", 45),
        ("Документ считается устаревшим через 60 дней без коммитов.", 60),
        ("stale after 99999 days", None),
        ("Nothing about age here.", None),
    ],
)
def test_the_contract_reads_the_stale_after_sentence(text, days):
    contract = parse_contract([("dna/lifecycle.md", text)], has_principles=False)
    assert contract.stale_after_days == days
    assert contract.stale_after_source == ("dna/lifecycle.md" if days else None)


def test_the_first_stale_after_sentence_in_bank_order_wins():
    sources = [("dna/a.md", "stale after 30 days"), ("dna/b.md", "stale after 60 days")]
    contract = parse_contract(sources, has_principles=False)
    assert (contract.stale_after_days, contract.stale_after_source) == (30, "dna/a.md")
