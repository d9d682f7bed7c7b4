"""The answers a stdio server replays while the SDK loads (``front``): where they are kept, under a
key made of everything they depend on but the bank's root, which the stored text names by a
placeholder; and the answers the package ships for a first start (``shipped``)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

FORMAT = 1


def _sources_stamp() -> str:
    """Path, size and mtime of every source file of ``core`` and ``mcp_server``: an edited
    description or schema never replays an old listing."""
    digest = hashlib.blake2b(digest_size=12)
    here = Path(__file__).resolve().parent
    for package in (here, here.parent / "core"):
        for path in sorted(package.rglob("*.py")):
            with contextlib.suppress(OSError):
                st = path.stat()
                digest.update(f"{path.name}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _libraries_stamp() -> str:
    """Where the SDK and pydantic are installed and the size and mtime of their ``__init__`` files:
    an upgrade rewrites them. (``importlib.metadata`` would cost more than the whole answer.)"""
    parts = []
    for name in ("mcp", "mcp_types", "pydantic", "pydantic_core"):
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        try:
            st = os.stat(origin) if origin else None
        except OSError:
            st = None
        parts.append(f"{name}={origin}|{st.st_size if st else '?'}|{st.st_mtime_ns if st else '?'}")
    return ",".join(parts)


ROOT = "@@memorybank-root@@"
"""Stands for the bank's root in stored answers, so one project's answers serve every project."""


def listing_file(state: str, inbox_exits: str, subset: str = "full") -> Path | None:
    """Where the replayable answers for this server live, or None with the cache switched off."""
    if os.environ.get("MEMORYBANK_CACHE", "").strip().lower() in ("0", "off", "no", "false"):
        return None
    key = f"{FORMAT}|{sys.version}|{_libraries_stamp()}|{_sources_stamp()}|{state}|{inbox_exits}|{subset}"
    name = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
    base = os.environ.get("MEMORYBANK_CACHE_DIR")
    if base:
        directory = Path(base)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        directory = (Path(xdg) if xdg else Path.home() / ".cache") / "memorybank"
    return directory / "listings" / f"{name}.json"


def shipped_answers(state: str, inbox_exits: str, subset: str, root: Path) -> dict[str, Any]:
    if os.environ.get("MEMORYBANK_SHIPPED", "").strip().lower() in ("0", "off", "no", "false"):
        return {}
    from memorybank.mcp_server import shipped

    return shipped.answers(state, inbox_exits, subset, ROOT, _root_text(root))


def _root_text(root: Path) -> str:
    return json.dumps(str(root), ensure_ascii=False)[1:-1]  # as it appears inside a JSON string


def load(path: Path | None, root: Path) -> dict[str, Any]:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8").replace(ROOT, _root_text(root)))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def store(path: Path | None, data: dict[str, Any], root: Path) -> None:
    if path is None:
        return
    text = json.dumps(data, ensure_ascii=False)
    if ROOT in text:
        return  # the placeholder could not be told from the text: keep nothing
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".listing.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text.replace(_root_text(root), ROOT))
        os.replace(temporary, path)
    except OSError:
        pass
