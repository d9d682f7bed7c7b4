"""Registering a document in an index, in the shape the index already uses.

The new entry copies the last entry of the index (preferring one that links a sibling of the new
document): a table row, a numbered item, or a bullet, with backticked labels mirrored. The "Empty."
line of a new section index is removed by its first registration.
"""

from __future__ import annotations

import re

from memorybank.core.parse import FenceTracker, split_frontmatter
from memorybank.core.paths import relative_link, resolve_link
from memorybank.core.sections import EMPTY_REGISTRY

_MD_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)\s>]+?\.md)(?:#[^)\s]*)?>?(?:\s+\"[^\"]*\")?\s*\)")
_NUMBERED = re.compile(r"^(\s*)(\d+)([.)])\s")
_BULLET = re.compile(r"^(\s*)([-*+])\s")


def _body_start(lines: list[str], text: str) -> int:
    split = split_frontmatter(text)
    return split.body_line - 1 if split.closed else 0


def _entry_lines(lines: list[str], start: int) -> list[int]:
    """Indexes of lines, outside fences and frontmatter, that link a markdown document."""
    tracker = FenceTracker()
    found = []
    for index, line in enumerate(lines):
        if index < start or tracker.feed(line):
            continue
        if _MD_LINK.search(line):
            found.append(index)
    return found


def _continuation_end(lines: list[str], index: int) -> int:
    """The last line of the entry at ``index``: indented description lines belong to it."""
    end = index
    for following in range(index + 1, len(lines)):
        line = lines[following]
        if not line.strip() or not line[0].isspace() or _BULLET.match(line) or _NUMBERED.match(line):
            break
        end = following
    return end


_LABEL_ESCAPES = str.maketrans({"\\": "\\\\", "[": "\\[", "]": "\\]", "`": "\\`"})
_TEXT_ESCAPES = str.maketrans({"\\": "\\\\", "`": "\\`"})


def escape_label(text: str) -> str:
    """Text as a link label that reads back whole: brackets, backslashes and backticks escaped."""
    return text.translate(_LABEL_ESCAPES)


def escape_text(text: str) -> str:
    """Prose on an index line that cannot open a code span or swallow the link before it."""
    return text.translate(_TEXT_ESCAPES)


def entry_for(model: str | None, link: str, title: str, purpose: str) -> str:
    """One index entry for a document, shaped like ``model`` (an existing entry line)."""
    purpose = escape_text(" ".join(purpose.split()))
    plain = escape_label(title) == title
    if model is None:
        return f"- [{escape_label(title)}]({link}) — {purpose}"
    labels = _MD_LINK.findall(model)
    backticked = bool(labels) and labels[0][0].startswith("`") and labels[0][0].endswith("`")
    label = f"`{title}`" if backticked and plain else escape_label(title)
    anchor = f"[{label}]({link})"
    stripped = model.lstrip()
    if stripped.startswith("|"):
        columns = max(len(stripped.strip().strip("|").split("|")), 1)
        cells = [anchor.replace("|", "\\|"), purpose.replace("|", "\\|")] + [""] * max(columns - 2, 0)
        return "| " + " | ".join(cells[:columns] if columns >= 2 else cells[:1]) + " |"
    numbered = _NUMBERED.match(model)
    if numbered:
        return f"{numbered.group(1)}{int(numbered.group(2)) + 1}{numbered.group(3)} {anchor} — {purpose}"
    bullet = _BULLET.match(model)
    if bullet:
        return f"{bullet.group(1)}{bullet.group(2)} {anchor} — {purpose}"
    return f"- {anchor} — {purpose}"


def register_line(index_text: str, index_path: str, doc_path: str, title: str, purpose: str) -> str:
    """``index_text`` with an entry for ``doc_path`` added after the index's last entry.

    Text is LF-normalised; the caller restores the file's own line endings.
    """
    lines = index_text.split("\n")
    start = _body_start(lines, index_text)
    empty = [i for i, line in enumerate(lines) if i >= start and line.strip() == EMPTY_REGISTRY]
    for index in reversed(empty):
        del lines[index]
        if index < len(lines) and not lines[index].strip():
            del lines[index]
    text = "\n".join(lines)
    entries = _entry_lines(lines, start)
    directory = doc_path.rsplit("/", 1)[0] if "/" in doc_path else ""
    siblings = []
    for index in entries:
        for _, target in _MD_LINK.findall(lines[index]):
            resolved, _ = resolve_link(index_path, target)
            if (
                resolved
                and (resolved.rsplit("/", 1)[0] if "/" in resolved else "") == directory
                and not resolved.endswith("README.md")
            ):
                siblings.append(index)
                break
    link = relative_link(index_path, doc_path)
    chosen = (siblings or entries or [None])[-1]
    if chosen is None:
        return text.rstrip() + f"\n\n{entry_for(None, link, title, purpose)}\n"
    entry = entry_for(lines[chosen], link, title, purpose)
    after = _continuation_end(lines, chosen)
    lines.insert(after + 1, entry)
    return "\n".join(lines)


def register_section(root_text: str, directory: str, route: str, *, known: set[str]) -> str:
    """The root index with an entry for a new section index ``<directory>/README.md``.

    The entry goes after the last entry that links another known section's index, in the same
    two-line shape (a link, then the route sentence indented); without such an entry it is added as
    an ordinary entry. No change when the root already links the section.
    """
    target = f"{directory}/README.md"
    if f"({target})" in root_text or f"({directory}/)" in root_text:
        return root_text
    lines = root_text.split("\n")
    pattern = re.compile(r"^- \[(`?)([\w-]+)/README\.md\1\]\(")
    model = None
    for index, line in enumerate(lines):
        match = pattern.match(line)
        if match and match.group(2) in known:
            model = (index, bool(match.group(1)))
    if model is None:
        return register_line(root_text, "README.md", target, f"{directory}/README.md", route)
    index, ticks = model
    end = _continuation_end(lines, index)
    label = f"`{target}`" if ticks else target
    lines[end + 1 : end + 1] = [f"- [{label}]({target})", f"  {route}"]
    return "\n".join(lines)
