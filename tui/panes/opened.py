"""A document as the Document pane holds it: read in one go, windowed for rendering."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memorybank.core.bank import Bank
from memorybank.core.model import Document, Section
from rich.text import Text


@dataclass(frozen=True)
class Opened:
    """Everything the pane shows about one document, read in one go."""

    doc: Document
    lines: tuple[str, ...]
    """The raw file's lines (frontmatter included), without their line ends."""
    incoming: tuple[str, ...]
    links: tuple[str, ...]
    """Bank paths the body links to, each once, in order."""
    known: frozenset[str]
    """Bank paths of the derived_from and link targets that exist."""

    @property
    def source(self) -> str:
        return "\n".join(self.lines)

    def span(self, section: Section | None) -> tuple[int, int]:
        """The 1-based raw lines a section covers, or the whole body's when None."""
        if section is not None:
            return section.line, section.end_line
        return self.doc.body_line, len(self.lines)


def raw_lines(text: str) -> tuple[str, ...]:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return tuple(line[:-1] if line.endswith("\r") else line for line in lines)


def read_opened(bank: Bank, path: str) -> Opened:
    """The document, its raw lines, and who derives from it."""
    with bank.lock:
        doc = bank.document(path)
        text = bank.text(doc.path)
        incoming = tuple(dict.fromkeys(bank.incoming(doc.path)))
        links = tuple(dict.fromkeys(link.resolved for link in doc.links if link.resolved))
        targets = [e.resolved for e in doc.derived_from if e.resolved] + list(links)
        known = frozenset(target for target in targets if target in bank)
    return Opened(doc, raw_lines(text), incoming, links, known)


def window(lines: tuple[str, ...], start: int, end: int, shown: int) -> tuple[str, int]:
    """Markdown for raw lines ``start``-``end`` (1-based), at most ``shown`` of them, and how many
    were left out. A fence cut in the middle is closed, so the rest does not render as code."""
    chosen = list(lines[start - 1 : end])
    while chosen and not chosen[-1].strip() and len(chosen) <= shown:
        chosen.pop()
    left = max(len(chosen) - shown, 0)
    chosen = chosen[:shown]
    fence = None
    for line in chosen:
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
        elif fence is not None and stripped.startswith(fence) and not stripped[len(fence) :].strip():
            fence = None
    if fence is not None:
        chosen.append(fence)
    return "\n".join(chosen).strip("\n"), left


def field_value(value: Any) -> Text:
    """A frontmatter value as an owner reads it: an empty value says so instead of ``None``."""
    if value is None or value == "" or value == []:
        return Text("(empty)", style="italic dim")
    return Text(_plain(value))


def _plain(value: Any) -> str:
    """A value as YAML would read, not as Python prints it: ``true``, ``a, b``, ``action: promote · to: x.md``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        return " · ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    return str(value)


def more_note(left: int) -> Text | None:
    """What the rendered view says under a window that leaves ``left`` lines out."""
    if not left:
        return None
    return Text.assemble(
        (f"… {left} more line{'s' if left != 1 else ''}: ", "italic"),
        ("m", "bold"),
        (" shows more, ", "italic"),
        ("s", "bold"),
        (" the source, or choose a section in the outline.", "italic"),
    )
