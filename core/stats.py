"""A bank at a glance: counts of documents, the contract, layers, edges, keys, links and defects."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.validate.locate import parse_error_line, without_line


@dataclass(frozen=True, slots=True)
class KeyConflict:
    key: str
    owners: list[str]


@dataclass(frozen=True, slots=True)
class ParseProblem:
    path: str
    error: str
    line: int = 1
    """The file's line (the parser counts from the frontmatter block's start), as validate gives it."""


@dataclass(frozen=True, slots=True)
class ContractSummary:
    present: bool
    source: list[str]
    doc_kinds: list[str]
    doc_functions: list[str]
    statuses: list[str]
    delivery_statuses: list[str]
    decision_statuses: list[str]
    roots: list[str]
    requires_derived_from: bool
    forbids_cycles: bool
    declared_layers: dict[str, str]
    unknown_layers: list[str]


@dataclass(frozen=True, slots=True)
class EdgeCounts:
    total: int
    internal: int
    with_fit: int
    external: int
    broken: int
    documents_with_edges: int


@dataclass(frozen=True, slots=True)
class Stats:
    root: str
    documents: int
    bytes: int
    index_ms: float
    contract: ContractSummary
    edges: EdgeCounts
    canonical_keys: int
    conflicts: list[KeyConflict]
    index_documents: int
    index_links: int
    parse_errors: list[ParseProblem]
    without_frontmatter: list[str]
    by_layer: dict[str, int]
    by_kind: dict[str, int]
    by_function: dict[str, int]
    templates: int
    inbox: int
    encoding: dict[str, list[str]] = field(default_factory=dict)
    """Paths with a BOM, with CRLF line endings, and with bytes that are not UTF-8."""
    unreadable: list[str] = field(default_factory=list)
    """Files and folders (``dir/``) of the bank it could not read: not counted among the documents."""


def _problem(path: str, body_line: int, error: str) -> ParseProblem:
    return ParseProblem(path, without_line(error), parse_error_line(body_line, error))


def _ranked(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def bank_stats(bank: Bank, index_ms: float = 0.0) -> Stats:
    """Summarise an indexed bank (call ``bank.refresh()`` first)."""
    docs = list(bank)
    contract = bank.contract
    layers = bank.layers
    total = internal = fit = external = broken = with_edges = 0
    for doc in docs:
        if doc.derived_from:
            with_edges += 1
        for edge in doc.derived_from:
            total += 1
            if edge.fit:
                fit += 1
            if edge.external:
                external += 1
            elif edge.resolved is not None:
                if edge.resolved in bank:
                    internal += 1
                else:
                    broken += 1
    owners = bank.derived.owners
    return Stats(
        root=str(bank.root),
        documents=len(docs),
        bytes=sum(d.size for d in docs),
        index_ms=round(index_ms, 1),
        contract=ContractSummary(
            present=contract.present,
            source=list(contract.source),
            doc_kinds=sorted(contract.doc_kinds),
            doc_functions=sorted(contract.doc_functions),
            statuses=sorted(contract.statuses),
            delivery_statuses=sorted(contract.delivery_statuses),
            decision_statuses=sorted(contract.decision_statuses),
            roots=sorted(contract.roots),
            requires_derived_from=contract.requires_derived_from,
            forbids_cycles=contract.forbids_cycles,
            declared_layers=dict(layers.declared),
            unknown_layers=[f"{row.directory} -> {row.layer} ({row.source})" for row in layers.unknown],
        ),
        edges=EdgeCounts(total, internal, fit, external, broken, with_edges),
        canonical_keys=len(owners),
        conflicts=[KeyConflict(key, list(paths)) for key, paths in sorted(owners.items()) if len(paths) > 1],
        index_documents=sum(1 for d in docs if d.is_index),
        index_links=len(bank.derived.index_links),
        parse_errors=[_problem(d.path, d.body_line, d.parse_error) for d in docs if d.parse_error],
        without_frontmatter=[d.path for d in docs if not d.has_frontmatter],
        by_layer=_ranked(Counter(d.layer for d in docs)),
        by_kind=_ranked(Counter(d.doc_kind or "(none)" for d in docs)),
        by_function=_ranked(Counter(d.doc_function or "(none)" for d in docs)),
        templates=sum(1 for d in docs if d.is_template),
        inbox=sum(1 for d in docs if d.is_inbox),
        encoding={
            "bom": [d.path for d in docs if d.bom],
            "crlf": [d.path for d in docs if d.crlf],
            "not_utf8": [d.path for d in docs if d.decode_error],
        },
        unreadable=sorted(bank.unreadable),
    )
