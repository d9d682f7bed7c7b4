"""The plain values the core speaks in: documents, sections, edges, links, the contract.

Everything here is a frozen dataclass built once at the parse edge. Surfaces read these values;
they never parse markdown or YAML themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The layer names live apart, so the workbench's first frame can list them without this module.
from memorybank.core.layer_names import LAYERS as LAYERS

ROUTE_CHECKS = "dna/route-checks.md"
"""The bank's own routing questions (``core.evaluate``): its body quotes every question beside the
document expected to answer it, so routing takes no evidence from it."""


@dataclass(frozen=True, slots=True)
class Section:
    """One ``##`` heading of a document and the lines it spans."""

    title: str
    """Heading text, trailing whitespace trimmed."""
    line: int
    """1-based line of the heading in the raw file (frontmatter included)."""
    end_line: int
    """Last line of the section: the line before the next heading of its level or above, or the
    last line of the file."""
    level: int = 2
    """Its heading's level: 2 for the sections a document lists, 3 or 4 for those found inside them
    (``core.parse.subsections``) when a caller names one."""


@dataclass(frozen=True, slots=True)
class Edge:
    """One ``derived_from`` entry of a document."""

    raw: str
    """The target exactly as written."""
    resolved: str | None
    """Bank-relative POSIX path of the target, or None when external or empty."""
    external: bool = False
    """True when the target leaves the bank (``../..`` past the root, a URL, an outside path)."""
    fit: str | None = None
    """The ``fit`` note of the ``{path, fit}`` form."""


@dataclass(frozen=True, slots=True)
class Link:
    """One markdown link in a document body, outside fenced code."""

    raw: str
    """The link target as written."""
    line: int
    """1-based line in the raw file."""
    resolved: str | None
    """Bank-relative path the target points at (``#anchor`` dropped), or None when the link is a
    URL, a pure anchor, absolute, or climbs out of the bank."""
    label: str = ""


@dataclass(frozen=True, slots=True)
class Document:
    """One markdown file of the bank, as parsed from disk."""

    path: str
    """Bank-relative POSIX path."""
    title: str
    doc_kind: str = ""
    doc_function: str = ""
    purpose: str = ""
    status: str = ""
    delivery_status: str = ""
    decision_status: str = ""
    layer: str = "other"
    derived_from: tuple[Edge, ...] = ()
    canonical_for: tuple[str, ...] = ()
    must_not_define: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()
    links: tuple[Link, ...] = ()
    frontmatter: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """The parsed frontmatter mapping (recovered leniently when the YAML does not parse)."""
    has_frontmatter: bool = False
    parse_error: str | None = None
    """First line of the YAML error when the frontmatter did not parse."""
    body_line: int = 1
    """1-based line of the raw file where the body starts."""
    line_count: int = 0
    size: int = 0
    """Bytes on disk."""
    mtime: float = 0.0
    """Modification time in seconds since the epoch."""
    bom: bool = False
    crlf: bool = False
    decode_error: bool = False
    """True when the file held bytes that are not UTF-8 (they were replaced for reading)."""

    @property
    def is_template(self) -> bool:
        """``doc_function: template``, or a document under ``flows/templates/`` that is not its
        index: where the convention keeps templates, whatever function a copied one still declares
        (an ADR template saying ``canonical`` is still placeholders, not a decision)."""
        if self.doc_function == "template":
            return True
        return (
            self.path.startswith("flows/templates/")
            and self.doc_function != "index"
            and not self.path.endswith("/README.md")
        )

    @property
    def is_index(self) -> bool:
        """An index document: ``doc_function: index`` or a ``README.md``, never a template."""
        if self.is_template:
            return False
        return self.doc_function == "index" or self.path == "README.md" or self.path.endswith("/README.md")

    @property
    def is_inbox(self) -> bool:
        return self.layer == "inbox"

    @property
    def is_placed(self) -> bool:
        """A document of the bank proper, as its counts go: neither a template nor a note waiting in
        ``_inbox/``."""
        return not (self.is_template or self.is_inbox)

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self.frontmatter)


@dataclass(frozen=True, slots=True)
class LayerRow:
    """A row of a declared ``Directory | Layer | Weight`` table that names an unknown layer."""

    directory: str
    layer: str
    source: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class LayerMap:
    """The effective directory-to-layer map and per-layer routing weights."""

    by_dir: dict[str, str]
    weights: dict[str, float]
    declared: dict[str, str] = field(default_factory=dict)
    """Only the rows a bank declared in ``dna/`` (empty when it declares none)."""
    unknown: tuple[LayerRow, ...] = ()
    source: tuple[str, ...] = ()

    def layer_of(self, path: str) -> str:
        head, sep, _ = path.partition("/")
        if not sep or not head:
            return "other"
        return self.by_dir.get(head, "other")


@dataclass(frozen=True, slots=True)
class Contract:
    """What the bank's ``dna/`` declares about its own documents."""

    present: bool
    source: tuple[str, ...] = ()
    doc_kinds: frozenset[str] = frozenset()
    doc_functions: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    delivery_statuses: frozenset[str] = frozenset()
    decision_statuses: frozenset[str] = frozenset()
    roots: frozenset[str] = frozenset()
    requires_derived_from: bool = False
    forbids_cycles: bool = False
    stale_after_days: int | None = None
    """Days without a commit after which a live document counts as stale, when a sentence says so."""
    stale_after_source: str | None = None
    """The ``dna/`` document whose sentence set ``stale_after_days``."""

    def values_for(self, field_name: str) -> frozenset[str]:
        return {
            "doc_kind": self.doc_kinds,
            "doc_function": self.doc_functions,
            "status": self.statuses,
            "delivery_status": self.delivery_statuses,
            "decision_status": self.decision_statuses,
        }.get(field_name, frozenset())


@dataclass(frozen=True, slots=True)
class RefreshReport:
    """What one refresh found on disk."""

    added: int
    changed: int
    removed: int
    duration_ms: float


# -- routing answers -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Where a route score came from, for the TUI's explain view."""

    canonical: float = 0.0
    canonical_key: str | None = None
    purpose: float = 0.0
    purpose_words: tuple[str, ...] = ()
    title: float = 0.0
    title_words: tuple[str, ...] = ()
    heading: float = 0.0
    body: float = 0.0
    """Points the body evidence added to the score, after the header multipliers."""
    body_words: tuple[str, ...] = ()
    raw: float = 0.0
    """Sum of the header field contributions, before the multipliers."""
    layer_weight: float = 1.0
    """The bank's weight for the layer, with the "why" adjustment applied."""
    status_weight: float = 1.0
    closed_work: float = 1.0
    section: float = 0.0
    """Points the best section added: BM25 over the document's sections, the best one counting."""
    intent: float = 1.0
    """The question asks for the kind of answer this document gives (why, how, status)."""
    family: float = 0.0
    """Header points lent by its package folder's best header match (added to its own, after the
    multipliers): the member's body may answer what its family's headers name."""
    draft_of: str | None = None
    """The working copy this document is a draft of: a near copy of it, or named a version or a
    review of it (counted at a lower weight; see ``core.drafts``)."""
    linked: float = 0.0
    """Points from what other documents write around their links to this one (``core.linked``)."""
    linked_words: tuple[str, ...] = ()
    together: float = 1.0
    """The share of the question's consecutive word pairs its body holds side by side, as a factor
    (``core.proximity``)."""
    named: bool = False
    """The question names this document by its identifier or path (``core.named``): it leads."""
    place: int = 0
    """The number the question named this document by in its numbered series ("the second plan
    review", ``core.series``): it takes its series' best score, raised; 0 when none."""
    place_last: bool = False
    """The question named it as the last of its series ("the last code review")."""
    place_package: bool = False
    """Its lift came from its package's best document, not its series' (``core.series``)."""
    heading_section: str | None = None
    """The heading whose words scored ``heading`` (None when none did): not always the section to
    read, which the body's best section decides when there is one."""


@dataclass(frozen=True, slots=True)
class RouteHit:
    """One document that answers the question."""

    path: str
    title: str
    purpose: str
    doc_kind: str
    layer: str
    status: str
    score: float
    why: str
    """What matched, in words: the owned key, the purpose and title words, the section, the body."""
    section: str | None
    """The heading of the section to start reading: a ``##`` one, or a ``###``/``####`` one where no
    ``##`` heading holds the best passage (``section_level`` says which)."""
    section_line: int | None
    breakdown: ScoreBreakdown
    copies: tuple[str, ...] = ()
    """Other paths holding byte for byte the same file, folded into this hit (``core.duplicates``)."""
    progress: str = ""
    """The document's ``delivery_status`` or ``decision_status`` (``in_progress``, ``done``,
    ``accepted``), when it declares one: what a status question asks, which ``status`` does not say."""
    section_level: int = 2
    """The level of ``section``'s heading: 2, or 3 or 4 for a step of a plan under no ``##`` heading."""


@dataclass(frozen=True, slots=True)
class RouteResult:
    """The answer to one question: the hits best first, or a hint when there are none."""

    question: str
    hits: tuple[RouteHit, ...] = ()
    why_intent: bool = False
    """The question asks for a rationale: decision records were favoured."""
    hint: str | None = None
