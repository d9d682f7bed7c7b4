"""The four resources: the index to read first, the bank's frontmatter schema, its health, its inbox.

Each is re-derived from disk when read (a cheap refresh first), like every tool answer.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from core.contract import DEGRADED_NOTE
from core.validate import validate
from core.write.inbox import list_inbox
from mcp_server.errors import resource_errors
from mcp_server.tools import plain

if TYPE_CHECKING:
    from mcp_server.bank_server import BankServer


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def register(server: BankServer) -> None:
    bank = server.bank

    @server.resource(
        "memorybank://index",
        name="index",
        mime_type="application/json",
        description="Every document (path, title, purpose, kind, layer, status, owned keys). Read it first.",
    )
    def index() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            documents = []
            for doc in bank:
                if doc.is_template:
                    continue
                entry = {
                    "path": doc.path,
                    "title": doc.title,
                    "purpose": doc.purpose,
                    "doc_kind": doc.doc_kind,
                    "layer": doc.layer,
                    "status": doc.status,
                }
                if doc.canonical_for:
                    entry["canonical_for"] = list(doc.canonical_for)
                documents.append(entry)
            return _json({"root": str(bank.root), "count": len(documents), "documents": documents})

    @server.resource(
        "memorybank://schema/frontmatter",
        name="frontmatter-schema",
        mime_type="text/markdown",
        description="The bank's own frontmatter rules (dna/frontmatter.md).",
    )
    def frontmatter_schema() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            source = next((p for p in bank.contract.source if p.endswith("frontmatter.md")), None)
            if source is None:
                return DEGRADED_NOTE
            return (bank.root / source).read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")

    @server.resource(
        "memorybank://health",
        name="health",
        mime_type="application/json",
        description="A fresh validation: errors, warnings, counts by rule, findings.",
    )
    def health() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            report = plain(validate(bank))
            contract = list(bank.contract.source) if bank.contract.present else None
            return _json({"root": str(bank.root), "documents": len(bank), "contract": contract, **report})

    @server.resource(
        "memorybank://inbox",
        name="inbox",
        mime_type="application/json",
        description="Notes in _inbox/, oldest first, with origin and pending proposals. Outside routing until promoted.",
    )
    def inbox() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            entries = list_inbox(bank)
            return _json({"root": str(bank.root), "count": len(entries), "entries": [plain(e) for e in entries]})
