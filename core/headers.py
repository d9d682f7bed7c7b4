"""The header index: which words each document's headers hold, and how a question matches them.

A document's matchable fields (its ``canonical_for`` keys, ``purpose``, ``title`` and ``##``
headings) become *slots*; a header word points at the slots holding it. The index follows the
bank's refresh document by document (the bank replaces a record whenever its file changes), and
templates and ``_inbox/`` notes are never in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.lang import QueryTerm, TokenTable, Vocabulary, route_tokens
from memorybank.core.model import Document

CANONICAL_WEIGHT = 5.0
PURPOSE_WEIGHT = 3.0
TITLE_WEIGHT = 2.0
HEADING_WEIGHT = 1.0
TRANSLATION_DISCOUNT = 0.9
STATUS_WEIGHTS = {"active": 1.0, "draft": 0.7, "archived": 0.2}
OTHER_STATUS = 0.9
"""Any other status, empty included."""
CLOSED_WORK = 0.5
"""``delivery_status`` done or cancelled: the work is over, the knowledge it used lives elsewhere."""

CANONICAL, PURPOSE, TITLE, SECTION = range(4)


class HeaderIndex:
    """Header token -> the slots (one field of one document) holding it, updated per document."""

    def __init__(self) -> None:
        self.postings: dict[str, set[int]] = {}
        self.table = TokenTable(self.postings)
        self.slots: list[tuple[str, int, int] | None] = []
        """Slot id -> (path, field kind, words in the field); None once the document left."""
        self.labels: dict[int, tuple[str, int]] = {}
        """Slot id -> the field's text and line."""
        self.records: dict[str, tuple[Document, tuple[tuple[int, tuple[str, ...]], ...]]] = {}
        self.document_frequency: dict[str, int] = {}
        """Header token -> documents whose headers hold it."""
        self.priors: dict[str, tuple[str, float]] = {}
        """Path -> (layer, status weight times the closed-work factor)."""

    def sync(self, bank: Bank) -> None:
        documents = bank.documents
        for path in [p for p in self.records if p not in documents]:
            self._drop(path)
        for path, doc in documents.items():
            record = self.records.get(path)
            if record is not None and record[0] is doc:  # the bank replaces a record whenever it changes
                continue
            if record is not None:
                self._drop(path)
            self._add(doc)

    def _add(self, doc: Document) -> None:
        entries = []
        if not (doc.is_template or doc.is_inbox):
            self.priors[doc.path] = (doc.layer, prior(doc))
            fields = [(CANONICAL, key, 0) for key in doc.canonical_for]
            fields += [(PURPOSE, doc.purpose, 0), (TITLE, doc.title, 0)]
            fields += [(SECTION, section.title, section.line) for section in doc.sections]
            for kind, label, line in fields:
                tokens = route_tokens(label)
                if not tokens:
                    continue
                slot = len(self.slots)
                self.slots.append((doc.path, kind, len(tokens)))
                self.labels[slot] = (label, line)
                distinct = tuple(dict.fromkeys(tokens))
                for token in distinct:
                    bucket = self.postings.get(token)
                    if bucket is None:
                        self.postings[token] = {slot}
                        self.table.changed()
                    else:
                        bucket.add(slot)
                entries.append((slot, distinct))
        for token in {t for _, tokens in entries for t in tokens}:
            self.document_frequency[token] = self.document_frequency.get(token, 0) + 1
        self.records[doc.path] = (doc, tuple(entries))

    def _drop(self, path: str) -> None:
        _, entries = self.records.pop(path)
        self.priors.pop(path, None)
        for token in {t for _, tokens in entries for t in tokens}:
            self.document_frequency[token] -= 1
            if not self.document_frequency[token]:
                del self.document_frequency[token]
        for slot, tokens in entries:
            self.slots[slot] = None
            del self.labels[slot]
            for token in tokens:
                bucket = self.postings[token]
                bucket.discard(slot)
                if not bucket:
                    del self.postings[token]
                    self.table.changed()


def header_index(bank: Bank) -> HeaderIndex:
    """The bank's header index, brought up to date with its last refresh."""

    def build(bank: Bank, previous: HeaderIndex | None) -> HeaderIndex:
        index = previous if previous is not None else HeaderIndex()
        index.sync(bank)
        return index

    return bank.extension("route.headers", build)


class HeaderMatch:
    """How every header slot matched one question: per concept, the best score and its word."""

    def __init__(self, index: HeaderIndex, terms: list[QueryTerm], vocabulary: Vocabulary) -> None:
        self.index = index
        self.concepts: list[tuple[dict[int, float], dict[int, str], float]] = []
        raw = [self._concept(term, vocabulary) for term in terms]
        documents = max(len(index.records), 1)
        idfs = []
        for best, _, df in raw:
            idfs.append(math.log(1.0 + (documents - df + 0.5) / (df + 0.5)) if best else 0.0)
        top = max(idfs, default=0.0) or 1.0
        for (best, words, _), idf in zip(raw, idfs):
            self.concepts.append((best, words, idf / top))

    def _concept(self, term: QueryTerm, vocabulary: Vocabulary) -> tuple[dict[int, float], dict[int, str], int]:
        """Best score and word per slot, and how many documents hold the concept in their headers."""
        table, postings = self.index.table, self.index.postings
        found = []
        candidates = [(term.literal, 1.0, False)]
        candidates += [(t, TRANSLATION_DISCOUNT, term.stem is None) for t in term.translations]
        candidates += [(t, TRANSLATION_DISCOUNT, False) for t in term.cognates]
        for order, (word, weight, is_key) in enumerate(candidates):
            for token, value in table.matches(word, vocabulary, is_key=is_key).items():
                found.append((value * weight, -order, word, token))
        found.sort()  # ascending, so a later (better, or earlier-listed on a tie) form overwrites
        best: dict[int, float] = {}
        words: dict[int, str] = {}
        for score, _, word, token in found:
            slots = postings[token]
            best.update(dict.fromkeys(slots, score))
            words.update(dict.fromkeys(slots, word))
        if len(found) == 1:
            return best, words, self.index.document_frequency[found[0][3]]
        records = self.index.slots
        return best, words, len({records[slot][0] for slot in best})  # type: ignore[index]

    def totals(self) -> dict[int, float]:
        """Slot -> the sum of each concept's best match, a concept weighted by its rarity in headers
        (the rarest counts fully; a word in every title, like the project's name, counts little)."""
        totals: dict[int, float] = {}
        get = totals.get
        for best, _, factor in self.concepts:
            for slot, score in best.items():
                totals[slot] = get(slot, 0.0) + score * factor
        return totals

    def words(self, slot: int) -> tuple[str, ...]:
        found = [words[slot] for _, words, _ in self.concepts if slot in words]
        return tuple(dict.fromkeys(found))


def document_scores(index: HeaderIndex, totals: dict[int, float]) -> tuple[dict[str, float], dict[str, float]]:
    """Raw header score per document (the best canonical key by coverage, purpose, title, the best
    section), and per document how much of its best ``canonical_for`` key the question names (1.0:
    all of it, each word at full weight)."""
    canonical: dict[str, float] = {}
    purpose: dict[str, float] = {}
    title: dict[str, float] = {}
    section: dict[str, float] = {}
    canonical_get, section_get = canonical.get, section.get
    slots = index.slots
    for slot, total in totals.items():
        path, kind, size = slots[slot]  # type: ignore[misc]
        if kind == PURPOSE:
            purpose[path] = total
        elif kind == TITLE:
            title[path] = total
        elif kind == SECTION:
            if total > section_get(path, 0.0):
                section[path] = total
        elif total / size > canonical_get(path, 0.0):
            canonical[path] = total / size
    scores = {p: v * HEADING_WEIGHT for p, v in section.items()}
    for weight, part in ((PURPOSE_WEIGHT, purpose), (TITLE_WEIGHT, title), (CANONICAL_WEIGHT, canonical)):
        get = scores.get
        for path, value in part.items():
            scores[path] = get(path, 0.0) + value * weight
    return scores, canonical


def details(index: HeaderIndex, match: HeaderMatch, totals: dict[int, float], path: str) -> Fields:
    """Which key, words and section made a document's header score (for its ``why``)."""
    acc = Fields()
    for slot, _ in index.records[path][1]:  # field order, so the first maximum is kept
        total = totals.get(slot)
        if not total:
            continue
        _, kind, size = index.slots[slot]  # type: ignore[misc]
        label, line = index.labels[slot]
        if kind == CANONICAL and total / size * CANONICAL_WEIGHT > acc.canonical:
            acc.canonical, acc.key = total / size * CANONICAL_WEIGHT, label
        elif kind == PURPOSE:
            acc.purpose, acc.purpose_words = total * PURPOSE_WEIGHT, match.words(slot)
        elif kind == TITLE:
            acc.title, acc.title_words = total * TITLE_WEIGHT, match.words(slot)
        elif kind == SECTION and total * HEADING_WEIGHT > acc.heading:
            acc.heading, acc.section, acc.section_line = total * HEADING_WEIGHT, label, line
    return acc


@dataclass
class Fields:
    """The parts of one document's header score and what made them."""

    canonical: float = 0.0
    key: str | None = None
    purpose: float = 0.0
    purpose_words: tuple[str, ...] = ()
    title: float = 0.0
    title_words: tuple[str, ...] = ()
    heading: float = 0.0
    section: str | None = None
    section_line: int | None = None

    @property
    def total(self) -> float:
        return self.canonical + self.purpose + self.title + self.heading


def prior(doc: Document) -> float:
    """Status weight times the closed-work factor."""
    closed = CLOSED_WORK if doc.delivery_status in ("done", "cancelled") else 1.0
    return STATUS_WEIGHTS.get(doc.status, OTHER_STATUS) * closed
