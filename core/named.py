"""Documents a question names outright: by their identifier (``ADR-001``, ``FT-NTF-001``,
``PROMPT-003``) or by their path (``engineering/gotchas.md``, ``memory_bank/ops/config.md``,
``[the roadmap](../product/roadmap.md)``).

A question that names a document asks about that document, so it leads the answer whatever the
bodies that merely mention it say (the route puts it first, before even the owner of a
``canonical_for`` key the question names). An identifier is read from where the bank's authors put
it: the start of a file name (``ADR-001-mvp-cli-architecture.md``), of a folder
(``features/FT-001-typescript-rewrite/``, naming every member of the package) or of a title
(``FT-004: Posts Management``). It is the longest run of hyphen- or underscore-joined parts whose
first part is letters and whose last part holds a digit, so ``FT-HW1-07`` never names
``FT-HW1-05``, and ``utf-8`` could only name a document whose own name starts with it. A file name
the bank repeats in several folders (``plan-v2.md``, ``code-review-1.md``) is a role, not a name.

People type identifiers loosely: ``FT-45``, ``FT 45``, ``ft045`` and ``ADR 4`` name ``FT-045`` and
``ADR-004`` when the bank has them. Numbers are compared without their leading zeros, and letters
followed by a number (glued, or after one space) are read as the identifier they spell, but only
when the bank has that identifier (``step 2`` names nothing in a bank without a ``STEP-2``).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

from memorybank.core.lang import fold
from memorybank.core.model import Document

_RUN = re.compile(r"[a-z\u0400-\u04ff0-9]+(?:[-_][a-z\u0400-\u04ff0-9]+)+")
_PATH = re.compile(r"[\w.\-/\\]*[\w\-]\.md\b")
_LETTERS = re.compile(r"[a-z\u0400-\u04ff]+")
_DIGIT = re.compile(r"\d")
_DASH = re.compile(r"(?<=\w)[\u2010-\u2015](?=\w)")
"""A hyphen, an en dash or an em dash a writer's keyboard put inside an identifier."""
_LOOSE = re.compile(r"(?<![\w-])([a-z]{2,8}) ?(\d{1,5})(?![\w-])")
"""Letters and a number typed without the hyphen: ``ft 45``, ``ft045``."""


def _unpadded(key: str) -> str:
    """An identifier with its numbers' leading zeros dropped: ``ft-045`` and ``ft-45`` give ``ft-45``."""
    return "-".join(part.lstrip("0") or "0" if part.isdigit() else part for part in key.split("-"))


def identifier(run: str) -> str:
    """The identifier a hyphenated run starts with: its longest prefix ending in a part that holds
    a digit (``ft-hw1-04-branches`` gives ``ft-hw1-04``; ``mvp-cli`` and ``0018-task`` none)."""
    parts = re.split(r"[-_]", run)
    if len(parts) < 2 or not _LETTERS.fullmatch(parts[0]):
        return ""
    last = max((i for i in range(1, len(parts)) if _DIGIT.search(parts[i])), default=0)
    return "-".join(parts[: last + 1]) if last else ""


def _leading_run(text: str) -> str:
    found = _RUN.match(fold(text).strip())
    return found.group(0) if found else ""


class Names:
    """Per identifier and per path, the documents that carry it (templates and inbox notes left out)."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self.by_id: dict[str, set[str]] = defaultdict(set)
        self.paths: dict[str, str] = {}
        """Lowercased path to path."""
        folders_of_file_name: dict[str, set[str]] = defaultdict(set)
        for doc in documents:
            if doc.is_template or doc.is_inbox:
                continue
            self.paths[doc.path.lower()] = doc.path
            *folders, stem = doc.path.removesuffix(".md").split("/")
            for label in (*folders, doc.title):
                if key := identifier(_leading_run(label)):
                    self.by_id[key].add(doc.path)
            if key := identifier(_leading_run(stem)):
                self.by_id[key].add(doc.path)
                folders_of_file_name[key].add("/".join(folders))
        for key, folders in folders_of_file_name.items():
            if len(folders) > 1:  # plan-v2.md in every issue folder: a role, not a name
                self.by_id.pop(key, None)
        self.unpadded: dict[str, set[str]] = defaultdict(set)
        """The same documents by ``_unpadded`` identifier: what a loosely typed one is looked up by."""
        for key, paths in self.by_id.items():
            self.unpadded[_unpadded(key)] |= paths

    def named_in(self, question: str) -> list[set[str]]:
        """The documents the question names, one set per name: the document at a path it writes,
        or the documents carrying an identifier it writes (every member of a package so named)."""
        found: list[set[str]] = []
        rest = question
        for written in _PATH.findall(question):
            path = posixpath.normpath(re.sub(r"^(?:\.{1,2}/)+", "", written.replace("\\", "/"))).lower()
            if path in self.paths:
                found.append({self.paths[path]})
            elif "/" in path:  # a bare file name is too often one outside the bank (README.md, PRD.md)
                tails = [p for p in self.paths if p.endswith("/" + path)]  # it gave the end of one
                heads = [p for p in self.paths if path.endswith("/" + p)]  # from the repository's root, a URL
                chosen = tails[0] if len(tails) == 1 else max(heads, key=len, default=None)
                if chosen is not None:
                    found.append({self.paths[chosen]})
            rest = rest.replace(written, " ")  # the identifier inside a path names nothing more
        rest = _DASH.sub("-", fold(rest))
        for run in _RUN.findall(rest):
            key = identifier(run)
            if key in self.by_id:
                found.append(self.by_id[key])
            elif key and _unpadded(key) in self.unpadded:  # FT-45 for FT-045
                found.append(self.unpadded[_unpadded(key)])
        for letters, number in _LOOSE.findall(_RUN.sub(" ", rest)):  # FT 45, ft045
            if (key := _unpadded(f"{letters}-{number}")) in self.unpadded:
                found.append(self.unpadded[key])
        return found


def names(bank, _previous: object = None) -> Names:
    return Names(bank.documents.values())
