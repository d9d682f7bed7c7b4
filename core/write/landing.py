"""Where a new document lands: its text, the section index it may need, and its index entry.

A ``Landing`` plans, in memory, every file one new document brings with it: the document, a section
index created on first use (and its entry in the root index), and the entry that registers the
document in its nearest index, each written in the index's own shape and line endings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from memorybank.core import clock, yamlio
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.sections import BY_DIRECTORY, EMPTY_REGISTRY, SECTIONS, section_for
from memorybank.core.templates import retitle
from memorybank.core.write.gates import GOVERNED_KEYS
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.register import register_line, register_section
from memorybank.core.write.transaction import Transaction

PREVIEW_LINES = 40
INBOX = "_inbox/"


def serialise(front: dict[str, Any], body: str) -> str:
    """A new document's text: the frontmatter block, then the body ending in one newline."""
    return f"---\n{yamlio.dump(front)}---\n{body.rstrip()}\n"


def now_stamp() -> str:
    return clock.stamp()


def supplied_body(title: str, text: str, warnings: list[str]) -> str:
    """A caller's body under the document's title; an H1 it already has is retitled, not doubled,
    and a warning names the heading it replaced when that said something else."""
    stripped = text.strip()
    first = stripped.split("\n", 1)[0]
    if first.startswith("# "):
        own = first[2:].strip()
        if own != title.strip():
            warnings.append(f'The body\'s heading "# {own}" became "# {title}": a document\'s H1 is its title.')
        return retitle(stripped, title)
    return f"# {title}\n\n{stripped}"


INDEX_NAMES = ("README.md", "index.md")
"""What a folder's index is called, first found first: banks use either."""


def folder_index(bank: Bank, directory: str) -> str | None:
    """The index document of a folder: its ``README.md``, else its ``index.md``, else a document
    right in it whose ``doc_function`` is ``index``; None when it has none."""
    prefix = f"{directory}/" if directory else ""
    for name in INDEX_NAMES:
        if prefix + name in bank:
            return prefix + name
    for path, doc in bank.documents.items():
        if path.startswith(prefix) and "/" not in path[len(prefix) :] and doc.is_index:
            return path
    return None


def refuse_second_index(bank: Bank, target: str) -> None:
    """Refuse a new ``README.md`` or ``index.md`` in a folder that has its index already: the new file
    would take over the folder's navigation (the bank's entry point, at its root), and what the old
    index lists would no longer be reachable."""
    directory, _, name = target.rpartition("/")
    if name.casefold() not in {index.casefold() for index in INDEX_NAMES}:  # Readme.md is GitHub's too
        return
    existing = folder_index(bank, directory)
    if existing is not None and existing != target:
        where = f"{directory}/" if directory else "the bank's root"
        raise Refusal(
            f"{where} already has its index, {existing}; a {name} beside it would take over its navigation. "
            f"Add to {existing} instead, or give the new document another name.",
            reason="second-index",
        )


@dataclass
class Landing:
    """Files one create or promote will write, built up in memory."""

    bank: Bank
    target: str
    warnings: list[str]
    tx: Transaction
    planned_text: dict[str, str] = field(default_factory=dict)
    """New or changed index texts (LF), by path, before encoding."""
    registered_in: list[str] = field(default_factory=list)

    def section_index(self, dry_run: bool) -> None:
        """Plan the index of a known section that does not exist yet."""
        spec = section_for(self.target)
        if spec is None or self.target.startswith(INBOX):
            return
        index = f"{spec.directory}/README.md"
        if folder_index(self.bank, spec.directory) or (self.bank.root / index).exists():
            return  # the folder has its index, whatever the bank calls it
        verb = "would be created" if dry_run else "was created"
        tense = "does not exist yet" if dry_run else "did not exist yet"
        text = section_index_text(spec.directory)
        present = self._present(spec.directory)
        titles = Counter(self.bank.documents[path].title for path in present)
        for path in present:  # the folder's documents so far are registered too, in path order
            doc = self.bank.documents[path]
            name = path.rsplit("/", 1)[-1]
            label = f"{doc.title} ({name})" if doc.title and titles[doc.title] > 1 else doc.title or name
            if doc.status in ("archived", "deprecated", "superseded"):  # listed, but not as current
                label = f"{label} ({doc.status})"
            text = register_line(text, index, path, label, doc.purpose, doc.status)
        also = f", with the {len(present)} already in the folder" if present else ""
        self.planned_text[index] = text
        top = folder_index(self.bank, "")
        if top is not None:
            root = self.planned_text.get(top) or RawDoc.load(self.bank.root, top).text
            listed = register_section(root, spec.directory, spec.route, known={s.directory for s in SECTIONS})
            if listed != root:
                self.planned_text[top] = listed
                also += f"; {top} {'would list' if dry_run else 'lists'} it"
        self.warnings.append(f'Section "{index}" {tense} and {verb} to register this document{also}.')

    def _present(self, directory: str) -> list[str]:
        """The documents already in a section's folder, in path order; a subfolder with its own
        index is listed by that index alone."""
        found = []
        indexes: dict[str, str | None] = {}
        for doc in self.bank:
            if not doc.path.startswith(f"{directory}/") or doc.is_template or doc.is_inbox:
                continue
            folder = doc.path.rsplit("/", 1)[0]
            while folder != directory:  # an index between the document and the section speaks for it
                if folder not in indexes:
                    indexes[folder] = folder_index(self.bank, folder)
                indexed = indexes[folder]
                if indexed is not None and indexed != doc.path:
                    break
                folder = folder.rsplit("/", 1)[0]
            else:
                found.append(doc.path)
        return sorted(found)

    def nearest_index(self) -> str | None:
        directory = self.target.rsplit("/", 1)[0] if "/" in self.target else ""
        while True:
            planned = f"{directory}/README.md" if directory else "README.md"
            candidate = planned if planned in self.planned_text else folder_index(self.bank, directory)
            if candidate is not None and candidate != self.target:
                return candidate
            if not directory:
                return None
            directory = directory.rsplit("/", 1)[0] if "/" in directory else ""

    def register(self, title: str, purpose: str, status: str = "") -> None:
        index = self.nearest_index()
        if index is None:
            self.warnings.append("No index found to register this document in; navigation will not reach it.")
            return
        current = self.planned_text.get(index)
        if current is None:
            current = RawDoc.load(self.bank.root, index).text
        self.planned_text[index] = register_line(current, index, self.target, title, purpose, status)
        self.registered_in.append(index)

    def stage(self, document_text: str) -> None:
        """Queue the document first, then every index it changes, each in its file's own style."""
        self.tx.write(self.target, document_text.encode("utf-8"))
        for path, text in self.planned_text.items():
            if path in self.bank:
                self.tx.write(path, RawDoc.load(self.bank.root, path).encode(text))
            else:
                self.tx.write(path, text.encode("utf-8"))


def governed_frontmatter(
    *,
    title: str,
    doc_kind: str,
    doc_function: str,
    purpose: str,
    derived_from: list[str],
    canonical_for: list[str],
    must_not_define: list[str],
    status: str,
    inherited: dict[str, Any],
) -> dict[str, Any]:
    """A new document's frontmatter in the order people read it: the governed keys first, then
    what its template adds (never a governed key)."""
    front: dict[str, Any] = {"title": title}
    if doc_kind:
        front["doc_kind"] = doc_kind
    front["doc_function"] = doc_function
    front["purpose"] = purpose
    if derived_from:
        front["derived_from"] = derived_from
    if canonical_for:
        front["canonical_for"] = canonical_for
    if must_not_define:
        front["must_not_define"] = must_not_define
    front["status"] = status
    for key, value in inherited.items():
        if key not in front and key not in GOVERNED_KEYS:
            front[key] = value
    return front


def section_index_text(directory: str) -> str:
    """The index a section starts with: governed frontmatter, its route line, an empty registry."""
    spec = BY_DIRECTORY[directory]
    front = {
        "title": spec.title,
        "doc_kind": spec.doc_kind,
        "doc_function": "index",
        "purpose": f"Registry of the {directory} section. {spec.route}",
        "derived_from": ["../dna/governance.md"],
        "status": "active",
        "audience": "humans_and_agents",
    }
    return serialise(front, f"# {spec.title}\n\n{spec.route}\n\n## Registry\n\n{EMPTY_REGISTRY}")
