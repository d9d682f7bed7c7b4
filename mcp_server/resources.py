"""The resources: the map to read first (with each section's listing a page at a time), the bank's
frontmatter schema, its health, its inbox.

Each is re-derived from disk when read (a cheap refresh first), like every tool answer. The first
read stays cheap on any bank: the map has one line per section, not per document, and health
summarises by rule with the first findings only.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from memorybank.core.contract import DEGRADED_NOTE
from memorybank.core.overview import PAGE_SIZE, bank_map, section_page
from memorybank.core.validate import page_of, validate
from memorybank.core.write.inbox import list_inbox
from memorybank.mcp_server.errors import resource_errors
from memorybank.mcp_server.tools import compact, plain

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer


INDEX = "memorybank://index"
PAGE = PAGE_SIZE
HEALTH_FINDINGS = 20


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def register(server: BankServer) -> None:
    bank = server.bank

    @server.resource(
        INDEX,
        name="index",
        mime_type="application/json",
        description="Read first: the bank's sections (what each holds, counts), entrypoint, roots, main owners.",
    )
    def index() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            return _json(compact(plain(bank_map(bank, uri=INDEX))))

    @server.resource(
        INDEX + "/{section}{?page}",
        name="index-section",
        mime_type="application/json",
        description=f"One section's documents (path, title, purpose, kind, status, owned keys), {PAGE} a page.",
    )
    def index_section(section: str, page: int = 1) -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            return _json(compact(plain(section_page(bank, section, page, uri=INDEX))))

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
        description=f"A fresh validation: errors, warnings, counts by rule, the first {HEALTH_FINDINGS} findings.",
    )
    def health() -> str:
        with resource_errors(), bank.lock:
            bank.refresh()
            report = plain(page_of(validate(bank), limit=HEALTH_FINDINGS))
            contract = list(bank.contract.source) if bank.contract.present else None
            documents = sum(1 for doc in bank if doc.is_placed)  # as the index counts
            return _json({"root": str(bank.root), "documents": documents, "contract": contract, **report})

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
