"""Creating a bank and owning its templates: ``bank_init``, ``bank_materialize_flows``.

``bank_init`` is the only tool of the seed surface; when it succeeds for real, the rest of the
surface opens in the same session and the client is told its lists changed.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated

import anyio.to_thread
from mcp.server.mcpserver import Context
from memorybank.core.errors import Refusal
from memorybank.core.index import walk
from memorybank.core.init import InitResult, MaterializeResult, init, materialize_flows
from memorybank.mcp_server.tools import tool
from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer


def register(server: BankServer) -> None:
    bank = server.bank

    @tool(server, read_only=False, destructive=True)
    async def bank_init(
        name: Annotated[str, Field(min_length=1, description="The project's name, for the root index")],
        ctx: Context,
        dryRun: bool = False,
    ) -> InitResult:
        """Create the memory bank: 24 files (governance in dna/, flows, section indexes, a root index). Refuses
        a root that already holds documents. Call only when the user asks for a bank."""
        existing = len(walk(bank.root)) if bank.root.is_dir() else 0
        if existing:
            # Re-seeding a live bank rewrites its indexes and dna/: the owner's call, never an agent's.
            raise Refusal(
                f"This bank already holds {existing} document{'' if existing == 1 else 's'}. Seeding it again is the owner's decision, not an "
                "agent's: they can run `memorybank init NAME --force` themselves.",
                reason="bank-exists",
            )
        result = await anyio.to_thread.run_sync(functools.partial(init, bank.root, name=name, dry_run=dryRun))
        if not dryRun:
            bank.refresh()
            await server.open_full_surface(ctx)
        return result

    # Destructive, unlike the reference's hint: with force it re-copies templates over the bank's copies.
    @tool(server, read_only=False, destructive=True)
    def bank_materialize_flows(
        force: Annotated[
            bool, Field(description="Re-copy templates that still hold the shipped text; edited ones are refused")
        ] = False,
    ) -> MaterializeResult:
        """Copy the shipped document templates into flows/templates/ so the team can edit them; bank_create
        then prefers them."""
        return materialize_flows(bank, force=force, keep_edits=True)
