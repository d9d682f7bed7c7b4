"""Finding and reading: ``bank_route``, ``bank_read``, ``bank_search``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal, NotRequired

from memorybank.core.errors import UsageError
from memorybank.core.intent import intents
from memorybank.core.read import BATCH_CEILING, MIN_BUDGET, BatchReadResult, read_many
from memorybank.core.route import DEFAULT_LIMIT as ROUTE_DEFAULT
from memorybank.core.route import MAX_LIMIT as ROUTE_MAX
from memorybank.core.route import RouteHit as CoreRouteHit
from memorybank.core.route import route
from memorybank.core.search import DEFAULT_LIMIT as SEARCH_DEFAULT
from memorybank.core.search import MAX_LIMIT as SEARCH_MAX
from memorybank.core.search import SearchResult, search
from memorybank.mcp_server.tools import tool
from pydantic import Field
from typing_extensions import TypedDict

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer

Layer = Literal["dna", "knowledge", "decision", "delivery", "flow", "other"]


class ReadItem(TypedDict):
    path: str
    section: NotRequired[str]
    lines: NotRequired[str]


class RouteHit(TypedDict):
    """One routed document, compact: ``why`` says in one line what matched; ``section`` is the ``##``
    heading to read first (at ``line``); ``status`` appears only when it is not ``active``; ``progress``
    (its delivery or decision status) only for a status question; ``copies`` names other paths holding
    the same file."""

    path: str
    title: str
    layer: str
    score: float
    why: str
    section: NotRequired[str]
    line: NotRequired[int]
    status: NotRequired[str]
    progress: NotRequired[str]
    copies: NotRequired[list[str]]


@dataclass(frozen=True, slots=True)
class RouteAnswer:
    hits: list[RouteHit]
    why_intent: bool
    hint: str | None = None


def compact_hit(hit: CoreRouteHit, progress: bool = False) -> RouteHit:
    """A hit as an agent needs it: where to read and why, in about 200 characters; with its
    ``progress`` when the question asks for a status ("is the booking widget done?")."""
    found = RouteHit(path=hit.path, title=hit.title, layer=hit.layer, score=hit.score, why=hit.why)
    if hit.section:
        found["section"] = hit.section
        if hit.section_line:
            found["line"] = hit.section_line
    if hit.status != "active":
        found["status"] = hit.status or "none"
    if progress and hit.progress:
        found["progress"] = hit.progress
    if hit.copies:
        found["copies"] = list(hit.copies)
    return found


def register(server: BankServer) -> None:
    bank = server.bank

    @tool(server, read_only=True)
    def bank_route(
        question: Annotated[
            str, Field(min_length=2, description="As the user asked it, any language; don't translate")
        ],
        limit: Annotated[int, Field(ge=1, le=ROUTE_MAX)] = ROUTE_DEFAULT,
        docKind: str | None = None,
        layer: Layer | None = None,
    ) -> RouteAnswer:
        """Which documents answer a question, best first. Ranks what humans wrote about each document
        (canonical_for, purpose, title, ## headings; bodies only as secondary evidence) and says why, with
        the section to read. Call before reading files. For a literal string use bank_search."""
        found = route(bank, question, limit=limit, doc_kind=docKind, layer=layer)
        status = "status" in intents(question)
        return RouteAnswer([compact_hit(h, status) for h in found.hits], found.why_intent, found.hint)

    @tool(server, read_only=True)
    def bank_read(
        path: Annotated[
            str | list[str | ReadItem], Field(description="A bank path, or a list of paths or {path, section?, lines?}")
        ],
        section: Annotated[str | None, Field(description="A ## (or ###) heading: read only that section")] = None,
        lines: Annotated[
            str | None, Field(description='Line range of the file, e.g. "120-160" (one path only)')
        ] = None,
        maxBytes: Annotated[
            int | None, Field(ge=MIN_BUDGET, description=f"Lowers the {BATCH_CEILING}-byte budget")
        ] = None,
    ) -> BatchReadResult:
        """Read documents (frontmatter + content), whole, one ## section or a line range; batch many in one
        call. Documents past the budget come back under skipped with their sections: re-ask by section. A
        missing section lists the real ones."""
        single = isinstance(path, str)
        if lines and not single:
            raise UsageError("lines applies to one path; in a list give each item its own {path, lines}.")
        requests = [{"path": path, "section": section, "lines": lines}] if single else list(path)
        batch = read_many(bank, requests, section=section, max_bytes=maxBytes)
        if single and batch.failed:
            raise UsageError(batch.failed[0].error)
        return batch

    @tool(server, read_only=True)
    def bank_search(
        query: Annotated[str, Field(min_length=2)],
        limit: Annotated[int, Field(ge=1, le=SEARCH_MAX)] = SEARCH_DEFAULT,
        docKind: str | None = None,
        layer: Layer | None = None,
        status: str | None = None,
    ) -> SearchResult:
        """Where a word, phrase or identifier occurs in document bodies: best line (with its number) per
        document. Documents holding every term rank first. For "what should I read about X" use bank_route."""
        return search(bank, query, limit=limit, doc_kind=docKind, layer=layer, status=status)
