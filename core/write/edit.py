"""Editing a document's body in place: one exact fragment, or one ``##`` section.

The frontmatter is out of reach of both, and every byte outside the change is kept: no
re-serialisation, no reflowing of other sections, the file's BOM and line endings preserved.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.contract import parse_contract
from memorybank.core.errors import Refusal
from memorybank.core.layers import parse_layer_tables
from memorybank.core.model import Contract, Document
from memorybank.core.parse import HEADING_LEVEL, FenceTracker, parse_document
from memorybank.core.read import find_section, section_missing
from memorybank.core.setext import RULE, setext_level
from memorybank.core.versions import version_of
from memorybank.core.write import firewall, values
from memorybank.core.write.breaks import link_warnings
from memorybank.core.write.finding import closest_passage, lines_of
from memorybank.core.write.gates import Planned, content_from, execute
from memorybank.core.write.plan import unchanged_since_read
from memorybank.core.write.rawdoc import RawDoc, head_of
from memorybank.core.write.shape import refuse_new_sections, refuse_what_the_edit_makes
from memorybank.core.write.transaction import Transaction

CONTEXT_CHARS = 80
PREVIEW_LINES = 20


@dataclass(frozen=True, slots=True)
class EditResult:
    path: str
    edited: bool
    dry_run: bool
    bytes_before: int
    bytes_after: int
    context: str
    section: str | None = None
    version: str = ""
    """The document's version after the edit (its ``ifVersion`` for the next write); after a dry run,
    its version now, which the write previewed takes as its ``ifVersion``."""
    warnings: list[str] = field(default_factory=list)
    """Links the edit breaks (``core.write.breaks``): written to nothing, or left pointing at a
    heading it renamed."""


@dataclass(frozen=True, slots=True)
class SectionUpdateResult:
    path: str
    section: str
    mode: str
    updated: bool
    dry_run: bool
    bytes_before: int
    bytes_after: int
    preview: str
    version: str = ""
    """The document's version after the update (its ``ifVersion`` for the next write); after a dry
    run, its version now, which the write previewed takes as its ``ifVersion``."""
    warnings: list[str] = field(default_factory=list)
    """Links the update breaks, as for ``EditResult``."""


def editable(bank: Bank, path: str, *, notes_locked: bool = False) -> Document:
    """The document a caller may edit: it exists and is not a template; with ``notes_locked`` (an
    agent, where only the owner empties the quarantine), not an ``_inbox/`` note either."""
    doc = bank.document(path)
    if doc.is_template:
        raise Refusal(
            f"{doc.path} is a template. Templates are edited by hand, not through the server.", reason="template"
        )
    if notes_locked and doc.is_inbox:
        raise Refusal(
            f"{doc.path} is a captured note: an agent writes a note once and then only proposes what happens to "
            "it (bank_promote, bank_fold, bank_discard), so the owner reviews what was captured. Capture a new "
            "note with bank_create inbox: true instead.",
            reason="note-write-once",
        )
    return doc


def keep_the_law(bank: Bank, path: str, before: str | None, after: str) -> None:
    """Refuse an agent's edit of a ``dna/`` document that changes what the bank declares (whether
    ``derived_from`` is required, whether cycles are forbidden, its roots, its value sets, its stale
    age, its layer table): prose may be fixed, the law is the owner's. Both sides are read the same
    way; ``before`` is None for a new document, which the bank did not read at all (the first dna/
    document of a bank without one gives it a contract)."""
    if not path.startswith("dna/"):
        return
    others = [(p, bank.text(p)) for p in bank.documents if p.startswith("dna/") and p != path]
    principles = "dna/principles.md" in bank.documents

    def sources(text: str | None) -> list[tuple[str, str]]:
        # In bank order, as the bank reads them: where the first declaration wins, the order decides.
        return sorted([*others, *([(path, text)] if text is not None else [])], key=lambda source: source[0])

    def declared(text: str | None) -> Contract:
        return parse_contract(
            sources(text), has_principles=principles or (text is not None and path == "dna/principles.md")
        )

    def layers(text: str | None) -> tuple[dict[str, str], dict[str, float]]:
        by_dir, weights, _, _ = parse_layer_tables(sources(text))
        return by_dir, weights

    old, new = declared(before), declared(after)
    changed = [
        f.name for f in fields(Contract) if f.name not in LAW_SOURCES and getattr(old, f.name) != getattr(new, f.name)
    ]
    if layers(before) != layers(after):  # the layer table also decides what the quarantine is
        changed.append("layers")
    if changed:
        raise Refusal(
            f"This would change what the bank's dna/ declares ({', '.join(changed)}): the bank's law is its "
            "owner's to change. Capture a note with bank_create inbox: true proposing the change instead.",
            reason="law-is-the-owners",
        )


LAW_SOURCES = ("source", "stale_after_source")
"""Where a declaration was read: moving a sentence from one dna/ document to another changes no law."""


def _rewrite(bank: Bank, raw: RawDoc, text: str) -> Transaction:
    """The one-file transaction that writes ``text`` back in ``raw``'s own style; refused when the
    text would read with another frontmatter block than the file has (a body edit that starts the
    file with ``---``, or closes a block that never closed): frontmatter goes through its gates."""
    if head_of(text) != head_of(raw.text):
        raise Refusal(
            f"This would change the frontmatter of {raw.path}: body edits cannot write or close a "
            "frontmatter block. Set fields with bank_set_field or bank_set_status, whose gates check them.",
            reason="frontmatter-out-of-reach",
        )
    tx = Transaction(bank.root)
    tx.write(raw.path, raw.encode(text))
    return tx


_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
"""A table's delimiter row: content whose second line is one begins a table of its own."""
_LIST_ITEM = re.compile(r"^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+\S")


def _list_kind(line: str) -> str | None:
    """A list item's kind (its bullet, or an ordered list's delimiter), or None for another line."""
    found = _LIST_ITEM.match(line)
    if found is None:
        return None
    marker = found.group(1)
    return "1" + marker[-1] if marker[0].isdigit() else marker


def _item_of(lines: list[str]) -> str:
    """The list item the last of ``lines`` belongs to (an indented line continues the one above)."""
    for line in reversed(lines):
        if not line.strip():
            return ""
        if not line[:1].isspace():
            return line
    return ""


def plan_edit(
    bank: Bank,
    *,
    path: str,
    find: str,
    replace: str,
    section: str | None = None,
    dry_run: bool = True,
    notes_locked: bool = False,
    if_version: str | None = None,
) -> Planned[EditResult]:
    """Plan ``edit`` under the write session (see it); nothing is written. With ``if_version`` (what
    ``bank_read`` reported), a file changed since is refused."""
    doc = editable(bank, path, notes_locked=notes_locked)
    if not find:
        raise Refusal(
            "`find` is required: this tool replaces an exact fragment, never a whole document.", reason="required"
        )
    if find == replace:
        raise Refusal("`find` and `replace` are identical; nothing to do.", reason="no-op")
    raw = RawDoc.load(bank.root, doc.path)
    unchanged_since_read(doc.path, raw.original, if_version)
    replace = values.line_breaks(replace)  # a lone CR would end a line in a renderer, not in the gates
    if "\r" not in raw.text:  # the text holds its line breaks as LF: so may what is looked for
        find = values.line_breaks(find)
    head, body = raw.split()
    start, end, where = 0, len(body), ""
    chosen = None
    if section and section.strip():
        current, _ = parse_document(doc.path, raw.text.encode("utf-8"), bank_names=bank.paths.names)
        chosen = find_section(current, section, raw.text)
        if chosen is None:
            raise section_missing(current, section)
        lines = raw.text.split("\n")
        before_section = sum(len(line) + 1 for line in lines[: chosen.line - 1]) - len(head)
        section_text = "\n".join(lines[chosen.line - 1 : chosen.end_line])
        start, end = max(before_section, 0), max(before_section, 0) + len(section_text)
        where = f' under "{chosen.title}"'
    scope = body[start:end]
    count = scope.count(find)
    if count == 0 and head and find.strip() and find.strip() in head:
        raise Refusal(
            f"{json.dumps(find[:80], ensure_ascii=False)} is in the frontmatter of {doc.path}, and bank_edit changes "
            "the body. Set a frontmatter value with bank_set_field (bank_set_status for status).",
            reason="in-frontmatter",
        )
    if count == 0 and chosen is not None and find in body:
        raise Refusal(
            f'Found in {doc.path}, but not inside the section "{chosen.title}" (lines {chosen.line}-'
            f"{chosen.end_line}): the text runs past it or lies elsewhere. Leave out section, or find text within it.",
            reason="not-found",
        )
    if count == 0:
        near = closest_passage(raw.text, find, first_line=raw.text[: len(head)].count("\n") + 1 if head else 1)
        hint = f" The closest passage is at line {near[0]}: {json.dumps(near[1], ensure_ascii=False)}." if near else ""
        raise Refusal(
            f"Not found in {doc.path}{where}: {json.dumps(find[:80], ensure_ascii=False)}.{hint} The text must "
            "match exactly, whitespace included.",
            reason="not-found",
        )
    if count > 1:
        raise Refusal(
            f"Found {count} times in {doc.path}{where}, at lines {lines_of(raw.text, find, len(head) + start, count)}. "
            f"Give more surrounding text{'' if where else ', or pass section to narrow it'}: "
            "replacing the first of several is a guess, and this tool does not guess.",
            reason="ambiguous",
        )
    firewall.check(_new_lines(replace, find), doc.path)  # lines carried over from the fragment are not new
    at = start + scope.index(find)
    new_body = body[:at] + replace + body[at + len(find) :]
    text = head + new_body
    refuse_what_the_edit_makes(doc.path, head, body, new_body, find)
    firewall.refuse_credentials_made(raw.text, text, doc.path)
    if notes_locked:
        keep_the_law(bank, doc.path, raw.text, text)
    context = values.clip(new_body[max(at - CONTEXT_CHARS, 0) : at + len(replace) + CONTEXT_CHARS], 1_000)
    after = raw.encode(text)
    tx = _rewrite(bank, raw, text)
    return Planned(
        EditResult(
            path=doc.path,
            edited=not dry_run,
            dry_run=dry_run,
            bytes_before=len(raw.original),
            bytes_after=len(after),
            context=context,
            section=chosen.title if chosen else None,
            version=version_of(raw.original if dry_run else after),
            warnings=link_warnings(bank, doc.path, raw.text, text),
        ),
        tx,
    )


def _new_lines(text: str, old: str) -> str:
    """The lines of ``text`` that ``old`` did not already hold: what a write adds, to be judged."""
    kept = set(old.split("\n"))
    return "\n".join(line for line in text.split("\n") if line not in kept)


def edit(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> EditResult:
    """Replace one exact fragment of a document's body.

    The fragment must occur exactly once (in ``section`` when given): zero or several matches are
    refused, because replacing the first of several is a guess.
    """
    return execute(bank, plan_edit, dry_run=dry_run, **arguments)


def plan_update_section(
    bank: Bank,
    *,
    path: str,
    section: str,
    content: str | None = None,
    content_file: str | None = None,
    mode: str = "replace",
    dry_run: bool = True,
    cwd: Path | None = None,
    notes_locked: bool = False,
    if_version: str | None = None,
) -> Planned[SectionUpdateResult]:
    """Plan ``update_section`` under the write session (see it); nothing is written."""
    if mode not in ("replace", "append"):
        raise Refusal(f'mode must be "replace" or "append", not "{mode}".', reason="usage")
    doc = editable(bank, path, notes_locked=notes_locked)
    if not section or not section.strip():
        raise Refusal(
            "`section` is required: this tool writes one named section, never a whole document.", reason="required"
        )
    new = content_from(bank, content, content_file, "content", cwd=cwd)
    if new is None or not new.strip():
        raise Refusal("`content` is empty. To remove a section, edit the document by hand and say so.", reason="empty")
    raw = RawDoc.load(bank.root, doc.path)
    unchanged_since_read(doc.path, raw.original, if_version)
    current, _ = parse_document(doc.path, raw.text.encode("utf-8"), bank_names=bank.paths.names)
    chosen = find_section(current, section, raw.text)
    if chosen is None:
        raise section_missing(current, section)
    lines = raw.text.split("\n")
    trailing_newline = raw.text.endswith("\n")
    if trailing_newline:
        lines.pop()
    below = lines[chosen.line] if chosen.line < len(lines) else ""
    tall = 2 if setext_level(lines[chosen.line - 1], below) else 1  # "Title" over "-----": both stay
    heading = lines[chosen.line - 1 : chosen.line - 1 + tall]
    old_lines = lines[chosen.line - 1 + tall : chosen.end_line]
    old = "\n".join(old_lines).strip()
    incoming = new.strip()  # content_from gave its line breaks as LF
    refuse_new_sections(incoming, doc.path, chosen.title, chosen.level)
    added = _new_lines(incoming, old) if mode == "replace" else incoming
    firewall.check(added, doc.path, whole=mode == "replace" and bool(old))
    block = [*heading, ""]
    inner = _inner_headings(old_lines, chosen.level)
    warnings = []
    if mode == "append" and old:
        # plain text joins the section's own text, above the headings inside it; a new heading goes last
        own, children = old_lines, []
        if inner and not HEADING_LEVEL.match(incoming):
            own, children = old_lines[: inner[0][0]], old_lines[inner[0][0] :]
        block += _appended("\n".join(own).strip(), incoming)
        if children:
            block += ["", *"\n".join(children).strip().split("\n")]
    else:
        block += incoming.split("\n")
        gone = [title for _, title in inner if title not in incoming.split("\n")]
        if gone:
            warnings.append(f"Replacing the section removed the headings inside it: {', '.join(gone)}.")
    is_last = chosen.end_line >= len(lines)
    if not is_last:
        block.append("")
    new_lines = lines[: chosen.line - 1] + block + lines[chosen.end_line :]
    # A file that ended without a newline still does: only the section's own bytes change.
    text = "\n".join(new_lines) + ("\n" if trailing_newline else "")
    firewall.refuse_credentials_made(raw.text, text, doc.path)
    if notes_locked:
        keep_the_law(bank, doc.path, raw.text, text)
    after = raw.encode(text)
    tx = _rewrite(bank, raw, text)
    return Planned(
        SectionUpdateResult(
            path=doc.path,
            section=chosen.title,
            mode=mode,
            updated=not dry_run and after != raw.original,
            dry_run=dry_run,
            bytes_before=len(raw.original),
            bytes_after=len(after),
            preview=values.clip("\n".join(block[:PREVIEW_LINES])),
            version=version_of(raw.original if dry_run else after),
            warnings=warnings + link_warnings(bank, doc.path, raw.text, text),
        ),
        tx,
    )


def _appended(own: str, incoming: str) -> list[str]:
    """A section's own text with ``incoming`` after it: rows join the table it ends with, items the
    list, and a ``---`` rule closing it stays last."""
    if not own:
        return incoming.split("\n")
    kept_lines, closing = own.split("\n"), []
    if len(kept_lines) >= 3 and RULE.match(kept_lines[-1]) and not kept_lines[-2].strip():
        closing, kept_lines = ["", kept_lines[-1]], kept_lines[:-2]  # the rule closing the section stays last
    second = incoming.split("\n")[1:2]
    new_table = bool(second) and _DELIMITER.match(second[0]) is not None
    rows = kept_lines[-1].lstrip().startswith("|") and incoming.lstrip().startswith("|") and not new_table
    kind = _list_kind(_item_of(kept_lines))
    items = kind is not None and kind == _list_kind(incoming)
    joined = kept_lines if rows or items else [*kept_lines, ""]  # rows join their table, items their list
    return [*joined, *incoming.split("\n"), *closing]


def _inner_headings(lines: list[str], level: int) -> list[tuple[int, str]]:
    """The headings below ``level`` in a section's lines (outside fences): index and line."""
    tracker = FenceTracker(comments=True)
    found = []
    for index, line in enumerate(lines):
        if tracker.feed(line):
            continue
        heading = HEADING_LEVEL.match(line)
        if heading and len(heading.group(1)) > level:
            found.append((index, line.strip()))
    return found


def update_section(bank: Bank, *, dry_run: bool = False, **arguments: Any) -> SectionUpdateResult:
    """Replace or append to the body of one ``##`` section; nothing else in the file moves."""
    return execute(bank, plan_update_section, dry_run=dry_run, **arguments)
