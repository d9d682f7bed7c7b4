"""Paths a file system cannot hold, and names that only look new, given to the write tools.

A path that cannot be written is refused before anything is touched (so a dry run says what the
write would say), the bank stays readable and writable afterwards for every client, and a new
document may not be a twin of an existing one that differs only in letter case or in Unicode
normalisation (one file on a case-insensitive checkout, two look-alikes everywhere else).
"""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.validate import validate

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import connect

pytestmark = pytest.mark.anyio


def new_doc(path: str, **more) -> dict:
    """A draft: no derived_from, whose path would be relative to the new file."""
    return dict(docKind="domain", path=path, title="X", purpose="p", **more)


UNWRITABLE = {
    "under-a-file": "domain/README.md/x.md",
    "long-name": "domain/" + "a" * 240 + ".md",
    "too-long-name": "domain/" + "a" * 300 + ".md",
    "too-deep": "/".join(["d"] * 2100) + "/x.md",
}


@pytest.mark.parametrize("case", sorted(UNWRITABLE))
async def test_a_path_the_file_system_cannot_hold_is_refused_and_the_bank_goes_on(seeded_root, case):
    from memorybank.mcp_server.server import build_server

    path = UNWRITABLE[case]
    before = tree_snapshot(seeded_root.parent)
    async with connect(build_server(seeded_root)) as s:
        dry = await s.refusal("bank_create", **new_doc(path, dryRun=True))
        real = await s.refusal("bank_create", **new_doc(path))
        assert "Refused (" in dry and dry == real
        assert tree_snapshot(seeded_root.parent) == before
        # Every later call still works: nothing was left half-done for the next one to trip on.
        await s.call("bank_read", path="product/context.md")
        await s.call("bank_create", **new_doc("domain/after.md"))
    assert validate(Bank.open(seeded_root)).findings == []


TWINS = {
    "case-folder": "DNA/governance.md",
    "case-file": "product/Context.md",
    "normalisation": "domain/cafe\u0301.md",
}


@pytest.mark.parametrize("case", sorted(TWINS))
async def test_a_twin_of_an_existing_path_is_taken(seeded_root, case):
    from memorybank.mcp_server.server import build_server

    async with connect(build_server(seeded_root)) as s:
        await s.call("bank_create", **new_doc("domain/caf\u00e9.md"))
        before = tree_snapshot(seeded_root.parent)
        message = await s.refusal("bank_create", **new_doc(TWINS[case]))
        assert "Refused (path-taken)" in message
    assert tree_snapshot(seeded_root.parent) == before
