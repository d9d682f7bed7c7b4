"""Reading a frontmatter block: YAML in the frontmatter dialect first, then recovery line by line.

Real banks hold blocks YAML rejects (an unquoted ``: `` in a ``purpose`` is the commonest). Such a
document stays in the index with the values a person meant, and the YAML error is kept for the
``invalid-frontmatter`` finding.
"""

from __future__ import annotations

import re
from typing import Any

from memorybank.core import yamlio

_LENIENT_KEY = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*))?$", re.ASCII)
_LENIENT_ITEM = re.compile(r"^[ \t]*-[ \t]+(.*)$")
_LENIENT_PATH = re.compile(r"^path\s*:\s*(.*)$")
_LENIENT_FIT = re.compile(r"^\s+fit\s*:\s*(.*)$")


def _unquote(value: str) -> str:
    value = value.strip()
    if value[:1] in ("'", '"'):
        value = value[1:]
    if value[-1:] in ("'", '"'):
        value = value[:-1]
    return value.strip()


def lenient_frontmatter(yaml_text: str) -> dict[str, Any]:
    """Recover keys from frontmatter that YAML rejects, one line at a time.

    Top-level ``key: value`` lines, block list items under a key, and ``- path: X`` / ``fit: Y``
    pairs are kept; nested maps and comments are skipped. The usual cause is an unquoted ``: `` in a
    ``purpose``, whose value is kept whole.
    """
    data: dict[str, Any] = {}
    key: str | None = None
    items: list[Any] = []
    pending: dict[str, str] | None = None

    def flush() -> None:
        if key is not None and items:
            data[key] = list(items)

    for raw_line in yaml_text.split("\n"):
        line = raw_line.rstrip("\r").rstrip(" \t")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _LENIENT_ITEM.match(line)
        if item and key is not None and (line.startswith((" ", "\t", "-"))):
            text = item.group(1)
            path_match = _LENIENT_PATH.match(text)
            if path_match:
                pending = {"path": _unquote(path_match.group(1))}
                items.append(pending)
            else:
                items.append(_unquote(text))
                pending = None
            continue
        fit = _LENIENT_FIT.match(line)
        if fit and pending is not None:
            pending["fit"] = _unquote(fit.group(1))
            continue
        key_match = _LENIENT_KEY.match(line)
        if key_match and not line[:1].isspace():
            flush()
            key = key_match.group(1)
            items = []
            pending = None
            inline = key_match.group(2)
            if inline and inline.startswith("[") and inline.endswith("]"):
                data[key] = [_unquote(v) for v in inline[1:-1].split(",") if _unquote(v)]
            elif inline:
                data[key] = _unquote(inline)
            continue
    flush()
    return data


def parse_frontmatter(yaml_text: str) -> tuple[dict[str, Any], str | None]:
    """Parse a frontmatter block. Returns ``(data, first line of the error or None)``."""
    if not yaml_text.strip():
        return {}, None
    try:
        data = yamlio.load(yaml_text)
    except yamlio.YAMLError as error:
        return lenient_frontmatter(yaml_text), yamlio.first_error_line(error)
    except (ValueError, TypeError, OverflowError) as error:  # e.g. an impossible date
        return lenient_frontmatter(yaml_text), f"{error.__class__.__name__}: {error}"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        return lenient_frontmatter(
            yaml_text
        ), f"frontmatter is a {type(data).__name__}, not a mapping of keys to values"
    return {str(k): v for k, v in data.items()}, None
