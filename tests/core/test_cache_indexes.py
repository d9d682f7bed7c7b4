"""Routing's indexes kept by the parse cache: a cold process indexes only what changed since the
last process stored them, and answers exactly as a process that built everything."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.body_index import BodyIndex, body_index
from memorybank.core.cache import ParseCache
from memorybank.core.headers import HeaderIndex
from memorybank.core.route import route

from tests.core.test_cache import PAST, age

pytestmark = pytest.mark.usefixtures("cache_dir")

QUESTIONS = ("deploy", "what is the product", "решение", "queue choice")


@pytest.fixture
def headed(monkeypatch):
    """Every path whose headers were indexed, in order."""
    seen: list[str] = []
    real = HeaderIndex._add

    def spy(self, doc):
        seen.append(doc.path)
        return real(self, doc)

    monkeypatch.setattr(HeaderIndex, "_add", spy)
    return seen


def routes(bank: Bank) -> list[list[dict]]:
    return [[dataclasses.asdict(hit) for hit in route(bank, q).hits] for q in QUESTIONS]


def indexed_again(root: Path, headed: list[str]) -> tuple[int, list[str], list[list[dict]]]:
    """A new process's bank: the bodies and headers it indexed to answer, and its answers."""
    headed.clear()
    bank = Bank.open(root)
    answers = routes(bank)
    return body_index(bank).reindexed, sorted(headed), answers


def test_a_cold_process_on_an_unchanged_bank_indexes_nothing(fixture_bank, headed, cache_dir):
    root = fixture_bank("reference")
    age(root)
    bodies, headers, first = indexed_again(root, headed)
    assert bodies == len(Bank.open(root, cache=False)) and headers, "the first process builds both"
    assert sorted(p.name for p in next(cache_dir.iterdir()).glob("index-*")) == [
        "index-route.headers",
        "index-search.index",
    ]
    assert indexed_again(root, headed) == (0, [], first)
    assert first == routes(Bank.open(root, cache=False))


@pytest.mark.parametrize("change", ["changed", "added", "deleted", "same-stamp"])
def test_a_cold_process_indexes_only_what_changed_and_answers_as_a_full_build(fixture_bank, headed, change):
    root = fixture_bank("reference")
    age(root)
    routes(Bank.open(root))  # stores both indexes
    target = root / "adr" / "ADR-001-queue-choice.md"
    text = target.read_text(encoding="utf-8")
    if change == "changed":
        target.write_text(text.replace("purpose: Why", "purpose: Deploys, and why", 1) + "\nDeploys use it.\n", "utf-8")
        os.utime(target, (PAST + 60, PAST + 60))
    elif change == "same-stamp":  # another text at the same size and mtime, as cp -p leaves it
        swapped = text.replace("queue", "qveue", 1)
        assert len(swapped) == len(text) and swapped != text
        target.write_text(swapped, encoding="utf-8")
        os.utime(target, (PAST, PAST))
    elif change == "added":
        extra = root / "domain" / "deploys.md"
        extra.write_text("---\ntitle: Deploy windows\npurpose: When we deploy\n---\n# Deploys\n\nFridays never.\n")
        os.utime(extra, (PAST + 60, PAST + 60))
    else:
        target.unlink()
    expected = routes(Bank.open(root, cache=False))
    bodies, headers, answers = indexed_again(root, headed)
    assert answers == expected
    moved = {"added": ["domain/deploys.md"], "deleted": []}.get(change, ["adr/ADR-001-queue-choice.md"])
    assert bodies == (0 if change == "deleted" else 1)
    assert headers == moved, "only a document whose headers changed has them indexed again"
    assert indexed_again(root, headed) == (0, [], expected), "the brought-up-to-date index is stored again"


def test_a_loaded_index_is_kept_up_to_date_in_place_by_a_long_lived_process(fixture_bank, headed):
    root = fixture_bank("reference")
    age(root)
    routes(Bank.open(root))
    bank = Bank.open(root)
    routes(bank)  # the stored indexes, taken by the process that stays
    headed.clear()
    target = root / "domain" / "rules.md"
    target.write_text(target.read_text(encoding="utf-8") + "\nDeploys wait for the release train.\n", "utf-8")
    bank.refresh()
    answers = routes(bank)
    assert (body_index(bank).reindexed, headed) == (1, [])  # its body moved, not its headers
    target.write_text(target.read_text(encoding="utf-8").replace("title: ", "title: Deploys and ", 1), "utf-8")
    bank.refresh()
    answers = routes(bank)
    assert (body_index(bank).reindexed, headed) == (1, ["domain/rules.md"])
    assert answers == routes(Bank.open(root, cache=False))


PROCESS = """
import sys
from memorybank.core.bank import Bank
from memorybank.core.body_index import BodyIndex, body_index
from memorybank.core.cache import ParseCache
from memorybank.core.headers import HeaderIndex
from memorybank.core.route import route

added = []
real = HeaderIndex._add
HeaderIndex._add = lambda self, doc: (added.append(doc.path), real(self, doc))[1]
bank = Bank.open(sys.argv[1])
hits = [h.path for h in route(bank, "queue choice").hits]
print(body_index(bank).reindexed, len(added), hits)
"""


def test_another_process_with_another_string_hash_takes_the_stored_indexes(fixture_bank, cache_dir):
    """Python salts ``hash`` of a string per process: nothing stored may depend on it."""
    root = fixture_bank("reference")
    age(root)

    def run(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed, "MEMORYBANK_CACHE_DIR": str(cache_dir)}
        done = subprocess.run([sys.executable, "-c", PROCESS, str(root)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first, second = run("1"), run("2")
    count = len(Bank.open(root, cache=False))
    assert first.startswith(f"{count} {count} ")
    assert second == first.replace(f"{count} {count} ", "0 0 ", 1)


@pytest.mark.parametrize("stored", [{"not": "an index"}, None, "text"])
def test_a_stored_index_that_is_no_index_is_built_anew(fixture_bank, stored):
    root = fixture_bank("reference")
    age(root)
    expected = routes(Bank.open(root, cache=False))
    cache = ParseCache.for_root(root)
    for name in ("search.index", "route.headers"):
        cache.save_index(name, "a fingerprint", stored)
    assert routes(Bank.open(root)) == expected
    assert routes(Bank.open(root)) == expected  # and the index built instead was stored
    assert isinstance(cache.load_index("search.index")[1], BodyIndex)
