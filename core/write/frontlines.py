"""A frontmatter block read as lines, so one key's lines change and every other byte stays: where
a key's lines are, and a scalar written in a quoting that reads back as the value."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from memorybank.core import yamlio
from memorybank.core.bank import Bank
from memorybank.core.errors import Refusal
from memorybank.core.model import Document
from memorybank.core.parse import parse_document
from memorybank.core.write.edit import keep_the_law
from memorybank.core.write.rawdoc import RawDoc
from memorybank.core.write.transaction import Transaction

LIST_FIELDS = ("derived_from", "canonical_for", "must_not_define", "anchors")


@dataclass(frozen=True, slots=True)
class FieldResult:
    path: str
    field: str
    previous: str | None
    value: str
    changed: bool
    dry_run: bool
    line: str
    indexes: list[str] = field(default_factory=list)
    heading: bool = False
    warnings: list[str] = field(default_factory=list)


def stage_head(bank: Bank, doc: Document, raw: RawDoc, key: str, text: str, tx: Transaction, *, locked: bool) -> None:
    """Queue ``text``, ``doc`` with ``key``'s lines changed, once it reads back as well as it did and,
    for an agent (``locked``), keeps what the bank's law declares."""
    after, _ = parse_document(doc.path, raw.encode(text), bank_names=bank.paths.names)
    if doc.parse_error is None and after.parse_error is not None:
        raise Refusal(
            f"Setting {key} would leave {doc.path} with frontmatter that does not read back. Nothing was written.",
            reason="unparseable",
        )
    if locked:
        keep_the_law(bank, doc.path, raw.text, text)
    tx.write(doc.path, raw.encode(text))


def head_lines(raw: RawDoc, what: str) -> tuple[list[str], int, str]:
    """Lines of the frontmatter block, the index of its closing line, and the body."""
    head, body = raw.split()
    if not head:
        raise Refusal(f"{raw.path} has no frontmatter, so it has no {what} to set.", reason="no-frontmatter")
    lines = head.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    closing = len(lines) - 1
    return lines, closing, body


def key_span(lines: list[str], closing: int, key: str) -> tuple[int, int] | None:
    """First line of ``key:`` in the block and the line after its last continuation line."""
    pattern = re.compile(rf"^{re.escape(key)}:(?:\s|$)")
    for index in range(1, closing):
        if pattern.match(lines[index]):
            end = index + 1
            while end < closing:
                line = lines[end]
                if (
                    line.startswith((" ", "\t"))
                    or line.startswith("- ")
                    or not line.strip()
                    and end + 1 < closing
                    and lines[end + 1].startswith((" ", "\t", "- "))
                ):
                    end += 1
                else:
                    break
            return index, end
    return None


def candidates(style: str, value: str) -> list[str]:
    double = json.dumps(value, ensure_ascii=False)
    single = "'" + value.replace("'", "''") + "'"
    if style == "double":
        return [double]
    if style == "single":
        return [single, double]
    return [value, double]


def line_reads_back(line: str, value: str, previous: Any) -> bool:
    """Whether a one-line ``key: value`` parses on its own as ``value``: a line that does not (an
    unquoted ``: ``, which the bank's reader recovered leniently) is rewritten even though the
    value is the same, so setting a field to its own value is how it gets quoted."""
    return reads_back(line.split(":", 1)[1].strip(), value, previous)


def _same_in_yaml_11(candidate: str, value: str) -> bool:
    """Whether a plain value also reads back as itself under YAML 1.1, the reading of PyYAML,
    python-frontmatter and Ruby's Psych, where ``yes``, ``off`` and ``1:30`` are not strings: the
    bank is read by more tools than ours."""
    try:
        return yaml.safe_load(f"k: {candidate}\n") == {"k": value}
    except yaml.YAMLError:
        return False


def reads_back(candidate: str, value: str, previous: Any) -> bool:
    try:
        parsed = yamlio.load(f"k: {candidate}\n")
    except (yamlio.YAMLError, ValueError):
        return False
    got = parsed.get("k") if isinstance(parsed, dict) else None
    if isinstance(got, str):
        return got == value and (candidate[:1] in "'\"" or _same_in_yaml_11(candidate, value))
    # A value that was typed (a date) may stay typed when it reads back as the same type and text.
    return previous is not None and not isinstance(previous, str) and type(got) is type(previous) and str(got) == value


def scalar_line(key: str, value: str, previous: Any, current_line: str | None) -> str:
    """``key: value`` in the line's own quoting where that still reads back as ``value``."""
    style = "plain"
    if current_line is not None:
        inline = current_line.split(":", 1)[1].strip()
        style = {"'": "single", '"': "double"}.get(inline[:1], "plain")
    written = next((c for c in candidates(style, value) if reads_back(c, value, previous)), None)
    if written is None:
        raise Refusal(
            f"{json.dumps(value, ensure_ascii=False)} cannot be written as a frontmatter value that reads back unchanged.",
            reason="unwritable",
        )
    return f"{key}: {written}"
