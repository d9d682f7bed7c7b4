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

_ENTRY_LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)\s>]+?(?:\.md|/))(?:#[^)\s]*)?>?(?:\s+\"[^\"]*\")?\s*\)")
"""A link an index entry makes: to a document, or to a package folder (``[FT-001/](FT-001/)``)."""
_NUMBERED = re.compile(r"^(\s*)(\d+)([.)])\s")
_BULLET = re.compile(r"^(\s*)([-*+])\s")


def _body_start(lines: list[str], text: str) -> int:
    split = split_frontmatter(text)
    return split.body_line - 1 if split.closed else 0


def _entry_lines(lines: list[str], start: int) -> list[int]:
    """Indexes of lines, outside fences and frontmatter, that link a markdown document or a
    package folder."""
    tracker = FenceTracker(comments=True)
    found = []
    for index, line in enumerate(lines):
        if index < start or tracker.feed(line):
            continue
        if _ENTRY_LINK.search(line):
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


def entry_for(
    model: str | None, link: str, title: str, purpose: str, header: list[str] | None = None, status: str = ""
) -> str:
    """One index entry for a document, shaped like ``model`` (an existing entry line); a table row
    fills the columns its ``header`` names (see ``_row``)."""
    purpose = escape_text(" ".join(purpose.split()))
    tail = f" — {purpose}" if purpose else ""  # a document found without a purpose is listed by title
    plain = escape_label(title) == title
    if model is None:
        return f"- [{escape_label(title)}]({link}){tail}"
    labels = _ENTRY_LINK.findall(model)
    backticked = bool(labels) and labels[0][0].startswith("`") and labels[0][0].endswith("`")
    label = f"`{title}`" if backticked and plain else escape_label(title)
    anchor = f"[{label}]({link})"
    stripped = model.lstrip()
    if stripped.startswith("|"):
        return _row(model, link, title, purpose, header or [], status, anchor)
    numbered = _NUMBERED.match(model)
    if numbered:
        return f"{numbered.group(1)}{int(numbered.group(2)) + 1}{numbered.group(3)} {anchor}{tail}"
    bullet = _BULLET.match(model)
    if bullet:
        return f"{bullet.group(1)}{bullet.group(2)} {anchor}{tail}"
    return f"- {anchor}{tail}"


_TITLE = frozenset("title name название наименование заголовок документ document".split())
_PURPOSE = frozenset("purpose description summary назначение описание суть зачем".split())
_STATUS = frozenset("status статус state состояние".split())


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def _row(model: str, link: str, title: str, purpose: str, header: list[str], status: str, anchor: str) -> str:
    """A table row shaped like ``model``: the link where its link is, labelled as it labels (an
    identifier such as `UC-001` taken from its file name is read off the new file's name), and
    the title, purpose and status in the columns the header names so; without such a header, the
    purpose after the link, as before."""
    model_cells = _cells(model)
    columns = max(len(model_cells), 1)
    at = next((i for i, cell in enumerate(model_cells) if _ENTRY_LINK.search(cell)), 0)
    label, target = _ENTRY_LINK.findall(model_cells[at])[0] if _ENTRY_LINK.search(model_cells[at]) else ("", "")
    bare = label.strip("`")
    stem = target.rsplit("/", 1)[-1].removesuffix(".md")
    new_stem = link.rsplit("/", 1)[-1].removesuffix(".md")
    identifier = bool(bare) and stem != bare and stem.startswith(bare) and bare.count("-") < new_stem.count("-")
    if identifier:
        new_label = "-".join(new_stem.split("-")[: bare.count("-") + 1])
        anchor = f"[{'`' + new_label + '`' if label.startswith('`') else escape_label(new_label)}]({link})"
    names = [h.strip().strip("`*_").lower() for h in header] if len(header) == columns else []
    cells = [""] * columns
    cells[at] = anchor
    placed = False
    for index, name in enumerate(names):  # a whole header names a value: "Prompt status" is not the status
        if index == at:
            continue
        if name in _TITLE and identifier:  # the identifier has its own cell: not again before the title
            cells[index] = escape_text(re.sub(rf"^{re.escape(new_label)}\s*[:.—–-]?\s*", "", title) or title)
        elif name in _PURPOSE:
            cells[index], placed = purpose, True
        elif name in _STATUS and status:
            cells[index] = f"`{status}`" if model_cells[index].startswith("`") else status
    if (
        columns > at + 1
        and not placed
        and not (names and identifier)
        and not cells[at + 1]
        and _prose(model_cells[at + 1])
    ):
        cells[at + 1] = purpose  # the model's next cell says what its document is for, as an entry reads
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _prose(cell: str) -> bool:
    """Whether a cell reads as a sentence about its row (not a link, a code span or a bare value)."""
    return not _ENTRY_LINK.search(cell) and len(re.findall(r"[^\W\d_]{2,}", cell.replace("`", ""))) >= 2


def _header(lines: list[str], row: int) -> list[str]:
    """The header cells of the table ``row`` belongs to, or none when it has no header row."""
    top = row
    while top > 0 and lines[top - 1].lstrip().startswith("|"):
        top -= 1
    if top + 1 < len(lines) and re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", lines[top + 1]) and top < row:
        return _cells(lines[top])
    return []


def _folder(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _links_a_sibling(line: str, index_path: str, doc_path: str) -> bool:
    """Whether an entry links a document of the new one's folder (not its README), or a package
    folder beside the new one's own (``[FT-001/](FT-001/)`` for ``FT-002/feature.md``)."""
    directory = _folder(doc_path)
    for _, target in _ENTRY_LINK.findall(line):
        resolved, _ = resolve_link(index_path, target)
        if not resolved:
            continue
        if target.endswith("/"):
            if directory != _folder(index_path) and _folder(resolved) == _folder(directory) and resolved != directory:
                return True
        elif _folder(resolved) == directory and not resolved.endswith("README.md"):
            return True
    return False


def register_line(index_text: str, index_path: str, doc_path: str, title: str, purpose: str, status: str = "") -> str:
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
    siblings = [index for index in entries if _links_a_sibling(lines[index], index_path, doc_path)]
    link = relative_link(index_path, doc_path)
    chosen = (siblings or entries or [None])[-1]
    if chosen is None:
        return text.rstrip() + f"\n\n{entry_for(None, link, title, purpose)}\n"
    model = lines[chosen]
    entry = entry_for(model, link, title, purpose, _header(lines, chosen), status)
    after = _continuation_end(lines, chosen)
    listed = bool(_BULLET.match(model) or _NUMBERED.match(model) or model.lstrip().startswith("|"))
    lines[after + 1 : after + 1] = [entry] if listed else ["", entry]  # not glued under a paragraph
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
