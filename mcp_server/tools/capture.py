"""``bank_capture``: the one write of the capture surface (``memorybank mcp --surface capture``).

An agent that may not change the bank can still tell its owner what it learned: the note lands in
``_inbox/`` as a draft, unregistered, through the same gates as ``bank_create``'s ``inbox`` (the
firewall, the taken-path refusal, write-once notes where the owner empties the quarantine), and
waits there for the owner to promote, fold or discard it. The tool exists only on that surface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from mcp.server.mcpserver import Context
from memorybank.core.write.create import CreateResult, create
from memorybank.mcp_server import surface
from memorybank.mcp_server.session import client_name
from memorybank.mcp_server.tools import StrList, tool
from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer


def register(server: BankServer) -> None:
    if server.subset != surface.CAPTURE:
        return
    bank = server.bank

    @tool(server, read_only=False)
    def bank_capture(
        path: Annotated[str, Field(description="Note file name, e.g. cache-ttl.md (it lands in _inbox/)")],
        title: Annotated[str, Field(min_length=1)],
        purpose: Annotated[str, Field(min_length=1, description="What the note records, in a sentence")],
        ctx: Context,
        body: str | None = None,
        bodyFile: Annotated[str | None, Field(description="Read it from a file inside the project (≤1 MB)")] = None,
        derivedFrom: Annotated[StrList | None, Field(description="Bank documents it rests on")] = None,
        dryRun: bool = False,
    ) -> CreateResult:
        """Capture a note into _inbox/ (draft, unregistered) for the owner to promote, fold or discard.
        Refused: a taken note path, a secret in the text."""
        return create(
            bank,
            path=path,
            title=title,
            purpose=purpose,
            derived_from=derivedFrom,
            body=body,
            body_file=bodyFile,
            inbox=True,
            dry_run=dryRun,
            client=client_name(ctx) or "mcp-client",
        )
