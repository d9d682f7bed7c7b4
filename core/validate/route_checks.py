"""The route-check rule: routing regressions caught by the bank's own questions."""

from __future__ import annotations

from collections.abc import Iterator

from memorybank.core.evaluate import ROUTE_CHECKS, route_check_misses
from memorybank.core.validate.registry import RULES, Context, Finding, rule


@rule("route-check-failed", "warning", "A question in dna/route-checks.md no longer routes to its expected document.")
def route_check_failed(ctx: Context) -> Iterator[Finding]:
    """A row of ``dna/route-checks.md`` (``Question | Expected``) whose expected document is not
    among the first three results of ``bank_route`` for that question. A row naming no document of
    the bank says so instead: the row is stale, not the routing.

    Why: the bank measures its own routing; a failing check means an edit to a title, purpose or
    ``canonical_for`` moved a question away from its answer, which nobody would otherwise notice.
    Example: ``| where are the filter thresholds | `domain/rules.md` |`` after the thresholds moved to
    ``domain/limits.md``, or after rules.md lost the words the question uses.
    Fix: restore the words that routed the question (purpose, title, canonical_for, headings), or
    update the row if the answer really moved (the TUI's Route pane can pin the new answer).
    """
    if ROUTE_CHECKS not in ctx.bank or not ctx.in_scope(ROUTE_CHECKS):
        return
    me = RULES["route-check-failed"]
    for miss in route_check_misses(ctx.bank):
        yield me.finding(ROUTE_CHECKS, miss.message, miss.line)
