"""What a write may carry: one-line scalars, bounded text, and paths that land as documents.

Every value an agent or a person sets goes through here before any gate judges it, because a gate
can only judge what will read back: a status holding a newline would write a second key, a title
with a line break would split its index entry, a NUL would corrupt the file, and a name with a
space or a colon registers as a link that resolves to nothing.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from memorybank.core.errors import Refusal

SCALAR_LIMIT = 4_096
"""Characters a frontmatter value (title, purpose, status, a list item) may hold."""
TEXT_LIMIT = 1_000_000
"""Characters a body or a section's content may hold, inline or from a file."""
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Line breaks, control characters, and the bidirectional overrides and isolates that make a value
display in another order than it reads."""
_NAME_CHARS = re.compile(r"^[\w.\-/]+$")
NAME_BYTES = 200
"""Bytes a file or folder name of a new document may hold: file systems stop at 255, and a write
goes through a temporary file whose name is the target's plus a few dozen bytes."""
PATH_BYTES = 1_024
"""Bytes a new document's bank path may hold, well inside what the operating system accepts."""


def _control(value: str) -> str | None:
    found = _CONTROL.search(value)
    return None if found is None else f"U+{ord(found.group(0)):04X}"


NAME_LIMIT = 100
"""Characters of a name the server stamps on a note (``captured_by``, ``proposed_by``)."""


def stamped_name(name: str | None) -> str | None:
    """A name a client gives for itself (its ``clientInfo.name``), made fit to stamp on a note and
    show the owner: control characters, line breaks and bidirectional overrides become spaces,
    runs of space one, and it is cut to ``NAME_LIMIT`` characters. None when nothing is left."""
    if not name:
        return None
    cleaned = " ".join(_CONTROL.sub(" ", name).split())[:NAME_LIMIT].strip()
    return cleaned or None


def scalar(name: str, value: str | None) -> str | None:
    """``value`` when it is one line of text of bounded length; None stays None.

    Raises:
        Refusal: a line break or a control character (``control-character``), or too long.
    """
    if value is None:
        return None
    if not isinstance(value, str):
        raise Refusal(f"`{name}` must be text, not {type(value).__name__}.", reason="not-text")
    code = _control(value)
    if code is not None:
        raise Refusal(
            f"`{name}` holds a line break or a control character ({code}). Frontmatter values are one line "
            "of text: put longer prose in the body.",
            reason="control-character",
        )
    if len(value) > SCALAR_LIMIT:
        raise Refusal(
            f"`{name}` is {len(value):,} characters; a frontmatter value holds at most {SCALAR_LIMIT:,}.",
            reason="too-large",
        )
    return value


LIST_LIMIT = 256
"""Items a list parameter (derived_from, canonical_for, must_not_define) may hold."""
EXTRA_LIMIT = 65_536
"""Characters the ``extra`` fields of a new document may hold together, as JSON."""


def scalars(name: str, values: list[str] | None) -> list[str] | None:
    """Each item of a list parameter checked as a scalar, the list bounded in length."""
    if values is None:
        return None
    if len(values) > LIST_LIMIT:
        raise Refusal(
            f"`{name}` lists {len(values):,} items; a frontmatter list holds at most {LIST_LIMIT}.", reason="too-large"
        )
    return [scalar(name, v) for v in values]  # type: ignore[misc]


def extra_value(name: str, value: Any, depth: int = 0) -> Any:
    """A value of ``extra``: scalars anywhere inside it checked, nesting bounded."""
    if depth > 4:
        raise Refusal(f"`extra.{name}` nests deeper than four levels.", reason="too-deep")
    if isinstance(value, str):
        return scalar(f"extra.{name}", value)
    if isinstance(value, list):
        return [extra_value(name, v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): extra_value(f"{name}.{k}", v, depth + 1) for k, v in value.items()}
    return value


def line_breaks(value: str) -> str:
    """Text with every line break as ``\\n``: a CRLF, and a lone CR, which markdown renderers end a
    line at too (a heading after one would show as a section the gates never saw). A write puts the
    file's own line endings back."""
    return value.replace("\r\n", "\n").replace("\r", "\n") if "\r" in value else value


def text(name: str, value: str | None) -> str | None:
    """A body or a section's content: any characters but NUL, bounded in length, line breaks as
    ``\\n`` (``line_breaks``)."""
    if value is None:
        return None
    value = line_breaks(value)
    if "\x00" in value:
        raise Refusal(f"`{name}` holds a NUL byte, which a text file cannot.", reason="control-character")
    if len(value) > TEXT_LIMIT:
        raise Refusal(
            f"`{name}` is {len(value):,} characters, past the {TEXT_LIMIT:,} a write accepts. Split it, or write "
            "the document section by section.",
            reason="too-large",
        )
    return value


def document_path(target: str, given: str) -> None:
    """A new document's bank path: every segment visible, and a name every index can link to.

    Raises:
        Refusal: a hidden segment (``.name``, ``.git``), an empty name (``.md``), or a character that
            a markdown link would have to escape (a space, ``:``, ``#``, brackets...).
    """
    segments = target.split("/")
    hidden = next((s for s in segments if s.startswith(".")), None)
    if hidden is not None:
        raise Refusal(
            f'{given}: "{hidden}" is hidden, and the index never reads hidden files or folders. Use a visible name.',
            reason="hidden-path",
        )
    if segments[-1] == ".md" or not segments[-1].removesuffix(".md"):
        raise Refusal(f"{given}: the file needs a name before .md.", reason="bad-name")
    too_long = next((s for s in segments if len(s.encode("utf-8")) > NAME_BYTES), None)
    if too_long is not None or len(target.encode("utf-8")) > PATH_BYTES:
        what = f'the name "{too_long[:40]}…" is' if too_long is not None else "the path is"
        raise Refusal(
            f"{clip(given, 80)}: {what} too long to write safely (at most {NAME_BYTES} bytes a name and "
            f"{PATH_BYTES} a path). Use a shorter name.",
            reason="bad-name",
        )
    normal = unicodedata.normalize("NFC", target)
    if not _NAME_CHARS.match(normal):
        bad = next(c for c in normal if not _NAME_CHARS.match(c))
        raise Refusal(
            f"{given}: {bad!r} in a file name makes a link that does not resolve. Use letters, digits, - and _ "
            "(for example sp-ace.md).",
            reason="bad-name",
        )


PREVIEW_LIMIT = 4_000
"""Characters of a preview or an echoed value an answer carries; the rest is marked, not sent."""


def clip(text: str, limit: int = PREVIEW_LIMIT) -> str:
    """``text`` cut to ``limit`` characters with a marker saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit:,} more characters not shown]"
