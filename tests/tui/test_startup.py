"""The workbench's start: the first index is read from the parse cache every command shares, in the
worker behind the header's progress, and runs each piece of work once."""

from __future__ import annotations

import json
import os
import shutil

import memorybank.core.bank
import memorybank.core.validate
import pytest
from memorybank.tui.app import make_app
from memorybank.tui.widgets.bank_header import BankHeader

from tests.conftest import FIXTURES
from tests.tui.conftest import SIZE, settle

pytestmark = pytest.mark.anyio

PAST = 1_700_000_000


@pytest.fixture
def aged_bank(tmp_path, monkeypatch):
    """The reference bank with every file dated in the past (the cache keeps only settled files)."""
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "reference"
    shutil.copytree(FIXTURES / "reference", root)
    for path in root.rglob("*"):
        os.utime(path, (PAST, PAST))
    return root


@pytest.fixture
def counted(monkeypatch):
    """How often documents were parsed and the validation rules run, by name."""
    counts = {"parsed": 0, "validated": 0}
    parse, rules = memorybank.core.bank.parse_document, memorybank.core.validate._all_findings

    def parsing(*args, **kwargs):
        counts["parsed"] += 1
        return parse(*args, **kwargs)

    def validating(*args, **kwargs):
        counts["validated"] += 1
        return rules(*args, **kwargs)

    monkeypatch.setattr(memorybank.core.bank, "parse_document", parsing)
    monkeypatch.setattr(memorybank.core.validate, "_all_findings", validating)
    return counts


async def start(root):
    """Start the workbench, let its first index finish, and return the header's counts."""
    app = make_app(root, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        return app.screen.query_one(BankHeader).summary


@pytest.mark.parametrize("first_pane", ["route", "findings"])
async def test_the_first_index_parses_and_validates_once(aged_bank, counted, private_settings, first_pane):
    (private_settings / "memorybank").mkdir(parents=True)
    (private_settings / "memorybank" / "workbench.json").write_text(json.dumps({"pane": first_pane}))
    summary = await start(aged_bank)
    assert summary is not None and summary.documents > 0
    assert counted == {"parsed": len(list(aged_bank.rglob("*.md"))), "validated": 1}


async def test_a_second_start_reads_the_bank_from_the_parse_cache(aged_bank, counted):
    first = await start(aged_bank)
    counted.update(parsed=0, validated=0)
    assert await start(aged_bank) == first
    assert counted == {"parsed": 0, "validated": 0}, "documents and findings came from the cache"
