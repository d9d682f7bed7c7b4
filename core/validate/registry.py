"""The rule registry: every validation rule with its name, severity, message shape and docs.

Rules are written like a linter's: a function that yields findings, registered with a name, a
severity, a one-line summary, and a docstring saying what it catches, why it matters, an example
and the fix. The registry's order is the order findings are sorted in.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.paths import within

SEVERITIES = ("error", "warning")


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong with the bank, shared by the CLI, the MCP server and the TUI."""

    rule: str
    severity: str
    path: str
    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class Context:
    """What a rule may look at: the bank, and the scope a finding's path must fall in."""

    bank: Bank
    scope: str
    probes: dict[str, bool] = field(default_factory=dict)
    """Paths outside the documents a rule looked at, and whether they existed: a stored result is
    reused only while each still holds."""

    def in_scope(self, path: str) -> bool:
        return within(path, self.scope)

    def unreadable(self, path: str) -> bool:
        """Whether a bank path is a file the bank could not read, or lies in a folder it could not
        list: that file is reported as ``unreadable``, and a link to it is not broken."""
        blocked = self.bank.unreadable
        return bool(blocked) and (path in blocked or any(p.endswith("/") and path.startswith(p) for p in blocked))

    def exists(self, path: str) -> bool:
        """Whether a bank path exists on disk (a file that is not a document, a folder), recorded."""
        found = self.probes.get(path)
        if found is None:
            found = self.probes[path] = os.path.exists(self.bank.root / path)
        return found


Check = Callable[[Context], Iterator[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    severity: str
    summary: str
    """One line: what a finding of this rule says."""
    kind: str
    """``structural`` (runs in every bank) or ``contract`` (runs only where dna/ declares it)."""
    check: Check

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "")

    @property
    def rank(self) -> int:
        return RULE_ORDER.index(self.name)

    def finding(self, path: str, message: str, line: int | None = None) -> Finding:
        return Finding(rule=self.name, severity=self.severity, path=path, line=line, message=message)


RULE_ORDER: tuple[str, ...] = (
    "unreadable",
    "not-utf8",
    "invalid-frontmatter",
    "broken-derived-from",
    "missing-derived-from",
    "cycle-in-derived-from",
    "unregistered-doc",
    "unreachable-doc",
    "unresolved-rule-reference",
    "broken-link",
    "broken-anchor",
    "unknown-enum-value",
    "ssot-conflict",
    "must-not-define-violated",
    "dangling-index-entry",
    "unknown-layer-value",
    "route-check-failed",
    "no-contract",
)
"""The fixed rank findings are sorted by: the reference's twelve, with ours placed beside their kin."""

RULES: dict[str, Rule] = {}


def rule(name: str, severity: str, summary: str, *, kind: str = "structural") -> Callable[[Check], Check]:
    """Register a check function as a rule."""
    assert name in RULE_ORDER, name
    assert severity in SEVERITIES, severity

    def register(check: Check) -> Check:
        RULES[name] = Rule(name=name, severity=severity, summary=summary, kind=kind, check=check)
        return check

    return register


def ordered_rules() -> list[Rule]:
    return sorted(RULES.values(), key=lambda r: r.rank)
