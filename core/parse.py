"""Parsing one markdown file into a ``Document``: the only place frontmatter and headings are read.

Real banks are messy, so nothing here raises on content: invalid YAML falls back to a line-by-line
reader that recovers what it can and keeps the error; a BOM, CRLF line endings, bytes that are not
UTF-8, empty files and files with no frontmatter all produce a usable record.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import re
from dataclasses import dataclass
from typing import Any

from memorybank.core.fences import FenceTracker
from memorybank.core.frontmatter import parse_frontmatter
from memorybank.core.model import Document, Edge, Link, Section
from memorybank.core.paths import BANK_DIR_NAMES, resolve_from, resolve_link
from memorybank.core.setext import setext_level

BOM = "\ufeff"

# Every pattern here runs on lines an agent may write: no lazy group followed by optional
# whitespace and an anchor, which backtracks quadratically on a long run of spaces. Trailing
# whitespace is stripped in Python instead.
_H2 = re.compile(r"^ {0,3}##[ \t]+(.*)$")
_H1 = re.compile(r"^ {0,3}#[ \t]+(.*)$")
HEADING_LEVEL = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]|$)")
"""Any ATX heading, its ``#`` marks in the group: a ``###`` section ends at one of level 3 or above."""
_INLINE_CODE = re.compile(r"(?<!\\)(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(
    r"!?\[((?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*)\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
)
_LINK_DEF = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s*(<[^>]*>|\S+)")  # not footnotes ([^x]:)


def decode(data: bytes) -> tuple[str, bool, bool]:
    """Decode file bytes. Returns ``(text without BOM, had a BOM, had bytes that are not UTF-8)``."""
    try:
        text = data.decode("utf-8")
        bad = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        bad = True
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    return text, bom, bad


@dataclass(frozen=True, slots=True)
class Split:
    """Where the frontmatter block ends and the body begins, in a decoded text."""

    has_frontmatter: bool
    """The text opens with a ``---`` line."""
    closed: bool
    """A closing ``---`` line was found."""
    yaml_text: str
    head_end: int
    """Character offset just past the closing delimiter line (its newline included)."""
    body_line: int
    """1-based line where the body starts."""

    def body(self, text: str) -> str:
        return text[self.head_end :]


def split_frontmatter(text: str) -> Split:
    """Find the frontmatter block: an opening ``---`` line and the first closing ``---`` line.

    ``----`` is not an opener. Text after the opening ``---`` on its line is ignored (a language
    tag). A block that never closes is not frontmatter: the whole text is body and the caller
    records the problem.
    """
    if not text.startswith("---") or text[3:4] == "-":
        return Split(False, False, "", 0, 1)
    first_nl = text.find("\n")
    if first_nl < 0:
        return Split(True, False, "", 0, 1)
    pos = first_nl + 1
    line_no = 2
    while pos <= len(text):
        nl = text.find("\n", pos)
        line = text[pos:] if nl < 0 else text[pos:nl]
        if line.rstrip() == "---" or line.rstrip() == "...":
            head_end = len(text) if nl < 0 else nl + 1
            return Split(True, True, text[first_nl + 1 : pos], head_end, line_no + 1)
        if nl < 0:
            break
        pos = nl + 1
        line_no += 1
    return Split(True, False, "", 0, 1)


def scalar(value: Any) -> str:
    """A frontmatter value read as text: strings only (trimmed); anything else reads as empty."""
    return value.strip() if isinstance(value, str) else ""


def string_list(value: Any) -> tuple[str, ...]:
    """A list field that may be written as one string or as a list; non-strings are dropped."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    return tuple(s for s in (v.strip() for v in value if isinstance(v, str)) if s)


def anchor_list(value: Any) -> tuple[str, ...]:
    out: list[str] = []
    for item in string_list(value):
        if item.startswith("./"):
            item = item[2:]
        elif item.startswith("/"):
            item = item[1:]
        if item:
            out.append(item)
    return tuple(out)


def edges_of(path: str, value: Any, bank_names: tuple[str, ...] = BANK_DIR_NAMES) -> tuple[Edge, ...]:
    """``derived_from`` in any of its forms: one string, a list of strings, a list of ``{path, fit}``."""
    if isinstance(value, (str, dict)):
        value = [value]
    if not isinstance(value, list):
        return ()
    edges: list[Edge] = []
    for item in value:
        fit: str | None = None
        if isinstance(item, str):
            raw = item
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            raw = item["path"]
            fit_value = item.get("fit")
            fit = fit_value.strip() if isinstance(fit_value, str) and fit_value.strip() else None
        else:
            continue
        if not raw.strip():
            continue
        resolved, external = resolve_from(path, raw, bank_names=bank_names)
        edges.append(Edge(raw=raw.strip(), resolved=resolved, external=external, fit=fit))
    return tuple(edges)


def _strip_heading(text: str) -> str:
    """A heading's text without its optional closing ``#`` sequence (which needs a space before it)."""
    text = text.rstrip(" \t")
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        text = bare
    return text.strip()


@dataclass(frozen=True, slots=True)
class BodyScan:
    sections: tuple[Section, ...]
    h1: str | None
    links: tuple[Link, ...]


def scan_lines(
    path: str, lines: list[str], start_line: int, total_lines: int, bank_names: tuple[str, ...] = BANK_DIR_NAMES
) -> BodyScan:
    """Headings and links of body ``lines`` (the first being raw line ``start_line``), outside fences."""
    tracker = FenceTracker(comments=True)
    heads: list[tuple[str, int]] = []  # (title, line) of level-2 headings
    stops: list[int] = []  # lines of level-1/level-2 headings, which end a section
    links: list[Link] = []
    h1: str | None = None
    line_no = start_line - 1
    previous = ""
    for raw_line in lines:
        line_no += 1
        line = raw_line[:-1] if raw_line.endswith("\r") else raw_line
        if tracker.feed(line):
            previous = ""
            continue
        depth = setext_level(previous, line)
        if depth:  # the line above is the heading: "Title" over "-----" or "====="
            stops.append(line_no - 1)
            if depth == 2:
                heads.append((_strip_heading(previous.strip()), line_no - 1))
            elif h1 is None:
                h1 = _strip_heading(previous.strip()) or None
        previous = "" if depth else line
        if line[:4].lstrip(" ").startswith("#"):
            level = HEADING_LEVEL.match(line)
            if level:
                depth = len(level.group(1))
                if depth == 2:
                    match = _H2.match(line)
                    title = _strip_heading(match.group(1)) if match else ""
                    if title:
                        heads.append((title, line_no))
                    stops.append(line_no)
                elif depth == 1:
                    stops.append(line_no)
                    if h1 is None:
                        match = _H1.match(line)
                        if match and _strip_heading(match.group(1)):
                            h1 = _strip_heading(match.group(1))
        if "](" in line or "]:" in line:
            plain = _INLINE_CODE.sub("", line) if "`" in line else line
            for match in _LINK.finditer(plain):
                target = match.group(2)
                if target.startswith("<"):
                    target = target[1:-1]
                resolved, _external = resolve_link(path, target, bank_names)
                links.append(Link(raw=target, line=line_no, resolved=resolved, label=match.group(1)))
            definition = _LINK_DEF.match(plain)
            if definition:
                target = definition.group(2).strip("<>")
                resolved, _external = resolve_link(path, target, bank_names)
                links.append(Link(raw=target, line=line_no, resolved=resolved, label=definition.group(1)))
    return BodyScan(_sections(heads, stops, total_lines), h1, tuple(links))


def _sections(heads: list[tuple[str, int]], stops: list[int], total_lines: int) -> tuple[Section, ...]:
    """Each ``##`` heading with the line range up to the next heading of level 1 or 2 (both lists
    are in line order, so the next stop is a binary search, not a scan)."""
    sections: list[Section] = []
    for title, line in heads:
        at = bisect.bisect_right(stops, line)
        end = stops[at] - 1 if at < len(stops) else total_lines
        sections.append(Section(title=title, line=line, end_line=max(end, line)))
    return tuple(sections)


SUBSECTION_LEVELS = (3, 4)
"""The heading levels a caller may also name a section by, below the ``##`` ones a document lists."""


def subsections(text: str) -> tuple[Section, ...]:
    """The ``###`` and ``####`` headings of a document's body (outside fences), each with the lines
    up to the next heading of its level or above: found on demand, when a caller names a section
    no ``##`` heading has."""
    lines = text.split("\n")
    split = split_frontmatter(text)
    start = split.body_line - 1 if split.closed else 0
    tracker = FenceTracker(comments=True)
    heads: list[tuple[int, str, int]] = []  # (level, title, line) of every heading
    previous = ""
    for index in range(start, len(lines)):
        line = lines[index].removesuffix("\r")
        if tracker.feed(line):
            previous = ""
            continue
        depth = setext_level(previous, line)
        previous = "" if depth else line
        if depth:
            heads.append((depth, "", index))  # the heading is the line above: it ends what runs before
            continue
        if not line[:4].lstrip(" ").startswith("#"):
            continue
        level = HEADING_LEVEL.match(line)
        if level:
            depth = len(level.group(1))
            heads.append((depth, _strip_heading(line.lstrip(" ")[depth:]), index + 1))
    total = count_lines(text)
    found = []
    for at, (depth, title, line) in enumerate(heads):
        if depth not in SUBSECTION_LEVELS or not title:
            continue
        end = next((heads[i][2] - 1 for i in range(at + 1, len(heads)) if heads[i][0] <= depth), total)
        found.append(Section(title=title, line=line, end_line=max(end, line), level=depth))
    return tuple(found)


def count_lines(text: str) -> int:
    if not text:
        return 0
    n = text.count("\n")
    return n if text.endswith("\n") else n + 1


def parse_document(
    path: str,
    data: bytes,
    *,
    layer: str = "other",
    mtime: float = 0.0,
    bank_names: tuple[str, ...] = BANK_DIR_NAMES,
) -> tuple[Document, str]:
    """Parse one file's bytes. Returns the record and the decoded text (BOM removed; a file that
    ends its lines with a lone CR, as classic Mac editors did, is read with LF)."""
    text, bom, bad = decode(data)
    if "\r" in text and "\n" not in text:
        text = text.replace("\r", "\n")
    split = split_frontmatter(text)
    error: str | None = None
    front: dict[str, Any] = {}
    if split.has_frontmatter and not split.closed:
        error = "the frontmatter opens with --- but never closes; the whole file was read as body"
        split = Split(False, False, "", 0, 1)
    elif split.closed:
        front, error = parse_frontmatter(split.yaml_text)
    body = split.body(text)
    total = count_lines(text)
    body_lines = body.split("\n")
    if body.endswith("\n"):
        body_lines.pop()
    scan = scan_lines(path, body_lines, split.body_line, total, bank_names)
    stem = path.rsplit("/", 1)[-1]
    stem = stem[:-3] if stem.endswith(".md") else stem
    title = scalar(front.get("title")) or scan.h1 or stem
    document = Document(
        path=path,
        title=title,
        doc_kind=scalar(front.get("doc_kind")),
        doc_function=scalar(front.get("doc_function")),
        purpose=scalar(front.get("purpose")),
        status=scalar(front.get("status")),
        delivery_status=scalar(front.get("delivery_status")),
        decision_status=scalar(front.get("decision_status")),
        layer=layer,
        derived_from=edges_of(path, front.get("derived_from"), bank_names),
        canonical_for=string_list(front.get("canonical_for")),
        must_not_define=string_list(front.get("must_not_define")),
        anchors=anchor_list(front.get("anchors")),
        sections=scan.sections,
        links=scan.links,
        frontmatter=front,
        has_frontmatter=split.closed,
        parse_error=error,
        body_line=split.body_line,
        line_count=total,
        size=len(data),
        mtime=mtime,
        bom=bom,
        crlf="\r\n" in text,
        decode_error=bad,
    )
    return document, text


def jsonable(value: Any) -> Any:
    """Frontmatter values made safe for JSON: dates become ISO strings, keys become strings."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
