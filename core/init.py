"""Seeding a new bank from the starter set, and taking ownership of the shipped templates.

``init`` writes 24 files: the eight ``dna/`` documents, the four prose flows, a pointer in
``flows/templates/`` (the templates stay in the package and are read from there), two drafts to fill
in first, eight section indexes and a root index naming the project. A fresh bank validates with
zero findings. ``materialize_flows`` copies the shipped templates into the bank for teams that mean
to change them; the bank's copies then win.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.index import walk
from memorybank.core.parse import parse_document
from memorybank.core.sections import SECTIONS
from memorybank.core.write.create import section_index_text, serialise
from memorybank.core.write.gates import require
from memorybank.core.write.lock import BankLock
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.register import register_line
from memorybank.core.write.transaction import Transaction

COPIED_TREES = ("dna", "product", "engineering")
FLOW_DOCS = ("README.md", "feature-flow.md", "epic-flow.md", "workflows.md")


def starter_dir() -> Path:
    from memorybank.starter import STARTER_DIR

    return STARTER_DIR


@dataclass(frozen=True, slots=True)
class InitResult:
    root: str
    created: bool
    dry_run: bool
    files: list[str]
    directories: list[str]
    warnings: list[str] = field(default_factory=list)


ROOT_PURPOSE = (
    "Entry point of the {name} memory bank: where each kind of knowledge lives and which document to read for a task."
)
"""The root index's purpose as ``init`` writes it: the one place the project's name is recorded in
the frontmatter (``recorded_name`` reads it back)."""


def recorded_name(bank: Bank) -> str | None:
    """The project's name as ``init`` recorded it in the root index's purpose, while that sentence
    is still as ``init`` wrote it; None for a bank seeded otherwise or whose purpose was reworded.

    Args:
        bank: the bank whose root ``README.md`` is read (from the index: no file is opened).
    """
    root = bank.documents.get("README.md")
    before, _, after = ROOT_PURPOSE.partition("{name}")
    purpose = root.purpose if root is not None else ""
    if not (purpose.startswith(before) and purpose.endswith(after)) or len(purpose) <= len(before) + len(after):
        return None
    name = purpose[len(before) : len(purpose) - len(after)].strip()
    return name if name and all(ch.isprintable() for ch in name) else None


def _root_index(name: str) -> str:
    front = {
        "title": "Documentation Index",
        "doc_kind": "project",
        "doc_function": "index",
        "purpose": ROOT_PURPOSE.format(name=name),
        "derived_from": ["dna/governance.md"],
        "status": "active",
        "audience": "humans_and_agents",
    }
    annotated = []
    for spec in SECTIONS:
        if spec.seeded:
            annotated += [f"- [`{spec.directory}/README.md`]({spec.directory}/README.md)", f"  {spec.route}"]
    annotated += [
        "- [`flows/README.md`](flows/README.md)",
        "  Read when you start a task: which flow fits it, and the templates documents are made from.",
        "- [`dna/README.md`](dna/README.md)",
        "  Read when you need the bank's own rules: ownership, the frontmatter contract, lifecycle.",
    ]
    body = "\n".join(
        [
            "# Documentation Index",
            "",
            f"**{name}**",
            "",
            "## Start Here",
            "",
            "Read [`dna/README.md`](dna/README.md) first: it says how this bank is governed. Then follow the",
            'section below that matches your question, or ask `memorybank route "your question"`.',
            "",
            "## Annotated Index",
            "",
            *annotated,
            "",
            "## Task-Specific Routes",
            "",
            "| Task | Read |",
            "|---|---|",
            "| Starting a feature | [Feature flow](flows/feature-flow.md) |",
            "| Recording a decision | [Decision records](adr/README.md) |",
            "| Choosing how much documentation a task needs | [Workflows](flows/workflows.md) |",
        ]
    )
    return serialise(front, body)


def _seeded_section(directory: str, starter: Path) -> str:
    text = section_index_text(directory)
    folder = starter / directory
    if not folder.is_dir():
        return text
    for file in sorted(folder.glob("*.md")):
        doc, _ = parse_document(f"{directory}/{file.name}", file.read_bytes())
        text = register_line(text, f"{directory}/README.md", doc.path, doc.title, doc.purpose)
        text = text.replace(f"- [{doc.title}]({file.name})", f"- [`{doc.title}`]({file.name})")
    return text


def _templates_pointer() -> str:
    front = {
        "title": "Document Templates",
        "doc_kind": "governance",
        "doc_function": "index",
        "purpose": "Where the document templates come from, and how a project takes them over to change them.",
        "derived_from": ["../../dna/governance.md"],
        "status": "active",
        "audience": "humans_and_agents",
    }
    body = "\n".join(
        [
            "# Document Templates",
            "",
            "The templates that `bank_create` and `memorybank create` fill in (decision records, feature",
            "briefs and designs, epics, processes, prompts, use cases) ship with memorybank and are read from",
            "the installed package. This folder holds no copies, so a template improved in a new release",
            "reaches this bank without a merge.",
            "",
            "The flows say when each template is used: [feature flow](../feature-flow.md),",
            "[epic flow](../epic-flow.md), [workflows](../workflows.md).",
            "",
            "## Why The Templates Are Not Copied",
            "",
            "A copied template is a fork: it drifts from the flows it serves and nobody merges the",
            "improvements. Most projects never change a template, so most projects should not carry one.",
            "",
            "## Taking Ownership",
            "",
            "To change the templates, copy them in with `memorybank materialize-flows` (or the",
            "`bank_materialize_flows` tool). From then on this folder holds the bank's own templates, they",
            "replace this page, and `bank_create` uses them instead of the shipped ones.",
        ]
    )
    return serialise(front, body)


def seed_files(name: str) -> dict[str, str]:
    """Every file of a new bank by path, as text."""
    starter = starter_dir()
    files: dict[str, str] = {}
    for tree in COPIED_TREES:
        for file in sorted((starter / tree).rglob("*.md")):
            files[file.relative_to(starter).as_posix()] = file.read_text(encoding="utf-8")
    for flow in FLOW_DOCS:
        files[f"flows/{flow}"] = (starter / "flows" / flow).read_text(encoding="utf-8")
    files["flows/templates/README.md"] = _templates_pointer()
    for spec in SECTIONS:
        if spec.seeded:
            files[f"{spec.directory}/README.md"] = _seeded_section(spec.directory, starter)
    files["README.md"] = _root_index(name)
    return dict(sorted(files.items()))


def init(root: str | os.PathLike[str], *, name: str, dry_run: bool = False, force: bool = False) -> InitResult:
    """Seed a bank at ``root`` for the project ``name``.

    Raises:
        Refusal: a blank name, or a root that already holds documents (unless ``force``), or a
            package whose starter set is missing.
    """
    name = require(name, "`name` is required: it goes into the root index.")
    path = Path(root).absolute()
    if not (starter_dir() / "dna").is_dir():
        raise Refusal(f"Starter set not found at {starter_dir()}. The package is incomplete.", reason="no-starter")
    warnings: list[str] = []
    # A dry run writes nothing, not even the lock (which would create the bank's folder).
    with contextlib.nullcontext() if dry_run else BankLock(path):
        existing = len(walk(path)) if path.is_dir() else 0
        if existing and not force:
            raise Refusal(
                f"This bank already holds {existing} document{'' if existing == 1 else 's'}. Refusing to seed over them; pass force: true to override.",
                reason="bank-exists",
            )
        files = seed_files(name)
        if existing:
            warnings.append(f"Seeding over {existing} existing documents.{_replaced(path, files, dry_run)}")
        directories = [s.directory for s in SECTIONS if s.seeded] + ["dna", "flows"]
        if not dry_run:
            tx = Transaction(path)
            for rel, text in files.items():
                tx.write(rel, text.encode("utf-8"))
            tx.commit()
    return InitResult(str(path), not dry_run, dry_run, list(files), directories, warnings)


def _replaced(path: Path, files: dict[str, str], dry_run: bool) -> str:
    """The existing files seeding rewrites with other text: the owner's edits it would lose."""
    differ = sorted(
        rel
        for rel, text in files.items()
        if (path / rel).is_file() and (path / rel).read_bytes() != text.encode("utf-8")
    )
    if not differ:
        return ""
    shown = ", ".join(differ[:10]) + (f" and {len(differ) - 10} more" if len(differ) > 10 else "")
    verb = "differs" if len(differ) == 1 else "differ"
    return f" {len(differ)} {verb} from the starter and {'would be' if dry_run else 'were'} replaced: {shown}."


@dataclass(frozen=True, slots=True)
class MaterializeResult:
    root: str
    files: list[str]
    warnings: list[str] = field(default_factory=list)


def materialize_flows(bank: Bank, *, force: bool = False, keep_edits: bool = False) -> MaterializeResult:
    """Copy the shipped templates into ``flows/templates/``; the bank owns them from then on.

    With ``keep_edits`` (an agent asking, not the owner) ``force`` still refuses to overwrite a
    template whose text differs from the shipped one: templates are the team's, edited by hand.
    """
    from memorybank.core.write.gates import write_session

    source = starter_dir() / "flows" / "templates"
    with write_session(bank):
        own = [p for p in bank.documents if p.startswith("flows/templates/") and p != "flows/templates/README.md"]
        if own and not force:
            raise Refusal(
                f"flows/templates/ already holds {len(own)} document{'' if len(own) == 1 else 's'} of its own. Refusing to overwrite them; pass force: true to override.",
                reason="templates-exist",
            )
        warnings = [f"Overwrote {len(own)} documents that flows/templates/ already held."] if own else []
        tx = Transaction(bank.root)
        files = []
        for file in sorted(source.rglob("*.md")):
            rel = "flows/templates/" + file.relative_to(source).as_posix()
            data = file.read_bytes()
            if rel in bank:
                data = RawDoc.load(bank.root, rel).encode(data.decode("utf-8"))
            tx.write(rel, data)
            files.append(rel)
        edited = (
            [c.path for c in tx.plan().changes if c.kind == "modify" and c.path != "flows/templates/README.md"]
            if keep_edits
            else []
        )
        if edited:
            raise Refusal(
                f"The team edited {len(edited)} templates ({', '.join(edited[:3])}{', ...' if len(edited) > 3 else ''}). "
                "Overwriting them is the owner's decision: they can run `memorybank materialize-flows --force`.",
                reason="templates-edited",
            )
        tx.commit()
        bank.refresh()
    return MaterializeResult(str(bank.root), files, warnings)
