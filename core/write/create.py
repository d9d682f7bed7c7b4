"""Creating a document: gates, template, frontmatter, registration, and lazily created sections.

Everything is planned in memory first (``core.write.compose``); only when every gate has passed
does one transaction land the document, any new section index, and the index entries. A refused
create writes nothing, not even the section index it would have needed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.parse import jsonable
from memorybank.core.templates import retitle, undecided
from memorybank.core.write import values
from memorybank.core.write.compose import Inherited, NewDocument, compose, inherit
from memorybank.core.write.edit import keep_the_law
from memorybank.core.write.gates import (
    GOVERNED_KEYS,
    OWNER_KEYS,
    Planned,
    check_target,
    content_from,
    content_warnings,
    execute,
    require,
)
from memorybank.core.write.landing import (
    INBOX,
    now_stamp,
    refuse_second_index,
    section_index_text,
    serialise,
    supplied_body,
)
from memorybank.core.write.shape import refuse_open_fence

__all__ = ["CreateResult", "create", "plan_create", "section_index_text", "serialise"]


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


def _clean_extra(extra: dict[str, Any] | None) -> dict[str, Any]:
    size = len(json.dumps(extra or {}, ensure_ascii=False, default=str))
    if size > values.EXTRA_LIMIT:
        raise Refusal(
            f"`extra` is {size:,} characters as JSON; a document's extra fields hold at most {values.EXTRA_LIMIT:,}. "
            "Put long material in the body.",
            reason="too-large",
        )
    out: dict[str, Any] = {}
    for key, value in (extra or {}).items():
        key = str(key)
        if key in GOVERNED_KEYS or key.lower() in GOVERNED_KEYS | OWNER_KEYS and key.lower() != key:
            raise Refusal(
                f"`extra` cannot set {key}: it has its own parameter, and the gates run on that one.",
                reason="governed-field",
            )
        if key in OWNER_KEYS:
            raise Refusal(f"`extra` cannot set {key}: only the bank's owner writes it.", reason="owner-field")
        if not key.replace("_", "a").replace("-", "a").isalnum() or not (key[0].isalpha() or key[0] == "_"):
            raise Refusal(f'"{key}" is not a frontmatter key.', reason="bad-key")
        out[key] = values.extra_value(key, value)
    return out


NOT_CHOSEN_FUNCTIONS = ("template", "index")
"""Functions a create does not give: a template is edited by hand, and an index takes a folder's
navigation (a folder's index is its README.md or index.md, refused where one is already there)."""


def _own_function(bank: Bank, given: Any) -> str | None:
    """``doc_function`` through ``extra``: one of the functions the bank declares in its dna/
    (``convention``, ``spec``...), for a document of the kind its own documents are."""
    if given is None:
        return None
    function = str(values.extra_value("doc_function", given)).strip()
    declared = bank.contract.doc_functions
    if function in NOT_CHOSEN_FUNCTIONS:
        raise Refusal(
            f"`extra` cannot make a document a{'n' if function == 'index' else ''} {function}: a template is "
            "edited by hand, and a folder's index is its README.md or index.md.",
            reason="governed-field",
        )
    if declared and function not in declared:
        raise Refusal(
            f'doc_function "{function}" is not among those dna/ declares: {", ".join(sorted(declared))}.',
            reason="governed-field",
        )
    return function or None


def _clean(values: list[str] | None) -> list[str]:
    return [v.strip() for v in values or [] if v and v.strip()]


def _body(title: str, supplied: str | None, inherited: Inherited, warnings: list[str]) -> str:
    """The body a new document starts with: the caller's, else its template's prose, else its title."""
    if supplied is not None and supplied.strip():
        if inherited.body is not None:
            warnings.append(f"Body supplied, so the prose of {inherited.template.path} was not used.")  # type: ignore[union-attr]
        return supplied_body(title, supplied, warnings)
    if inherited.body is not None:
        return retitle(inherited.body, title)
    return f"# {title}\n"


OWN_KEYS = ("title", "purpose", "doc_kind", "status", "derived_from", "canonical_for", "must_not_define")
"""Keys every new document sets from the call, whatever its template says."""
_LEFT_IN_BODY = re.compile(r"\b[A-Z]{2,8}-(?:XXX|YYY|ID)\b")
"""A template's stand-in for an identifier (``PRD-XXX``, ``FT-YYY``, ``ADR-ID``)."""


def left_in_body(body: str) -> list[str]:
    """A warning naming the template's stand-in identifiers the new body still holds, and where."""
    found: dict[str, list[str]] = {}
    section = ""
    for line in body.split("\n"):
        if line.startswith("## "):
            section = line[3:].strip()
        for match in _LEFT_IN_BODY.finditer(line):
            names = found.setdefault(section, [])
            if match.group(0) not in names:
                names.append(match.group(0))
    if not found:
        return []
    where = "; ".join(
        f"{', '.join(names)} in {f'## {name}' if name else 'the opening'}" for name, names in found.items()
    )
    return [f"The template's body still holds placeholders: {where}. Fill them before activating."]


NOTE_NAME_CHARS = 60


def _note_name(bank: Bank, title: str, *, first_only: bool = False) -> str:
    """An ``_inbox/`` path for a note captured without one: its title's words, a number added when
    the name is taken (``first_only``: the name without a number, taken or not)."""
    slug = re.sub(r"[\W_]+", "-", title.lower()).strip("-")[:NOTE_NAME_CHARS].strip("-") or "note"
    if first_only:
        return f"{INBOX}{slug}.md"
    for number in range(1, 1000):
        candidate = f"{INBOX}{slug}{'' if number == 1 else f'-{number}'}.md"
        if candidate not in bank.documents and not (bank.root / candidate).exists():
            return candidate
    raise Refusal(f"Every note name for {title!r} is taken; give the note a path.", reason="exists")


def _target(bank: Bank, path: str | None, inbox: bool, title: str) -> tuple[str, bool]:
    if inbox and not (path or "").strip():
        return _note_name(bank, title), True
    target = bank.resolve(path or "")
    if inbox or target.startswith(INBOX):
        return (target if target.startswith(INBOX) else INBOX + target.rsplit("/", 1)[-1]), True
    return target, False


def plan_create(
    bank: Bank,
    *,
    path: str | None = None,
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
    template: str | None = None,
    dry_run: bool = True,
    client: str | None = None,
    cwd: Path | None = None,
    notes_locked: bool = False,
) -> Planned[CreateResult]:
    """Plan one governed document and its registration, under the write session; see ``create``.
    With ``notes_locked`` (an agent, where the owner empties the quarantine), a new ``dna/`` document
    may not change what the bank declares (``core.write.edit.keep_the_law``)."""
    title = require(values.scalar("title", title), "`title` is required.")
    purpose = require(values.scalar("purpose", purpose), "`purpose` is required: it is the signal bank_route ranks on.")
    doc_kind = (values.scalar("docKind", doc_kind) or "").strip()
    status = values.scalar("status", status)
    derived_from = values.scalars("derivedFrom", derived_from)
    canonical_for = values.scalars("canonicalFor", canonical_for)
    must_not_define = values.scalars("mustNotDefine", must_not_define)
    extra = dict(extra or {})
    function = _own_function(bank, extra.pop("doc_function", None))
    extras = _clean_extra(extra)
    target, inbox = _target(bank, path, inbox, title)
    if inbox and target in bank and (path or "").strip() and not bank.resolve(path or "").startswith(INBOX):
        raise Refusal(  # "_inbox/evil.md is taken" alone reads as a refusal of a path nobody gave
            f"A note lands in {INBOX} by its file name: {path} would be {target}, which is taken. Give the note "
            "another file name.",
            reason="path-taken",
        )
    check_target(bank, target, path or target)
    refuse_second_index(bank, target)
    if not inbox and not doc_kind:
        raise Refusal("`docKind` is required: it chooses the template and the section.", reason="required")
    supplied = content_from(bank, body, body_file, "body", cwd=cwd)
    given = {*OWN_KEYS, *extras, *(["doc_function"] if function else [])}
    chosen = values.scalar("template", template) or None
    if inbox and chosen:
        raise Refusal("A note in _inbox/ has no template: leave `template` out.", reason="inbox-template")
    inherited = (
        Inherited(None) if inbox else inherit(bank, doc_kind, target, placeholders="warn", given=given, chosen=chosen)
    )
    warnings = (
        inherited.warnings + inherited.placeholder_warnings + _unchosen(bank, doc_kind, target, inherited, chosen)
    )
    if inbox and (path or "").strip() and not bank.resolve(path or "").startswith(INBOX):
        warnings.append(f"A note is captured into {INBOX}: {path} became {target}.")
    first = _note_name(bank, title, first_only=True) if inbox and not (path or "").strip() else target
    if first != target:
        warnings.append(
            f"A note of this title is already captured ({first}); this one is {target}. If it says the same, "
            "there is no need for both."
        )
    if inherited.template is None and not inbox:
        warnings.append(f'No template matched doc_kind "{doc_kind}"; wrote a minimal document instead.')
    forbidden = _clean(must_not_define) or inherited.must_not_define()
    text_body = _body(title, supplied, inherited, warnings)
    if supplied is None and inherited.body is not None:
        warnings.extend(left_in_body(text_body))
    if supplied is not None:
        refuse_open_fence(supplied, None, target)
    if inbox:
        extras = {**extras, "captured_at": now_stamp(), "captured_by": client or "unknown"}
    doc = NewDocument(
        target=target,
        title=title,
        purpose=purpose,
        doc_kind=doc_kind,
        doc_function=function or inherited.doc_function or "canonical",
        status="draft" if inbox else (status or "draft").strip(),
        body=text_body,
        derived_from=_clean(derived_from),
        canonical_for=_clean(canonical_for),
        must_not_define=forbidden,
        inherited=inherited.fields,
        more=extras,
    )
    composed = compose(bank, doc, warnings, dry_run=dry_run, register=not inbox)
    if notes_locked:
        keep_the_law(bank, target, None, composed.text)
    landing = composed.landing
    landing.warnings.extend(content_warnings(bank, target, composed.text))
    result = CreateResult(
        path=target,
        created=not dry_run,
        dry_run=dry_run,
        frontmatter=jsonable(composed.front),
        template=inherited.template.path if inherited.template else None,
        registered_in=landing.registered_in,
        warnings=landing.warnings,
        preview=composed.preview,
    )
    return Planned(result, landing.tx)


def _unchosen(bank: Bank, doc_kind: str, target: str, inherited: Inherited, chosen: str | None) -> list[str]:
    """A warning when the bank has several templates of the kind and none answers to the new file's
    name, so the one used was a default: the caller may name the one meant."""
    own = undecided(bank, doc_kind, target) if doc_kind and not chosen else []
    if not own:
        return []
    used = f"{inherited.template.path} was used" if inherited.template else "none was used"
    return [
        f'This bank has {len(own)} templates for doc_kind "{doc_kind}" ({", ".join(own)}) and none is named like '
        f"the new file, so {used}. Pass `template` to choose another."
    ]


def create(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> CreateResult:
    """Create one governed document and register it, or refuse and write nothing.

    Takes ``plan_create``'s arguments: ``path``, ``title``, ``purpose``, ``doc_kind``,
    ``derived_from``, ``canonical_for``, ``must_not_define``, ``status``, ``body`` or ``body_file``,
    ``extra``, ``inbox``, ``template`` (a template of the kind to make it from, by path, where the
    bank has several), ``client``, ``cwd``, ``notes_locked``.

    Raises:
        Refusal: a gate refused (the message names why; nothing was written).
        PathRefused: the path leaves the bank.
    """
    return execute(bank, plan_create, dry_run=dry_run, **arguments)
