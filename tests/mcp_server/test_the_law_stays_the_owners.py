"""What the bank's ``dna/`` declares is its owner's to change, by whichever tool an agent reaches for.

Where only the owner empties the quarantine (the default), an agent may fix the prose of ``dna/``
but not change what it declares: not through the layer table (which decides what the quarantine
is), not by creating a new ``dna/`` document that declares something, and not through a
frontmatter value whose sentence the contract reads. And whatever a layer table says, only a note
under ``_inbox/`` leaves through the quarantine's exits: a document of the bank proper is never
discarded or moved by them.
"""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import NOTE, connect

pytestmark = pytest.mark.anyio

INBOX_ROW = "| `_inbox` | inbox | 0.2 |"


def session(root, **build):
    from memorybank.mcp_server.server import build_server

    return connect(build_server(root, **build))


ATTEMPTS = {
    "edit-layer-table": (
        "bank_edit",
        dict(path="dna/governance.md", find=INBOX_ROW, replace="| `_inbox` | knowledge | 1.5 |"),
    ),
    "append-layer-table": (
        "bank_update_section",
        dict(
            path="dna/governance.md",
            section="Directory Layers",
            mode="append",
            content="| Directory | Layer |\n|-|-|\n| `product` | inbox |",
        ),
    ),
    "create-dna-layers": (
        "bank_create",
        dict(
            docKind="governance",
            path="dna/layers.md",
            title="Layers",
            purpose="More layers.",
            derivedFrom=["governance.md"],
            body="| Directory | Layer |\n|---|---|\n| `_inbox` | knowledge |",
        ),
    ),
    "create-dna-root": (
        "bank_create",
        dict(
            docKind="governance",
            path="dna/roots.md",
            title="Roots",
            purpose="Roots.",
            derivedFrom=["governance.md"],
            body="The root document is `lifecycle.md`.",
        ),
    ),
    "field-declares-stale-age": (
        "bank_set_field",
        dict(path="dna/glossary.md", field="purpose", value="Terms. Stale after 1 days."),
    ),
}


@pytest.mark.parametrize("attempt", sorted(ATTEMPTS))
async def test_an_agent_cannot_change_what_dna_declares(bank_with_note, attempt):
    tool, arguments = ATTEMPTS[attempt]
    before = tree_snapshot(bank_with_note.parent)
    async with session(bank_with_note) as s:
        message = await s.refusal(tool, **arguments)
        assert "Refused (law-is-the-owners)" in message
        hits = (await s.call("bank_route", question="night bursts queue traffic"))["hits"]
        assert all(not hit["path"].startswith("_inbox/") for hit in hits)
    assert tree_snapshot(bank_with_note.parent) == before


async def test_dna_prose_and_new_dna_documents_that_declare_nothing_still_pass(bank_with_note):
    async with session(bank_with_note) as s:
        await s.call("bank_set_field", path="dna/glossary.md", field="purpose", value="Short definitions of terms.")
        await s.call(
            "bank_create",
            docKind="governance",
            path="dna/notes.md",
            title="Notes",
            purpose="Notes on governance.",
            derivedFrom=["governance.md"],
            body="Plain prose about how we work.",
        )


@pytest.mark.parametrize("tool", ["bank_discard", "bank_promote"])
async def test_a_layer_table_never_turns_a_bank_document_into_a_note(bank_with_note, tool):
    """Even with the owner's table mapping product/ to the inbox layer, and agents allowed to take
    notes out, product/context.md is not a note: it is neither discarded nor moved."""
    governance = bank_with_note / "dna/governance.md"
    text = governance.read_text(encoding="utf-8")
    governance.write_text(text.replace(INBOX_ROW, INBOX_ROW + "\n| `product` | inbox | 0.2 |"), encoding="utf-8")
    arguments = dict(reason="cleanup") if tool == "bank_discard" else dict(to="domain/context.md", canonicalFor=[])
    before = tree_snapshot(bank_with_note.parent)
    async with session(bank_with_note, inbox_exits="agent") as s:
        message = await s.refusal(tool, path="product/context.md", **arguments)
        assert "Refused (not-inbox)" in message
        await s.call("bank_discard", path=NOTE, reason="a note still leaves", dryRun=True)
    assert tree_snapshot(bank_with_note.parent) == before


async def test_an_agent_cannot_overwrite_templates_the_team_edited(seeded_root):
    """Templates are edited by hand, not through the server; bank_materialize_flows with force may
    re-copy the shipped set over unchanged copies, but not over the team's edits."""
    from memorybank.core.init import materialize_flows

    materialize_flows(Bank.open(seeded_root))
    edited = seeded_root / "flows/templates/adr/ADR-ID.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOur own rule.\n", encoding="utf-8")
    before = tree_snapshot(seeded_root.parent)
    async with session(seeded_root) as s:
        message = await s.refusal("bank_materialize_flows", force=True)
        assert "Refused (templates-edited)" in message and "flows/templates/adr/ADR-ID.md" in message
        assert "memorybank materialize-flows --force" in message
    assert tree_snapshot(seeded_root.parent) == before
    edited.write_text(edited.read_text(encoding="utf-8").replace("\nOur own rule.\n", ""), encoding="utf-8")
    async with session(seeded_root) as s:
        await s.call("bank_materialize_flows", force=True)


async def test_the_first_dna_document_of_a_degraded_bank_is_the_owner_s_to_write(tmp_path):
    """A bank without dna/ runs degraded; an agent's first dna/ document would give it a contract."""
    root = tmp_path / "memory_bank"
    root.mkdir()
    (root / "README.md").write_text("---\ntitle: Root\n---\n# Root\n", encoding="utf-8")
    async with session(root) as s:
        message = await s.refusal(
            "bank_create", docKind="governance", path="dna/x.md", title="X", purpose="Harmless prose"
        )
    assert "Refused (law-is-the-owners)" in message and not (root / "dna").exists()
