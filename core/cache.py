"""The persistent parse cache: parsed documents, validation results and routing indexes kept between processes.

A cold process on an unchanged bank should cost what a re-check costs, not a re-parse. So the
parsed documents (and their decoded texts) are kept on disk, keyed by each file's stamp (mtime in
nanoseconds, size and ctime) under a *key* made of a format version, the Python version and a stamp of the
core's own source files: a changed parser never reads an old parse. Validation findings are kept
beside them, keyed by the *fingerprint* of the whole bank (every path with its stamp), with the
paths the rules probed outside the documents (a link to an image) and whether they existed.
Routing's indexes are kept too, each with the fingerprint it was built for: a process that finds
one of an earlier state brings it up to date document by document instead of building it anew.

The cache lives where tools keep caches, never inside the bank: ``.git/memorybank/`` of the
repository that holds the bank, else the user's cache directory (``$XDG_CACHE_HOME`` or
``~/.cache``). ``MEMORYBANK_CACHE=off`` turns it off; ``MEMORYBANK_CACHE_DIR`` moves it.

Nothing read from it is trusted: a file that does not unpickle, names another key or another root,
or holds a record whose stamp differs from the disk's, is ignored (and rewritten by the next full
parse). Every file is written to a unique temporary name and renamed into place, so a reader sees
an old file or a new one, never half of one.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import os
import pickle
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = 2
"""Bump when what is stored changes shape."""

ENV_SWITCH = "MEMORYBANK_CACHE"
ENV_DIR = "MEMORYBANK_CACHE_DIR"

Stamp = tuple[int, int, int]

KEEP_BANKS = 64
"""How many banks' caches the user's cache directory keeps; the least recently written go first."""

RACY_NS = 2_000_000_000
"""Entries whose mtime is this close to the moment of writing are not stored: a file rewritten at
the same size within the file system's clock grain would keep its stamp (git's "racily clean")."""


@functools.cache
def code_stamp() -> str:
    """A digest of the core's source files (path, size, mtime): editing the parser invalidates."""
    base = Path(__file__).resolve().parent
    digest = hashlib.blake2b(digest_size=12)
    digest.update(f"{FORMAT}|{sys.version_info[:3]}|{sys.implementation.cache_tag}".encode())
    for path in sorted(base.rglob("*.py")):
        try:
            st = path.stat()
        except OSError:
            continue
        digest.update(f"{path.relative_to(base)}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def fingerprint_of(stamps: Mapping[str, Stamp], unreadable: Iterable[str] = ()) -> str:
    """One digest of every path with its stamp, and of the paths the walk could not read: the state
    of the whole bank (a folder made unreadable holds no document, and changes the findings)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(stamps):
        mtime_ns, size, ctime_ns = stamps[path]
        # A file name that is not UTF-8 reaches Python as surrogates: hash its own bytes.
        digest.update(f"{path}\0{mtime_ns}\0{size}\0{ctime_ns}\n".encode("utf-8", "surrogateescape"))
    for path in sorted(unreadable):
        digest.update(f"unreadable\0{path}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def fingerprint(found: Mapping[str, tuple[Stamp, float]], unreadable: Iterable[str] = ()) -> str:
    """``fingerprint_of`` a walk as ``core.index.walk`` lists it."""
    return fingerprint_of({path: stamp for path, (stamp, _mtime) in found.items()}, unreadable)


def _git_dir(start: Path) -> Path | None:
    for directory in (start, *start.parents):
        dot_git = directory / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():  # a worktree or a submodule: "gitdir: PATH"
            try:
                text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                return None
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:") :].strip())
                target = target if target.is_absolute() else directory / target
                return target if target.is_dir() else None
            return None
    return None


def cache_home(env: Mapping[str, str] | None = None) -> Path:
    environment = os.environ if env is None else env
    base = environment.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "memorybank"


def location(root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The directory holding this bank's cache files, or None when the cache is switched off."""
    environment = os.environ if env is None else env
    if environment.get(ENV_SWITCH, "").strip().lower() in ("0", "off", "no", "false"):
        return None
    name = hashlib.blake2b(os.fsencode(root), digest_size=8).hexdigest()
    if environment.get(ENV_DIR):
        return Path(environment[ENV_DIR]) / name
    git_dir = _git_dir(root)
    if git_dir is not None:
        return git_dir / "memorybank" / "cache" / name
    return cache_home(environment) / "banks" / name


@dataclass(slots=True)
class Snapshot:
    """Parsed documents as a previous process left them."""

    stamps: dict[str, Stamp]
    docs: dict[str, Any]
    texts: dict[str, str]


class ParseCache:
    """The cache files of one bank (see the module docstring)."""

    def __init__(self, root: Path, directory: Path) -> None:
        self.root = root
        self.directory = directory

    @property
    def key(self) -> str:
        """The code's stamp, taken when the cache is first read or written (in the index's worker,
        not while the workbench composes its first frame)."""
        return code_stamp()

    @classmethod
    def for_root(cls, root: Path) -> ParseCache | None:
        where = location(root)
        return None if where is None else cls(root, where)

    # -- files -----------------------------------------------------------------------------

    def _read(self, name: str) -> Any:
        try:
            with open(self.directory / name, "rb") as handle:
                header = pickle.load(handle)
                if header != (FORMAT, self.key, str(self.root)):
                    return None
                return pickle.load(handle)
        except Exception:  # missing, truncated, corrupt, written by another version: ignored
            return None

    def _write(self, name: str, payload: Any) -> None:
        try:
            if not self.directory.is_dir():
                self.directory.mkdir(parents=True)
                if self.directory.parent == cache_home() / "banks":  # the tool's own folder, never one named so
                    prune(self.directory.parent, keep=KEEP_BANKS)
            fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=self.directory)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump((FORMAT, self.key, str(self.root)), handle, protocol=pickle.HIGHEST_PROTOCOL)
                pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.directory / name)
        except Exception:  # a cache that cannot be written is only a slower next start
            with contextlib.suppress(OSError):
                os.unlink(temporary)

    # -- documents -------------------------------------------------------------------------

    def _read_many(self, name: str) -> Any:
        """``_read`` of a file of many small objects: they arrive at once and none is garbage, so
        collecting while they do only walks them again and again."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._read(name)
        finally:
            if collecting:
                gc.enable()

    def load_documents(self) -> Snapshot | None:
        data = self._read_many("documents")
        if not isinstance(data, tuple) or len(data) != 3:
            return None
        stamps, docs, texts = data
        if not (isinstance(stamps, dict) and isinstance(docs, dict) and isinstance(texts, dict)):
            return None
        if not (stamps.keys() == docs.keys() == texts.keys()):
            return None
        return Snapshot(stamps, docs, texts)

    def save_documents(self, stamps: Mapping[str, Stamp], docs: Mapping[str, Any], texts: Mapping[str, str]) -> None:
        self._write("documents", (dict(stamps), dict(docs), dict(texts)))

    # -- results ---------------------------------------------------------------------------

    def load_result(self, name: str, bank_fingerprint: str) -> Any:
        """A result stored for exactly this bank fingerprint whose probed paths still hold."""
        data = self._read(f"result-{name}")
        if not isinstance(data, tuple) or len(data) != 3 or data[0] != bank_fingerprint:
            return None
        _, probes, value = data
        try:
            if any(os.path.exists(self.root / path) != existed for path, existed in probes):
                return None
        except (TypeError, ValueError, OSError):
            return None
        return value

    def save_result(self, name: str, bank_fingerprint: str, probes: Mapping[str, bool], value: Any) -> None:
        self._write(f"result-{name}", (bank_fingerprint, sorted(probes.items()), value))

    # -- indexes ---------------------------------------------------------------------------

    def load_index(self, name: str) -> tuple[str, Any] | None:
        """The index last stored under ``name`` with the bank fingerprint it was stored for (it
        may be of an earlier state of the bank: the caller brings it up to date)."""
        data = self._read_many(f"index-{name}")
        if not isinstance(data, tuple) or len(data) != 2 or not isinstance(data[0], str):
            return None
        return data

    def save_index(self, name: str, bank_fingerprint: str, value: Any) -> None:
        self._write(f"index-{name}", (bank_fingerprint, value))


_CACHE_NAME = re.compile("[0-9a-f]{16}")


def prune(banks: Path, *, keep: int) -> None:
    """Remove all but the ``keep`` most recently written bank caches under ``banks``."""
    try:
        entries = sorted(
            (entry for entry in os.scandir(banks) if entry.is_dir(follow_symlinks=False)),
            key=lambda entry: entry.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for entry in entries[keep:]:
        if _CACHE_NAME.fullmatch(entry.name):  # only what ``location`` names: a bank's 16 hex digits
            shutil.rmtree(entry.path, ignore_errors=True)
