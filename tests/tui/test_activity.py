"""The workbench hosting the MCP server (`memorybank tui --serve-mcp PORT`): a real MCP client talks
streamable HTTP to it while the app runs under Pilot, and every call shows up in the Activity pane,
newest first; an agent's capture reaches the inbox at once. The port is bound before the app
starts, and only on loopback."""

from __future__ import annotations

import socket
import time

import pytest
from mcp import Client
from mcp_types import Implementation
from memorybank.core.errors import UsageError
from memorybank.tui.app import make_app
from memorybank.tui.cli.main import main
from memorybank.tui.mcp_host import McpHost
from memorybank.tui.panes.activity import NOT_SERVING, ActivityPane
from memorybank.tui.panes.inbox import InboxPane
from memorybank.tui.widgets.bank_header import BankHeader
from textual.widgets import DataTable

from tests.tui.conftest import SIZE, settle

pytestmark = pytest.mark.anyio


async def started(pilot, host: McpHost, seconds: float = 10.0) -> bool:
    """The server runs in its own thread: wait (bounded) for it to accept connections."""
    deadline = time.monotonic() + seconds
    while not host.started and time.monotonic() < deadline:
        await pilot.pause(0.02)
    return host.started


async def test_the_activity_pane_lists_the_calls_a_real_http_client_makes(demo_bank):
    host = McpHost(demo_bank, "127.0.0.1", 0)
    app = make_app(demo_bank, poll_seconds=0, mcp=host)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert await started(pilot, host), "the hosted MCP server did not start"
        header = app.screen.query_one(BankHeader)
        assert f"mcp :{host.port}" in str(header.render())
        agent = Implementation(name="claude-code", version="1")
        async with Client(host.url, client_info=agent) as client:
            routed = await client.call_tool("bank_route", {"question": "how are invoices numbered"})
            assert not routed.is_error
            refused = await client.call_tool("bank_discard", {"path": "domain/tax-model.md", "reason": "old"})
            assert refused.is_error
            captured = await client.call_tool(
                "bank_create",
                {
                    "docKind": "engineering",
                    "path": "stripe-webhooks.md",
                    "title": "Stripe webhooks arrive twice",
                    "purpose": "Stripe retries webhooks, so payment events must be idempotent.",
                    "inbox": True,
                },
            )
            assert not captured.is_error
        await settle(pilot, rounds=3)

        await pilot.press("escape", "9")
        pane = app.screen.query_one(ActivityPane)
        assert [(c.client, c.tool, c.ok) for c in pane.calls] == [
            ("claude-code", "bank_create", True),
            ("claude-code", "bank_discard", False),
            ("claude-code", "bank_route", True),
        ]
        assert pane.calls[1].outcome.startswith("Refused (not-inbox): Only quarantined documents can be discarded")
        assert pane.calls[2].arguments == "question=how are invoices numbered"
        table = pane.query_one("#activity-calls", DataTable)
        assert table.row_count == 3 and str(table.get_row_at(0)[2]) == "bank_create"
        summary = str(pane.query_one("#activity-summary").render())
        assert summary.startswith(f"Serving MCP at {host.url}") and "3 calls, 1 refused" in summary

        assert header.summary.inbox == 5  # the agent's capture, without waiting for the disk check
        await pilot.press("8")
        inbox = app.screen.query_one(InboxPane)
        await settle(pilot)
        assert "_inbox/stripe-webhooks.md" in [e.path for e in inbox.entries]
    with pytest.raises(OSError):  # the server stopped with the app
        socket.create_connection(("127.0.0.1", host.port), timeout=0.5).close()


async def test_without_a_hosted_server_the_pane_says_how_to_start_one(demo_source):
    app = make_app(demo_source, poll_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape", "9")
        pane = app.screen.query_one(ActivityPane)
        assert str(pane.query_one("#activity-summary").render()) == NOT_SERVING
        assert "mcp" not in str(app.screen.query_one(BankHeader).render())


def test_a_taken_port_or_an_address_off_loopback_is_refused_before_the_app_starts(demo_source, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(UsageError, match=f"Port {port} on 127.0.0.1 is taken"):
            McpHost.bind(demo_source, str(port))
    assert main(["tui", "--root", str(demo_source), "--serve-mcp", "0.0.0.0:8765"]) == 2
    assert "Refusing to serve on 0.0.0.0" in capsys.readouterr().err
