"""Printing for the command line: JSON for scripts, aligned text for people, errors to stderr."""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import json
import re
import sys
from typing import Any, TextIO

from memorybank.core.controls import STEERING_TEXT


def _json_escape(error: UnicodeError) -> tuple[str, int]:
    """Characters the output's encoding cannot hold, as ``\\uXXXX``: readable in text, and JSON
    still (non-ASCII only ever appears inside a JSON string)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    escaped = []
    for char in error.object[error.start : error.end]:
        code = ord(char)
        if code > 0xFFFF:  # a UTF-16 surrogate pair, as JSON spells it
            code -= 0x10000
            escaped.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            escaped.append(f"\\u{code:04x}")
    return "".join(escaped), error.end


codecs.register_error("memorybank-escape", _json_escape)


def escape_unencodable(stream: Any) -> None:
    """Let standard output escape what its encoding cannot hold instead of failing mid-output: the
    bank's words under LC_ALL=C without Python's UTF-8 mode, a file name that is not UTF-8."""
    if stream is None:
        return
    with contextlib.suppress(AttributeError, ValueError):
        stream.reconfigure(errors="memorybank-escape")


_HIDDEN = STEERING_TEXT


def visible(value: object) -> str:
    """Text an agent wrote (a note's title, a proposal's reason, a client's name) as the owner's
    terminal should show it: a control character, an escape sequence or a bidirectional override is
    spelled out (``\\x1b``) instead of moving the cursor, erasing a line or reordering the text."""
    text = str(value)
    return _HIDDEN.sub(lambda found: f"\\u{ord(found.group(0)):04x}", text) if _HIDDEN.search(text) else text


def to_plain(value: Any) -> Any:
    """Dataclasses, tuples and sets as plain JSON-ready values; None fields of dataclasses dropped."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not None
        }
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_plain(v) for v in value)
    return value


def emit_json(value: Any, stream: TextIO | None = None) -> None:
    print(json.dumps(to_plain(value), ensure_ascii=False, indent=2, default=str), file=stream or sys.stdout)


# Core's messages name what an agent passes (``bank_set_status`` with ``releaseCanonical``); on the
# command line the same advice names the command and the flag that do it.
_COMMANDS = {
    "bank_capture": "create --inbox",
    "bank_changed": "changed",
    "bank_create": "create",
    "bank_discard": "discard",
    "bank_drift": "drift",
    "bank_edit": "edit",
    "bank_fold": "inbox fold",
    "bank_graph": "graph",
    "bank_init": "init",
    "bank_materialize_flows": "materialize-flows",
    "bank_promote": "promote",
    "bank_read": "read",
    "bank_route": "route",
    "bank_search": "search",
    "bank_set_field": "set-field",
    "bank_set_status": "set-status",
    "bank_update_section": "update-section",
    "bank_validate": "validate",
}
_FLAGS = {
    "bodyFile": "--body-file",
    "canonicalFor": "--canonical",
    "contentFile": "--content-file",
    "derivedFrom": "--derived",
    "docKind": "--kind",
    "dryRun": "--dry-run",
    "force": "--force",
    "mustNotDefine": "--must-not-define",
    "releaseCanonical": "--release-canonical",
}
_QUOTED = {"template": "--template"}
"""Parameters named by a word too common to swap bare: swapped where a message backticks them."""
_AGENT_WORDS = re.compile(
    r"\b(?:(?P<tool>bank_[a-z_]+)(?P<inbox> inbox: true)?|(?P<flag>" + "|".join(_FLAGS) + r")(?:: true)?)\b"
    r"|`(?P<quoted>" + "|".join(_QUOTED) + r")`"
)


def counted(number: int, one: str, many: str | None = None) -> str:
    """``1 document``, ``2 documents``: the count and the word that agrees with it."""
    return f"{number:,} {one if number == 1 else (many or one + 's')}"


def in_cli_words(message: str) -> str:
    """A core message as the command line says it: ``memorybank set-status`` for ``bank_set_status``,
    ``--release-canonical`` for ``releaseCanonical: true``, ``memorybank create --inbox`` for
    ``bank_create inbox: true``, ``--template`` for `` `template` ``."""

    def swap(found: re.Match[str]) -> str:
        if found.group("flag"):
            return _FLAGS[found.group("flag")]
        if found.group("quoted"):
            return _QUOTED[found.group("quoted")]
        command = _COMMANDS.get(found.group("tool"))
        if command is None:
            return found.group(0)
        return f"memorybank {command}" + (" --inbox" if found.group("inbox") else "")

    return _AGENT_WORDS.sub(swap, message)


def error(message: str) -> None:
    sys.stderr.write(f"memorybank: {in_cli_words(message)}\n")


def rows(pairs: list[tuple[str, str]], indent: int = 0) -> str:
    """Two aligned columns."""
    if not pairs:
        return ""
    width = max(len(k) for k, _ in pairs)
    pad = " " * indent
    return "\n".join(f"{pad}{k.ljust(width)}  {v}".rstrip() for k, v in pairs)


def human_bytes(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KB"
    return f"{count / 1024 / 1024:.1f} MB"
