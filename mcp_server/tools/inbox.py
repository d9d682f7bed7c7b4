"""The ways out of ``_inbox/``: ``bank_promote``, ``bank_fold`` and ``bank_discard``.

With ``--inbox-exits owner`` (the default) an agent cannot take a note out: each call runs every
gate of the exit as a dry run and, unless ``dryRun``, records a proposal on the note, which the owner
applies or rejects in the workbench or with ``memorybank inbox apply|reject``. A prompt-injected
model can ask for a promotion as easily as its user can, so the decision stays out of band. With
``--inbox-exits agent`` the tools act directly, as the reference's do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp.server.mcpserver import Context
from memorybank.core.write.fold import FoldResult, fold
from memorybank.core.write.inbox import DiscardResult, PromoteResult, discard, promote
from memorybank.core.write.proposals import ProposalResult, propose
from memorybank.mcp_server.session import client_name
from memorybank.mcp_server.tools import StrList, tool
from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer

Note = Annotated[str, Field(description="The note, e.g. _inbox/note.md")]
To = Annotated[str, Field(description="Destination bank path")]
Reason = Annotated[str, Field(min_length=1, description="Recorded; for a fold, the destination")]
Derived = Annotated[StrList | None, Field(description="Relative to the destination")]
Into = Annotated[str, Field(description="The document that owns the fact")]
Section = Annotated[str, Field(description="Its ## section")]
Mode = Literal["replace", "append"]

OWNER_PROMOTE = """Propose promoting an _inbox/ note to its place (bank_create's gates, status active, links
rewritten). Runs every gate now; unless dryRun, records the proposal for the owner to apply."""
OWNER_DISCARD = """Propose dropping an _inbox/ note (a folded note: reason = where it went). Records the proposal
for the owner to apply; nothing is deleted now."""
OWNER_FOLD = """Propose folding an _inbox/ note's text into the ## section of the document that already owns
its fact (append, the default, or replace), then dropping the note. Runs every gate now; records the proposal for the owner."""
AGENT_FOLD = """Fold an _inbox/ note's text into the ## section of the document that already owns its fact
(append, the default, or replace) and drop the note, in one write. Only on the user's word."""
AGENT_PROMOTE = """Promote an _inbox/ note to its place: same gates as bank_create, status active, links rewritten,
registered in its index, the note removed. Only on the user's word."""
AGENT_DISCARD = """Delete an _inbox/ note, with the reason on record (a folded note: where it went). Only on the
user's word."""


def register(server: BankServer) -> None:
    bank = server.bank
    owner = server.inbox_exits == "owner"

    def overrides(docKind, title, purpose, derivedFrom, canonicalFor, mustNotDefine, status):
        return dict(
            doc_kind=docKind,
            title=title,
            purpose=purpose,
            derived_from=derivedFrom,
            canonical_for=canonicalFor,
            must_not_define=mustNotDefine,
            status=status,
        )

    if owner:

        @tool(server, read_only=False, name="bank_promote", description=OWNER_PROMOTE)
        def propose_promotion(
            path: Note,
            to: To,
            ctx: Context,
            docKind: str | None = None,
            title: str | None = None,
            purpose: str | None = None,
            derivedFrom: Derived = None,
            canonicalFor: StrList | None = None,
            mustNotDefine: StrList | None = None,
            status: str = "active",
            dryRun: bool = False,
        ) -> ProposalResult:
            return propose(
                bank,
                action="promote",
                path=path,
                to=to,
                client=client_name(ctx) or "mcp-client",
                dry_run=dryRun,
                **overrides(docKind, title, purpose, derivedFrom, canonicalFor, mustNotDefine, status),
            )

        @tool(server, read_only=False, name="bank_fold", description=OWNER_FOLD)
        def propose_fold(
            path: Note, into: Into, section: Section, ctx: Context, mode: Mode = "append", dryRun: bool = False
        ) -> ProposalResult:
            return propose(
                bank,
                action="fold",
                path=path,
                into=into,
                section=section,
                mode=mode,
                client=client_name(ctx) or "mcp-client",
                dry_run=dryRun,
            )

        @tool(server, read_only=False, name="bank_discard", description=OWNER_DISCARD)
        def propose_discard(path: Note, reason: Reason, ctx: Context, dryRun: bool = False) -> ProposalResult:
            return propose(
                bank,
                action="discard",
                path=path,
                reason=reason,
                client=client_name(ctx) or "mcp-client",
                dry_run=dryRun,
            )

        return

    @tool(server, read_only=False, destructive=True, name="bank_promote", description=AGENT_PROMOTE)
    def promote_note(
        path: Note,
        to: To,
        docKind: str | None = None,
        title: str | None = None,
        purpose: str | None = None,
        derivedFrom: Derived = None,
        canonicalFor: StrList | None = None,
        mustNotDefine: StrList | None = None,
        status: str = "active",
        dryRun: bool = False,
    ) -> PromoteResult:
        return promote(
            bank,
            path=path,
            to=to,
            dry_run=dryRun,
            **overrides(docKind, title, purpose, derivedFrom, canonicalFor, mustNotDefine, status),
        )

    @tool(server, read_only=False, destructive=True, name="bank_fold", description=AGENT_FOLD)
    def fold_note(
        path: Note, into: Into, section: Section, ctx: Context, mode: Mode = "append", dryRun: bool = False
    ) -> FoldResult:
        return fold(
            bank,
            note=path,
            path=into,
            section=section,
            mode=mode,
            by=client_name(ctx) or "mcp-client",
            dry_run=dryRun,
        )

    @tool(server, read_only=False, destructive=True, name="bank_discard", description=AGENT_DISCARD)
    def discard_note(path: Note, reason: Reason, ctx: Context, dryRun: bool = False) -> DiscardResult:
        return discard(bank, path=path, reason=reason, dry_run=dryRun, by=client_name(ctx) or "mcp-client")
