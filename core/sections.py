"""The sections a bank is organised in: their directories, index titles, kinds and route lines.

Eight are seeded by ``init``; ``epics``, ``prd`` and ``prompts`` are created the first time a
document lands in them (with their index and an entry in the root index), because most banks never
need them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SectionSpec:
    directory: str
    doc_kind: str
    """``doc_kind`` of the section's index (and of the documents usually created there)."""
    title: str
    route: str
    """One sentence saying when to read the section; used in the root index."""
    seeded: bool


SECTIONS: tuple[SectionSpec, ...] = (
    SectionSpec(
        "product",
        "product",
        "Product Documentation Index",
        "Read when you need what the product is, who it serves and its constraints.",
        True,
    ),
    SectionSpec(
        "domain",
        "domain",
        "Domain Documentation Index",
        "Read when you need the business rules, the model and its invariants.",
        True,
    ),
    SectionSpec(
        "engineering",
        "engineering",
        "Engineering Documentation Index",
        "Read when you need the architecture, conventions and the testing policy.",
        True,
    ),
    SectionSpec(
        "ops",
        "ops",
        "Operations Documentation Index",
        "Read when you need how the system is deployed, configured and kept running.",
        True,
    ),
    SectionSpec(
        "adr",
        "adr",
        "Decision Records Index",
        "Read when you need why something was decided and what was rejected.",
        True,
    ),
    SectionSpec(
        "use-cases",
        "use_case",
        "Use Cases Index",
        "Read when you need how people use the product, scenario by scenario.",
        True,
    ),
    SectionSpec(
        "features",
        "feature",
        "Feature Registry",
        "Read when you need what is being delivered, feature by feature.",
        True,
    ),
    SectionSpec(
        "epics", "epic", "Epic Registry", "Read when you need the large initiatives that group several features.", False
    ),
    SectionSpec(
        "prd", "prd", "PRD Registry", "Read when you need the product requirements behind a body of work.", False
    ),
    SectionSpec(
        "processes", "process", "Process Registry", "Read when you need a repeatable procedure the team follows.", True
    ),
    SectionSpec(
        "prompts",
        "prompt",
        "Prompt Registry",
        "Read when you need a reusable prompt and how it is meant to be run.",
        False,
    ),
)

BY_DIRECTORY: dict[str, SectionSpec] = {s.directory: s for s in SECTIONS}

EMPTY_REGISTRY = "Empty. A first document of this kind is registered here."
"""The line a new section index carries until its first document is registered."""


def section_for(path: str) -> SectionSpec | None:
    """The known section a bank path falls in (by its first directory), if any."""
    head, sep, _ = path.partition("/")
    return BY_DIRECTORY.get(head) if sep else None
