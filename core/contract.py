"""The contract: what a bank's ``dna/`` declares about its documents, read from its own prose.

Value sets come from markdown table rows whose first cell names a governed field (``doc_kind``,
``doc_function``, ``status``, ``delivery_status``, ``decision_status``): every backticked lowercase
token in the other cells is an allowed value. Three sentences switch rules on: the root document,
the ``derived_from`` requirement and the cycle ban; a fourth sets a number, the days after which a
live document nobody committed is stale ("stale after 90 days"). Sets are open: a value outside
them is a warning, never a refusal. With no ``dna/`` at all the bank runs in degraded mode.
"""

from __future__ import annotations

import re

from memorybank.core.layers import table_cells
from memorybank.core.model import Contract

GOVERNED_FIELDS: tuple[str, ...] = ("doc_kind", "doc_function", "status", "delivery_status", "decision_status")
_NOISE = frozenset({"enum", "string", "array", "object", "md", "yaml", "true", "false"})
_VALUE = re.compile(r"`([a-z][a-z0-9_-]*)`")
# English sentences, and the Russian ones real banks in this convention use for the same law.
_ROOT = re.compile(
    r"(?:root document is|корневой документ\s*(?:[—–:-]|это|является)?)\s*\[?\s*`?\s*(?:\./)?([\w./-]+?\.md)",
    re.IGNORECASE,
)
_REQUIRES = re.compile(r"must define\s*`?derived_from`?|`?derived_from`?\s+(?:\S+\s+){0,2}обязател", re.IGNORECASE)
_CYCLES = re.compile(r"(?:cyclic|circular) dependencies are forbidden|циклические зависимости запрещены", re.IGNORECASE)
_STALE_AFTER = re.compile(
    r"(?:stale\s+after|устаревш\w*\s+(?:через|после))\W{0,4}(\d{1,4})\W{0,4}(?:days?|дн)", re.IGNORECASE
)
MAX_STALE_AFTER_DAYS = 3650

DEGRADED_NOTE = (
    "This bank has no dna/frontmatter.md. The server runs in degraded mode: routing and reading "
    "only, no contract checks."
)


def parse_contract(dna_sources: list[tuple[str, str]], *, has_principles: bool) -> Contract:
    """Read the contract from the ``(path, text)`` of every ``dna/`` document.

    Args:
        dna_sources: every document under ``dna/``, frontmatter included, in bank order.
        has_principles: whether ``dna/principles.md`` exists; it becomes the root when no
            sentence declares one.
    """
    if not dna_sources:
        return Contract(present=False)
    values: dict[str, set[str]] = {name: set() for name in GOVERNED_FIELDS}
    roots: set[str] = set()
    requires = False
    cycles = False
    stale_after: tuple[int, str] | None = None
    for path, text in dna_sources:
        stale_after = stale_after or _stale_after(text, path)
        for line in text.split("\n"):
            stripped = line.strip()
            if stripped.startswith("|"):
                cells = table_cells(stripped)
                if len(cells) >= 2:
                    name = cells[0].replace("`", "").strip()
                    if name in values:
                        rest = " ".join(cells[1:])
                        values[name].update(v for v in _VALUE.findall(rest) if v not in _NOISE and v != name)
            lowered = stripped.lower()
            if "root document is" in lowered or "корневой документ" in lowered:
                for match in _ROOT.finditer(stripped):
                    target = match.group(1)
                    roots.add(target if target.startswith("dna/") else f"dna/{target}")
            if not requires and _REQUIRES.search(stripped):
                requires = True
            if not cycles and _CYCLES.search(stripped):
                cycles = True
    if not roots and has_principles:
        roots.add("dna/principles.md")
    return Contract(
        present=True,
        source=tuple(sorted(path for path, _ in dna_sources)),
        doc_kinds=frozenset(values["doc_kind"]),
        doc_functions=frozenset(values["doc_function"]),
        statuses=frozenset(values["status"]),
        delivery_statuses=frozenset(values["delivery_status"]),
        decision_statuses=frozenset(values["decision_status"]),
        roots=frozenset(roots),
        requires_derived_from=requires,
        forbids_cycles=cycles,
        stale_after_days=stale_after[0] if stale_after else None,
        stale_after_source=stale_after[1] if stale_after else None,
    )


def _stale_after(text: str, path: str) -> tuple[int, str] | None:
    """The first "stale after N days" of a document with N in range, and the document it came from.

    The first such sentence in bank order wins; a number out of range (more than ten years) is
    read as no setting rather than refused: the contract never refuses."""
    for match in _STALE_AFTER.finditer(text):
        days = int(match.group(1))
        if days <= MAX_STALE_AFTER_DAYS:
            return days, path
    return None
