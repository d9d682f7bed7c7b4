"""Templates: finding the one for a new document, and turning it into frontmatter and a body.

A template is a governed document (``doc_function: template``) that carries the document to
create in two fenced blocks, ``## Instantiated Frontmatter`` (yaml) and ``## Instantiated Body``
(markdown); a template without them is "plain" and is used whole. The bank's own templates in
``flows/templates/`` win over the set shipped with the package, which ``create`` reads in place so a
bank does not have to carry copies it never changes.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.frontmatter import parse_frontmatter
from memorybank.core.parse import FenceTracker, scalar, split_frontmatter

TEMPLATE_ONLY_KEYS = frozenset({"template_for", "template_target_path"})
"""Keys that describe the template itself and never reach the document made from it."""

KIND_DIRECTORIES: dict[str, tuple[str, ...]] = {
    "use_case": ("use-case",),
    "feature-support": ("feature/support", "feature-support"),
}
"""Where templates of a kind live besides ``flows/templates/<kind>/``."""

_PLACEHOLDER_WORDS = re.compile(r"\b(?:FT-XXX|ADR-ID|PRD-ID|UC-XXX|EP-XXX|PROMPT-ID|PROCESS-ID|PROC-XXX)\b")


def is_placeholder(value: Any) -> bool:
    """True for template placeholders: ``YYYY-MM-DD``, ``YYYYMMDD...``, ``<...>``, ``FT-XXX`` and kin."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    return (
        text == "YYYY-MM-DD"
        or text.startswith("YYYYMMDD")
        or (text.startswith("<") and text.endswith(">"))
        or bool(_PLACEHOLDER_WORDS.search(text))
    )


@dataclass(frozen=True, slots=True)
class TemplateSource:
    path: str
    """Bank path of the template, or ``flows/templates/...`` for a shipped one."""
    text: str
    shipped: bool


@dataclass(frozen=True, slots=True)
class Instance:
    """What a template contributes to a new document."""

    data: dict[str, Any]
    body: str
    wrapped: bool
    warnings: list[str] = field(default_factory=list)


def kind_directories(kind: str) -> tuple[str, ...]:
    dirs = [kind, kind.replace("_", "-"), *KIND_DIRECTORIES.get(kind, ())]
    return tuple(dict.fromkeys(d for d in dirs if d))


def _front(text: str) -> dict[str, Any]:
    split = split_frontmatter(text)
    return parse_frontmatter(split.yaml_text)[0] if split.closed else {}


def _choose(candidates: list[tuple[str, str, dict[str, Any]]], target: str) -> tuple[str, str] | None:
    """Pick a template for ``target``: the one aiming at that file name, else the one named like it,
    else the only one that is not a README."""
    name = target.rsplit("/", 1)[-1]
    for path, text, front in candidates:
        aim = scalar(front.get("template_target_path"))
        if aim and aim.rsplit("/", 1)[-1] == name:
            return path, text
    for path, text, _ in candidates:
        if path.rsplit("/", 1)[-1] == name:
            return path, text
    others = [(p, t) for p, t, _ in candidates if p.rsplit("/", 1)[-1] != "README.md"]
    return others[0] if len(others) == 1 else None


@lru_cache(maxsize=1)
def shipped_templates() -> tuple[tuple[str, str], ...]:
    """Every shipped template as ``(flows/templates/... path, text)``."""
    from memorybank.starter import TEMPLATES_DIR

    out = []
    for file in sorted(TEMPLATES_DIR.rglob("*.md")):
        rel = file.relative_to(TEMPLATES_DIR).as_posix()
        if rel != "README.md":
            out.append((f"flows/templates/{rel}", file.read_text(encoding="utf-8")))
    return tuple(out)


def _matches(path: str, front: dict[str, Any], kind: str) -> bool:
    declared = scalar(front.get("template_for"))
    if declared:
        return declared == kind
    return any(path.startswith(f"flows/templates/{d}/") for d in kind_directories(kind))


def find_template(bank: Bank, kind: str, target: str, chosen: str | None = None) -> TemplateSource | None:
    """The template a new ``kind`` document at ``target`` is made from: ``chosen`` when the caller
    names one, else the bank's own, then the shipped set. None when neither has one.

    Raises:
        Refusal: ``chosen`` is not a template of ``kind`` (the message lists those there are).
    """
    if not kind:
        return None
    own = _own(bank, kind)
    shipped = []
    for path, text in shipped_templates():
        front = _front(text)
        directory = path[len("flows/templates/") :].rsplit("/", 1)[0]
        if directory in kind_directories(kind) and _matches(path, front, kind):
            shipped.append((path, text, front))
    if chosen is not None:
        return _named(chosen, kind, own, shipped)
    picked = _choose(own, target)
    if picked:
        return TemplateSource(picked[0], picked[1], shipped=False)
    picked = _choose(shipped, target)
    if picked is None:
        return None
    for path, text, _ in own:  # the shipped set's choice, in the bank's own words where it keeps a copy
        if path == picked[0]:
            return TemplateSource(path, text, shipped=False)
    return TemplateSource(picked[0], picked[1], shipped=True)


def undecided(bank: Bank, kind: str, target: str) -> list[str]:
    """The bank's own templates of ``kind`` when there are several and none answers to ``target``'s
    file name (the one used was then the shipped set's choice); empty otherwise."""
    own = _own(bank, kind)
    return sorted(p for p, _, _ in own) if len(own) > 1 and _choose(own, target) is None else []


def _own(bank: Bank, kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    """The bank's own templates of ``kind``: path, text and frontmatter."""
    return [
        (doc.path, bank.text(doc.path), doc.frontmatter)
        for doc in bank
        if doc.is_template and _matches(doc.path, doc.frontmatter, kind)
    ]


def _named(
    chosen: str,
    kind: str,
    own: list[tuple[str, str, dict[str, Any]]],
    shipped: list[tuple[str, str, dict[str, Any]]],
) -> TemplateSource:
    """The template the caller named, the bank's own before a shipped one of the same path."""
    wanted = chosen.strip().removeprefix("./")
    for candidates, is_shipped in ((own, False), (shipped, True)):
        for path, text, _ in candidates:
            if path == wanted:
                return TemplateSource(path, text, shipped=is_shipped)
    known = sorted({p for p, _, _ in own} | {p for p, _, _ in shipped})
    offered = ", ".join(known) if known else "none"
    raise Refusal(
        f'"{chosen}" is not a template for doc_kind "{kind}". Templates for it: {offered}.', reason="unknown-template"
    )


def _fenced_block(lines: list[str], heading: str, languages: tuple[str, ...]) -> str | None:
    """The content of the first fence in ``languages`` after the ``heading`` line, matching the
    fence's own character and length so nested fences stay inside."""
    tracker = FenceTracker()
    start = None
    for index, line in enumerate(lines):
        inside = tracker.inside
        tracker.feed(line)
        if not inside and line.startswith(heading):
            start = index + 1
            break
    if start is None:
        return None
    for index in range(start, len(lines)):
        line = lines[index]
        match = re.match(r"^ {0,3}(`{3,}|~{3,})\s*([\w-]*)", line)
        if not match:
            continue
        if match.group(2).lower() not in languages:
            return None
        fence = match.group(1)
        body: list[str] = []
        for inner in lines[index + 1 :]:
            stripped = inner.strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                return "\n".join(body)
            body.append(inner)
        return None
    return None


def unwrap(text: str) -> Instance:
    """Split a template into the frontmatter and body of the document it makes."""
    normalised = text.replace("\r\n", "\n")
    lines = normalised.split("\n")
    yaml_block = _fenced_block(lines, "## Instantiated Frontmatter", ("yaml", "yml"))
    body_block = _fenced_block(lines, "## Instantiated Body", ("markdown", "md"))
    if yaml_block is not None and body_block is not None:
        data, error = parse_frontmatter(yaml_block)
        warnings = [f"The template's frontmatter block does not parse ({error})."] if error else []
        return Instance(data=data, body=body_block.rstrip(), wrapped=True, warnings=warnings)
    split = split_frontmatter(normalised)
    data = parse_frontmatter(split.yaml_text)[0] if split.closed else {}
    data = {k: v for k, v in data.items() if k not in TEMPLATE_ONLY_KEYS and k != "doc_function"}
    return Instance(data=data, body=split.body(normalised).strip(), wrapped=False)


def retitle(body: str, title: str) -> str:
    """Make the body's first level-one heading (outside fences) ``# title``; add one if missing."""
    lines = body.split("\n")
    tracker = FenceTracker(comments=True)
    for index, line in enumerate(lines):
        if tracker.feed(line):
            continue
        if re.match(r"^#[ \t]", line):
            lines[index] = f"# {title}"
            return "\n".join(lines)
    return f"# {title}\n\n{body}" if body.strip() else f"# {title}\n"


def today() -> str:
    return clock.today()


def template_fields(
    instance: Instance, *, placeholders: str, given: Collection[str] = ()
) -> tuple[dict[str, Any], list[str]]:
    """The template keys a new document inherits, with dates filled and placeholders handled.

    ``derived_from`` and ``canonical_for`` are examples in a template, never real values, so they are
    dropped. A ``date`` placeholder becomes today's UTC date. Any other placeholder is kept with a
    warning (``placeholders="warn"``, for create) or dropped (``"drop"``, for promote); no warning for
    a key the new document sets itself (``given``: its title replaces ``UC-XXX: Use Case Name``).
    """
    fields: dict[str, Any] = {}
    warnings: list[str] = []
    for key, value in instance.data.items():
        if key in TEMPLATE_ONLY_KEYS or key in ("derived_from", "canonical_for"):
            continue
        if key == "date" and is_placeholder(value):
            fields[key] = today()
        elif is_placeholder(value):
            if placeholders == "warn":
                fields[key] = value
                if key not in given:
                    warnings.append(f'Template left a placeholder in "{key}": {value}. Fill it before activating.')
        else:
            fields[key] = value
    return fields, warnings
