"""``memorybank mcp --surface read-only|capture``: what each lists, what each refuses, what each costs,
and the gates behind the one write the capture surface keeps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError
from memorybank.core.bank import Bank
from memorybank.core.write.inbox import promote
from memorybank.mcp_server import surface
from memorybank.mcp_server.server import build_server
from memorybank.tui.cli.main import main

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import ALL_TOOLS, OPENING, RESOURCES, connect

pytestmark = pytest.mark.anyio
READING = {"bank_route", "bank_read", "bank_search", "bank_validate", "bank_graph", "bank_drift", "bank_changed"}
READING_PROMPTS = {"session-start", "route-then-read", "check-before-commit"}


async def listed(s) -> tuple[set[str], set[str], set[str]]:
    tools = set(await s.tool_names())
    resources = {str(r.uri) for r in (await s.client.list_resources()).resources}
    prompts = {p.name for p in (await s.client.list_prompts()).prompts}
    return tools, resources, prompts


async def test_read_only_lists_the_reading_tools_every_resource_and_the_reading_prompts(seeded_root):
    async with connect(build_server(seeded_root, subset="read-only")) as s:
        assert await listed(s) == (READING, RESOURCES, READING_PROMPTS)
        tools = (await s.client.list_tools()).tools
        assert all(t.annotations.read_only_hint for t in tools)
        assert "read-only" in s.client.instructions and "bank_promote" not in s.client.instructions
        assert (await s.call("bank_route", question="product problem"))["hits"]


@pytest.mark.parametrize("subset", ["read-only", "capture"])
async def test_the_tools_a_narrow_surface_leaves_out_are_refused_by_name_and_write_nothing(subset, seeded_root):
    before = tree_snapshot(seeded_root)
    async with connect(build_server(seeded_root, subset=subset)) as s:
        for tool, arguments in (
            ("bank_create", {"docKind": "domain", "path": "domain/x.md", "title": "X", "purpose": "Y."}),
            ("bank_update_section", {"path": "product/context.md", "section": "Problem", "content": "gone"}),
            ("bank_set_status", {"path": "product/context.md", "status": "archived"}),
            ("bank_init", {"name": "again"}),
            ("bank_discard", {"path": "_inbox/n.md", "reason": "r"}),
        ):
            refused = await s.refusal(tool, **arguments)
            assert f"{tool} is not available" in refused and f"{subset} surface" in refused and "--surface" in refused
        with pytest.raises(MCPError, match="not offered"):
            await s.client.get_prompt("record-adr", {"decision": "x"})
    assert tree_snapshot(seeded_root) == before


async def test_capture_adds_one_write_that_files_a_note_the_owner_then_promotes(seeded_root):
    async with connect(build_server(seeded_root, subset="capture")) as s:
        assert await listed(s) == (READING | {"bank_capture"}, RESOURCES, READING_PROMPTS)
        assert "bank_capture" in s.client.instructions
        preview = await s.call(
            "bank_capture", path="cache-ttl.md", title="Cache TTL", purpose="Why entries live an hour.", dryRun=True
        )
        assert preview["dry_run"] and not (seeded_root / "_inbox").exists()
        done = await s.call(
            "bank_capture",
            path="domain/cache-ttl.md",
            title="Cache TTL",
            purpose="Why entries live an hour.",
            body="## Decision\n\nEntries live one hour.\n",
        )
        assert done["path"] == "_inbox/cache-ttl.md"
        note = (seeded_root / "_inbox" / "cache-ttl.md").read_text()
        assert "status: draft" in note and "Entries live one hour." in note
        index = (seeded_root / "README.md").read_text()
        assert "cache-ttl" not in index  # a note is not registered
        taken = await s.refusal("bank_capture", path="cache-ttl.md", title="Again", purpose="Again.")
        assert "cache-ttl.md" in taken
        secret = await s.refusal(
            "bank_capture", path="key.md", title="Key", purpose="The key.", body="AKIAIOSFODNN7EXAMPLE is ours\n"
        )
        assert not (seeded_root / "_inbox" / "key.md").exists() and secret
    # The owner's exits are the same whatever surface the note came in by.
    result = promote(
        Bank(seeded_root),
        path="_inbox/cache-ttl.md",
        to="domain/cache-ttl.md",
        doc_kind="domain",
        derived_from=["../product/context.md"],
        dry_run=False,
    )
    assert result.path == "domain/cache-ttl.md" and (seeded_root / "domain" / "cache-ttl.md").exists()


async def test_the_full_surface_has_no_capture_tool_and_says_what_to_use(seeded_root):
    async with connect(build_server(seeded_root)) as s:
        assert set(await s.tool_names()) == ALL_TOOLS
        message = await s.refusal("bank_capture", path="n.md", title="N", purpose="N.")
        assert "bank_create inbox: true instead" in message and "Unknown" not in message
    async with connect(build_server(seeded_root, subset="read-only")) as s:
        message = await s.refusal("bank_capture", path="n.md", title="N", purpose="N.")
        assert "read-only surface, which writes nothing" in message


@pytest.mark.parametrize("subset", ["read-only", "capture"])
async def test_a_narrow_surface_without_a_bank_offers_nothing_and_creates_nothing(subset, tmp_path):
    root = tmp_path / "project" / "memory_bank"
    async with connect(build_server(root, subset=subset)) as s:
        assert await listed(s) == (set(), set(), set())
        assert "offers nothing" in s.client.instructions
        refused = await s.refusal("bank_init", name="x")
        assert "cannot create one" in refused
    assert not root.exists()


@pytest.mark.parametrize("exits", ["owner", "agent"])
async def test_each_surface_has_its_own_cost(exits):
    """The full surface within 4,500 tokens; read-only and capture at about half of it."""
    root = Path("/home/someone/projects/a-fairly-long-project-name/memory_bank")
    costs = {
        subset: await surface.measure(build_server(root, inbox_exits=exits, state="full", subset=subset))
        for subset in surface.SUBSETS
    }
    assert costs["full"].tokens <= surface.BUDGET_TOKENS
    assert costs["read-only"].tokens < 2_300 and costs["capture"].tokens < 2_600
    assert costs["read-only"].tokens < costs["capture"].tokens < costs["full"].tokens
    assert [line.part for line in costs["capture"].lines if line.part.startswith("tool ")][-1] == "tool bank_capture"


def test_memorybank_surface_prints_every_surface(capsys, seeded_root):
    assert main(["surface", "--json", "--root", str(seeded_root)]) == 0
    rows = {(row["surface"], row["state"]): row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == {
        ("full", "full"),
        ("read-only", "full"),
        ("capture", "full"),
        ("full", "seed"),
        ("full", "off"),
    }
    assert rows["read-only", "full"]["tokens"] < rows["capture", "full"]["tokens"] < rows["full", "full"]["tokens"]
    assert rows["full", "full"]["budget_tokens"] == 4500 and rows["read-only", "full"]["budget_tokens"] is None
    assert main(["surface", "--root", str(seeded_root)]) == 0
    out = capsys.readouterr().out
    assert "read-only surface, inbox exits owner:" in out and "capture surface, inbox exits owner:" in out


def test_the_surface_option_reaches_the_stdio_server(seeded_root, tmp_path):
    """``memorybank mcp --surface read-only`` over a real pipe lists the reading tools only, and an
    unknown surface is a usage error."""
    messages = [
        *OPENING,
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    command = [sys.executable, "-m", "memorybank", "mcp", "--root", str(seeded_root)]
    stdin = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run([*command, "--surface", "read-only"], input=stdin, capture_output=True, text=True, timeout=60)
    replies = {r.get("id"): r for r in map(json.loads, done.stdout.splitlines())}
    assert {t["name"] for t in replies[2]["result"]["tools"]} == READING, done.stderr
    wrong = subprocess.run([*command, "--surface", "everything"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "read-only" in wrong.stderr
