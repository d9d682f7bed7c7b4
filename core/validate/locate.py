"""Finding the line a finding points at, so an editor or the TUI can jump straight to it.

A document may declare thousands of ``derived_from`` entries; each line is found in one pass over
its key's block (kept for the text it was built from), never by rescanning the file per entry.
"""

from __future__ import annotations

import functools
import re

from memorybank.core.bank import Bank
from memorybank.core.parse import split_frontmatter

_ERROR_LINE = re.compile(r"\(line (\d+)\)")


@functools.lru_cache(maxsize=256)
def _head(text: str) -> tuple[str, ...]:
    """The frontmatter block's lines (empty when the block does not close)."""
    split = split_frontmatter(text)
    return tuple(text[: split.head_end].split("\n")) if split.closed else ()


@functools.lru_cache(maxsize=256)
def _block(text: str, key: str) -> tuple[int, dict[str, int], tuple[tuple[int, str], ...]] | None:
    """Where ``key:`` starts, each list item or value of its block with its line, and the lines."""
    lines = _head(text)
    prefix = f"{key}:"
    start = next((n for n, line in enumerate(lines, start=1) if line.startswith(prefix)), None)
    if start is None:
        return None
    items: dict[str, int] = {}
    block: list[tuple[int, str]] = []
    for number in range(start, len(lines) + 1):
        line = lines[number - 1]
        if number > start and line and not line[0].isspace() and not line.startswith("-"):
            break
        block.append((number, line))
        item = line[len(prefix) :] if number == start else line
        item = item.strip().removeprefix("-").strip().removeprefix("path:").strip().strip("'\"")
        items.setdefault(item, number)
    return start, items, tuple(block)


def key_line(bank: Bank, path: str, key: str) -> int | None:
    """1-based line of ``key:`` in the frontmatter of ``path``, if present."""
    found = _block(bank.text(path), key)
    return found[0] if found else None


def value_line(bank: Bank, path: str, key: str, value: str) -> int | None:
    """1-based line where ``value`` appears under ``key`` in the frontmatter (list items included)."""
    found = _block(bank.text(path), key)
    if found is None:
        return None
    start, items, block = found
    if value in items:
        return items[value]
    return next((number for number, line in block if value in line), start)


def without_line(error: str) -> str:
    """A YAML error without the line it counts from the frontmatter block's start."""
    return re.sub(r"\s*\(line \d+\)", "", error)


def parse_error_line(doc_body_line: int, error: str) -> int:
    """The file line of a YAML error reported relative to the frontmatter block."""
    match = _ERROR_LINE.search(error or "")
    if match and doc_body_line > 1:
        return int(match.group(1)) + 1
    return 1
