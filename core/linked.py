"""What the rest of the bank says about a document: the words on the lines that link to it.

A line that links a document from elsewhere in the bank often says what the document holds beyond
its name: an index entry's description (``[ADR-004](adr/ADR-004.md) - money kept as integer
cents``), a pointer in a plan (``the reaper's defaults are set in [the plan](plan.md)``). Those
words count as evidence for the linked document, scored with BM25 like a short field of its own.
The link's label and target are left out: they mostly repeat the document's title and file name,
which its headers already count. Left out too are links between documents of one folder below
the bank's top (a package's members share its headers already, and its index would lend every
member the same words), and links from templates, ``_inbox/`` notes and the bank's routing checks
(which quote every question beside the document expected to answer it).

Measured on the tunable sets (1,239 questions) at ``LINKED_SHARE`` 0.2 in ``core.route``: Recall@1
858 to 864, Recall@3 1,082 to 1,090, 21 questions up and 8 down. A first version, which also lost
every line whose link label was a code span, chose between the variants: with the label kept,
865/1,089 (19 up, 6 down); with links from the document's own folder, 859/1,086 (23 up, 31 down at
a share of 0.3); shares from 0.12 to 0.3 all gained (864-866 at rank 1, 1,087-1,090 in the first
three). On this version, letting an index lend words to its own folder gained nothing (6 up, 7 down).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from memorybank.core.lang import fold, search_tokens
from memorybank.core.model import ROUTE_CHECKS, Document, Link

MAX_LINKS = 8
"""A line holding more links than this is a list, not a description of one document, and gives
nothing (the real banks' lines hold four at most); this also bounds the work of one line."""
MAX_CHARS = 4_000
"""A longer line gives nothing (the real banks' longest line holding a link has 1,580 characters)."""
LINKED_K1 = 1.2
LINKED_B = 0.75


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


class LinkedWords:
    """Per linked document, the words other documents write around their links to it, kept up
    to date document by document (a source's lines are dropped when it changes or goes)."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = {}
        """Token -> linked document -> occurrences around links to it."""
        self.lengths: Counter[str] = Counter()
        self._given: dict[str, list[tuple[str, Counter[str]]]] = {}
        """Source document -> (linked document, words) it contributed."""
        self._norms: dict[str, float] | None = None

    def add(self, doc: Document, body: str) -> None:
        """Record what ``doc`` says around its links; ``body`` is its folded body."""
        if doc.is_template or doc.is_inbox or doc.path == ROUTE_CHECKS:
            return
        folder = _folder(doc.path)
        by_line: dict[int, list[Link]] = {}
        for link in doc.links:
            target = link.resolved
            if target and target != doc.path and target.endswith(".md") and not (folder and _folder(target) == folder):
                by_line.setdefault(link.line, []).append(link)
        if not by_line:
            return
        body_lines = body.split("\n")
        given: list[tuple[str, Counter[str]]] = []
        for number, links in by_line.items():
            offset = number - doc.body_line
            if len(links) > MAX_LINKS or not 0 <= offset < len(body_lines) or len(body_lines[offset]) > MAX_CHARS:
                continue
            line = body_lines[offset]
            for link in links:
                for part in (link.label, link.raw):
                    if part:
                        line = line.replace(fold(part), " ")
            words = Counter(search_tokens(line, folded=True))
            if words:
                given.extend((target, words) for target in dict.fromkeys(link.resolved for link in links))
        if not given:
            return
        self._given[doc.path] = given
        postings = self.postings
        for target, words in given:
            self.lengths[target] += words.total()
            for token, count in words.items():
                bucket = postings.setdefault(token, {})
                bucket[target] = bucket.get(target, 0) + count
        self._norms = None

    def drop(self, source: str) -> None:
        """Forget what ``source`` said around its links."""
        given = self._given.pop(source, None)
        if not given:
            return
        postings = self.postings
        for target, words in given:
            self.lengths[target] -= words.total()
            if self.lengths[target] <= 0:
                del self.lengths[target]
            for token, count in words.items():
                bucket = postings[token]
                left = bucket[target] - count
                if left > 0:
                    bucket[target] = left
                else:
                    del bucket[target]
                    if not bucket:
                        del postings[token]
        self._norms = None

    def evidence(self, concepts: list[tuple[float, dict[str, float]]], among: Iterable[str]) -> dict[str, float]:
        """BM25 of each document of ``among`` over the words around links to it, for the
        question's concepts as ``body_evidence`` weighs them (idf over bodies, indexed form ->
        weight). Only the documents in contention are looked at, so the cost stays flat."""
        norms = self._norms
        if norms is None:
            average = (self.lengths.total() / len(self.lengths) if self.lengths else 0.0) or 1.0
            norms = self._norms = {
                p: LINKED_K1 * (1.0 - LINKED_B + LINKED_B * n / average) for p, n in self.lengths.items()
            }
        lists = [
            (
                idf * (LINKED_K1 + 1.0),
                [(bucket, weight) for token, weight in forms.items() if (bucket := self.postings.get(token))],
            )
            for idf, forms in concepts
        ]
        lists = [(boost, buckets) for boost, buckets in lists if buckets]
        scores: dict[str, float] = {}
        for path in among:
            norm = norms.get(path)
            if norm is None:
                continue
            score = 0.0
            for boost, buckets in lists:
                tf = 0.0
                for bucket, weight in buckets:
                    count = bucket.get(path)
                    if count:
                        tf += count * weight
                if tf:
                    score += boost * tf / (tf + norm)
            if score:
                scores[path] = score
        return scores

    def words_for(self, path: str, concepts: Iterable[tuple[float, dict[str, float]]]) -> tuple[str, ...]:
        """The question's words (as indexed) that links to ``path`` are written beside."""
        found = []
        for _, forms in concepts:
            for token in forms:
                if path in self.postings.get(token, ()):
                    found.append(token)
                    break
        return tuple(found)
