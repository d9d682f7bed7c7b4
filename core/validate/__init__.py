"""Validation: one rule engine for the CLI, the MCP server and the TUI.

``validate(bank)`` runs every registered rule and returns the findings sorted by the fixed rule
rank, then path, then line. Results are cached per bank generation, so asking twice without a
change on disk costs nothing, and kept in the parse cache for a bank opened with one, so a cold
process on an unchanged bank answers without parsing it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.validate import anchors, contract_rules, references, route_checks, structural  # noqa: F401 - registers the rules
from memorybank.core.validate.registry import RULE_ORDER, RULES, SEVERITIES, Context, Finding, Rule, ordered_rules

__all__ = [
    "Finding",
    "Rule",
    "RULES",
    "RULE_ORDER",
    "ValidationPage",
    "ValidationReport",
    "page_of",
    "validate",
    "rules_table",
]

DEFAULT_PAGE = 20
MAX_PAGE = 500


@dataclass(frozen=True, slots=True)
class ValidationReport:
    total: int
    errors: int
    warnings: int
    by_rule: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ValidationPage:
    """A report with its counts whole and its findings one page long."""

    total: int
    errors: int
    warnings: int
    by_rule: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    offset: int = 0
    next_offset: int | None = None
    """Where the next page starts; None on the last page."""


def page_of(report: ValidationReport, *, limit: int = DEFAULT_PAGE, offset: int = 0) -> ValidationPage:
    """The findings ``offset`` to ``offset + limit`` of ``report``, with every count kept.

    Raises:
        UsageError: a limit below 1 or a negative offset.
    """
    if limit < 1 or offset < 0:
        raise UsageError("limit must be at least 1 and offset at least 0.")
    end = offset + limit
    return ValidationPage(
        total=report.total,
        errors=report.errors,
        warnings=report.warnings,
        by_rule=dict(report.by_rule),
        findings=report.findings[offset:end],
        offset=offset,
        next_offset=end if end < report.total else None,
    )


def _sort_key(finding: Finding) -> tuple[int, str, int]:
    return (RULE_ORDER.index(finding.rule), finding.path, finding.line or 0)


def _all_findings(bank: Bank, probes: dict[str, bool]) -> list[Finding]:
    context = Context(bank=bank, scope="", probes=probes)
    found: list[Finding] = []
    for rule in ordered_rules():
        found.extend(rule.check(context))
    found.sort(key=_sort_key)
    return found


def validate(
    bank: Bank,
    *,
    scope: str | None = None,
    severity: str | None = None,
    rule: str | None = None,
    files: Collection[str] | None = None,
) -> ValidationReport:
    """Run every rule and filter the findings.

    Args:
        scope: a subdirectory; only findings on documents under it are kept (``no-contract`` is
            never filtered out). Accepts the forms paths accept (``./adr/``, ``memory_bank/adr``).
        severity: ``error`` or ``warning``.
        rule: one rule name.
        files: bank paths; only findings on these documents are kept (what a pre-commit hook passes:
            the files a commit changes); a path ending in ``/`` keeps those on every file under that
            folder. The whole bank is still read, so a link from one of them to a document that is
            gone is found; ``no-contract`` is never filtered out.

    Raises:
        UsageError: an unknown severity or rule name.
    """
    if severity is not None and severity not in SEVERITIES:
        raise UsageError(f'Unknown severity "{severity}". Use one of: {", ".join(SEVERITIES)}.')
    if rule is not None and rule not in RULES:
        raise UsageError(f'Unknown rule "{rule}". Rules: {", ".join(r.name for r in ordered_rules())}.')
    prefix = bank.paths.to_existing_scope(scope, lambda: bank.documents)
    findings = bank.persistent("validation", _all_findings)
    if prefix:
        context = Context(bank=bank, scope=prefix)
        findings = [f for f in findings if f.rule == "no-contract" or _finding_in_scope(context, f)]
    if files is not None:
        chosen = set(files)
        findings = [f for f in findings if f.rule == "no-contract" or _finding_on(bank, f, chosen)]
    if severity:
        findings = [f for f in findings if f.severity == severity]
    if rule:
        findings = [f for f in findings if f.rule == rule]
    by_rule = Counter(f.rule for f in findings)
    errors = sum(1 for f in findings if f.severity == "error")
    return ValidationReport(
        total=len(findings),
        errors=errors,
        warnings=len(findings) - errors,
        by_rule={name: by_rule[name] for name in RULE_ORDER if by_rule.get(name)},
        findings=list(findings),
    )


def _finding_in_scope(context: Context, finding: Finding) -> bool:
    return any(context.in_scope(p) for p in _finding_paths(context.bank, finding))


def _finding_on(bank: Bank, finding: Finding, files: set[str]) -> bool:
    folders = tuple(f for f in files if f.endswith("/"))
    return any(p in files or p.startswith(folders) for p in _finding_paths(bank, finding))


def _finding_paths(bank: Bank, finding: Finding) -> list[str]:
    """The documents a finding is about: its own, or every owner of a key two documents claim."""
    if finding.rule == "ssot-conflict":
        key = finding.message.split('"')[1] if '"' in finding.message else ""
        return bank.derived.owners.get(key, [finding.path])
    return [finding.path]


def rules_table() -> str:
    """The README's rule table, generated from the registry."""
    lines = ["| rule | severity | kind | what it reports |", "|---|---|---|---|"]
    for r in ordered_rules():
        lines.append(f"| `{r.name}` | {r.severity} | {r.kind} | {r.summary} |")
    return "\n".join(lines)
