"""What to tell a caller whose path names no document: where a note went, or the documents it most
likely meant (``ops/release`` for ``ops/release.md``, ``ADR-006`` for the decision record whose file
name it starts)."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import Path

from memorybank.core.errors import NotADocument

SUGGESTED = 3
"""Documents named at most in one refusal."""


def not_a_document(
    root: Path, raw: str, path: str, documents: Mapping[str, object], promoted: Mapping[str, str]
) -> NotADocument:
    """The refusal for ``raw`` (resolved to ``path``), which names no document of the bank."""
    moved = promoted.get(path)
    if moved is not None:
        return NotADocument(
            f"Not a document of this bank: {raw}. The note was promoted to {moved}; read that instead.",
            reason="promoted",
        )
    if path.startswith("_inbox/"):
        from memorybank.core.record import last_exit

        gone = last_exit(root, path)
        if gone is not None and gone.get("action") == "discarded":
            return NotADocument(
                f"Not a document of this bank: {raw}. The note was discarded at {gone.get('at', '?')}: "
                f"{gone.get('reason', '')}",
                reason="discarded",
            )
    meant = likely_meant(path, documents)
    return NotADocument(
        f"Not a document of this bank: {raw}" + (f". Did you mean {' or '.join(meant)}?" if meant else "")
    )


def likely_meant(path: str, documents: Mapping[str, object]) -> list[str]:
    """Documents a path without its ``.md``, in another case, or naming the start of a file name
    (an ID such as ``ADR-006`` or ``FT-014``) most likely meant; none when it is not that close."""
    wanted = path.lower().removesuffix(".md")
    if not wanted:
        return []
    exact = [p for p in documents if p.lower().removesuffix(".md") == wanted]
    if exact:
        return exact[:SUGGESTED]
    name = posixpath.basename(wanted)
    if len(name) < 3:
        return []
    folder = posixpath.dirname(wanted)
    starting = [
        p
        for p in documents
        if posixpath.basename(p).lower().startswith(name)
        and (not folder or posixpath.dirname(p).lower() == folder)
        and posixpath.basename(p).lower()[len(name) : len(name) + 1] in ("", "-", "_", ".")
    ]
    if not starting:  # an ID names a package folder as often as a file (features/FT-014-name/brief.md)
        starting = [
            p
            for p in documents
            if any(part.startswith(name + "-") or part == name for part in p.lower().split("/")[:-1])
        ]
        starting = [
            p for p in starting if posixpath.basename(p).lower() in ("readme.md", "index.md", "brief.md", "feature.md")
        ] or starting
    return sorted(starting, key=lambda p: (len(p), p))[:SUGGESTED]
