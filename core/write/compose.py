"""Composing a new governed document: the one pipeline behind ``create`` and ``promote``.

Both end the same way: the template's fields are inherited, the governance gates run on the
values as they will be written, the frontmatter is composed in reading order, the text passes the
firewall, and a ``Landing`` plans the document with the section index it may need and its index
entry. Only what comes before differs (a caller's body, or a quarantined note's).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.templates import TemplateSource, find_template, template_fields, unwrap
from memorybank.core.write import firewall, values
from memorybank.core.write.gates import check_governance
from memorybank.core.write.landing import PREVIEW_LINES, Landing, governed_frontmatter, serialise
from memorybank.core.write.transaction import Transaction


@dataclass(frozen=True, slots=True)
class Inherited:
    """What a document takes from the template its kind and path choose."""

    template: TemplateSource | None
    fields: dict[str, Any] = field(default_factory=dict)
    """Template keys the document inherits (never a governed key)."""
    body: str | None = None
    """The template's prose, when it has any."""
    warnings: list[str] = field(default_factory=list)
    placeholder_warnings: list[str] = field(default_factory=list)

    @property
    def doc_function(self) -> str:
        value = self.fields.get("doc_function")
        return value if isinstance(value, str) and value not in ("template", "") else ""

    def must_not_define(self) -> list[str]:
        value = self.fields.get("must_not_define")
        return [str(k) for k in value] if isinstance(value, list) else []


def inherit(
    bank: Bank,
    doc_kind: str,
    target: str,
    *,
    placeholders: str,
    given: Collection[str] = (),
    chosen: str | None = None,
) -> Inherited:
    """The template for ``doc_kind`` at ``target`` (``chosen``, when the caller named one) and what a
    new document takes from it (``given``: the keys the document sets itself, whose placeholders in
    the template need no warning)."""
    template = find_template(bank, doc_kind, target, chosen)
    if template is None:
        return Inherited(None)
    instance = unwrap(template.text)
    fields, placeholder_warnings = template_fields(instance, placeholders=placeholders, given=given)
    body = instance.body if instance.body.strip() else None
    return Inherited(template, fields, body, list(instance.warnings), placeholder_warnings)


@dataclass
class NewDocument:
    """A document about to be written, every governed value already chosen."""

    target: str
    title: str
    purpose: str
    doc_kind: str
    doc_function: str
    status: str
    body: str
    derived_from: list[str] = field(default_factory=list)
    canonical_for: list[str] = field(default_factory=list)
    must_not_define: list[str] = field(default_factory=list)
    inherited: dict[str, Any] = field(default_factory=dict)
    more: dict[str, Any] = field(default_factory=dict)
    """Fields after the governed ones and the template's: ``extra``, capture and promotion stamps."""


@dataclass(frozen=True, slots=True)
class Composed:
    """A new document planned: its frontmatter and text, and the landing that writes it."""

    front: dict[str, Any]
    text: str
    landing: Landing

    @property
    def preview(self) -> str:
        """The new document's first lines, as a dry run shows them (bounded)."""
        return values.clip("\n".join(self.text.split("\n")[:PREVIEW_LINES]))


def compose(
    bank: Bank,
    doc: NewDocument,
    warnings: list[str],
    *,
    dry_run: bool,
    register: bool = True,
    credentials_only: bool = False,
) -> Composed:
    """Gate, compose and plan ``doc``; nothing is written until the landing's transaction commits.

    Args:
        warnings: warnings gathered so far; the gates' come first.
        register: plan the section index and the index entry (not for an inbox note).
        credentials_only: run only the credential half of the firewall (a promoted note's text
            was captured earlier, and a placeholder in it is the note's own prose, not an omission).

    Raises:
        Refusal: a gate or the firewall refused.
    """
    gate_warnings = check_governance(
        bank,
        doc.target,
        status=doc.status,
        doc_kind=doc.doc_kind,
        derived_from=doc.derived_from,
        canonical_for=doc.canonical_for,
        must_not_define=doc.must_not_define,
    )
    front = governed_frontmatter(
        title=doc.title,
        doc_kind=doc.doc_kind,
        doc_function=doc.doc_function,
        purpose=doc.purpose,
        derived_from=doc.derived_from,
        canonical_for=doc.canonical_for,
        must_not_define=doc.must_not_define,
        status=doc.status,
        inherited=doc.inherited,
    )
    front.update(doc.more)
    text = serialise(front, doc.body)
    if credentials_only:
        firewall.refuse_credentials(text, doc.target)
    else:
        firewall.check(text, doc.target)
    landing = Landing(bank=bank, target=doc.target, warnings=gate_warnings + warnings, tx=Transaction(bank.root))
    if register:
        landing.section_index(dry_run)
        landing.register(doc.title, doc.purpose, doc.status)
    landing.stage(text)
    return Composed(front, text, landing)
