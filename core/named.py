"""Documents a question names outright: by their identifier (``ADR-001``, ``FT-NTF-001``,
``PROMPT-003``) or by their path (``engineering/gotchas.md``, ``[the roadmap](../product/roadmap.md)``).

A question that names a document asks about that document, so it leads the answer whatever the
bodies that merely mention it say (the route puts it first, like the owner of a ``canonical_for``
key). An identifier is read from where the bank's authors put it: the start of a file name
(``ADR-001-mvp-cli-architecture.md``), of a folder (``features/FT-001-typescript-rewrite/``,
naming every member of the package) or of a title (``FT-004: Posts Management``). It is a run of
hyphen- or underscore-joined parts whose first part is letters and whose last part holds a digit,
so ``utf-8`` could only name a document whose own name starts with it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from memorybank.core.lang import fold
from memorybank.core.model import Document

_RUN = re.compile(r"[a-z\u0400-\u04ff0-9]+(?:[-_][a-z\u0400-\u04ff0-9]+)+")
_PATH = re.compile(r"[\w.\-/]*[\w\-]\.md\b")
_LETTERS = re.compile(r"[a-z\u0400-\u04ff]+")
_DIGIT = re.compile(r"\d")


def identifiers(run: str) -> list[str]:
    """The identifiers a hyphenated run starts with, longest first: ``ft-hw1-04-branches`` gives
    ``ft-hw1-04`` and ``ft-hw1``; ``mvp-cli`` none."""
    parts = re.split(r"[-_]", run)
    if len(parts) < 2 or not _LETTERS.fullmatch(parts[0]):
        return []
    return ["-".join(parts[: i + 1]) for i in range(len(parts) - 1, 0, -1) if _DIGIT.search(parts[i])]


def _leading_run(text: str) -> str:
    found = _RUN.match(fold(text).strip())
    return found.group(0) if found else ""


class Names:
    """Per identifier and per path, the documents that carry it (templates and inbox notes left out)."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self.by_id: dict[str, set[str]] = defaultdict(set)
        self.paths: set[str] = set()
        for doc in documents:
            if doc.is_template or doc.is_inbox:
                continue
            self.paths.add(doc.path)
            parts = doc.path.removesuffix(".md").split("/")
            for label in (*parts, doc.title):
                for key in identifiers(_leading_run(label)):
                    self.by_id[key].add(doc.path)

    def named_in(self, question: str) -> list[set[str]]:
        """The documents the question names, one set per name: the documents carrying an identifier
        it writes (every member of a package folder so named), or those at a path it writes."""
        folded = fold(question)
        found: list[set[str]] = []
        for run in _RUN.findall(folded):
            for key in identifiers(run):
                if key in self.by_id:
                    found.append(self.by_id[key])
                    break  # the longest identifier the bank knows
        for written in _PATH.findall(question):
            path = re.sub(r"^(?:\.{1,2}/)+", "", written).lower()
            if "/" in path:  # a bare file name is too often one outside the bank (README.md, PRD.md)
                found.append({p for p in self.paths if p.lower() == path or p.lower().endswith("/" + path)})
        return [paths for paths in found if paths]


def names(bank, _previous: object = None) -> Names:
    return Names(bank.documents.values())
