"""Copies: documents whose files are byte for byte the same text kept at several paths.

A bank that snapshots its work (``iterations/brief-v2.md`` beside ``brief.md``, a feature folder
mirroring an issue folder) holds the same document twice or more. Routed apart, two copies of one
text take two of the first three places and push the next answer out of sight. So a route folds
them into one hit, the best-scored copy, that names the others (``RouteHit.copies``). Documents are
grouped by size first; only those sharing a size with another are compared by their text (as a
dictionary key: Python hashes a string once and compares equal hashes letter by letter).
"""

from __future__ import annotations

from collections.abc import Iterable

from memorybank.core.bank import Bank


class Copies:
    """Per document that has copies, the others (templates and inbox notes have none)."""

    def __init__(self, texts: dict[str, str]) -> None:
        groups: dict[str, list[str]] = {}
        for path, text in texts.items():
            groups.setdefault(text, []).append(path)
        self.of: dict[str, tuple[str, ...]] = {}
        for paths in groups.values():
            if len(paths) > 1:
                for path in paths:
                    self.of[path] = tuple(sorted(p for p in paths if p != path))

    def fold(self, ranked: Iterable[tuple[float, str]], limit: int) -> list[tuple[float, str, tuple[str, ...]]]:
        """The first ``limit`` of ``ranked`` (score, path) with every copy of an earlier one folded
        into it: (score, path, its copies)."""
        kept: list[tuple[float, str, tuple[str, ...]]] = []
        taken: set[str] = set()
        for score, path in ranked:
            if path in taken:
                continue
            copies = self.of.get(path, ())
            taken.update(copies)
            kept.append((score, path, copies))
            if len(kept) == limit:
                break
        return kept


def copies(bank: Bank) -> Copies:
    """The bank's copies (texts are compared only among documents of one size)."""

    def build(bank: Bank, _previous: object) -> Copies:
        documents = bank.documents
        by_size: dict[int, int] = {}
        for doc in documents.values():
            if not (doc.is_template or doc.is_inbox):
                by_size[doc.size] = by_size.get(doc.size, 0) + 1
        texts = {
            path: bank.text(path)
            for path, doc in documents.items()
            if not (doc.is_template or doc.is_inbox) and by_size[doc.size] > 1
        }
        return Copies(texts)

    return bank.extension("route.copies", build)
