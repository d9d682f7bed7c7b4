"""Only the owner empties the quarantine (SPEC 5): in the default ``--inbox-exits owner`` mode, no write
an agent can make through MCP moves, promotes or deletes anything in ``_inbox/``.

Every tool is called with every parameter combination that could reach a note: each spelling of a
note's path, destinations inside and outside the quarantine, dry runs and real runs, forced seeds,
governed fields smuggled in through ``extra`` or ``bank_set_field``. Notes may gain a proposal or
have their text edited; none may leave. The same barrage in ``agent`` mode does empty the inbox,
which shows the test can see a move when one happens.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.proposals import apply_proposal
from memorybank.mcp_server.server import build_server

from tests.mcp_server.conftest import ALL_TOOLS, connect

pytestmark = pytest.mark.anyio

NOTES = ("_inbox/queue-note.md", "_inbox/retry-note.md")


def spellings(root: Path, note: str) -> list[str]:
    name = note.split("/", 1)[1]
    return [
        note,
        f"./{note}",
        f"memory_bank/{note}",
        str(root / note),
        f"_inbox/../{note}",
        f"_inbox//{name}",
        f"domain/../{note}",
        name,
    ]


def attempts(root: Path) -> list[tuple[str, dict]]:
    calls: list[tuple[str, dict]] = []
    for note in NOTES:
        stem = note.split("/", 1)[1]
        for path, to, dry, status in itertools.product(
            spellings(root, note),
            [f"domain/{stem}", f"_inbox/moved-{stem}", f"../{stem}", stem],
            [False, True],
            ["active", "draft"],
        ):
            calls.append(
                (
                    "bank_promote",
                    dict(
                        path=path,
                        to=to,
                        dryRun=dry,
                        status=status,
                        docKind="domain",
                        derivedFrom=["../product/context.md"],
                    ),
                )
            )
        for path, dry in itertools.product(spellings(root, note), [False, True]):
            calls.append(("bank_discard", dict(path=path, reason="duplicate", dryRun=dry)))
            for mode in ("replace", "append"):
                calls.append(
                    ("bank_fold", dict(path=path, into="product/context.md", section="Problem", mode=mode, dryRun=dry))
                )
            calls.append(("bank_set_status", dict(path=path, status="active", dryRun=dry)))
            calls.append(("bank_set_status", dict(path=path, status="archived", releaseCanonical=True, dryRun=dry)))
            for field, value in [
                ("status", "active"),
                ("promoted_from", note),
                ("proposal", "apply"),
                ("captured_by", "owner"),
                ("doc_function", "template"),
                ("purpose", "Changed."),
            ]:
                calls.append(("bank_set_field", dict(path=path, field=field, value=value, dryRun=dry)))
            calls.append(("bank_edit", dict(path=path, find="Bursts arrive", replace="Bursts come", dryRun=dry)))
            calls.append(("bank_update_section", dict(path=path, section="Finding", content="Rewritten.", dryRun=dry)))
        for inbox, dry in itertools.product([True, False], [False, True]):
            calls.append(
                (
                    "bank_create",
                    dict(docKind="domain", path=note, title="Same Name", purpose="Overwrite?", inbox=inbox, dryRun=dry),
                )
            )
            calls.append(
                (
                    "bank_create",
                    dict(docKind="domain", path=stem, title="Same Name", purpose="Overwrite?", inbox=inbox, dryRun=dry),
                )
            )
        calls.append(
            (
                "bank_create",
                dict(
                    docKind="domain",
                    path=f"domain/{stem}",
                    title="Smuggled",
                    purpose="P",
                    derivedFrom=["../product/context.md"],
                    status="active",
                    extra={"promoted_from": note, "proposal": {"action": "discard"}},
                ),
            )
        )
        calls.append(("bank_read", dict(path=note)))
        calls.append(("bank_graph", dict(path=note, direction="both")))
    calls += [
        ("bank_init", dict(name="again", force=True)),
        ("bank_init", dict(name="again", force=True, dryRun=True)),
        ("bank_materialize_flows", dict(force=True)),
        ("bank_materialize_flows", dict()),
        ("bank_route", dict(question="queue note")),
        ("bank_search", dict(query="bursts")),
        ("bank_validate", dict(scope="_inbox")),
        ("bank_drift", dict(scope="_inbox")),
        ("bank_changed", dict(since="2000-01-01")),
    ]
    return calls


async def capture_notes(s) -> None:
    for note in NOTES:
        if (s.server.bank.root / note).exists():
            continue
        title = note.split("/")[1].removesuffix(".md").replace("-", " ").title()
        await s.call(
            "bank_create",
            docKind="domain",
            path=note,
            title=title,
            purpose=f"What we learned: {title}.",
            inbox=True,
            derivedFrom=["../product/context.md"],
            body="## Finding\n\nBursts arrive at night. See [context](../product/context.md).",
        )


def inbox_files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in (root / "_inbox").rglob("*") if p.is_file()}


def promoted_documents(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*.md")
        if not p.relative_to(root).as_posix().startswith("_inbox/") and "promoted_from:" in p.read_text()
    )


async def barrage(root: Path, exits: str) -> tuple[list[tuple[str, dict]], int]:
    """Every attempt, in order; returns the calls after which a note had left ``_inbox/``, and how
    many calls succeeded."""
    async with connect(build_server(root, inbox_exits=exits)) as s:
        await capture_notes(s)
        calls = attempts(root)
        assert {tool for tool, _ in calls} == ALL_TOOLS  # a new tool must join this test
        succeeded, emptied = 0, []
        for tool, arguments in calls:
            result = await s.result(tool, **arguments)
            succeeded += not result.is_error
            if not set(NOTES) <= inbox_files(root):
                emptied.append((tool, arguments))
                await capture_notes(s)  # put it back, so every later attempt has a note to aim at
        return emptied, succeeded


async def test_no_agent_write_empties_the_inbox_in_owner_mode(seeded_root):
    emptied, succeeded = await barrage(seeded_root, "owner")
    assert emptied == []
    assert promoted_documents(seeded_root) == []
    assert not (seeded_root / "domain/queue-note.md").exists()
    assert succeeded > 50  # the proposals, dry runs and edits went through: the barrage was real
    # The proposals recorded are real ones: the owner can apply the last of them.
    bank = Bank.open(seeded_root)
    pending = [p for p in NOTES if isinstance(bank.document(p).frontmatter.get("proposal"), dict)]
    assert pending
    apply_proposal(bank, path=pending[0])
    assert pending[0] not in inbox_files(seeded_root)


async def test_the_same_barrage_in_agent_mode_does_empty_it(seeded_root):
    emptied, _ = await barrage(seeded_root, "agent")
    assert {tool for tool, _ in emptied} == {"bank_promote", "bank_fold", "bank_discard"}
    assert promoted_documents(seeded_root)
