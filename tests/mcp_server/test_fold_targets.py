"""A fold moves a note's fact into the bank document that owns it, never into the quarantine.

Folding a note into itself used to answer ``updated: true`` and "folded into _inbox/note.md", then
delete the note: the fact was in neither place. Folding into another note left the fact in the
quarantine under a record saying it had left. Both are refused, as a proposal and as a direct exit.
"""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.create import create

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import connect

pytestmark = pytest.mark.anyio


@pytest.fixture
def bank_with_notes(seeded_root):
    bank = Bank.open(seeded_root)
    for name in ("one", "two"):
        create(
            bank,
            doc_kind="domain",
            path=f"{name}.md",
            title=name.title(),
            inbox=True,
            purpose=f"Note {name}.",
            body=f"Intro.\n\n## Detail\n\nThe only copy of fact {name}.",
            client="pytest-agent",
        )
    return seeded_root


@pytest.mark.parametrize("exits", ["owner", "agent"])
@pytest.mark.parametrize("into", ["_inbox/one.md", "_inbox/two.md"])
async def test_a_note_is_never_folded_into_a_note(bank_with_notes, exits, into):
    from memorybank.mcp_server.server import build_server

    before = tree_snapshot(bank_with_notes.parent)
    async with connect(build_server(bank_with_notes, inbox_exits=exits)) as s:
        message = await s.refusal("bank_fold", path="_inbox/one.md", into=into, section="Detail")
        assert "Refused (inbox-target)" in message
        await s.call("bank_fold", path="_inbox/one.md", into="product/context.md", section="Problem", dryRun=True)
    assert tree_snapshot(bank_with_notes.parent) == before
