"""The four resources and the five prompts, read through a client."""

from __future__ import annotations

import json

import pytest
from mcp.shared.exceptions import MCPError
from memorybank.core.contract import DEGRADED_NOTE

pytestmark = pytest.mark.anyio


async def test_index_is_a_map_of_sections_with_counts_owners_and_the_way_further(
    open_session, reference_root, write_file
):
    write_file(reference_root, "_inbox/idea.md", "---\ntitle: Idea\npurpose: A thought.\nstatus: draft\n---\n# Idea\n")
    async with open_session(reference_root) as s:
        index = json.loads(await s.resource("memorybank://index"))
        sections = {entry["section"]: entry for entry in index["sections"]}
        assert "domain" in sections and sections["domain"]["documents"] >= 2
        assert "templates" not in json.dumps(index) and index["inbox"] == 1
        assert index["entrypoint"] == "README.md" and index["roots"]
        assert any(o["path"] == "domain/rules.md" for o in index["owners"])
        assert "bank_route" in index["further"] and "memorybank://index/SECTION" in index["further"]
        assert index["documents"] == sum(e["documents"] for e in index["sections"]) + len(index.get("top", [])) + 1
        health = json.loads(await s.resource("memorybank://health"))
        assert health["documents"] == index["documents"]  # neither counts the note nor the templates


async def test_a_sections_listing_comes_a_page_at_a_time(open_session, reference_root, write_file):
    for number in range(45):
        write_file(
            reference_root, f"domain/d{number:02}.md", f"---\ntitle: D{number}\npurpose: Fact {number}.\n---\n# D\n"
        )
    async with open_session(reference_root) as s:
        first = json.loads(await s.resource("memorybank://index/domain"))
        assert first["page"] == 1 and first["pages"] == 2 and len(first["entries"]) == 40
        assert first["next"] == "memorybank://index/domain?page=2"
        second = json.loads(await s.resource(first["next"]))
        paths = [e["path"] for e in first["entries"] + second["entries"]]
        assert paths == sorted(paths) and len(paths) == first["documents"] and "next" not in second
        with pytest.raises(MCPError, match="No section"):
            await s.resource("memorybank://index/nowhere")


async def test_frontmatter_schema_is_the_banks_own_file_or_says_degraded(
    open_session, reference_root, tmp_path, write_file
):
    async with open_session(reference_root) as s:
        text = await s.resource("memorybank://schema/frontmatter")
        assert text == (reference_root / "dna/frontmatter.md").read_text(encoding="utf-8")
    bare = tmp_path / "bare" / "memory_bank"
    write_file(bare, "notes.md", "# Notes\n")
    async with open_session(bare) as s:
        assert await s.resource("memorybank://schema/frontmatter") == DEGRADED_NOTE


async def test_health_is_a_fresh_validation(open_session, reference_root):
    async with open_session(reference_root) as s:
        health = json.loads(await s.resource("memorybank://health"))
        assert health["contract"] and health["documents"] > 10 and health["errors"] >= 3
        assert health["by_rule"]["ssot-conflict"] == 1 and health["findings"]
        assert len(health["findings"]) <= 20 and health["total"] == sum(health["by_rule"].values())
        (reference_root / "conflict.md").unlink()
        assert "ssot-conflict" not in json.loads(await s.resource("memorybank://health"))["by_rule"]


async def test_inbox_resource_shows_origin_and_proposals_oldest_first(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        await s.call("bank_create", docKind="domain", path="a.md", title="A", purpose="First.", inbox=True)
        await s.call("bank_promote", path="_inbox/a.md", to="domain/a.md", derivedFrom=["../product/context.md"])
        inbox = json.loads(await s.resource("memorybank://inbox"))
        entry = inbox["entries"][0]
        assert inbox["count"] == 1 and entry["captured_by"] == "pytest-agent"
        assert entry["proposal"]["action"] == "promote" and entry["proposal"]["to"] == "domain/a.md"


async def test_an_unknown_resource_is_an_error(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        with pytest.raises(MCPError):
            await s.client.read_resource("memorybank://nope")


async def prompt_text(s, name: str, **arguments: str) -> str:
    result = await s.client.get_prompt(name, arguments or None)
    assert len(result.messages) == 1 and result.messages[0].role == "user"
    return result.messages[0].content.text


async def test_prompts_walk_the_agent_through_each_job(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        start = await prompt_text(s, "session-start")
        assert "memorybank://index" in start and 'since="HEAD~20"' in start
        assert 'since="v1.2"' in await prompt_text(s, "session-start", since="v1.2")
        route = await prompt_text(s, "route-then-read", question="как устроена очередь?")
        assert "как устроена очередь?" in route and "bank_route" in route and "bank_search" in route
        check = await prompt_text(s, "check-before-commit", scope="adr")
        assert 'bank_validate with scope="adr"' in check and "Fix nothing" in check
        assert "bank_validate." in await prompt_text(s, "check-before-commit")
        adr = await prompt_text(s, "record-adr", decision="Use one shared queue")
        assert "docKind adr" in adr and "dryRun" in adr and "decision_status: proposed" in adr
        review = await prompt_text(s, "review-inbox")
        assert "memorybank://inbox" in review and "bank_fold" in review
        arguments = {p.name: [a.name for a in p.arguments or []] for p in (await s.client.list_prompts()).prompts}
        assert arguments == {
            "session-start": ["since"],
            "route-then-read": ["question"],
            "check-before-commit": ["scope"],
            "record-adr": ["decision"],
            "review-inbox": [],
        }
