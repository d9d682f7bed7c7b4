"""The bank as a map an agent can afford to read first, and its sections listed a page at a time.

The map says what each section holds (its index's purpose), how many documents it has and of what
kinds, which document is the entrypoint, which are the roots of ``derived_from``, which documents
own the most ``canonical_for`` keys, and how to go further (``bank_route`` for a question, a
section's page for its list). It stays small on any bank: per-section lines, not per-document
ones; the full listing is ``section_page``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.model import Document

PURPOSE_CHARS = 110
"""A purpose in the map is cut to this many characters (an ellipsis marks the cut)."""
LISTING_PURPOSE_CHARS = 160
PAGE_SIZE = 40
TOP_OWNERS = 8
TOP_KINDS = 3


def cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


@dataclass(frozen=True, slots=True)
class SectionSummary:
    """One top-level directory of the bank."""

    section: str
    documents: int
    index: str | None = None
    """The section's index document (``README.md`` or ``index.md``), when it has one."""
    holds: str = ""
    """What the section holds: its index's purpose (or title), cut."""
    kinds: dict[str, int] = field(default_factory=dict)
    """The most common ``doc_kind`` values and their counts."""


@dataclass(frozen=True, slots=True)
class RootDocument:
    """A document at the top of the bank, outside every section."""

    path: str
    title: str
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class Owner:
    """A document owning ``canonical_for`` keys."""

    path: str
    keys: int
    examples: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class BankMap:
    """The first read: the bank's shape, in per-section lines."""

    root: str
    documents: int
    entrypoint: str | None
    roots: list[str]
    """The ``derived_from`` roots the contract declares."""
    sections: list[SectionSummary]
    top: list[RootDocument]
    owners: list[Owner]
    """The documents owning the most ``canonical_for`` keys, most first."""
    keys: int
    """How many ``canonical_for`` keys the bank has in all."""
    contract: bool
    inbox: int
    """Notes waiting in ``_inbox/`` (outside routing until the owner moves them)."""
    further: str


@dataclass(frozen=True, slots=True)
class ListedDocument:
    path: str
    title: str
    purpose: str
    doc_kind: str
    status: str
    canonical_for: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SectionPage:
    """One page of a section's documents, in path order."""

    section: str
    documents: int
    page: int
    pages: int
    entries: list[ListedDocument]
    next: str | None = None
    """The resource holding the next page."""


def _section_of(doc: Document) -> str | None:
    head, sep, _ = doc.path.partition("/")
    return head if sep else None


def _section_index(bank: Bank, section: str) -> Document | None:
    for name in ("README.md", "index.md"):
        doc = bank.documents.get(f"{section}/{name}")
        if doc is not None:
            return doc
    return None


def bank_map(bank: Bank, *, uri: str = "memorybank://index") -> BankMap:
    """The map of ``bank`` (see the module docstring). ``uri`` names the paged listings."""
    members: dict[str, list[Document]] = {}
    top: list[RootDocument] = []
    entry = bank.derived.entrypoint
    inbox = 0
    for doc in bank:
        if doc.is_inbox and doc.path.rsplit("/", 1)[-1] != "README.md":
            inbox += 1
        if not doc.is_placed:
            continue
        section = _section_of(doc)
        if section is None:
            if doc.path != entry:
                top.append(RootDocument(doc.path, doc.title, cut(doc.purpose, PURPOSE_CHARS)))
            continue
        members.setdefault(section, []).append(doc)
    sections = []
    for section, docs in members.items():
        index = _section_index(bank, section)
        holds = (index.purpose or index.title) if index is not None else ""
        kinds = Counter(d.doc_kind for d in docs if d.doc_kind)
        sections.append(
            SectionSummary(
                section=section,
                documents=len(docs),
                index=index.path if index is not None else None,
                holds=cut(holds, PURPOSE_CHARS),
                kinds=dict(kinds.most_common(TOP_KINDS)),
            )
        )
    owned: dict[str, list[str]] = {}
    for key, owners in bank.derived.owners.items():
        for path in dict.fromkeys(owners):
            owned.setdefault(path, []).append(key)
    ranked = sorted(owned.items(), key=lambda item: (-len(item[1]), item[0]))[:TOP_OWNERS]
    return BankMap(
        root=str(bank.root),
        documents=sum(len(d) for d in members.values()) + len(top) + (1 if entry else 0),
        entrypoint=entry,
        roots=sorted(bank.contract.roots),
        sections=sections,
        top=top,
        owners=[Owner(path, len(keys), keys[:2]) for path, keys in ranked],
        keys=len(bank.derived.owners),
        contract=bank.contract.present,
        inbox=inbox,
        further=(
            f"bank_route answers which document holds a fact (canonical_for ranks first); {uri}/SECTION lists "
            "a section's documents a page at a time; bank_read reads by ## section or lines."
        ),
    )


def section_page(bank: Bank, section: str, page: int = 1, *, uri: str = "memorybank://index") -> SectionPage:
    """One page of the documents of a top-level section. Raises ``UsageError`` for an unknown
    section or a page past the end."""
    name = section.strip().strip("/")
    docs = [d for d in bank if d.is_placed and _section_of(d) == name]
    if not docs:
        known = sorted({s for d in bank if d.is_placed and (s := _section_of(d)) is not None})
        raise UsageError(f'No section "{section}" in this bank. Sections: {", ".join(known) or "none"}.')
    pages = (len(docs) + PAGE_SIZE - 1) // PAGE_SIZE
    if page < 1 or page > pages:
        raise UsageError(f'Section "{name}" has {pages} page(s) of {PAGE_SIZE}; there is no page {page}.')
    chosen = docs[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    entries = [
        ListedDocument(
            d.path, d.title, cut(d.purpose, LISTING_PURPOSE_CHARS), d.doc_kind, d.status, list(d.canonical_for)
        )
        for d in chosen
    ]
    following = f"{uri}/{name}?page={page + 1}" if page < pages else None
    return SectionPage(name, len(docs), page, pages, entries, following)
