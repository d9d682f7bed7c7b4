"""The installed ``memorybank mcp`` over stdio and over loopback HTTP, driven by a real client session."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp_types import Implementation

from tests.mcp_server.conftest import ALL_TOOLS

pytestmark = pytest.mark.anyio

COMMAND = str(Path(sys.executable).parent / "memorybank")
ME = Implementation(name="transport-test", version="1")


def stdio(root: Path, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=COMMAND, args=["mcp", "--root", str(root), *extra], cwd=str(root.parent))


async def test_stdio_serves_tools_resources_and_captures_with_the_client_name(seeded_root):
    async with Client(stdio(seeded_root), client_info=ME) as client:
        assert {t.name for t in (await client.list_tools()).tools} == ALL_TOOLS
        routed = await client.call_tool("bank_route", {"question": "what problem does the product solve"})
        assert not routed.is_error and routed.structured_content["hits"][0]["path"] == "product/context.md"
        note = await client.call_tool(
            "bank_create", {"docKind": "domain", "path": "n.md", "title": "N", "purpose": "A note.", "inbox": True}
        )
        assert note.structured_content["frontmatter"]["captured_by"] == "transport-test"
        refused = await client.call_tool("bank_discard", {"path": "product/context.md", "reason": "x"})
        assert refused.is_error and "Only quarantined documents" in refused.content[0].text
        index = json.loads((await client.read_resource("memorybank://index")).contents[0].text)
        assert index["inbox"] == 1


async def test_stdio_seed_surface_opens_after_init(tmp_path):
    root = tmp_path / "project" / "memory_bank"
    root.parent.mkdir()
    async with Client(stdio(root), client_info=ME) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["bank_init"]
        created = await client.call_tool("bank_init", {"name": "demo"})
        assert not created.is_error and created.structured_content["created"]
        assert {t.name for t in (await client.list_tools()).tools} == ALL_TOOLS


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving_http(root, *extra: str):
    """``memorybank mcp --http`` on a free loopback port, until the block ends; yields the port."""
    port = free_port()
    process = subprocess.Popen(
        [COMMAND, "mcp", "--root", str(root), "--http", f"127.0.0.1:{port}", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"server did not start: {process.stderr.read().decode()}") from None
            time.sleep(0.05)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def http_server(seeded_root):
    with serving_http(seeded_root) as port:
        yield port


async def test_http_serves_a_client_on_loopback(http_server):
    async with Client(f"http://127.0.0.1:{http_server}/mcp", client_info=ME) as client:
        assert {t.name for t in (await client.list_tools()).tools} == ALL_TOOLS
        routed = await client.call_tool("bank_route", {"question": "testing policy"})
        assert routed.structured_content["hits"][0]["path"] == "engineering/testing-policy.md"


def post(port: int, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    connection.request(
        "POST",
        "/mcp",
        body,
        {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers},
    )
    status = connection.getresponse().status
    connection.close()
    return status


def test_http_refuses_foreign_hosts_and_origins(http_server):
    """DNS rebinding: a page on another name that resolves to 127.0.0.1 must get nothing."""
    assert post(http_server, {"Host": f"evil.example:{http_server}"}) == 421
    assert post(http_server, {"Host": f"127.0.0.1:{http_server}", "Origin": "http://evil.example"}) == 403
    assert post(http_server, {"Host": f"127.0.0.1:{http_server + 1}"}) == 421


def test_http_refuses_addresses_other_machines_can_reach():
    result = subprocess.run([COMMAND, "mcp", "--http", "0.0.0.0:8765"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "Refusing to serve on 0.0.0.0" in result.stderr
    result = subprocess.run([COMMAND, "mcp", "--http", "8765"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "HOST:PORT" in result.stderr


@pytest.fixture
def http_server_with_files(seeded_root):
    """The HTTP server with supplied files switched on, the riskiest setting an owner can choose."""
    with serving_http(seeded_root, "--allow-files") as port:
        yield port


async def test_a_fifo_or_dev_zero_named_by_one_client_does_not_delay_another(http_server_with_files, seeded_root):
    """Two clients at once over HTTP: one names a FIFO inside the project and /dev/zero as body
    files, the other asks a question; the question is answered. Opening the FIFO would block until a
    writer came, forever here, so the bound only has to be far above a route on a loaded machine."""
    import os

    import anyio

    fifo = seeded_root.parent / "pipe.md"
    os.mkfifo(fifo)
    url = f"http://127.0.0.1:{http_server_with_files}/mcp"
    answered: dict[str, float] = {}

    async def hostile() -> None:
        async with Client(url, client_info=ME) as client:
            for name in (str(fifo), "/dev/zero"):
                result = await client.call_tool(
                    "bank_create",
                    {"docKind": "domain", "path": "domain/f.md", "title": "F", "purpose": "p", "bodyFile": name},
                )
                assert result.is_error
                assert "not a regular file" in result.content[0].text or "outside the project" in result.content[0].text

    async def honest() -> None:
        async with Client(url, client_info=ME) as client:
            started = time.monotonic()
            routed = await client.call_tool("bank_route", {"question": "testing policy"})
            answered["seconds"] = time.monotonic() - started
            assert not routed.is_error

    async with anyio.create_task_group() as group:
        group.start_soon(hostile)
        group.start_soon(honest)
    assert answered["seconds"] < 5.0


async def test_supplied_files_are_off_over_http_by_default(http_server, seeded_root):
    (seeded_root.parent / "body.md").write_text("Text.\n")
    async with Client(f"http://127.0.0.1:{http_server}/mcp", client_info=ME) as client:
        result = await client.call_tool(
            "bank_create",
            {
                "docKind": "domain",
                "path": "domain/f.md",
                "title": "F",
                "purpose": "p",
                "bodyFile": str(seeded_root.parent / "body.md"),
            },
        )
    assert result.is_error and "switched off" in result.content[0].text
