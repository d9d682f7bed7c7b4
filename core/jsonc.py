"""JSON with comments (JSONC), read and edited the way its owner wrote it.

A client config is the owner's file: ``setup`` may change one entry in it and nothing else. So an
edit here is textual. A comment-aware scan blanks ``//`` and ``/* */`` comments (strings, URLs
with ``//`` in them included, are left alone), a small parser records where every value starts and
ends, and only the span of the entry we own is inserted or replaced. Comments, key order,
indentation, line endings and trailing commas elsewhere stay byte for byte, and the result is
parsed again and compared with the intended value before anyone writes it.

``comments=False`` is plain JSON: a comment or a trailing comma is refused with its line, for the
clients that would reject such a file themselves.

No PyPI library did this: ``json5``, ``pyjson5``, ``commentjson`` and ``jsonc-parser`` read but drop
comments; ``json-five`` round-trips but builds on an unmaintained parser generator, reads all of
JSON5 (more than any client here accepts) and offers no insertion that keeps the owner's layout.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_WORDS = {"true": True, "false": False, "null": None}
_SPACE = " \t\r\n"


class JsoncError(ValueError):
    """A file that could not be read, with the line and column where reading stopped."""

    def __init__(self, reason: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.reason, self.line, self.column = reason, line, column


@dataclass(slots=True)
class Node:
    """One value of the document: its kind, its span ``[start, end)`` and, for an object or an
    array, its children as ``(key or None, offset of the key or item, node)``."""

    kind: str
    start: int
    end: int
    value: Any
    children: list[tuple[str | None, int, Node]] = field(default_factory=list)

    def member(self, key: str) -> tuple[int, Node] | None:
        found = [(at, node) for name, at, node in self.children if name == key]
        return found[-1] if found else None  # a repeated key: the last one wins, as in every reader


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _error(text: str, offset: int, reason: str) -> JsoncError:
    return JsoncError(reason, *_position(text, offset))


def _blank(text: str, comments: bool) -> tuple[str, list[tuple[int, int]]]:
    """The text with every comment turned to spaces (line breaks kept, so offsets and lines still
    match), and the comments' spans. Strings are skipped whole: ``"http://x"`` is not a comment."""
    out = list(text)
    spans: list[tuple[int, int]] = []
    if text.startswith("\ufeff"):
        out[0] = " "
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            if j >= n or text[j] != '"':
                raise _error(text, i, "a string that is not closed on its line")
            i = j + 1
        elif char == "/" and text[i + 1 : i + 2] in ("/", "*"):
            if not comments:
                raise _error(text, i, "a comment, which plain JSON does not allow")
            if text[i + 1] == "/":
                end = text.find("\n", i)
                end = n if end < 0 else end
            else:
                end = text.find("*/", i + 2)
                if end < 0:
                    raise _error(text, i, "a /* comment that is never closed")
                end += 2
            for k in range(i, end):
                if out[k] not in "\r\n":
                    out[k] = " "
            spans.append((i, end))
            i = end
        else:
            i += 1
    return "".join(out), spans


class _Parser:
    """Recursive descent over the blanked text; every node keeps its span."""

    def __init__(self, text: str, blank: str, trailing_commas: bool) -> None:
        self.text, self.s, self.trailing, self.i = text, blank, trailing_commas, 0

    def fail(self, reason: str, at: int | None = None) -> JsoncError:
        return _error(self.text, self.i if at is None else at, reason)

    def skip(self) -> str:
        while self.i < len(self.s) and self.s[self.i] in _SPACE:
            self.i += 1
        return self.s[self.i : self.i + 1]

    def document(self) -> Node:
        node = self.value()
        if self.skip():
            raise self.fail("more text after the end of the document")
        return node

    def value(self) -> Node:
        char, start = self.skip(), self.i
        if char in ("{", "["):
            return self.container(char)
        if char == '"':
            return Node("string", start, self.string_end(), self.string(start))
        match = _NUMBER.match(self.s, start)
        if match:
            self.i = match.end()
            return Node("number", start, self.i, json.loads(match.group()))
        for word, value in _WORDS.items():
            if self.s.startswith(word, start):
                self.i = start + len(word)
                return Node("literal", start, self.i, value)
        raise self.fail("the file ends where a value should be" if not char else f"{char!r} where a value should be")

    def string_end(self) -> int:
        j = self.i + 1
        while self.s[j] != '"':
            j += 2 if self.s[j] == "\\" else 1
        self.i = j + 1
        return self.i

    def string(self, start: int) -> str:
        try:
            return json.loads(self.s[start : self.i])
        except json.JSONDecodeError as error:
            raise self.fail(f"a string JSON cannot read ({error.msg})", start) from None

    def container(self, opener: str) -> Node:
        closer, kind = ("}", "object") if opener == "{" else ("]", "array")
        node = Node(kind, self.i, -1, {} if kind == "object" else [])
        self.i += 1
        if self.skip() == closer:
            self.i += 1
            node.end = self.i
            return node
        while True:
            at = self.i
            if kind == "object":
                if self.skip() != '"':
                    raise self.fail('a "quoted" key expected here')
                at = self.i
                self.string_end()
                key: str | None = self.string(at)
                if self.skip() != ":":
                    raise self.fail('":" expected after a key')
                self.i += 1
            else:
                key = None
            child = self.value()
            at = child.start if key is None else at
            node.children.append((key, at, child))
            if key is None:
                node.value.append(child.value)
            else:
                node.value[key] = child.value
            char = self.skip()
            if char == ",":
                comma = self.i
                self.i += 1
                if self.skip() == closer:
                    if not self.trailing:
                        raise self.fail("a trailing comma, which plain JSON does not allow", comma)
                    break
                continue
            if char == closer:
                break
            raise self.fail(f'"," or "{closer}" expected' if char else f"the file ends before this {kind} closes")
        self.i += 1
        node.end = self.i
        return node


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``1`` and ``true`` differ, key order does not matter."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _nest(keys: Sequence[str], value: Any) -> Any:
    for key in reversed(keys):
        value = {key: value}
    return value


class _Document:
    def __init__(self, text: str, comments: bool) -> None:
        self.text = text
        self.blank, self.comments = _blank(text, comments)
        self.empty = not self.blank.strip()
        self.root = None if self.empty else _Parser(text, self.blank, comments).document()
        self.newline = "\r\n" if "\r\n" in text else "\n"
        widths = re.findall(r"^([ \t]+)\S", self.blank, re.MULTILINE)
        self.unit = min(widths, key=len) if widths else "  "

    def line_indent(self, offset: int) -> str:
        start = self.text.rfind("\n", 0, offset) + 1
        return re.match(r"[ \t]*", self.text[start:]).group()

    def render(self, value: Any, indent: str) -> str:
        dumped = json.dumps(value, indent=self.unit, ensure_ascii=False)
        return dumped.replace("\n", self.newline + indent)

    def replace(self, node: Node, key_at: int, value: Any) -> str:
        if "\n" in self.blank[node.start : node.end]:
            rendered = self.render(value, self.line_indent(key_at))
        else:
            rendered = json.dumps(value, ensure_ascii=False)
        return self.text[: node.start] + rendered + self.text[node.end :]

    def in_comment(self, offset: int) -> bool:
        return any(start < offset < end for start, end in self.comments)

    def insert(self, node: Node, key: str | None, value: Any) -> str:
        """``node`` (an object or an array) with one more member at its end, laid out like its
        siblings: on its own line in a multi-line container, inline in a one-line one."""
        text, s, close = self.text, self.blank, node.end - 1
        head = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
        # an empty "{}" in a multi-line file opens up; a one-line container with members stays one line
        opens = not node.children and not s[node.start + 1 : close].strip() and "\n" in s.strip()
        if "\n" not in s[node.start : node.end] and not opens:
            piece = head + json.dumps(value, ensure_ascii=False)
            if not node.children:
                return text[: node.start + 1] + piece + text[node.start + 1 :]
            end = node.children[-1][2].end
            comma = s.find(",", end, close)
            if comma >= 0:
                return text[: comma + 1] + " " + piece + "," + text[comma + 1 :]
            return text[:end] + ", " + piece + text[end:]
        first = node.children[0][1] if node.children else None
        if first is not None and not text[text.rfind("\n", 0, first) + 1 : first].strip():
            indent = self.line_indent(first)
        else:
            indent = self.line_indent(node.start) + self.unit
        piece = self.newline + indent + head + self.render(value, indent)
        if not node.children:
            if not any(node.start < start < close for start, _ in self.comments):
                return text[: node.start + 1] + piece + self.newline + self.line_indent(node.start) + text[close:]
            return text[: node.start + 1] + piece + text[node.start + 1 :]
        end = node.children[-1][2].end
        comma = s.find(",", end, close)
        after = comma + 1 if comma >= 0 else end
        line_end = s.find("\n", after, close)
        at = after
        if line_end >= 0 and not s[after:line_end].strip() and not self.in_comment(line_end):
            at = line_end - 1 if text[line_end - 1] == "\r" else line_end
        result = text[:at] + piece + ("," if comma >= 0 else "") + text[at:]
        return result if comma >= 0 else result[:end] + "," + result[end:]


def load(text: str | None, *, comments: bool) -> Any:
    """The value a file holds (``{}`` for a missing or blank one)."""
    document = _Document(text or "", comments)
    return {} if document.root is None else document.root.value


def _walk(document: _Document, keys: Sequence[str]) -> tuple[Node, int, list[str]]:
    """The deepest existing object along ``keys``, and the keys that are still missing below it."""
    node = document.root
    if node is None or node.kind != "object":
        raise _error(document.text, 0 if node is None else node.start, "the file does not hold a JSON object")
    for depth, key in enumerate(keys):
        found = node.member(key)
        if found is None:
            return node, -1, list(keys[depth:])
        at, child = found
        if depth == len(keys) - 1:
            return child, at, []
        if child.kind != "object":
            raise _error(document.text, child.start, f'"{key}" holds {child.kind}, not an object')
        node = child
    raise AssertionError("keys must not be empty")


def _checked(after: str, expected: Any, comments: bool) -> str:
    if not _same(load(after, comments=comments), expected):  # pragma: no cover - a bug guard
        raise RuntimeError("the edit would change more than the memorybank entry; nothing was written")
    return after


def set_member(text: str | None, keys: Sequence[str], value: Any, *, comments: bool) -> str:
    """``text`` with ``root[keys[0]]...[keys[-1]] = value``, creating the objects on the way;
    everything else byte for byte. An equal value leaves the text as it was."""
    document = _Document(text or "", comments)
    if document.root is None:
        return json.dumps(_nest(keys, value), indent=2, ensure_ascii=False) + "\n"
    expected = copy.deepcopy(document.root.value)
    target = expected
    node, at, missing = _walk(document, keys)
    for key in keys[:-1]:
        target = target.setdefault(key, {})
    target[keys[-1]] = value
    if missing:
        return _checked(document.insert(node, missing[0], _nest(missing[1:], value)), expected, comments)
    if _same(node.value, value):
        return document.text
    return _checked(document.replace(node, at, value), expected, comments)


def append_item(text: str | None, keys: Sequence[str], item: Any, *, comments: bool) -> str:
    """``text`` with ``item`` appended to the array at ``keys`` (created when missing)."""
    document = _Document(text or "", comments)
    if document.root is None:
        return set_member(text, keys, [item], comments=comments)
    node, _, missing = _walk(document, keys)
    if missing:
        return set_member(text, keys, [item], comments=comments)
    if node.kind != "array":
        raise _error(document.text, node.start, f'"{keys[-1]}" holds {node.kind}, not an array')
    expected = copy.deepcopy(document.root.value)
    target = expected
    for key in keys:
        target = target[key]
    target.append(item)
    return _checked(document.insert(node, None, item), expected, comments)


def remove_member(text: str | None, keys: Sequence[str], *, comments: bool) -> str:
    """``text`` without ``root[keys[0]]...[keys[-1]]``; everything else byte for byte (a member on
    lines of its own goes with its lines). A member that is not there leaves the text as it was."""
    document = _Document(text or "", comments)
    if document.root is None:
        return document.text
    node, at, missing = _walk(document, keys)
    if missing:
        return document.text
    parent = document.root if len(keys) == 1 else _walk(document, keys[:-1])[0]
    expected = copy.deepcopy(document.root.value)
    target = expected
    for key in keys[:-1]:
        target = target[key]
    del target[keys[-1]]
    place = next(i for i, (_, offset, _) in enumerate(parent.children) if offset == at)
    before = parent.children[place - 1][2] if place else None
    after = parent.children[place + 1] if place + 1 < len(parent.children) else None
    text, s = document.text, document.blank
    start, end = at, node.end
    comma = re.match(r"[ \t\r\n]*,", s[end:])
    if comma:
        end += comma.end()
    line_start = s.rfind("\n", 0, start) + 1
    line_end = s.find("\n", end)
    own_lines = not s[line_start:start].strip() and line_end >= 0 and not s[end:line_end].strip()
    if own_lines:
        start, end = line_start, line_end + 1
    elif after is not None:
        end = after[1]  # up to the next member's key
    if after is None and not comma and before is not None:  # the last member: the comma before it goes
        cut = s.rfind(",", before.end, at)
        if own_lines:  # the comma alone, at the end of the line above
            return _checked(text[:cut] + text[cut + 1 : start] + text[end:], expected, comments)
        start = cut  # inline: from the comma on
    return _checked(text[:start] + text[end:], expected, comments)
