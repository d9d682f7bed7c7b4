"""Changing the bank through its gates: ``bank_create``, ``bank_edit``, ``bank_update_section``,
``bank_set_status``, ``bank_set_field``. A refused write writes nothing; ``dryRun`` runs every gate
and writes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.server.mcpserver import Context
from memorybank.core.write.create import CreateResult, create
from memorybank.core.write.edit import EditResult, SectionUpdateResult, edit, update_section
from memorybank.core.write.fields import FieldResult, StatusResult, set_field, set_status
from memorybank.mcp_server.session import client_name
from memorybank.mcp_server.tools import StrList, tool
from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer

DocPath = Annotated[str, Field(description="Bank path, e.g. adr/ADR-1.md")]
Section = Annotated[str, Field(description="A ## (or ###) heading")]
FileArg = Annotated[str | None, Field(description="Read it from a file inside the project instead (≤1 MB)")]
IfVersion = Annotated[
    str | None, Field(description="The version bank_read reported: refused if the file changed since")
]


def register(server: BankServer) -> None:
    bank = server.bank
    notes_locked = server.inbox_exits == "owner"
    # Where only the owner empties the quarantine, a captured note is write-once for agents.

    @tool(server, read_only=False)
    def bank_create(
        title: Annotated[str, Field(min_length=1)],
        purpose: Annotated[str, Field(min_length=1, description="When to read it: routing ranks on it")],
        ctx: Context,
        docKind: Annotated[str, Field(description="Picks template and section (not for inbox)")] = "",
        path: Annotated[
            str | None, Field(description="Bank path, named as its folder's index names its kin (inbox: from title)")
        ] = None,
        derivedFrom: Annotated[StrList | None, Field(description="Upstream paths, relative to the new file")] = None,
        canonicalFor: Annotated[StrList | None, Field(description="Fact keys it owns (one owner each)")] = None,
        mustNotDefine: StrList | None = None,
        status: str = "draft",
        body: str | None = None,
        bodyFile: FileArg = None,
        extra: Annotated[dict[str, Any] | None, Field(description="More frontmatter fields")] = None,
        inbox: Annotated[bool, Field(description="Capture a note into _inbox/ (draft, unregistered)")] = False,
        template: Annotated[str | None, Field(description="Template path, where the kind has several")] = None,
        dryRun: bool = False,
    ) -> CreateResult:
        """Create a document from its template and register it in its section index, in one write.
        Refused: a taken path, an unresolved derived_from, a canonical_for key owned elsewhere, an active
        document without derived_from where dna/ requires one."""
        return create(
            bank,
            path=path,
            title=title,
            purpose=purpose,
            doc_kind=docKind,
            derived_from=derivedFrom,
            canonical_for=canonicalFor,
            must_not_define=mustNotDefine,
            status=status,
            body=body,
            body_file=bodyFile,
            extra=extra,
            inbox=inbox,
            template=template,
            dry_run=dryRun,
            client=client_name(ctx) or "mcp-client",
            notes_locked=notes_locked,
        )

    @tool(server, read_only=False, destructive=True)
    def bank_edit(
        path: DocPath,
        find: Annotated[str, Field(min_length=1, description="Exact text, whitespace included; must occur once")],
        replace: str,
        section: Annotated[str | None, Field(description="Only look in this ## (or ###) section")] = None,
        ifVersion: IfVersion = None,
        dryRun: bool = False,
    ) -> EditResult:
        """Replace one exact fragment of a document's body. Zero or several matches are refused. The
        frontmatter is out of reach: use bank_set_field or bank_set_status."""
        return edit(
            bank,
            path=path,
            find=find,
            replace=replace,
            section=section,
            dry_run=dryRun,
            notes_locked=notes_locked,
            if_version=ifVersion,
        )

    @tool(server, read_only=False, destructive=True)
    def bank_update_section(
        path: DocPath,
        section: Section,
        content: Annotated[str | None, Field(min_length=1)] = None,
        contentFile: FileArg = None,
        mode: Literal["replace", "append"] = "replace",
        ifVersion: IfVersion = None,
        dryRun: bool = False,
    ) -> SectionUpdateResult:
        """Replace or append to the body of one existing ## section; everything else stays byte for byte."""
        return update_section(
            bank,
            path=path,
            section=section,
            content=content,
            content_file=contentFile,
            mode=mode,
            dry_run=dryRun,
            notes_locked=notes_locked,
            if_version=ifVersion,
        )

    @tool(server, read_only=False, destructive=True, idempotent=True)
    def bank_set_status(
        path: DocPath,
        status: Annotated[str, Field(min_length=1)],
        releaseCanonical: Annotated[bool, Field(description="Archiving: give up its canonical_for keys")] = False,
        dryRun: bool = False,
    ) -> StatusResult:
        """Move a document to another status through its gates: activating needs derived_from where dna/
        requires it; archiving an owner of canonical_for keys needs releaseCanonical. Not for _inbox/ notes."""
        return set_status(
            bank,
            path=path,
            status=status,
            release_canonical=releaseCanonical,
            dry_run=dryRun,
            notes_locked=notes_locked,
        )

    @tool(server, read_only=False, destructive=True, idempotent=True)
    def bank_set_field(
        path: DocPath,
        field: Annotated[str, Field(min_length=1)],
        value: Annotated[str | list[str], Field(description="One line, or a whole new list")],
        dryRun: bool = False,
    ) -> FieldResult:
        """Set one frontmatter field in place (derived_from and other lists through their gates); a new
        purpose or title also updates the index entry repeating it. Not status, doc_kind or doc_function."""
        return set_field(bank, path=path, field=field, value=value, dry_run=dryRun, notes_locked=notes_locked)
