"""Servers over temporary banks, and an in-process client that talks to them.

Tests are ``async`` and run on anyio's pytest plugin (asyncio backend). ``call`` returns the
structured content of a successful call and fails the test on an error; ``refusal`` returns the
message of a call that must fail.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import Implementation
from memorybank.core.init import init
from memorybank.mcp_server.server import BankServer, build_server

CLIENT = "pytest-agent"

ALL_TOOLS = {
    "bank_route",
    "bank_read",
    "bank_search",
    "bank_validate",
    "bank_graph",
    "bank_drift",
    "bank_changed",
    "bank_init",
    "bank_materialize_flows",
    "bank_create",
    "bank_edit",
    "bank_update_section",
    "bank_set_status",
    "bank_set_field",
    "bank_promote",
    "bank_fold",
    "bank_discard",
}
OPENING = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]
"""What a 2025-era client sends first over stdio: ``initialize`` (id 1), then ``initialized``."""
RESOURCES = {"memorybank://index", "memorybank://schema/frontmatter", "memorybank://health", "memorybank://inbox"}
PROMPTS = {"session-start", "route-then-read", "check-before-commit", "record-adr", "review-inbox"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def reference_root(fixture_bank) -> Path:
    """A writable copy of the reference fixture bank (it has findings on purpose)."""
    return fixture_bank("reference")


@pytest.fixture
def seeded_root(tmp_path: Path) -> Path:
    """A freshly seeded bank: 24 files, zero findings."""
    root = tmp_path / "project" / "memory_bank"
    init(root, name="ebook_parser")
    return root


class Session:
    """An in-process client session with helpers that keep the tests short."""

    def __init__(self, client: Client, server: BankServer) -> None:
        self.client = client
        self.server = server

    async def result(self, tool: str, **arguments: Any) -> Any:
        return await self.client.call_tool(tool, arguments)

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.result(tool, **arguments)
        assert not result.is_error, f"{tool} failed: {result.content[0].text}"
        assert result.structured_content is not None
        text = json.loads(result.content[0].text)
        assert isinstance(text, dict)  # the compact text copy parses as the same data
        return result.structured_content

    async def refusal(self, tool: str, **arguments: Any) -> str:
        result = await self.result(tool, **arguments)
        assert result.is_error, f"{tool} should have been refused: {result.content[0].text[:300]}"
        return result.content[0].text

    async def tool_names(self) -> list[str]:
        return [t.name for t in (await self.client.list_tools()).tools]

    async def resource(self, uri: str) -> str:
        contents = (await self.client.read_resource(uri)).contents
        return contents[0].text


@asynccontextmanager
async def connect(server: BankServer, **options: Any) -> AsyncIterator[Session]:
    async with Client(
        server, raise_exceptions=True, client_info=Implementation(name=CLIENT, version="1"), **options
    ) as client:
        yield Session(client, server)


NOTE = "_inbox/queue-note.md"
"""The captured note ``bank_with_note`` holds."""


@pytest.fixture
def bank_with_note(seeded_root: Path) -> Path:
    """A seeded bank holding one captured note, as an agent's bank_create leaves it."""
    from memorybank.core.bank import Bank
    from memorybank.core.write.create import create

    create(
        Bank.open(seeded_root),
        doc_kind="domain",
        path="queue-note.md",
        title="Queue Note",
        inbox=True,
        purpose="What we learned.",
        body="Bursts arrive at night.",
        derived_from=["../product/context.md"],
        client="pytest-agent",
    )
    return seeded_root


@pytest.fixture
def open_session():
    """``async with open_session(root, **build_options) as s:`` a session on a fresh server."""

    def make(root: Path, **build: Any):
        return connect(build_server(root, **build))

    return make
