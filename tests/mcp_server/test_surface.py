"""The three surfaces, the switch ``bank_init`` makes in the same session, and the token budget."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from memorybank.mcp_server import surface
from memorybank.mcp_server.server import build_server

from tests.conftest import SHARED
from tests.mcp_server.conftest import ALL_TOOLS, PROMPTS, RESOURCES, connect

pytestmark = pytest.mark.anyio
REAL = SHARED / "banks"


async def listed(s) -> tuple[set[str], set[str], set[str]]:
    tools = set(await s.tool_names())
    resources = {str(r.uri) for r in (await s.client.list_resources()).resources}
    prompts = {p.name for p in (await s.client.list_prompts()).prompts}
    return tools, resources, prompts


async def test_full_surface_lists_every_tool_resource_and_prompt(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        assert await listed(s) == (ALL_TOOLS, RESOURCES, PROMPTS)
        assert s.client.instructions.startswith("The project's memory bank") and "bank_route" in s.client.instructions


async def test_every_tool_declares_all_four_annotations(open_session, seeded_root):
    async with open_session(seeded_root) as s:
        for tool in (await s.client.list_tools()).tools:
            hints = tool.annotations
            assert hints.open_world_hint is False, tool.name
            assert None not in (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint), tool.name
            assert "title" not in tool.input_schema and tool.description
        read_only = {t.name for t in (await s.client.list_tools()).tools if t.annotations.read_only_hint}
        assert read_only == {
            "bank_route",
            "bank_read",
            "bank_search",
            "bank_validate",
            "bank_graph",
            "bank_drift",
            "bank_changed",
        }


async def test_seed_surface_offers_only_init_and_init_opens_the_rest_in_the_same_session(tmp_path):
    root = tmp_path / "project" / "memory_bank"
    notices: list[str] = []

    async def on_message(message) -> None:
        notices.append(type(getattr(message, "root", message)).__name__)

    server = build_server(root)
    async with connect(server, mode="legacy", message_handler=on_message) as s:
        assert s.server.state == "seed" and await listed(s) == ({"bank_init"}, set(), set())
        assert "only bank_init" in s.client.instructions
        refused = await s.refusal("bank_route", question="anything")
        assert "not available" in refused and "bank_init" in refused
        await s.call("bank_init", name="demo", dryRun=True)
        assert await s.tool_names() == ["bank_init"]  # a dry run opens nothing
        await s.call("bank_init", name="demo")
        assert await listed(s) == (ALL_TOOLS, RESOURCES, PROMPTS)
        assert (await s.call("bank_route", question="product problem"))["hits"]
        with anyio.fail_after(2):
            while "ToolListChangedNotification" not in notices:
                await anyio.sleep(0.01)
        assert {"ResourceListChangedNotification", "PromptListChangedNotification"} <= set(notices)


async def test_init_switch_reaches_a_modern_client_too(tmp_path):
    """On the 2026-07-28 protocol the same switch is visible on the next listing."""
    async with connect(build_server(tmp_path / "memory_bank")) as s:
        assert await s.tool_names() == ["bank_init"]
        await s.call("bank_init", name="demo")
        assert set(await s.tool_names()) == ALL_TOOLS


async def test_a_root_holding_only_an_inbox_is_still_a_seed(tmp_path):
    root = tmp_path / "memory_bank"
    (root / "_inbox").mkdir(parents=True)
    assert surface.decide(root) == "seed"
    (root / "notes.md").write_text("# x\n")
    assert surface.decide(root) == "full"
    (root / "notes.md").unlink()
    (root / ".hidden").mkdir()
    assert surface.decide(root) == "full"


async def test_off_by_path_and_by_marker_offers_nothing(seeded_root: Path):
    project = seeded_root.parent
    for server in (
        build_server(seeded_root, off_paths=[project.parent]),
        build_server(seeded_root, off_paths=[seeded_root]),
    ):
        async with connect(server) as s:
            assert await listed(s) == (set(), set(), set())
            assert "switched off" in s.client.instructions
            assert "switched off" in await s.refusal("bank_init", name="x")
    (project / surface.OFF_MARKER).write_text("")
    async with connect(build_server(seeded_root)) as s:
        assert s.server.state == "off" and await s.tool_names() == []


def test_off_paths_match_whole_segments(tmp_path):
    assert surface.is_under(tmp_path / "project" / "memory_bank", tmp_path / "project")
    assert surface.is_under(tmp_path / "project", str(tmp_path / "project") + "/")
    assert not surface.is_under(tmp_path / "projectX" / "memory_bank", tmp_path / "project")
    (tmp_path / "projectX" / "memory_bank").mkdir(parents=True)
    assert surface.decide(tmp_path / "projectX" / "memory_bank", [tmp_path / "project"]) == "seed"


def test_a_marker_inside_the_bank_does_not_count(seeded_root):
    (seeded_root / surface.OFF_MARKER).write_text("")
    assert surface.decide(seeded_root) == "full"


@pytest.mark.parametrize("exits", ["owner", "agent"])
async def test_the_full_surface_fits_the_token_budget(exits):
    """Instructions, 17 tool definitions, prompts and resources: at most 4,500 tokens at chars/3.5
    (the reference pays about 7,000). A long but ordinary root path is used."""
    root = Path("/home/someone/projects/a-fairly-long-project-name/memory_bank")
    cost = await surface.measure(build_server(root, inbox_exits=exits, state="full"))
    assert cost.tokens <= surface.BUDGET_TOKENS, cost.plain()
    assert len([line for line in cost.lines if line.part.startswith("tool ")]) == 17
    seed = await surface.measure(build_server(root, inbox_exits=exits, state="seed"))
    off = await surface.measure(build_server(root, inbox_exits=exits, state="off"))
    assert seed.tokens < 300 and off.tokens < 50


async def test_tool_descriptions_say_which_inbox_mode_is_active(seeded_root):
    async with connect(build_server(seeded_root)) as s:
        tools = {t.name: t.description for t in (await s.client.list_tools()).tools}
        assert "proposal" in tools["bank_promote"] and "owner" in tools["bank_discard"]
        prompt = (await s.client.get_prompt("review-inbox")).messages[0].content.text
        assert "only record a proposal" in prompt
    async with connect(build_server(seeded_root, inbox_exits="agent")) as s:
        tools = {t.name: t.description for t in (await s.client.list_tools()).tools}
        assert "proposal" not in tools["bank_promote"] and "removed" in tools["bank_promote"]
        prompt = (await s.client.get_prompt("review-inbox")).messages[0].content.text
        assert "act at once" in prompt


async def test_resource_templates_follow_the_surface_state(tmp_path, seeded_root):
    async with connect(build_server(tmp_path / "none" / "memory_bank")) as s:
        assert (await s.client.list_resource_templates()).resource_templates == []
    async with connect(build_server(seeded_root)) as s:
        listed = [t.uri_template for t in (await s.client.list_resource_templates()).resource_templates]
        assert listed == ["memorybank://index/{section}{?page}"]


@pytest.mark.skipif(not (REAL / "Arshev__apartus").is_dir(), reason="the shared real banks are not beside the project")
async def test_the_first_read_on_apartus_fits_in_1500_tokens():
    """SPEC 11: the agent's first read (memorybank://index) costs at most 1,500 tokens (chars / 3.5)
    on a 200-document bank; so do health and an unfiltered bank_validate's first page."""
    root = REAL / "Arshev__apartus" / "memory_bank"
    async with connect(build_server(root)) as s:
        index = await s.resource("memorybank://index")
        assert surface.tokens(len(index)) <= 1_500, len(index)
        assert len(json.loads(index)["sections"]) >= 8
        assert surface.tokens(len(await s.resource("memorybank://health"))) <= 1_500
        page = await s.client.call_tool("bank_validate", {})
        assert surface.tokens(len(page.content[0].text)) <= 1_500
        assert page.structured_content["next_offset"] == 20 and page.structured_content["total"] > 200
