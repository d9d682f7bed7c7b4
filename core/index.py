"""The bank index: walking the tree and deriving the structures that span documents.

``walk`` lists every markdown file with the stamp (mtime, size, ctime) that decides whether it must
be re-parsed (the ctime catches an edit whose mtime was put back, as ``cp -p`` and ``rsync -a`` do).
``derive`` builds, from the parsed documents, everything that depends on more than one file: the
contract, the layer map, reverse edges, owners of ``canonical_for`` keys, index links and which
indexes register each document.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from memorybank.core.contract import parse_contract
from memorybank.core.layers import build_layer_map
from memorybank.core.model import Contract, Document, LayerMap

SKIPPED_DIRS = frozenset({"node_modules", "dist"})
"""Directory names never walked, besides every name starting with a dot."""

Stamp = tuple[int, int, int]
"""(mtime in nanoseconds, size in bytes): a file is re-parsed when either moves."""


def walk(root: Path, unreadable: dict[str, str] | None = None) -> dict[str, tuple[Stamp, float]]:
    """Every ``*.md`` file under ``root`` with its stamp and mtime, keyed by bank-relative path.

    Hidden entries, ``node_modules`` and ``dist`` are skipped. Symbolic links to directories are not
    followed (they could loop or leave the bank); a symbolic link to a file counts only when the file
    it reaches lies inside the bank. A directory or file the process may not read is left out and,
    when ``unreadable`` is given, recorded there (bank path, ``dir/`` for a folder, to the reason).
    """
    found: dict[str, tuple[Stamp, float]] = {}
    real_root: str | None = None
    stack: list[tuple[str, str]] = [(str(root), "")]
    while stack:
        directory, prefix = stack.pop()
        try:
            entries = os.scandir(directory)
        except OSError as error:
            if unreadable is not None and prefix:
                unreadable[prefix] = error.strerror or str(error)
            continue
        with entries:
            try:
                listed = list(entries)
            except OSError as error:  # a folder may refuse its listing part way (/proc's map_files)
                if unreadable is not None and prefix:
                    unreadable[prefix] = error.strerror or str(error)
                continue
            for entry in listed:
                name = entry.name
                if name[0] == "." or name in SKIPPED_DIRS:
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append((entry.path, f"{prefix}{name}/"))
                        continue
                    if not name.endswith(".md"):
                        continue
                    if entry.is_symlink():
                        if real_root is None:
                            real_root = os.path.realpath(root)
                        target = os.path.realpath(entry.path)
                        if not target.startswith(real_root + os.sep) or not os.path.isfile(target):
                            continue
                    elif not entry.is_file(follow_symlinks=False):
                        continue
                    st = entry.stat()
                except OSError as error:
                    if unreadable is not None and name.endswith(".md"):
                        unreadable[prefix + name] = error.strerror or str(error)
                    continue
                found[prefix + name] = ((st.st_mtime_ns, st.st_size, st.st_ctime_ns), st.st_mtime)
    return found


@dataclass(frozen=True, slots=True)
class IndexLink:
    """A link from an index document to a markdown target."""

    source: str
    """The index document."""
    target: str
    """The bank path the link resolves to."""
    raw: str
    line: int


@dataclass(frozen=True, slots=True)
class Derived:
    """Everything about the bank that spans documents; rebuilt when any document changes."""

    contract: Contract
    layers: LayerMap
    incoming: dict[str, list[str]] = field(default_factory=dict)
    """Target path to the documents that list it in ``derived_from`` (whether it exists or not)."""
    owners: dict[str, list[str]] = field(default_factory=dict)
    """``canonical_for`` key to the documents claiming it, duplicates included, in bank order."""
    index_links: tuple[IndexLink, ...] = ()
    registered_in: dict[str, list[str]] = field(default_factory=dict)
    """Document path to the index documents that link it."""
    promoted: dict[str, str] = field(default_factory=dict)
    """Former ``_inbox/`` path to the document it was promoted to (from ``promoted_from``)."""
    entrypoint: str | None = None
    """The bank's entrypoint (``entrypoint()``): where reading, and reachability, start."""


ROOT_INDEX = "README.md"
FALLBACK_ENTRYPOINT = "index.md"
ENTRYPOINT_FIELD = "entrypoint"
_NAMES_ENTRYPOINT = re.compile(
    r"entry[ -]?point|start here|read (?:this |it )?first|canonical (?:root )?index|точк\w* входа|"
    r"(?:читать|читай|прочитай|начни)\w*[^\n]{0,40}(?:сначала|первым)",
    re.IGNORECASE,
)


def entrypoint(docs: dict[str, Document], texts: dict[str, str]) -> str | None:
    """The document reading starts from: the root ``README.md``, unless it names another root
    document as the canonical entrypoint (an ``entrypoint:`` field, or a link to it on a line that
    says so: "entrypoint", "start here", "read first", "точка входа", ...); without a root
    ``README.md``, a root ``index.md``. None when the bank has neither.
    """
    readme = docs.get(ROOT_INDEX)
    if readme is None:
        return FALLBACK_ENTRYPOINT if FALLBACK_ENTRYPOINT in docs else None
    named = readme.frontmatter.get(ENTRYPOINT_FIELD)
    if isinstance(named, str):
        target = named.strip().removeprefix("./")
        if target in docs and target != ROOT_INDEX:
            return target
    lines = texts.get(ROOT_INDEX, "").split("\n")
    for link in readme.links:
        target = link.resolved
        if target is None or "/" in target or target == ROOT_INDEX or target not in docs:
            continue
        if 0 < link.line <= len(lines) and _NAMES_ENTRYPOINT.search(lines[link.line - 1]):
            return target
    return ROOT_INDEX


def dna_sources(docs: dict[str, Document], texts: dict[str, str]) -> list[tuple[str, str]]:
    return [(path, texts[path]) for path in docs if path.startswith("dna/")]


def derive(
    docs: dict[str, Document],
    texts: dict[str, str],
    *,
    contract: Contract | None = None,
    layers: LayerMap | None = None,
) -> Derived:
    """Build the cross-document structures from parsed documents (in bank order).

    ``contract`` and ``layers`` may be passed when ``dna/`` did not change since they were read.
    """
    if contract is None or layers is None:
        sources = dna_sources(docs, texts)
        contract = parse_contract(sources, has_principles="dna/principles.md" in docs)
        layers = build_layer_map(sources)
    incoming: dict[str, list[str]] = {}
    owners: dict[str, list[str]] = {}
    registered: dict[str, list[str]] = {}
    links: list[IndexLink] = []
    promoted: dict[str, str] = {}
    start = entrypoint(docs, texts)
    for path, doc in docs.items():
        for edge in doc.derived_from:
            if edge.resolved is not None:
                incoming.setdefault(edge.resolved, []).append(path)
        for key in doc.canonical_for:
            owners.setdefault(key, []).append(path)
        origin = doc.frontmatter.get("promoted_from")
        if isinstance(origin, str) and origin.strip():
            promoted[origin.strip()] = path
        if doc.is_index or path == start:
            for link in doc.links:
                target = link.resolved
                if target is None:
                    continue
                if not target.endswith(".md"):
                    # A link to a folder shows its README (as on any git host): it registers that README.
                    folder_index = f"{target}/README.md"
                    if folder_index not in docs:
                        continue
                    target = folder_index
                links.append(IndexLink(source=path, target=target, raw=link.raw, line=link.line))
                if target is not None and target != path and target in docs:
                    registered.setdefault(target, []).append(path)
    return Derived(
        contract=contract,
        layers=layers,
        incoming=incoming,
        owners=owners,
        index_links=tuple(links),
        registered_in=registered,
        promoted=promoted,
        entrypoint=start,
    )
