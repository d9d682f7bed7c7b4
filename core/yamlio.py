"""Reading and writing frontmatter YAML in one dialect.

Reading follows YAML 1.2's core schema, which is what people writing frontmatter mean: ``yes``,
``no``, ``on`` and ``off`` stay strings, ``1:30`` is not sexagesimal, and a key given twice is an
error rather than a silent overwrite. Parsing uses libyaml (``CSafeLoader``) when available.

Writing keeps the style a person would type: keys in insertion order, block lists indented under
their key, no line folding, quotes only where a value would not read back as the same string.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

try:  # libyaml makes the cold index several times faster.
    _BaseLoader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only without libyaml
    _BaseLoader = yaml.SafeLoader  # type: ignore[misc]

YAMLError = yaml.YAMLError


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader with YAML 1.2 core scalars and a refusal of duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                if key_node.value in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f'duplicated mapping key "{key_node.value}"', key_node.start_mark
                    )
                seen.add(key_node.value)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        text = self.construct_scalar(node).replace("_", "")
        sign = -1 if text.startswith("-") else 1
        text = text.lstrip("+-")
        if text.startswith("0o"):
            return sign * int(text[2:], 8)
        if text.startswith("0x"):
            return sign * int(text[2:], 16)
        return sign * int(text, 10)


_Loader.yaml_implicit_resolvers = {}
_RESOLVERS: list[tuple[str, str, str]] = [
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", "~nN\0"),
    (
        "tag:yaml.org,2002:timestamp",
        r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
        r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
        r"(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
        r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
        "0123456789",
    ),
    ("tag:yaml.org,2002:merge", r"^(?:<<)$", "<"),
]
for _tag, _pattern, _first in _RESOLVERS:
    _Loader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first.replace("\0", "")) or None)
# The empty scalar resolves to null; libyaml passes it with no first character.
_Loader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^$"), [""])
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def load(text: str) -> Any:
    """Parse one YAML document in the frontmatter dialect. Raises ``YAMLError``.

    Aliases (``*name``) are refused: frontmatter never needs them, and a few nested anchors (the
    "billion laughs") expand into more values than any reader of the document can walk.
    """
    if "*" in text and "&" in text:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                mark = event.start_mark
                raise yaml.YAMLError(
                    f"YAML aliases (*{event.anchor}) are not accepted in frontmatter"
                    + (f" (line {mark.line + 1})" if mark is not None else "")
                )
    return yaml.load(text, Loader=_Loader)


def first_error_line(error: Exception) -> str:
    """The first line of a YAML error, which is the part worth showing a person."""
    text = str(error).strip()
    if isinstance(error, yaml.MarkedYAMLError) and error.problem:
        where = f" (line {error.problem_mark.line + 1})" if error.problem_mark else ""
        context = f"{error.context}: " if error.context else ""
        return f"{context}{error.problem}{where}".strip()
    return text.splitlines()[0] if text else error.__class__.__name__


class _Dumper(yaml.SafeDumper):
    """Block lists indented under their key, as people write them. (The emitter is pure Python:
    libyaml's cannot be told to indent sequences, and writes are rare.)"""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


# A string the reader would take for a number, a date or a null must be quoted by the writer, which
# knows only YAML 1.1's forms: it learns the reader's too (``1e3``, ``0o17``), keeping its own.
for _tag, _pattern, _first in _RESOLVERS:
    _Dumper.add_implicit_resolver(_tag, re.compile(_pattern), list(_first.replace("\0", "")) or None)


def dump(data: dict[str, Any]) -> str:
    """Serialise a frontmatter mapping: insertion order, no folding, minimal quoting."""
    if not data:
        return ""
    return yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=2**31 - 1,
    )
