"""The ``Bank`` facade: one bank on disk, re-derived incrementally before every call.

A ``Bank`` holds no state that the files do not: ``refresh()`` walks the tree, re-parses only files
whose mtime or size moved, drops what disappeared, and rebuilds the cross-document structures when
anything changed. Every surface calls ``refresh()`` before answering, so an edit made by anyone
shows up on the next call. Reads and refreshes are serialised by a lock so the TUI's workers and
an embedded server can share one instance.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from core.errors import BankNotFound, NotADocument, PathRefused
from core.index import Derived, derive, walk
from core.layers import BUILTIN_MAP
from core.model import Contract, Document, LayerMap, RefreshReport
from core.parse import parse_document
from core.paths import BANK_DIR_NAMES, PathResolver
from core.record import last_exit
from core.write.recovery import recover_abandoned

ENV_ROOT = "MEMORYBANK_ROOT"


def find_root(
    explicit: str | os.PathLike[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> Path | None:
    """Where the bank is: ``explicit``, else ``$MEMORYBANK_ROOT``, else ``memory_bank/`` or
    ``memory-bank/`` found from the working directory upward. None when nothing is found.

    The result is absolute but may not exist (``init`` creates it).
    """
    environment = os.environ if env is None else env
    start = Path(cwd) if cwd is not None else Path.cwd()
    if explicit:
        path = Path(explicit).expanduser()
        return path if path.is_absolute() else (start / path).absolute()
    if environment.get(ENV_ROOT):
        path = Path(environment[ENV_ROOT]).expanduser()
        return path if path.is_absolute() else (start / path).absolute()
    here = start.absolute()
    for directory in (here, *here.parents):
        if directory.name in BANK_DIR_NAMES and directory.is_dir():
            return directory
        for name in BANK_DIR_NAMES:
            candidate = directory / name
            if candidate.is_dir():
                return candidate
    return None


class Bank:
    """One memory bank rooted at a directory."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).absolute()
        self.paths = PathResolver(self.root)
        self.lock = threading.RLock()
        self._docs: dict[str, Document] = {}
        self._texts: dict[str, str] = {}
        self._stamps: dict[str, tuple[int, int]] = {}
        self._derived = Derived(contract=Contract(present=False), layers=BUILTIN_MAP)
        self._refreshed = False
        self.generation = 0
        """Incremented whenever a refresh finds a change; caches key on it."""
        self.last_refresh: RefreshReport | None = None
        self._extensions: dict[str, tuple[int, Any]] = {}
        self._unreadable: dict[str, str] = {}

    @classmethod
    def open(cls, root: str | os.PathLike[str] | None = None, **kwargs: Any) -> Bank:
        """Find the bank (see ``find_root``) and index it. Raises ``BankNotFound``."""
        found = find_root(root, **kwargs)
        if found is None:
            raise BankNotFound(
                "No bank found: pass --root, set MEMORYBANK_ROOT, or run inside a project with a "
                "memory_bank/ (or memory-bank/) directory. `memorybank init NAME` creates one."
            )
        if found.exists() and not found.is_dir():
            raise BankNotFound(f"No bank at {found}: that is a file. Pass the bank's directory with --root.")
        if not found.is_dir():
            raise BankNotFound(
                f"No bank at {found}: the directory does not exist. `memorybank init NAME --root {found}` creates one."
            )
        bank = cls(found)
        bank.refresh()
        return bank

    # -- refresh ---------------------------------------------------------------------------

    def refresh(self) -> RefreshReport:
        """Bring the index in line with the disk; re-parse only what moved."""
        started = time.perf_counter()
        with self.lock:
            recover_abandoned(self.root)
            unreadable: dict[str, str] = {}
            found = walk(self.root, unreadable) if self.root.is_dir() else {}
            added = changed = removed = 0
            dna_touched = not self._refreshed
            layers = self._derived.layers
            names = self.paths.names
            for path, (stamp, mtime) in found.items():
                old = self._stamps.get(path)
                if old == stamp:
                    continue
                try:
                    data = (self.root / path).read_bytes()
                except FileNotFoundError:
                    continue  # vanished between walk and read; the next refresh drops it
                except OSError as error:
                    unreadable[path] = error.strerror or str(error)
                    continue
                document, text = parse_document(path, data, layer=layers.layer_of(path), mtime=mtime, bank_names=names)
                if old is None:
                    added += 1
                else:
                    changed += 1
                self._docs[path] = document
                self._texts[path] = text
                self._stamps[path] = stamp
                if path.startswith("dna/"):
                    dna_touched = True
            for path in [p for p in self._docs if p not in found]:
                del self._docs[path], self._texts[path], self._stamps[path]
                removed += 1
                if path.startswith("dna/"):
                    dna_touched = True
            if unreadable != self._unreadable:
                self._unreadable = unreadable
                changed += 1
            if added or changed or removed or not self._refreshed:
                if added:
                    self._docs = dict(sorted(self._docs.items()))
                self._rebuild(dna_touched)
                self.generation += 1
            self._refreshed = True
            report = RefreshReport(added, changed, removed, (time.perf_counter() - started) * 1000)
            self.last_refresh = report
            return report

    def _rebuild(self, dna_touched: bool) -> None:
        if dna_touched:
            derived = derive(self._docs, self._texts)
            if derived.layers.by_dir != self._derived.layers.by_dir:
                # Re-layer every document, so removing a layer table never leaves stale layers.
                for path, doc in self._docs.items():
                    layer = derived.layers.layer_of(path)
                    if doc.layer != layer:
                        self._docs[path] = replace(doc, layer=layer)
            self._derived = derived
        else:
            self._derived = derive(
                self._docs, self._texts, contract=self._derived.contract, layers=self._derived.layers
            )

    # -- lookups ---------------------------------------------------------------------------

    @property
    def documents(self) -> Mapping[str, Document]:
        """Every indexed document by bank path, in sorted path order."""
        return self._docs

    def __iter__(self) -> Iterator[Document]:
        return iter(list(self._docs.values()))

    def __len__(self) -> int:
        return len(self._docs)

    def __contains__(self, path: object) -> bool:
        return path in self._docs

    @property
    def contract(self) -> Contract:
        return self._derived.contract

    @property
    def layers(self) -> LayerMap:
        return self._derived.layers

    @property
    def derived(self) -> Derived:
        return self._derived

    def text(self, path: str) -> str:
        """The decoded text of a document as last indexed (BOM removed)."""
        return self._texts[path]

    def registered_in(self, path: str) -> list[str]:
        return self._derived.registered_in.get(path, [])

    def incoming(self, path: str) -> list[str]:
        return self._derived.incoming.get(path, [])

    def resolve(self, raw: str) -> str:
        """A caller-given path as a bank-relative path (refusing escapes); it need not exist."""
        return self.paths.to_bank_path(raw, is_known=self._docs.__contains__)

    @property
    def unreadable(self) -> Mapping[str, str]:
        """Files and folders (``dir/``) the last refresh could not read, with the reason."""
        return dict(self._unreadable)

    def document(self, raw: str) -> Document:
        """The document a caller-given path names. Raises ``NotADocument`` or ``PathRefused``."""
        try:
            path = self.resolve(raw)
        except PathRefused as error:
            if error.reason == "outside-bank":
                raise NotADocument(f"Not a document of this bank: {raw} ({error.message})") from None
            raise
        doc = self._docs.get(path)
        if doc is None and path in self._unreadable:
            raise NotADocument(
                f"{path} exists but cannot be read ({self._unreadable[path]}). Fix its permissions; "
                "bank_validate lists every file it could not read.",
                reason="unreadable",
            )
        if doc is None:
            moved = self._derived.promoted.get(path)
            if moved is not None:
                raise NotADocument(
                    f"Not a document of this bank: {raw}. The note was promoted to {moved}; read that instead.",
                    reason="promoted",
                )
            if path.startswith("_inbox/"):
                gone = last_exit(self.root, path)
                if gone is not None and gone.get("action") == "discarded":
                    raise NotADocument(
                        f"Not a document of this bank: {raw}. The note was discarded at {gone.get('at', '?')}: "
                        f"{gone.get('reason', '')}",
                        reason="discarded",
                    )
            raise NotADocument(f"Not a document of this bank: {raw}")
        return doc

    def extension(self, name: str, build: Any) -> Any:
        """A per-generation cache for structures built on top of the index (search, validation)."""
        with self.lock:
            cached = self._extensions.get(name)
            if cached is not None and cached[0] == self.generation:
                return cached[1]
            value = build(self, None if cached is None else cached[1])
            self._extensions[name] = (self.generation, value)
            return value
