"""The one path resolver: every path a user, an agent or a document gives passes through here.

Two questions live in this module:

* ``resolve_from``: where does a target written *inside a document* (a ``derived_from`` entry, a
  markdown link) point, relative to that document? Pure string work; never touches the disk.
* ``PathResolver.to_bank_path``: which bank document does a path *given by a caller* name? It
  accepts the forms people type (``memory_bank/x.md``, ``./x.md``, an absolute path inside the bank)
  and refuses anything that would leave the bank: ``..``, outside absolute paths, symlinks that
  escape, NUL bytes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote

from memorybank.core.errors import PathRefused, ScopeRefused, UsageError

BANK_DIR_NAMES: tuple[str, ...] = ("memory_bank", "memory-bank")
"""Folder names a bank is committed under; root discovery and prefix stripping accept both."""

_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def within(path: str, area: str) -> bool:
    """Whether a bank path lies in a scope (``to_scope``'s answer; '' is the whole bank)."""
    return not area or path == area or path.startswith(area + "/")


def is_url(target: str) -> bool:
    """True for ``https://...``, ``mailto:...`` and other scheme-prefixed targets."""
    return bool(_URL.match(target)) and not re.match(r"^[a-zA-Z]:[\\/]", target)


def normalize_segments(path: str) -> str | None:
    """Collapse ``.``, empty and ``..`` segments. None when ``..`` climbs above the start."""
    out: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not out:
                return None
            out.pop()
            continue
        out.append(part)
    return "/".join(out)


def resolve_from(
    doc_path: str, target: str, *, bank_names: tuple[str, ...] = BANK_DIR_NAMES
) -> tuple[str | None, bool]:
    """Resolve a target written in ``doc_path`` to a bank-relative path.

    Returns ``(resolved, external)``. ``resolved`` is None when the target is empty once its
    ``#anchor`` is dropped, or when it is external: a URL, an absolute path, or a relative path that
    climbs out of the bank. A target starting with the bank's own folder name
    (``memory_bank/dna/x.md``) is read from the bank root, which is what its author meant.
    """
    text = target.strip()
    hash_at = text.find("#")
    if hash_at >= 0:
        text = text[:hash_at].strip()
    if not text:
        return None, False
    if is_url(text) or text.startswith("/") or text.startswith("\\"):
        return None, True
    text = text.replace("\\", "/")
    stripped = text[2:] if text.startswith("./") else text
    head = stripped.split("/", 1)[0]
    if head in bank_names and "/" in stripped:
        base = stripped.split("/", 1)[1]
    else:
        directory = doc_path.rsplit("/", 1)[0] if "/" in doc_path else ""
        base = f"{directory}/{text}" if directory else text
    resolved = normalize_segments(base)
    if resolved is None:
        return None, True
    if not resolved:
        return None, False
    return resolved, False


def resolve_link(doc_path: str, target: str, bank_names: tuple[str, ...] = BANK_DIR_NAMES) -> tuple[str | None, bool]:
    """Like ``resolve_from`` for a markdown link target: percent-escapes are decoded first."""
    return resolve_from(doc_path, unquote(target), bank_names=bank_names)


def relative_link(from_doc: str, to_doc: str) -> str:
    """The relative path that a link written in ``from_doc`` needs to reach ``to_doc``."""
    from_dir = from_doc.rsplit("/", 1)[0] if "/" in from_doc else ""
    return os.path.relpath(to_doc, from_dir or ".").replace(os.sep, "/")


INSIDE_ONLY = "Path must stay inside the bank: "
"""How a refusal of a path leaving the bank begins; what follows names the path and why."""


class PathResolver:
    """Turns caller-given paths into bank-relative POSIX paths, refusing any way out of the bank."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self.names = tuple(dict.fromkeys((root.name, *BANK_DIR_NAMES)))

    def to_bank_path(self, raw: str, *, is_known: Callable[[str], bool] = lambda _p: False) -> str:
        """Resolve a path given by a caller to a bank-relative POSIX path.

        Args:
            raw: the path as given: bank-relative, ``./``-prefixed, prefixed with the bank's folder
                name, or absolute inside the bank.
            is_known: tells whether a bank path is an indexed document; a folder-name prefix is kept
                when the path as given names a real document.

        Raises:
            PathRefused: the path is empty, holds a NUL byte, climbs with ``..``, is absolute outside
                the bank, or reaches outside through a symlink.
        """
        if raw is None or not str(raw).strip():
            raise PathRefused("A path is required.", reason="empty-path")
        given = str(raw)
        if "\0" in given:
            raise PathRefused(f"Path holds a NUL byte, which no file name can: {given!r}", reason="nul-byte")
        text = given.strip().replace("\\", "/")
        if os.path.isabs(text) or text.startswith("/"):
            text = self._from_absolute(text, given)
        while text.startswith("./"):
            text = text[2:]
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if ".." in parts:
            raise PathRefused(
                f"{INSIDE_ONLY}{given} (`..` is not accepted; give the path from the bank root).",
                reason="outside-bank",
            )
        rel = "/".join(parts)
        if not rel:
            raise PathRefused(f"{given} names the bank root, not a document.", reason="empty-path")
        if len(parts) > 1 and parts[0] in self.names and not is_known(rel) and not (self.root / parts[0]).is_dir():
            rel = "/".join(parts[1:])
        self._refuse_symlink_escape(rel, given)
        return rel

    def to_scope(self, raw: str | None) -> str:
        """Normalise a directory scope (``engineering``, ``./adr/``, ``memory_bank/adr``). '' is the whole bank."""
        if raw is None or not raw.strip() or raw.strip() in (".", "./", "/"):
            return ""
        text = raw.strip().replace("\\", "/")
        if os.path.isabs(text):
            if not self._inside(Path(text)):
                raise ScopeRefused(f"Scope must stay inside the bank: {raw}", reason="outside-bank")
            text = self._from_absolute(text, raw)
        text = text.strip("/")
        while text.startswith("./"):
            text = text[2:]
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if ".." in parts or "\0" in text:
            raise ScopeRefused(f"Scope must stay inside the bank: {raw}", reason="outside-bank")
        if len(parts) > 1 and parts[0] in self.names and not (self.root / parts[0]).is_dir():
            parts = parts[1:]
        elif len(parts) == 1 and parts[0] in self.names and not (self.root / parts[0]).is_dir():
            return ""
        return "/".join(parts)

    def to_existing_scope(self, raw: str | None, documents: Callable[[], Iterable[str]]) -> str:
        """``to_scope``, refusing a scope that names neither a folder of the bank nor a document in it
        (``documents`` gives the bank's paths, asked only for a scope that is not a folder on disk).

        Raises:
            UsageError: the scope names nothing (a typo would otherwise read as "all clear").
        """
        prefix = self.to_scope(raw)
        if prefix and not (self.root / prefix).exists() and not any(p.startswith(prefix + "/") for p in documents()):
            raise UsageError(
                f'Scope "{raw}" names nothing in this bank. Give a folder of it (for example "adr"), or none.'
            )
        if prefix and not self._inside(self.root / prefix):  # a link out: nothing there is the bank's
            raise UsageError(
                f'Scope "{raw}" is a link out of the bank, where nothing is indexed. Give a folder of it, or none.'
            )
        return prefix

    def absolute(self, rel: str) -> Path:
        """The filesystem path of a bank-relative path."""
        return self.root / rel

    def _inside(self, path: Path) -> bool:
        real = os.path.realpath(path)
        return real == str(self.real_root) or real.startswith(str(self.real_root) + os.sep)

    def _from_absolute(self, text: str, given: str) -> str:
        absolute = os.path.normpath(text)
        for base in (str(self.root), str(self.real_root)):
            if absolute == base:
                return ""
            if absolute.startswith(base.rstrip(os.sep) + os.sep):
                return absolute[len(base.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
        if self._inside(Path(absolute)):
            return os.path.relpath(os.path.realpath(absolute), self.real_root).replace(os.sep, "/")
        raise PathRefused(f"{INSIDE_ONLY}{given} is outside {self.root}.", reason="outside-bank")

    def _refuse_symlink_escape(self, rel: str, given: str) -> None:
        candidate = self.root / rel
        # Only paths that exist (or whose parents exist) can be symlinks; realpath follows them all.
        if not self._inside(candidate):
            raise PathRefused(
                f"{INSIDE_ONLY}{given} leads outside it through a symbolic link.",
                reason="symlink-escape",
            )
