"""The header index: which words each document's headers hold, and how a question matches them.

A document's matchable fields (its ``canonical_for`` keys, ``purpose``, ``title`` and ``##``
headings) become *slots*; a header word points at the slots holding it. The index follows the
bank's refresh document by document (the bank replaces a record whenever its file changes), and
templates and ``_inbox/`` notes are never in it.
"""

from __future__ import annotations

import math
from collections import defaultdict
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
CLOSED_WORK = 1.0
"""``delivery_status`` done or cancelled: no damping. A shipped feature is often the only record of
how a thing was built (its design, its fallback, its limits), and the PRD or use case above it names
the same topic with a higher layer weight, so halving it put the document that answers below one
that only names the topic. Measured on all tunable sets together (held-out-6 among them) against
0.5: Recall@1 0.740 to 0.745, Recall@3 0.903 to 0.908, no bank of any set lower, held-out-6
``lynxlg__telegram_shop_bot`` Recall@3 0.80 to 0.88; the bar 0.778/0.903 to 0.783/0.909. The factor
stays in the breakdown (shown only when it is not 1)."""

CANONICAL, PURPOSE, TITLE, SECTION = range(4)


class HeaderIndex:
    """Header token -> the slots (one field of one document) holding it, updated per document.

    The same postings are also filed by field: ``canonical_for`` keys and headings by slot (a
    document counts its best one), purposes and titles by document (each has one)."""

    def __init__(self) -> None:
        self.postings: dict[str, set[int]] = {}
        self.table = TokenTable(self.postings)
        self.fields: tuple[dict[str, set], ...] = ({}, {}, {}, {})
        """Per field kind (``CANONICAL``, ``PURPOSE``, ``TITLE``, ``SECTION``): header token -> the
        slots holding it, or for a purpose or a title the documents."""
        self.slots: list[tuple[str, int, int] | None] = []
        """Slot id -> (path, field kind, words in the field); None once the document left."""
        self.slot_paths: list[str | None] = []
        """Slot id -> its document's path (None once the document left): the heading loop's lookup."""
        self.labels: dict[int, tuple[str, int]] = {}
        """Slot id -> the field's text and line."""
        self.records: dict[str, tuple[Document | Headed, tuple[tuple[int, tuple[str, ...]], ...]]] = {}
        """Path -> its document (or, read from the parse cache until the first sync, ``headed`` of
        it) and its slots with their tokens."""
        self.holders: dict[str, set[str]] = {}
        """Header token -> documents whose headers hold it."""
        self.priors: dict[str, float] = {}
        """Path -> status weight times the closed-work factor."""
        self.layers: dict[str, str] = {}
        self._weights: dict[
            tuple[tuple[str, float], ...], tuple[dict[str, float], dict[str, float], dict[str, float]]
        ] = {}
        """Per set of layer weights: the weights, path -> its layer's weight, and path -> that times its prior."""

    def sync(self, bank: Bank) -> None:
        documents = bank.documents
        for path in [p for p in self.records if p not in documents]:
            self._drop(path)
        for path, doc in documents.items():
            record = self.records.get(path)
            if record is not None and record[0] is doc:  # the bank replaces a record whenever it changes
                continue
            if record is not None and headed(record[0]) == headed(doc):  # re-layered the same, or stored
                self.records[path] = (doc, record[1])
                continue
            if record is not None:
                self._drop(path)
            self._add(doc)

    def layer_weights(self, weights: dict[str, float]) -> dict[str, float]:
        """Path -> its layer's weight, kept per set of layer weights and updated as documents come
        and go."""
        return self._weighted(weights)[1]

    def multipliers(self, weights: dict[str, float]) -> dict[str, float]:
        """Path -> its layer's weight times its prior: what a raw header score is multiplied by."""
        return self._weighted(weights)[2]

    def _weighted(self, weights: dict[str, float]) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
        key = tuple(sorted(weights.items()))
        found = self._weights.get(key)
        if found is None:
            if len(self._weights) >= 4:  # the bank's weights changed: the old sets are not asked again
                self._weights.clear()
            by_path = {path: weights.get(layer, 1.0) for path, layer in self.layers.items()}
            priors = self.priors
            found = self._weights[key] = (dict(weights), by_path, {p: w * priors[p] for p, w in by_path.items()})
        return found

    def _add(self, doc: Document) -> None:
        entries = []
        path = doc.path
        if not (doc.is_template or doc.is_inbox):
            self.priors[path] = prior(doc)
            self.layers[path] = doc.layer
            for weights, by_path, multiplied in self._weights.values():
                by_path[path] = weights.get(doc.layer, 1.0)
                multiplied[path] = by_path[path] * self.priors[path]
            fields = [(CANONICAL, key, 0) for key in doc.canonical_for]
            fields += [(PURPOSE, stated_purpose(doc), 0), (TITLE, doc.title, 0)]
            fields += [(SECTION, section.title, section.line) for section in doc.sections]
            for kind, label, line in fields:
                tokens = route_tokens(label)
                if not tokens:
                    continue
                slot = len(self.slots)
                self.slots.append((path, kind, len(tokens)))
                self.slot_paths.append(path)
                self.labels[slot] = (label, line)
                filed, key = self.fields[kind], path if kind in (PURPOSE, TITLE) else slot
                distinct = tuple(dict.fromkeys(tokens))
                for token in distinct:
                    bucket = self.postings.get(token)
                    if bucket is None:
                        self.postings[token] = {slot}
                        self.table.changed()
                    else:
                        bucket.add(slot)
                    filed.setdefault(token, set()).add(key)
                entries.append((slot, distinct))
        for token in {t for _, tokens in entries for t in tokens}:
            self.holders.setdefault(token, set()).add(path)
        self.records[path] = (doc, tuple(entries))

    def __getstate__(self) -> dict[str, object]:
        """What the parse cache keeps: each document's record as only what its headers depend on."""
        return {**self.__dict__, "records": {p: (headed(d), e) for p, (d, e) in self.records.items()}}

    def _drop(self, path: str) -> None:
        _, entries = self.records.pop(path)
        self.priors.pop(path, None)
        self.layers.pop(path, None)
        for _, by_path, multiplied in self._weights.values():
            by_path.pop(path, None)
            multiplied.pop(path, None)
        for token in {t for _, tokens in entries for t in tokens}:
            holders = self.holders[token]
            holders.discard(path)
            if not holders:
                del self.holders[token]
        for slot, tokens in entries:
            _, kind, _ = self.slots[slot]  # type: ignore[misc]
            filed, key = self.fields[kind], path if kind in (PURPOSE, TITLE) else slot
            self.slots[slot] = None
            self.slot_paths[slot] = None
            del self.labels[slot]
            for token in tokens:
                _discard(filed, token, key)
                if _discard(self.postings, token, slot):
                    self.table.changed()


def _discard(postings: dict[str, set], token: str, key: object) -> bool:
    """Take one key out of a token's bucket; True when the bucket emptied and went."""
    bucket = postings[token]
    bucket.discard(key)
    if bucket:
        return False
    del postings[token]
    return True


def header_index(bank: Bank) -> HeaderIndex:
    """The bank's header index, brought up to date with its last refresh."""

    def build(bank: Bank, previous: HeaderIndex | None) -> HeaderIndex:
        index = previous if previous is not None else HeaderIndex()
        index.sync(bank)
        return index

    return bank.indexed("route.headers", build)


Found = list[tuple[float, int, str, str]]
"""A concept's matches (score, -order of the word, word, token), worst first."""


class HeaderMatch:
    """How every header slot matched one question: per concept, the best score in each field
    (filed as the index files them) and the concept's weight, its rarity in headers."""

    def __init__(self, index: HeaderIndex, terms: list[QueryTerm], vocabulary: Vocabulary) -> None:
        self.index = index
        self.concepts: list[tuple[tuple[dict, ...], Found, float]] = []
        raw = [self._concept(term, vocabulary) for term in terms]
        documents = max(len(index.records), 1)
        idfs = []
        for _, found, df in raw:
            idfs.append(math.log(1.0 + (documents - df + 0.5) / (df + 0.5)) if found else 0.0)
        top = max(idfs, default=0.0) or 1.0
        for (filed, found, _), idf in zip(raw, idfs):
            self.concepts.append((filed, found, idf / top))

    @property
    def known_weight(self) -> float:
        """The summed rarity weights of the question's concepts that some header holds: what a
        field naming all of them would score at weight 1."""
        return sum(factor for _, _, factor in self.concepts)

    def _concept(self, term: QueryTerm, vocabulary: Vocabulary) -> tuple[tuple[dict, ...], Found, int]:
        """Best score per field, the matches, and how many documents hold the concept in their headers."""
        index = self.index
        found: Found = []
        candidates = [(term.literal, 1.0, False)]
        candidates += [(t, TRANSLATION_DISCOUNT, term.stem is None) for t in term.translations]
        candidates += [(t, TRANSLATION_DISCOUNT, False) for t in term.cognates]
        for order, (word, weight, is_key) in enumerate(candidates):
            for token, value in index.table.matches(word, vocabulary, is_key=is_key).items():
                found.append((value * weight, -order, word, token))
        found.sort()  # ascending, so a later (better, or earlier-listed on a tie) form overwrites
        filed: tuple[dict, ...] = ({}, {}, {}, {})
        for score, _, _, token in found:
            for best, postings in zip(filed, index.fields):
                keys = postings.get(token)
                if keys:
                    best.update(dict.fromkeys(keys, score))
        tokens = {token for _, _, _, token in found}
        return filed, found, len(set().union(*(index.holders[token] for token in tokens)))

    def scores(self, weights: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
        """Header score per document, times its layer's weight and its status prior, and per
        document how much of its best ``canonical_for`` key the question names (1.0: all of it,
        each word at full weight).

        A document's raw score is its best heading, then its purpose, its title and its best
        ``canonical_for`` key by coverage, each by its field's weight; a field's score is the sum
        of each concept's best match in it, weighted by the concept's rarity."""
        index = self.index
        totals: list[dict] = [{}, {}, {}, {}]
        for filed, _, factor in self.concepts:
            for at, best in enumerate(filed):
                total = totals[at]
                if not total:  # the first concept met in this field: a comprehension is much faster than a loop
                    totals[at] = defaultdict(float, {key: score * factor for key, score in best.items()})
                    continue
                for key, score in best.items():
                    total[key] += score * factor
        slots, paths = index.slots, index.slot_paths
        by_slot, purpose, title, by_heading = totals
        heading: dict[str, float] = {}
        get = heading.get
        for slot, total in by_heading.items():  # each document's best heading
            path = paths[slot]
            if total > get(path, 0.0):  # type: ignore[arg-type]
                heading[path] = total  # type: ignore[index]
        scores = defaultdict(
            float, {p: v * HEADING_WEIGHT for p, v in heading.items()} if HEADING_WEIGHT != 1.0 else heading
        )
        canonical: dict[str, float] = {}
        canonical_get = canonical.get
        for slot, total in by_slot.items():
            path, _, size = slots[slot]  # type: ignore[misc]
            if total / size > canonical_get(path, 0.0):
                canonical[path] = total / size
        for weight, part in ((PURPOSE_WEIGHT, purpose), (TITLE_WEIGHT, title), (CANONICAL_WEIGHT, canonical)):
            for path, value in part.items():
                scores[path] += value * weight
        multipliers = index.multipliers(weights)
        return {path: raw * multipliers[path] for path, raw in scores.items()}, canonical

    def total(self, slot: int) -> float:
        """The sum of each concept's best match in one slot, each weighted by its rarity."""
        path, kind, _ = self.index.slots[slot]  # type: ignore[misc]
        key = path if kind in (PURPOSE, TITLE) else slot
        total = 0.0
        for filed, _, factor in self.concepts:
            score = filed[kind].get(key)
            if score is not None:
                total = total + score * factor
        return total

    def words(self, slot: int) -> tuple[str, ...]:
        """The words of a slot that matched the question, one per concept, as the slot writes them
        (``guest`` for "guesty", ``решение`` for "adr", ``local`` for "локально"): a ``why`` quotes
        what the document says, not a stem or the word as asked."""
        postings = self.index.postings
        found = []
        for _, matches, _ in self.concepts:
            for _, _, _, token in reversed(matches):
                if slot in postings[token]:
                    found.append(token)
                    break
        return tuple(dict.fromkeys(found))


def details(index: HeaderIndex, match: HeaderMatch, path: str) -> Fields:
    """Which key, words and section made a document's header score (for its ``why``)."""
    acc = Fields()
    for slot, _ in index.records[path][1]:  # field order, so the first maximum is kept
        total = match.total(slot)
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


Headed = tuple
"""What a document's header entries depend on (``headed``): a stored record's stand-in."""


def headed(doc: Document | Headed) -> Headed:
    """What the header index reads of a document: a document with the same indexes the same."""
    if isinstance(doc, tuple):
        return doc
    headings = tuple((section.title, section.line) for section in doc.sections)
    kept = (doc.is_template, doc.is_inbox, doc.status, doc.delivery_status, doc.layer)
    return (*kept, doc.canonical_for, stated_purpose(doc), doc.title, headings)


def stated_purpose(doc: Document) -> str:
    """What a document says it is for: its ``purpose``, or where it has none, the ``description``
    another frontmatter convention writes instead (skills, agents, static-site pages)."""
    if doc.purpose:
        return doc.purpose
    description = doc.frontmatter.get("description")
    return description.strip() if isinstance(description, str) else ""


def prior(doc: Document) -> float:
    """Status weight times the closed-work factor."""
    closed = CLOSED_WORK if doc.delivery_status in ("done", "cancelled") else 1.0
    return STATUS_WEIGHTS.get(doc.status, OTHER_STATUS) * closed
