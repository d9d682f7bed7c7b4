"""Checking the bank: ``bank_validate``, ``bank_graph``, ``bank_drift``, ``bank_changed``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from memorybank.core.changes import Changes, changes_since
from memorybank.core.drift import DEFAULT_THRESHOLD_DAYS, MAX_THRESHOLD_DAYS, Drift, check_drift
from memorybank.core.graph import DEFAULT_DEPTH, MAX_DEPTH, MAX_LIMIT, Graph, walk_graph
from memorybank.core.validate import DEFAULT_PAGE, MAX_PAGE, RULE_ORDER, ValidationPage, page_of, validate
from memorybank.mcp_server.tools import tool
from pydantic import Field

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer

RuleName = Literal[RULE_ORDER]  # type: ignore[valid-type]
Scope = Annotated[str | None, Field(description="A bank subdirectory")]


def register(server: BankServer) -> None:
    bank = server.bank

    @tool(server, read_only=True)
    def bank_validate(
        scope: Scope = None,
        severity: Literal["error", "warning"] | None = None,
        rule: RuleName | None = None,
        limit: Annotated[int, Field(ge=1, le=MAX_PAGE)] = DEFAULT_PAGE,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> ValidationPage:
        """Check the bank against the rules its dna/ declares: counts by rule, then findings (path, line,
        message) a page at a time (next_offset). Run before committing."""
        report = validate(bank, scope=scope, severity=severity, rule=rule)
        return page_of(report, limit=limit, offset=offset)

    @tool(server, read_only=True)
    def bank_graph(
        path: str,
        direction: Annotated[
            Literal["up", "down", "both"], Field(description="down: what rests on it; up: what it rests on")
        ] = "down",
        depth: Annotated[int, Field(ge=1, le=MAX_DEPTH)] = DEFAULT_DEPTH,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Node cap")] = 30,
        neighbours: Annotated[bool, Field(description="Read headers of targets outside the bank, one hop")] = True,
    ) -> Graph:
        """Walk derived_from from a document: its blast radius (down) or foundations (up). Nodes with depth,
        edges with fit, external and broken edges; truncated when the cap stopped the walk."""
        return walk_graph(bank, path, direction=direction, depth=depth, limit=limit, neighbours=neighbours)

    @tool(server, read_only=True)
    def bank_drift(
        thresholdDays: Annotated[int, Field(ge=0, le=MAX_THRESHOLD_DAYS)] = DEFAULT_THRESHOLD_DAYS,
        scope: Scope = None,
    ) -> Drift:
        """Documents whose anchored code (frontmatter anchors:) was committed more than thresholdDays after
        them, with the commits; anchors that no longer exist; how many documents declare no anchors."""
        return check_drift(bank, threshold_days=thresholdDays, scope=scope)

    @tool(server, read_only=True)
    def bank_changed(
        since: Annotated[str, Field(min_length=1, description="A git ref (HEAD~5, a tag), an ISO date or a span (7d)")],
        limit: Annotated[int, Field(ge=1, le=500)] = 50,
        offset: Annotated[int, Field(ge=0)] = 0,
    ) -> Changes:
        """Documents added, modified, renamed or deleted since a git ref or a date, 50 a page (total and
        next_offset say if there are more)."""
        return changes_since(bank, since).page(offset, limit)
