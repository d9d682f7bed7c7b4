"""Docs that are tested: README names every CLI command and every MCP tool, resource and prompt."""

from __future__ import annotations

import argparse

import anyio
from mcp import Client
from memorybank.core.init import init
from memorybank.mcp_server.server import build_server
from memorybank.tui.cli.main import build_parser

from tests.conftest import PROJECT

README = (PROJECT / "README.md").read_text(encoding="utf-8")


def subcommands(parser: argparse.ArgumentParser, prefix: str = "memorybank") -> list[str]:
    names = []
    for action in parser._subparsers._group_actions if parser._subparsers else []:  # type: ignore[union-attr]
        for name, sub in action.choices.items():
            names.append(f"{prefix} {name}")
            names += subcommands(sub, f"{prefix} {name}")
    return names


def test_every_cli_subcommand_is_in_the_readme():
    commands = subcommands(build_parser())
    assert len(commands) > 25
    missing = [c for c in commands if c.split()[-1] not in README or f"`{c.split()[0]} {c.split()[1]}" not in README]
    assert not missing, f"README does not mention: {missing}"


def test_every_mcp_tool_resource_and_prompt_is_in_the_readme(tmp_path):
    init(tmp_path / "memory_bank", name="Docs")

    async def surface() -> tuple[list[str], list[str], list[str]]:
        async with Client(build_server(tmp_path / "memory_bank")) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            resources = [str(r.uri) for r in (await client.list_resources()).resources]
            prompts = [p.name for p in (await client.list_prompts()).prompts]
        return tools, resources, prompts

    tools, resources, prompts = anyio.run(surface)
    assert len(tools) == 17 and len(resources) == 4 and len(prompts) == 5
    missing = [name for name in [*tools, *resources, *prompts] if f"`{name}`" not in README]
    assert not missing, f"README does not mention: {missing}"


def test_no_url_names_a_repository_that_does_not_exist():
    """The project has no public repository or release tags: neither the product nor the README
    may send anyone to one."""
    texts = {"README.md": README, ".pre-commit-hooks.yaml": (PROJECT / ".pre-commit-hooks.yaml").read_text()}
    for package in ("core", "tui", "mcp_server", "starter", "memorybank"):
        for path in (PROJECT / package).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".md", ".tcss", ".yaml", ".json", ".toml"):
                texts[path.relative_to(PROJECT).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
    found = [name for name, text in texts.items() if "github.com/memorybank" in text or "rev: v0." in text]
    assert found == []
