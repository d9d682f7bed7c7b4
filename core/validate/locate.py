"""Finding the line a finding points at, so an editor or the TUI can jump straight to it."""

from __future__ import annotations

import re

from core.bank import Bank
from core.parse import split_frontmatter

_ERROR_LINE = re.compile(r"\(line (\d+)\)")


def key_line(bank: Bank, path: str, key: str) -> int | None:
    """1-based line of ``key:`` in the frontmatter of ``path``, if present."""
    text = bank.text(path)
    split = split_frontmatter(text)
    if not split.closed:
        return None
    prefix = f"{key}:"
    for number, line in enumerate(text[: split.head_end].split("\n"), start=1):
        if line.startswith(prefix):
            return number
    return None


def value_line(bank: Bank, path: str, key: str, value: str) -> int | None:
    """1-based line where ``value`` appears under ``key`` in the frontmatter (list items included)."""
    text = bank.text(path)
    split = split_frontmatter(text)
    if not split.closed:
        return None
    start = key_line(bank, path, key)
    if start is None:
        return None
    lines = text[: split.head_end].split("\n")
    for number in range(start, len(lines) + 1):
        line = lines[number - 1]
        if number > start and line and not line[0].isspace() and not line.startswith("-"):
            break
        if value in line:
            return number
    return start


def parse_error_line(doc_body_line: int, error: str) -> int:
    """The file line of a YAML error reported relative to the frontmatter block."""
    match = _ERROR_LINE.search(error or "")
    if match and doc_body_line > 1:
        return int(match.group(1)) + 1
    return 1
