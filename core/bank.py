"""The ``Bank`` facade: one bank on disk, re-derived incrementally before every call.

A ``Bank`` holds no state that the files do not: ``refresh()`` walks the tree, re-parses only files
whose mtime or size moved, drops what disappeared, and rebuilds the cross-document structures when
anything changed. Every surface calls ``refresh()`` before answering, so an edit made by anyone
shows up on the next call. Reads and refreshes are serialised by a lock so the TUI's workers and
an embedded server can share one instance.

With ``cache=True`` (what the faces use) a cold process starts from the persistent parse cache
(``core/cache.py``): the first refresh only walks the tree, documents are loaded from the cache
(re-parsing every file whose stamp moved) when something first asks for them, and a validation
result stored for exactly this state of the bank is answered without loading them at all.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memorybank.core import cache as parse_cache
from memorybank.core.errors import BankNotFound, NotADocument, PathRefused
from memorybank.core.paths import INSIDE_ONLY, PathResolver
from memorybank.core.roots import ENV_ROOT, find_root, refuse_a_project

if TYPE_CHECKING:
    from memorybank.core.index import Derived, Stamp
    from memorybank.core.model import Contract, Document, LayerMap, RefreshReport

# What reads and derives the documents (the parser, YAML, the contract, the write journal's
# recovery) is imported by the methods that use it, not here: a face that shows itself before its
# first index (the workbench) imports this module on its way to its first frame, and the rest is
# imported by the worker that indexes, after that frame.

__all__ = ["ENV_ROOT", "Bank", "find_root"]


class Bank:
    """One memory bank rooted at a directory."""

    def __init__(self, root: str | os.PathLike[str], *, cache: bool = False) -> None:
        self.root = Path(root).absolute()
        self.paths = PathResolver(self.root)
        self.lock = threading.RLock()
        self._docs: dict[str, Document] = {}
        self._texts: dict[str, str] = {}
        self._stamps: dict[str, tuple[int, int]] = {}
        self._derived_now: Derived | None = None
        self._refreshed = False
        self.generation = 0
        """Incremented whenever a refresh finds a change; caches key on it."""
        self.last_refresh: RefreshReport | None = None
        self._extensions: dict[str, tuple[int, Any]] = {}
        self._unreadable: dict[str, str] = {}
        self.supplied_files = True
        """Whether writes may take text from a file (``bodyFile``); a server reachable by other
        local programs switches it off."""
        self._store = parse_cache.ParseCache.for_root(self.root) if cache else None
        self._pending: dict[str, tuple[Stamp, float]] | None = None
        """The walk of a first refresh whose documents are not loaded yet (cache mode)."""
        self._fingerprint: str | None = None
        self._relayer = False

    @classmethod
    def open(cls, root: str | os.PathLike[str] | None = None, *, cache: bool = True, **kwargs: Any) -> Bank:
        """Find the bank (see ``find_root``) and index it (from the parse cache unless ``cache`` is
        False). Raises ``BankNotFound``."""
        found = find_root(root, **kwargs)
        if found is None:
            raise BankNotFound(
                "No bank found: pass --root, set MEMORYBANK_ROOT, or run inside a project with a "
                "memory_bank/ (or memory-bank/) directory. `memorybank init NAME` creates one."
            )
        environment = kwargs.get("env") or os.environ
        given = f" (${ENV_ROOT})" if not root and environment.get(ENV_ROOT) else ""  # say where it came from
        if found.exists() and not found.is_dir():
            raise BankNotFound(f"No bank at {found}{given}: that is a file. Pass the bank's directory with --root.")
        if not found.is_dir():
            raise BankNotFound(
                f"No bank at {found}{given}: the directory does not exist. `memorybank init NAME --root {found}` "
                "creates one."
            )
        refuse_a_project(found)
        bank = cls(found, cache=cache)
        bank.refresh()
        return bank

    # -- refresh ---------------------------------------------------------------------------

    @property
    def _derived(self) -> Derived:
        """The cross-document structures; before any document is read, those of an empty bank."""
        if self._derived_now is None:
            from memorybank.core.index import Derived
            from memorybank.core.layers import BUILTIN_MAP
            from memorybank.core.model import Contract

            self._derived_now = Derived(contract=Contract(present=False), layers=BUILTIN_MAP)
        return self._derived_now

    @_derived.setter
    def _derived(self, derived: Derived) -> None:
        self._derived_now = derived

    def refresh(self) -> RefreshReport:
        """Bring the index in line with the disk; re-parse only what moved."""
        from memorybank.core.index import walk
        from memorybank.core.model import RefreshReport
        from memorybank.core.write.recovery import recover_abandoned

        started = time.perf_counter()
        with self.lock:
            recover_abandoned(self.root)
            unreadable: dict[str, str] = {}
            found = walk(self.root, unreadable) if self.root.is_dir() else {}
            if self._store is not None and not self._refreshed:
                # The first refresh of a cached bank only walks: see _load and persistent.
                self._fingerprint = parse_cache.fingerprint(found, unreadable)
                self._pending = found
                self._unreadable = unreadable
                self._refreshed = True
                self.generation += 1
                report = RefreshReport(len(found), 0, 0, (time.perf_counter() - started) * 1000)
                self.last_refresh = report
                return report
            self._load()
            return self._apply(found, started, unreadable)

    def _load(self) -> None:
        """Cache mode: bring in the documents of the pending walk, from the cache where it holds."""
        found = self._pending
        if found is None:
            return
        self._pending = None
        snapshot = self._store.load_documents() if self._store is not None else None
        reused = 0
        if snapshot is not None:
            for path, (stamp, _mtime) in found.items():
                if snapshot.stamps.get(path) == stamp:
                    self._docs[path] = snapshot.docs[path]
                    self._texts[path] = snapshot.texts[path]
                    self._stamps[path] = stamp
                    reused += 1
            if reused:
                self._docs = dict(sorted(self._docs.items()))
                self._relayer = True  # cached layers follow the layer table of their time
        self._refreshed = False  # the cross-document structures are built below, dna/ included
        report = self._apply(found, time.perf_counter(), dict(self._unreadable))
        if self._store is not None and (report.added or report.changed or report.removed or snapshot is None):
            self._store.save_documents(*self._settled())

    def _settled(self) -> tuple[dict[str, Stamp], dict[str, Document], dict[str, str]]:
        """What may be written to the cache: entries whose mtime is not within the clock's grain of
        now, since a file rewritten at the same size within that grain would keep its stamp."""
        horizon = time.time_ns() - parse_cache.RACY_NS
        stamps = {p: s for p, s in self._stamps.items() if s[0] < horizon}
        return stamps, {p: self._docs[p] for p in stamps}, {p: self._texts[p] for p in stamps}

    def _apply(
        self, found: dict[str, tuple[Stamp, float]], started: float, unreadable: dict[str, str]
    ) -> RefreshReport:
        from memorybank.core.model import RefreshReport
        from memorybank.core.parse import parse_document

        with self.lock:
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
        from memorybank.core.index import derive

        if dna_touched:
            derived = derive(self._docs, self._texts)
            if self._relayer or derived.layers.by_dir != self._derived.layers.by_dir:
                self._relayer = False
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

    def _ready(self) -> dict[str, Document]:
        if self._pending is not None:
            with self.lock:
                self._load()
        return self._docs

    def load(self) -> None:
        """Bring in now the documents a cached first refresh left for later (nothing otherwise).

        A face calls this in the worker that indexes, right after the first ``refresh()``, so the
        documents are read there and not by whichever thread first looks at them."""
        self._ready()

    @property
    def documents_read(self) -> int:
        """How many documents are indexed so far, read without waiting for or starting a load (a
        progress count another thread may show while a refresh or a load runs)."""
        return len(self._docs)

    @property
    def documents(self) -> Mapping[str, Document]:
        """Every indexed document by bank path, in sorted path order."""
        return self._ready()

    def __iter__(self) -> Iterator[Document]:
        return iter(list(self._ready().values()))

    def __len__(self) -> int:
        return len(self._ready())

    def __contains__(self, path: object) -> bool:
        return path in self._ready()

    @property
    def contract(self) -> Contract:
        self._ready()
        return self._derived.contract

    @property
    def layers(self) -> LayerMap:
        self._ready()
        return self._derived.layers

    @property
    def derived(self) -> Derived:
        self._ready()
        return self._derived

    def text(self, path: str) -> str:
        """The decoded text of a document as last indexed (BOM removed)."""
        self._ready()
        return self._texts[path]

    def registered_in(self, path: str) -> list[str]:
        self._ready()
        return self._derived.registered_in.get(path, [])

    def incoming(self, path: str) -> list[str]:
        self._ready()
        return self._derived.incoming.get(path, [])

    def resolve(self, raw: str) -> str:
        """A caller-given path as a bank-relative path (refusing escapes); it need not exist."""
        return self.paths.to_bank_path(raw, is_known=self._ready().__contains__)

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
                raise NotADocument(f"Not a document of this bank: {error.message.removeprefix(INSIDE_ONLY)}") from None
            raise
        doc = self._ready().get(path)
        if doc is None and path in self._unreadable:
            raise NotADocument(
                f"{path} exists but cannot be read ({self._unreadable[path]}). Fix its permissions; "
                "bank_validate lists every file it could not read.",
                reason="unreadable",
            )
        if doc is None:
            from memorybank.core.missing import not_a_document

            raise not_a_document(self.root, raw, path, self._ready(), self._derived.promoted)
        return doc

    def extension(self, name: str, build: Any) -> Any:
        """A per-generation cache for structures built on top of the index (search, validation)."""
        with self.lock:
            self._ready()
            cached = self._extensions.get(name)
            if cached is not None and cached[0] == self.generation:
                return cached[1]
            value = build(self, None if cached is None else cached[1])
            self._extensions[name] = (self.generation, value)
            return value

    def indexed(self, name: str, build: Any, finish: Any = None) -> Any:
        """Like ``extension``, for an index costly to build from nothing (routing's), kept by the
        parse cache. A process without one takes the one stored last, of whatever state of the bank,
        and ``build(bank, previous)`` brings it up to date (telling documents by content, not by
        identity); one built or updated is stored for the next, after ``finish(index)``."""
        with self.lock:
            self._ready()
            cached = self._extensions.get(name)
            store = self._store
            if cached is not None or store is None or self.last_refresh is None:
                return self.extension(name, build)
            state = parse_cache.fingerprint_of(self._stamps)
            stored = store.load_index(name) or (None, None)
            try:
                value = build(self, stored[1])
            except Exception:  # not an index this code can bring up to date: nothing stored is trusted
                stored, value = (None, None), build(self, None)
            self._extensions[name] = (self.generation, value)
            if stored[0] != state:
                if finish is not None:
                    finish(value)
                store.save_index(name, state, value)
            return value

    def persistent(self, name: str, build: Any) -> Any:
        """Like ``extension``, and kept across processes by the parse cache for exactly this state
        of the bank. ``build(bank, probes)`` records in ``probes`` (path to whether it existed)
        every path outside the documents its answer depends on; the stored answer is reused only
        while each still holds. Without a cache this is ``extension``."""
        with self.lock:
            store = self._store
            if store is None or self.last_refresh is None:  # never refreshed: no state worth keeping
                return self.extension(name, lambda bank, _previous: build(bank, {}))
            cached = self._extensions.get(name)
            if self._pending is not None and self._fingerprint is not None:
                if cached is not None and cached[0] == self.generation:
                    return cached[1]
                value = store.load_result(name, self._fingerprint)
                if value is not None:
                    self._extensions[name] = (self.generation, value)
                    return value
            self._ready()
            if cached is not None and cached[0] == self.generation:
                return cached[1]
            state = parse_cache.fingerprint_of(self._stamps, self._unreadable)
            value = store.load_result(name, state)
            if value is not None:  # stored by another process for exactly this state of the bank
                self._extensions[name] = (self.generation, value)
                return value
            probes: dict[str, bool] = {}
            value = build(self, probes)
            self._extensions[name] = (self.generation, value)
            horizon = time.time_ns() - parse_cache.RACY_NS
            if all(stamp[0] < horizon for stamp in self._stamps.values()):
                store.save_result(name, state, probes, value)
            return value
