"""Creating a document: gates, template, frontmatter, registration, and lazily created sections.

Everything is computed in memory first; only when every gate has passed does one transaction land
the document, any new section index, and the index entries. A refused create writes nothing, not
even the section index it would have needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import clock, yamlio
from core.bank import Bank
from core.errors import Refusal
from core.parse import jsonable
from core.sections import BY_DIRECTORY, EMPTY_REGISTRY, SECTIONS, section_for
from core.templates import find_template, retitle, template_fields, unwrap
from core.write import firewall
from core.write.gates import (
    GOVERNED_KEYS,
    check_governance,
    check_target,
    content_from,
    content_warnings,
    require,
    write_session,
)
from core.write.rawdoc import RawDoc
from core.write.register import register_line, register_section
from core.write.transaction import Transaction

PREVIEW_LINES = 40
INBOX = "_inbox/"


@dataclass(frozen=True, slots=True)
class CreateResult:
    path: str
    created: bool
    dry_run: bool
    frontmatter: dict[str, Any]
    template: str | None
    registered_in: list[str]
    warnings: list[str] = field(default_factory=list)
    preview: str = ""


def serialise(front: dict[str, Any], body: str) -> str:
    """A new document's text: the frontmatter block, then the body ending in one newline."""
    return f"---\n{yamlio.dump(front)}---\n{body.rstrip()}\n"


def now_stamp() -> str:
    return clock.stamp()


def supplied_body(title: str, text: str) -> str:
    """A caller's body under the document's title; an H1 it already has is retitled, not doubled."""
    stripped = text.strip()
    first = stripped.split("\n", 1)[0]
    if first.startswith("# "):
        return retitle(stripped, title)
    return f"# {title}\n\n{stripped}"


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
        if index in self.bank or (self.bank.root / index).exists():
            return
        verb = "would be created" if dry_run else "was created"
        tense = "does not exist yet" if dry_run else "did not exist yet"
        self.warnings.append(f'Section "{index}" {tense} and {verb} to register this document.')
        self.planned_text[index] = section_index_text(spec.directory)
        if "README.md" in self.bank:
            root = self.planned_text.get("README.md") or RawDoc.load(self.bank.root, "README.md").text
            self.planned_text["README.md"] = register_section(
                root, spec.directory, spec.route, known={s.directory for s in SECTIONS}
            )

    def nearest_index(self) -> str | None:
        directory = self.target.rsplit("/", 1)[0] if "/" in self.target else ""
        while True:
            candidate = f"{directory}/README.md" if directory else "README.md"
            if candidate != self.target and (candidate in self.bank or candidate in self.planned_text):
                return candidate
            if not directory:
                return None
            directory = directory.rsplit("/", 1)[0] if "/" in directory else ""

    def register(self, title: str, purpose: str) -> None:
        index = self.nearest_index()
        if index is None:
            self.warnings.append("No index found to register this document in; navigation will not reach it.")
            return
        current = self.planned_text.get(index)
        if current is None:
            current = RawDoc.load(self.bank.root, index).text
        self.planned_text[index] = register_line(current, index, self.target, title, purpose)
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


def _clean_extra(extra: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (extra or {}).items():
        key = str(key)
        if key in GOVERNED_KEYS:
            raise Refusal(
                f"`extra` cannot set {key}: it has its own parameter, and the gates run on that one.",
                reason="governed-field",
            )
        if not key.replace("_", "a").replace("-", "a").isalnum() or not (key[0].isalpha() or key[0] == "_"):
            raise Refusal(f'"{key}" is not a frontmatter key.', reason="bad-key")
        out[key] = value
    return out


def create(
    bank: Bank,
    *,
    path: str,
    title: str,
    purpose: str,
    doc_kind: str = "",
    derived_from: list[str] | None = None,
    canonical_for: list[str] | None = None,
    must_not_define: list[str] | None = None,
    status: str | None = None,
    body: str | None = None,
    body_file: str | None = None,
    extra: dict[str, Any] | None = None,
    inbox: bool = False,
    dry_run: bool = False,
    client: str | None = None,
    cwd: Path | None = None,
) -> CreateResult:
    """Create one governed document and register it, or refuse and write nothing.

    Raises:
        Refusal: a gate refused (the message names why; nothing was written).
        PathRefused: the path leaves the bank.
    """
    title = require(title, "`title` is required.")
    purpose = require(purpose, "`purpose` is required: it is the signal bank_route ranks on.")
    derived = [d.strip() for d in derived_from or [] if d and d.strip()]
    keys = [k.strip() for k in canonical_for or [] if k and k.strip()]
    forbidden = [k.strip() for k in must_not_define or [] if k and k.strip()]
    doc_kind = (doc_kind or "").strip()
    extras = _clean_extra(extra)
    with write_session(bank):
        target = bank.resolve(path)
        if inbox or target.startswith(INBOX):
            inbox = True
            if not target.startswith(INBOX):
                target = INBOX + target.rsplit("/", 1)[-1]
        check_target(bank, target, path)
        if not inbox and not doc_kind:
            raise Refusal("`docKind` is required: it chooses the template and the section.", reason="required")
        chosen_status = "draft" if inbox else (status or "draft").strip()
        supplied = content_from(body, body_file, "body", cwd=cwd)
        template = None if inbox else find_template(bank, doc_kind, target)
        instance = unwrap(template.text) if template else None
        inherited: dict[str, Any] = {}
        warnings: list[str] = []
        if instance is not None:
            inherited, placeholder_warnings = template_fields(instance, placeholders="warn")
            warnings += instance.warnings
            if not forbidden and isinstance(inherited.get("must_not_define"), list):
                forbidden = [str(k) for k in inherited["must_not_define"]]
        warnings = (
            check_governance(
                bank,
                target,
                status=chosen_status,
                doc_kind=doc_kind,
                derived_from=derived,
                canonical_for=keys,
                must_not_define=forbidden,
            )
            + warnings
        )
        if instance is not None:
            warnings += placeholder_warnings
        elif not inbox:
            warnings.append(f'No template matched doc_kind "{doc_kind}"; wrote a minimal document instead.')
        if supplied is not None and supplied.strip():
            text_body = supplied_body(title, supplied)
            if instance is not None:
                warnings.append(f"Body supplied, so the prose of {template.path} was not used.")  # type: ignore[union-attr]
        elif instance is not None and instance.body.strip():
            text_body = retitle(instance.body, title)
        else:
            text_body = f"# {title}\n"
        doc_function = "canonical"
        if (
            instance is not None
            and isinstance(inherited.get("doc_function"), str)
            and inherited["doc_function"] not in ("template", "")
        ):
            doc_function = inherited["doc_function"]
        front = governed_frontmatter(
            title=title,
            doc_kind=doc_kind,
            doc_function=doc_function,
            purpose=purpose,
            derived_from=derived,
            canonical_for=keys,
            must_not_define=forbidden,
            status=chosen_status,
            inherited=inherited,
        )
        front.update(extras)
        if inbox:
            front["captured_at"] = now_stamp()
            front["captured_by"] = client or "unknown"
        text = serialise(front, text_body)
        firewall.check(text, target)
        landing = Landing(bank=bank, target=target, warnings=warnings, tx=Transaction(bank.root))
        if not inbox:
            landing.section_index(dry_run)
            landing.register(title, purpose)
        landing.warnings.extend(content_warnings(bank, target, text))
        result = CreateResult(
            path=target,
            created=not dry_run,
            dry_run=dry_run,
            frontmatter=jsonable(front),
            template=template.path if template else None,
            registered_in=landing.registered_in,
            warnings=landing.warnings,
            preview="\n".join(text.split("\n")[:PREVIEW_LINES]),
        )
        if dry_run:
            return result
        landing.stage(text)
        landing.tx.commit()
        bank.refresh()
        return result
