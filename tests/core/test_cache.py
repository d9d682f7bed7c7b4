"""The persistent parse cache never answers for a file that moved, and never changes an answer.

Files written in the last two seconds are never stored (a rewrite at the same size within the
clock's grain keeps its stamp), so these tests date the bank's files in the past first.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import memorybank.core.parse
import pytest
from memorybank.core.bank import Bank
from memorybank.core.cache import location
from memorybank.core.route import route
from memorybank.core.validate import validate

from tests.conftest import REAL_BANKS, real_bank_ids, without_override

PAST = 1_700_000_000


pytestmark = pytest.mark.usefixtures("cache_dir")


@pytest.fixture
def parses(monkeypatch):
    """Every path parsed from disk, in order."""
    seen: list[str] = []
    real = memorybank.core.parse.parse_document

    def spy(path, data, **kwargs):
        seen.append(path)
        return real(path, data, **kwargs)

    monkeypatch.setattr(memorybank.core.parse, "parse_document", spy)
    return seen


def age(root: Path, when: int = PAST) -> None:
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (when, when))


def answers(bank: Bank) -> str:
    """Everything a face would print about the bank, as one string."""
    report = validate(bank)
    docs = [(d.path, d.title, d.layer, d.status, d.canonical_for, len(d.sections)) for d in bank]
    hits = [dataclasses.asdict(h) for q in ("deploy", "what is the product", "решение") for h in route(bank, q).hits]
    return json.dumps([dataclasses.asdict(report), docs, hits], default=str, ensure_ascii=False)


def test_an_unchanged_bank_is_served_from_the_cache_without_parsing(fixture_bank, parses):
    root = fixture_bank("reference")
    age(root)
    before = answers(Bank.open(root))
    assert parses, "the first process parses"
    parses.clear()
    bank = Bank.open(root)
    report = validate(bank)
    assert parses == [] and bank._pending is not None, "validation answered without loading documents"
    assert answers(bank) == before and parses == []
    assert dataclasses.asdict(report) == dataclasses.asdict(validate(Bank.open(root, cache=False)))


def test_the_cache_lives_outside_the_bank(fixture_bank, cache_dir, monkeypatch, tmp_path):
    root = fixture_bank("reference")
    age(root)
    snapshot = sorted(p.relative_to(root) for p in root.rglob("*"))
    validate(Bank.open(root))
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == snapshot
    assert any(cache_dir.rglob("documents"))
    monkeypatch.delenv("MEMORYBANK_CACHE_DIR")
    (tmp_path / ".git").mkdir()
    assert location(root) is not None and str(location(root)).startswith(str(tmp_path / ".git" / "memorybank"))
    monkeypatch.setenv("MEMORYBANK_CACHE", "off")
    assert location(root) is None


@pytest.mark.parametrize("change", ["changed", "added", "deleted", "renamed", "same-size", "same-stamp"])
def test_a_moved_file_is_never_served_from_the_cache(fixture_bank, parses, change):
    root = fixture_bank("reference")
    age(root)
    Bank.open(root).documents  # noqa: B018 - fill the cache
    target = sorted(p for p in root.rglob("*.md") if p.name != "README.md")[0]
    rel = target.relative_to(root).as_posix()
    text = target.read_text(encoding="utf-8")
    if change == "changed":
        target.write_text(text.replace("\n# ", "\n# Changed ", 1) + "\nA new line.\n", encoding="utf-8")
    elif change in ("same-size", "same-stamp"):
        swapped = text.replace("a", "b", 1)
        assert len(swapped) == len(text) and swapped != text
        target.write_text(swapped, encoding="utf-8")
        when = PAST + 60 if change == "same-size" else PAST  # the old mtime put back, as cp -p and rsync -a do
        os.utime(target, (when, when))
    elif change == "added":
        (root / "extra.md").write_text("---\ntitle: Extra deploy notes\n---\n# Extra\n", encoding="utf-8")
        age(root / "extra.md", PAST + 60)
    elif change == "deleted":
        target.unlink()
    else:
        target.rename(target.with_name("renamed.md"))
    parses.clear()
    cached = Bank.open(root)
    fresh = Bank.open(root, cache=False)
    assert answers(cached) == answers(fresh)
    assert list(cached.documents) == list(fresh.documents)
    if change in ("changed", "same-size", "same-stamp"):
        assert parses.count(rel) == 2  # once for the cached bank (re-parsed), once for the fresh one
        assert cached.text(rel) == target.read_text(encoding="utf-8")
    if change == "deleted":
        assert rel not in cached
    if change == "renamed":
        assert rel not in cached and rel.rsplit("/", 1)[0] + "/renamed.md" in cached


def test_a_deleted_or_corrupt_cache_changes_no_result(fixture_bank, cache_dir):
    root = fixture_bank("reference")
    age(root)
    expected = answers(Bank.open(root, cache=False))
    assert answers(Bank.open(root)) == expected
    files = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2] + b"garbage")
    assert answers(Bank.open(root)) == expected
    for path in files:
        path.write_bytes(b"")
    assert answers(Bank.open(root)) == expected
    shutil.rmtree(cache_dir)
    assert answers(Bank.open(root)) == expected


def test_a_stored_validation_rechecks_the_files_it_looked_at(fixture_bank, write_file):
    """A link to a picture is not a document, so its disappearance must still reach the findings."""
    root = fixture_bank("reference")
    write_file(root, "img/diagram.png", b"png")
    page = write_file(root, "domain/pictures.md", "---\ntitle: Pictures\n---\n# Pictures\n\n![d](../img/diagram.png)\n")
    age(root)
    assert not any(
        f.path == "domain/pictures.md" and f.rule == "broken-link" for f in validate(Bank.open(root)).findings
    )
    (root / "img" / "diagram.png").unlink()
    found = validate(Bank.open(root)).findings
    assert any(f.path == "domain/pictures.md" and f.rule == "broken-link" for f in found)
    assert page.exists()


def test_files_written_just_now_are_not_stored(fixture_bank, parses):
    root = fixture_bank("reference")
    age(root, int(time.time()))
    Bank.open(root).documents  # noqa: B018 - every file is seconds old: nothing is trusted
    parses.clear()
    Bank.open(root).documents  # noqa: B018
    assert len(parses) == len(list(root.rglob("*.md")))


@pytest.mark.skipif(not REAL_BANKS, reason="the shared real banks are not beside the project")
@pytest.mark.parametrize("root", REAL_BANKS, ids=real_bank_ids())
def test_routing_and_validation_are_byte_identical_with_and_without_the_cache(root):
    expected = answers(Bank.open(root, cache=False))
    assert answers(Bank.open(root)) == expected  # fills the cache
    assert answers(Bank.open(root)) == expected  # served from it


def test_the_user_cache_keeps_only_the_most_recently_written_banks(fixture_bank, monkeypatch, tmp_path):
    home = tmp_path / "xdg"
    monkeypatch.delenv("MEMORYBANK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr("memorybank.core.cache.KEEP_BANKS", 2)
    banks = home / "memorybank" / "banks"
    for number, name in enumerate(["0000000000000000", "0000000000000001", "notes", "0000000000000002"]):
        old = banks / name
        old.mkdir(parents=True)
        os.utime(old, (PAST + number, PAST + number))
    root = fixture_bank("reference")
    age(root)
    validate(Bank.open(root))
    # a folder the cache would not have named is left alone, however old
    assert sorted(p.name for p in banks.iterdir()) == sorted(["0000000000000002", "notes", location(root).name])


def test_a_cache_folder_of_the_users_choosing_is_never_pruned(fixture_bank, monkeypatch, tmp_path):
    """``MEMORYBANK_CACHE_DIR`` may name a folder called ``banks`` that holds the user's own things."""
    mine = tmp_path / "mine" / "banks"
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(mine))
    monkeypatch.setattr("memorybank.core.cache.KEEP_BANKS", 1)
    for number, name in enumerate(["project", "0000000000000000"]):
        (mine / name).mkdir(parents=True)
        (mine / name / "notes.txt").write_text("precious", encoding="utf-8")
        os.utime(mine / name, (PAST + number, PAST + number))
    root = fixture_bank("reference")
    age(root)
    validate(Bank.open(root))
    assert sorted(p.name for p in mine.iterdir()) == sorted(["project", "0000000000000000", location(root).name])


def test_a_loaded_bank_still_takes_the_stored_validation(fixture_bank, monkeypatch):
    """A face that reads its documents first (the workbench does, in its worker) gets the validation
    another process stored for this state of the bank, without running the rules again."""
    root = fixture_bank("reference")
    age(root)
    expected = dataclasses.asdict(validate(Bank.open(root)))
    bank = Bank.open(root)
    bank.load()
    assert bank._pending is None and bank.documents_read == len(bank)
    monkeypatch.setattr("memorybank.core.validate._all_findings", lambda *a: pytest.fail("validated again"))
    assert dataclasses.asdict(validate(bank)) == expected


def test_a_bank_never_refreshed_stores_no_validation_and_its_progress_loads_nothing(fixture_bank, cache_dir):
    root = fixture_bank("reference")
    age(root)
    early = Bank(root, cache=True)
    assert validate(early).by_rule == {"no-contract": 1}  # asked before any refresh: an empty bank, not kept
    assert not list(cache_dir.rglob("result-*"))
    bank = Bank(root, cache=True)
    bank.refresh()
    assert bank.documents_read == 0 and bank._pending is not None, "counting read nothing"
    bank.load()
    assert bank.documents_read == len(list(root.rglob("*.md"))) and bank._pending is None


FINDINGS = """
import sys
from memorybank.core.bank import Bank
from memorybank.core.validate import validate
print(sorted(validate(Bank.open(sys.argv[1])).by_rule.items()))
"""


def test_a_folder_made_unreadable_or_readable_again_is_never_served_a_stored_validation(fixture_bank, cache_dir):
    """A folder without documents changes no stamp, but its being unreadable is a finding."""
    without = without_override()
    root = fixture_bank("reference")
    (root / "assets").mkdir()
    (root / "assets" / "pic.png").write_bytes(b"png")
    age(root)
    project = Path(__file__).resolve().parents[2]

    def findings() -> str:
        env = {**os.environ, "MEMORYBANK_CACHE_DIR": str(cache_dir)}
        done = subprocess.run(
            [*without, sys.executable, "-c", FINDINGS, str(root)], cwd=project, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    clean = findings()
    assert "unreadable" not in clean
    os.chmod(root / "assets", 0o000)
    try:
        assert "('unreadable', 1)" in findings()
    finally:
        os.chmod(root / "assets", 0o755)
    assert findings() == clean
