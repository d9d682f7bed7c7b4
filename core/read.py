"""Reading documents: whole, one ``##`` section (or a ``###`` one named), a line range, or a batch under a byte budget.

The batch budget exists because a client that receives a very large answer saves it to a file and
hands the model a path instead, which costs more than a short answer. The budget can be lowered,
never raised; the first document is always returned; documents that would overshoot are skipped
before they are read and listed with their sections so the caller can ask for a section instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.errors import BankError, SectionNotFound, UsageError
from memorybank.core.model import Document
from memorybank.core.parse import jsonable
from memorybank.core.section_names import PARTIAL_LETTERS, find_section, narrower_sections, normalise_heading
from memorybank.core.versions import version_of

BATCH_CEILING = 40_000
"""Bytes a batch read returns at most (about 11,000 tokens)."""
SINGLE_CEILING = 400_000
"""Characters a single read returns before it is cut and marked truncated."""
MIN_BUDGET = 1_000
PART_KEYS = ("doc_kind", "status", "decision_status")
"""What a section or line-range read keeps of the frontmatter: what the part's standing hangs on."""
PART_FLOOR = 200
"""Bytes of a batch's budget still left for a section or a line range to be read, cut to fit."""
BATCH_REQUESTS = 100
"""Requests a batch read takes: past the byte budget each is still listed, so the count is bounded too."""

_RANGE = re.compile(r"^\s*(\d+)?\s*(?:(-|:|\.\.)\s*(\d+)?)?\s*$")


def section_missing(doc: Document, name: str) -> SectionNotFound:
    if not doc.sections:
        return SectionNotFound(
            f'Section "{name}" not found in {doc.path}: it has no ## sections. Read it whole; to add one, '
            "bank_edit its last line into that line and the new heading."
        )
    available = " | ".join(s.title for s in doc.sections)
    short = len(normalise_heading(name)) < PARTIAL_LETTERS
    hint = f" A part of a heading names it from {PARTIAL_LETTERS} letters on." if short else ""
    return SectionNotFound(
        f'Section "{name}" not found in {doc.path}. Available: {available} (and the ### headings under them).{hint}'
    )


def parse_line_range(spec: str, total: int) -> tuple[int, int]:
    """``"120-160"``, ``"120-"``, ``"-40"`` or ``"120"`` as an inclusive 1-based range.

    The end is clamped to the file; a start past the end is an error.
    """
    match = _RANGE.match(spec or "")
    if not match or (match.group(1) is None and match.group(3) is None):
        raise UsageError(f'Line range "{spec}" is not of the form A-B (for example "120-160", "120-" or "120").')
    start = int(match.group(1)) if match.group(1) else 1
    if match.group(2) is None:
        end = start
    else:
        end = int(match.group(3)) if match.group(3) else total
    if start < 1:
        raise UsageError(f'Line range "{spec}": lines are numbered from 1.')
    if start > total:  # first: "5000-" on a short file starts past its end, it does not end early
        raise UsageError(f'Line range "{spec}" starts past the end: the file has {total} lines.')
    if end < start:
        raise UsageError(f'Line range "{spec}" ends before it starts.')
    return start, min(end, total)


@dataclass(frozen=True, slots=True)
class ReadResult:
    """One document, a section of it, or a range of its lines."""

    path: str
    title: str
    frontmatter: dict[str, Any]
    """All of it for a whole document; for a section or a line range only ``PART_KEYS`` (a part is
    read for its text, and a batch would repeat the rest for every part)."""
    content: str
    bytes: int
    """UTF-8 bytes of ``content``."""
    truncated: bool
    available_sections: list[str]
    """The document's ``##`` sections; when ``truncated``, also the ``###`` and ``####`` ones inside
    what was read, by the names that open them (``Parent > Child``)."""
    section: str | None = None
    lines: list[int] | None = None
    """``[first, last]`` raw-file lines returned by a line-range read."""
    total_lines: int = 0
    continue_at: int | None = None
    """When ``truncated``: the first raw-file line not returned; read on with ``lines="N-"``."""
    version: str = ""
    """The file's version (``ifVersion`` of ``bank_edit`` and ``bank_update_section`` refuses a
    write to a file changed since)."""


@dataclass(frozen=True, slots=True)
class SkippedRead:
    path: str
    title: str
    bytes: int
    available_sections: list[str]


@dataclass(frozen=True, slots=True)
class FailedRead:
    path: str
    error: str


@dataclass(frozen=True, slots=True)
class BatchReadResult:
    documents: list[ReadResult]
    failed: list[FailedRead] = field(default_factory=list)
    skipped: list[SkippedRead] = field(default_factory=list)
    bytes: int = 0
    budget_bytes: int = BATCH_CEILING
    note: str | None = None


def _raw_lines(text: str) -> list[str]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _cut(content: str, first_line: int, limit: int) -> tuple[str, int | None]:
    """``content`` cut to at most ``limit`` UTF-8 bytes at a line end (mid-line only when one line
    is longer than the limit), with the raw line to continue from; no cut, no continuation."""
    data = content.encode("utf-8")
    if len(data) <= limit:
        return content, None
    head = data[:limit].decode("utf-8", errors="ignore")
    end = head.rfind("\n")
    if end > len(head) // 2:
        head = head[:end]
        return head, first_line + head.count("\n") + 1
    # A line longer than half the allowance is cut inside; reading on starts at that line again.
    return head, first_line + head.count("\n")


def read_document(
    bank: Bank, path: str, *, section: str | None = None, lines: str | None = None, max_bytes: int = SINGLE_CEILING
) -> ReadResult:
    """Read one document, one of its sections (a ``##`` one, or a ``###`` or ``####`` one named), or a
    line range of its raw file.

    Raises:
        NotADocument: the path names no document (an old ``_inbox/`` path says where it went).
        SectionNotFound: the section does not exist; the message lists the real ones.
        UsageError: a malformed line range, or both a section and a range.
    """
    with bank.lock:
        doc = bank.document(path)
        text = bank.text(doc.path)
        try:
            version = version_of((bank.root / doc.path).read_bytes())
        except OSError:  # gone since the refresh: no version to write against
            version = ""
    available = [s.title for s in doc.sections]
    front = jsonable(doc.frontmatter)
    raw_lines = _raw_lines(text)
    if section and lines:
        raise UsageError("Pass either section or lines, not both.")
    chosen: str | None = None
    span: list[int] | None = None
    if lines:
        start, end = parse_line_range(lines, len(raw_lines))
        content = "\n".join(raw_lines[start - 1 : end])
        span = [start, end]
        first = start
    elif section is not None and section.strip():
        found = find_section(doc, section, text)
        if found is None:
            raise section_missing(doc, section)
        content = "\n".join(raw_lines[found.line - 1 : found.end_line]).rstrip()
        chosen = found.title
        first = found.line
    else:
        body = raw_lines[doc.body_line - 1 :]
        skipped = next((i for i, line in enumerate(body) if line.strip()), 0)
        content = "\n".join(body).strip()
        first = doc.body_line + skipped
    if chosen is not None or span is not None:
        front = {key: front[key] for key in PART_KEYS if key in front}
    last = found.end_line if chosen is not None else (span[1] if span is not None else len(raw_lines))
    content, continue_at = _cut(content, first, min(max_bytes, SINGLE_CEILING))
    truncated = continue_at is not None
    if truncated:  # what it can ask for instead of the whole part: the deeper sections inside it
        available = [*available, *narrower_sections(doc, text, first, last)]
    if span is not None and continue_at is not None:
        span = [span[0], continue_at - 1]
    return ReadResult(
        path=doc.path,
        title=doc.title,
        frontmatter=front,
        content=content,
        bytes=len(content.encode("utf-8")),
        truncated=truncated,
        available_sections=available,
        section=chosen,
        lines=span,
        total_lines=len(raw_lines),
        continue_at=continue_at,
        version=version,
    )


ReadRequest = str | dict[str, Any]


def read_many(
    bank: Bank, requests: list[ReadRequest], *, section: str | None = None, max_bytes: int | None = None
) -> BatchReadResult:
    """Read several documents in request order under a byte budget.

    Args:
        requests: paths, or ``{"path", "section"?, "lines"?}`` mappings. The top-level ``section``
            applies to plain path strings only.
        max_bytes: lowers the budget; values above the 40,000 ceiling are capped with a note.
    """
    if not requests:
        raise UsageError("The list of paths is empty: name at least one document to read.")
    if len(requests) > BATCH_REQUESTS:
        raise UsageError(
            f"A batch read takes at most {BATCH_REQUESTS} requests, not {len(requests):,}; its answer is "
            f"bounded by {BATCH_CEILING:,} bytes anyway. Route first, then read the documents that answer."
        )
    asked = BATCH_CEILING if max_bytes is None else int(max_bytes)
    if asked < MIN_BUDGET:
        raise UsageError(f"maxBytes must be at least {MIN_BUDGET}.")
    budget = min(asked, BATCH_CEILING)
    note = None
    if asked > BATCH_CEILING:
        note = (
            f"maxBytes {asked} is above the ceiling of {BATCH_CEILING}, so {BATCH_CEILING} was used. "
            "A larger answer is returned to you as a file path rather than as text, which is worse "
            "than a short answer. Read the skipped documents by section."
        )
    documents: list[ReadResult] = []
    failed: list[FailedRead] = []
    skipped: list[SkippedRead] = []
    spent = 0
    for request in requests:
        if isinstance(request, dict):
            path = str(request.get("path", ""))
            wanted_section = request.get("section")
            wanted_lines = request.get("lines")
        else:
            path, wanted_section, wanted_lines = str(request), section, None
        partial = bool((wanted_section and str(wanted_section).strip()) or wanted_lines)
        try:  # what names nothing fails whatever the budget, so it is never offered as "read it later"
            known = bank.document(path)
            named = str(wanted_section or "").strip()
            if named and find_section(known, named, bank.text(known.path)) is None:
                raise section_missing(known, str(wanted_section))
        except BankError as error:
            failed.append(FailedRead(path=path, error=error.message))
            continue
        left = budget - spent
        if documents and (left < PART_FLOOR or (not partial and known.size > left)):
            skipped.append(SkippedRead(path, known.title, known.size, [s.title for s in known.sections]))
            continue
        try:  # a section or a line range is cut to what is left, with the line to read on from
            result = read_document(bank, path, section=wanted_section, lines=wanted_lines, max_bytes=left)
        except BankError as error:
            failed.append(FailedRead(path=path, error=error.message))
            continue
        documents.append(result)
        spent += result.bytes
    return BatchReadResult(
        documents=documents, failed=failed, skipped=skipped, bytes=spent, budget_bytes=budget, note=note
    )
