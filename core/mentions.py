"""What code a document names: the repository paths its text mentions, and what lies beside them.

A mention is any token of a document's text that looks like a path (it has a slash, or it is a
file name with an extension), wherever it stands: in backticks, a link, a table or a frontmatter
list such as ``source_refs:``. It names a repository path when it resolves to one: relative to the
document when written with ``./`` or ``../``, else from the directory holding the bank or from the
repository root, else as the tail of exactly one known file or directory (``billing/tax.py``,
``retry.py``, ``biz/``).
Paths inside the bank are documents, not code, and are never named. Nothing here runs git: the
caller hands over the paths it knows.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

_URL = re.compile(r"(?<![\w.+-])[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
# Every pattern starts only where a token starts, so a long run without a slash is read once.
_MENTION = re.compile(
    r"(?<![\w.@+~/-])(?:\.{1,2}/)*\.?[\w@+~-][\w.@+~-]*/(?:[\w.@+~-]+/)*[\w.@+~-]*"  # something with a slash
    r"|(?<![\w./-])[\w@+~-]+\.[A-Za-z][A-Za-z0-9]{0,7}(?![\w/])"  # a bare file name with an extension
)
MENTIONS_READ = 400
"""Distinct mentions read per document: a hostile document cannot make the matching quadratic."""


class CodePlaces:
    """The repository paths outside the bank that mentions can name, and the changed files under
    each directory."""

    def __init__(self, bank_prefix: str, known: Iterable[str], changed: Iterable[str]) -> None:
        """
        Args:
            bank_prefix: the bank's path in the repository (not empty: a bank that is the whole
                repository has no code outside it).
            known: repository paths of the files that exist (``git ls-files``).
            changed: repository paths of the files changed in the period looked at, deleted
                ones included.
        """
        self.bank_prefix = bank_prefix
        changed = [p for p in changed if p and not self._in_bank(p)]
        self.files = {p for p in known if p and not self._in_bank(p)} | set(changed)
        self.dirs = {"/".join(p.split("/")[:k]) for p in self.files for k in range(1, p.count("/") + 1)}
        self.changed_under: dict[str, list[str]] = {}
        """Directory -> the changed files under it, at any depth."""
        for path in changed:
            parts = path.split("/")
            for depth in range(1, len(parts)):
                self.changed_under.setdefault("/".join(parts[:depth]), []).append(path)
        self.by_name: dict[str, list[str]] = {}
        """Last segment -> the files and directories ending with it."""
        for path in (*self.files, *self.dirs):
            self.by_name.setdefault(path.rsplit("/", 1)[-1], []).append(path)
        self.bases = tuple(dict.fromkeys((posixpath.dirname(bank_prefix), "")))
        """Where a path written without ``./`` may start: the directory holding the bank, then the root."""

    def _in_bank(self, path: str) -> bool:
        return path == self.bank_prefix or path.startswith(self.bank_prefix + "/")

    def resolve(self, mention: str, doc_dir: str) -> str | None:
        """The repository path (a file or a directory, outside the bank) a mention names, or None.

        Args:
            mention: the token as written.
            doc_dir: the repository directory of the document that holds it.
        """
        text = mention.rstrip("/.")
        if not text:
            return None
        relative = text.startswith(("./", "../"))
        bases = (doc_dir,) if relative else self.bases
        for base in bases:
            candidate = posixpath.normpath(posixpath.join(base, text))
            if candidate.startswith("../") or candidate in (".", "..") or self._in_bank(candidate):
                continue
            if candidate in self.files or candidate in self.dirs:
                return candidate
        if relative:
            return None
        tail = text.rsplit("/", 1)[-1]
        matches = [p for p in self.by_name.get(tail, ()) if p == text or p.endswith("/" + text)]
        return matches[0] if len(matches) == 1 else None

    def regions(self, text: str, doc_dir: str) -> tuple[set[str], set[str]]:
        """What a document's text names, and the regions beside it.

        A named file puts its directory beside it. A named directory is named as a whole, except at
        the top of the repository: ``src/`` is a region, not a name, so it only counts as beside.

        Returns:
            (named files and directories, directories beside them).
        """
        mentions = dict.fromkeys(m.group(0) for m in _MENTION.finditer(_URL.sub(" ", text)))
        named: set[str] = set()
        beside: set[str] = set()
        for mention in list(mentions)[:MENTIONS_READ]:
            path = self.resolve(mention, doc_dir)
            if path is None:
                continue
            if path in self.dirs and path not in self.files:
                (named if "/" in path else beside).add(path)
            else:
                named.add(path)
                if "/" in path:
                    beside.add(path.rsplit("/", 1)[0])
        return named, beside

    def changed_in(self, regions: Iterable[str]) -> set[str]:
        """The changed files at or under any of the regions (files or directories)."""
        found: set[str] = set()
        for region in regions:
            found.update(self.changed_under.get(region, (region,)))
        return found
