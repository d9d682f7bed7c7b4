"""The inverted index over document bodies, and how a question word expands into indexed forms.

The index holds only bodies (frontmatter never leaks into search) and follows the bank's
refresh: a body is re-indexed only when its file's mtime or size moved, a removed document leaves
no posting behind, and unlike the reference an emptied posting list is dropped, so "is this word
indexed" stays true to the disk. Search and routing's body evidence both read it.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import Counter
from dataclasses import dataclass, field

from memorybank.core.bank import Bank
from memorybank.core.cognates import CognateIndex
from memorybank.core.lang import (
    QueryTerm,
    TokenTable,
    Vocabulary,
    fold,
    has_cyrillic,
    is_identifier,
    search_tokens,
    token_parts,
)
from memorybank.core.linked import LinkedWords
from memorybank.core.model import Document
from memorybank.core.section_index import SectionEntry, split_sections

EXACT_WEIGHT = 10.0
INFLECTED_WEIGHT = 8.0
TRANSLATED_WEIGHT = 6.0
FRAGMENT_WEIGHT = 1.0
DERIVED_WEIGHT = TRANSLATED_WEIGHT
"""Another word of its family (``core.derivation``) counts as a translation does."""
BM25_K1 = 1.2
BM25_B = 0.75
POSITIONS_KEPT = 2_000
"""Bodies whose word places are kept; past this the cache starts again. A route reads those of its
60-odd candidates, so a session on a large bank does not keep every body's places."""
SCANNED_CHARACTERS = 1_000_000
"""How much of a body routing cuts into sections and word places for one question (whole lines).
The largest document of the real banks is 64 KB; a 24 MB log that stands among a question's
candidates would otherwise cost every route seconds. Its words still count, whole, in BM25."""


class _Joined:
    """One field of every document joined into one string, so a substring is found in all of them
    by a few ``str.find`` calls instead of one test per document."""

    def __init__(self, values: dict[str, str]) -> None:
        self.paths = list(values)
        self.starts = []
        parts = []
        offset = 0
        for value in values.values():
            self.starts.append(offset)
            parts.append(value)
            offset += len(value) + 1
        self.text = "\n".join(parts)

    def holding(self, needle: str) -> set[str]:
        found: set[str] = set()
        if not needle or "\n" in needle:
            return found
        text, starts, paths = self.text, self.starts, self.paths
        at = text.find(needle)
        while at >= 0:
            owner = bisect.bisect_right(starts, at) - 1
            found.add(paths[owner])
            following = starts[owner + 1] if owner + 1 < len(starts) else len(text)
            at = text.find(needle, following)
        return found


class BodyIndex:
    """Token -> document -> occurrences over every document body, updated document by document."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[str, int]] = {}
        self.table = TokenTable(self.postings)
        self.tokens_of: dict[str, tuple[str, ...]] = {}
        self.lengths: dict[str, int] = {}
        self.bodies: dict[str, str] = {}
        """Folded body text, for phrase matching."""
        self.body_lines: dict[str, int] = {}
        """The raw file's line of each body's first line."""
        self._cognates: CognateIndex | None = None
        self._sections: dict[str, list[SectionEntry]] = {}
        """Bodies already cut at their headings (on demand: routing reads only its candidates')."""
        self._positions: dict[str, dict[str, list[int]]] = {}
        """Each body's word places by token (on demand, like the sections)."""
        self.stamps: dict[str, tuple[float, int, int]] = {}
        self.total_length = 0
        self.reindexed = 0
        """Documents whose body was (re-)indexed by the last ``sync``."""
        self.docs: dict[str, Document] = {}
        """The record each entry was made from (a new record means new metadata)."""
        self.titles: dict[str, str] = {}
        self.purposes: dict[str, str] = {}
        self.searchable: set[str] = set()
        """Everything but templates and ``_inbox/`` notes."""
        self.excluded: set[str] = set()
        """Templates and ``_inbox/`` notes."""
        self._norms: dict[str, float] | None = None
        self._joined: tuple[_Joined, _Joined] | None = None
        self.archived: set[str] = set()
        self.linked = LinkedWords()
        """What other documents write around their links to each document (``core.linked``)."""

    def __len__(self) -> int:
        return len(self.stamps)

    def __getstate__(self) -> dict[str, object]:
        """What the parse cache keeps: all but the bodies' sections and word places, cut again on
        demand, and the documents, which the first ``sync`` takes from the bank."""
        return {**self.__dict__, "_sections": {}, "_positions": {}, "docs": {}}

    def sync(self, bank: Bank) -> int:
        """Drop removed documents and re-index those whose mtime, size or text moved (a document the
        bank parsed again whose text is the same, as after a change of the layer table, keeps its
        entries). Returns how many documents were (re-)indexed."""
        documents = bank.documents
        for path in [p for p in self.stamps if p not in documents]:
            self._drop(path)
            self._forget(path)
        touched = 0
        for path, doc in documents.items():
            if self.docs.get(path) is doc:
                continue
            self._remember(doc)
            text = bank.text(path)
            stamp = (doc.mtime, doc.size, _digest(text))  # the text too: an edit may keep mtime and size
            if self.stamps.get(path) == stamp:
                continue
            if path in self.stamps:
                self._drop(path)
            self._add(doc, text)
            self.stamps[path] = stamp
            touched += 1
        if touched:
            self._norms = None
        self.reindexed = touched
        return touched

    def _remember(self, doc: Document) -> None:
        path = doc.path
        self.docs[path] = doc
        self.titles[path] = fold(doc.title)
        self.purposes[path] = fold(doc.purpose)
        self._joined = None
        if doc.status == "archived":
            self.archived.add(path)
        else:
            self.archived.discard(path)
        if doc.is_template or doc.is_inbox:
            self.searchable.discard(path)
            self.excluded.add(path)
        else:
            self.searchable.add(path)
            self.excluded.discard(path)

    def _forget(self, path: str) -> None:
        for table in (self.docs, self.titles, self.purposes):
            table.pop(path, None)
        self.searchable.discard(path)
        self.excluded.discard(path)
        self.archived.discard(path)
        self._norms = None
        self._joined = None

    def headers(self) -> tuple[_Joined, _Joined]:
        """All titles and all purposes (folded), joined for substring search."""
        if self._joined is None:
            self._joined = (_Joined(self.titles), _Joined(self.purposes))
        return self._joined

    def cognates(self) -> CognateIndex:
        """The indexed words by spelling skeleton, built on first use after the words changed."""
        if self._cognates is None:
            self._cognates = CognateIndex(self.postings)
        return self._cognates

    def with_cognates(self, terms: list[QueryTerm]) -> list[QueryTerm]:
        """The terms, each word the dictionary cannot translate given its cognates in this bank."""
        found = []
        for term in terms:
            if not term.translations and not is_identifier(term.literal):
                cognates = self.cognates().of(term.literal)
                if cognates:
                    term = QueryTerm(term.literal, term.translations, term.stem, cognates)
            found.append(term)
        return found

    def sections_of(self, path: str) -> list[SectionEntry]:
        """A body cut at its headings, for routing's section evidence; cut once per version."""
        found = self._sections.get(path)
        if found is None:
            body = self.bodies.get(path)
            found = split_sections(_scanned(body).split("\n"), self.body_lines[path]) if body is not None else []
            self._sections[path] = found
        return found

    def positions_of(self, path: str) -> dict[str, list[int]]:
        """Token -> its places (word numbers) in a body, a compound's pieces at the compound's
        place; found once per version."""
        found = self._positions.get(path)
        if found is None:
            found = {}
            for place, token in enumerate(search_tokens(_scanned(self.bodies.get(path, "")), folded=True)):
                found.setdefault(token, []).append(place)
                for part in token_parts(token):
                    found.setdefault(part, []).append(place)
            if len(self._positions) >= POSITIONS_KEPT:
                self._positions.clear()
            self._positions[path] = found
        return found

    def words_of(self, path: str) -> frozenset[str]:
        """The distinct words of a body (pieces of compounds included)."""
        return frozenset(self.tokens_of.get(path, ()))

    def norms(self) -> dict[str, float]:
        """BM25's length normalisation of each body, computed once per change of the index."""
        if self._norms is None:
            average = (self.total_length / len(self.lengths)) if self.lengths else 1.0
            average = average or 1.0
            self._norms = {p: BM25_K1 * (1.0 - BM25_B + BM25_B * n / average) for p, n in self.lengths.items()}
        return self._norms

    def _add(self, doc: Document, text: str) -> None:
        body = fold("\n".join(text.split("\n")[doc.body_line - 1 :]))
        tokens = search_tokens(body, folded=True)
        counts = Counter(tokens)
        for token in [t for t in counts if "-" in t or "_" in t]:
            for part in token_parts(token):
                counts[part] += counts[token]
        path = doc.path
        postings = self.postings
        new_tokens = False
        for token, count in counts.items():
            bucket = postings.get(token)
            if bucket is None:
                postings[token] = {path: count}
                new_tokens = True
            else:
                bucket[path] = count
        if new_tokens:
            self.table.changed()
            self._cognates = None
        self.tokens_of[path] = tuple(counts)
        self.lengths[path] = len(tokens)
        self.total_length += len(tokens)
        self.bodies[path] = body
        self.body_lines[path] = doc.body_line
        self.linked.add(doc, body)

    def _drop(self, path: str) -> None:
        gone = False
        for token in self.tokens_of.pop(path, ()):
            bucket = self.postings[token]
            del bucket[path]
            if not bucket:  # unlike the reference, an empty bucket goes: "has token" stays true
                del self.postings[token]
                gone = True
        if gone:
            self.table.changed()
            self._cognates = None
        self.total_length -= self.lengths.pop(path, 0)
        self.linked.drop(path)
        self.bodies.pop(path, None)
        self.body_lines.pop(path, None)
        self._sections.pop(path, None)
        self._positions.pop(path, None)
        self.stamps.pop(path, None)

    def docs_with(self, tokens: dict[str, float]) -> set[str]:
        found: set[str] = set()
        for token in tokens:
            bucket = self.postings.get(token)
            if bucket:
                found.update(bucket)
        return found


def _digest(text: str) -> bytes:
    """A text's digest, the same in every process (``hash`` of a string is not): an index kept by
    the parse cache tells an unchanged body by it."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def body_index(bank: Bank) -> BodyIndex:
    """The bank's body index, brought up to date with its last refresh (kept across processes,
    its cognates with it)."""

    def build(bank: Bank, previous: BodyIndex | None) -> BodyIndex:
        index = previous if previous is not None else BodyIndex()
        index.sync(bank)
        return index

    return bank.indexed("search.index", build, BodyIndex.cognates)


@dataclass
class Concept:
    """One word of a query with every indexed form that counts for it, and how much."""

    literal: str
    variants: dict[str, float] = field(default_factory=dict)
    """Indexed token -> weight of this form."""
    forms: list[str] = field(default_factory=list)
    """Forms an excerpt line may show: the word, its inflections, its translations."""
    translated: list[str] = field(default_factory=list)
    fragments: tuple[str, ...] = ()
    """Pieces of a compound that is not itself indexed (the lowest tier)."""

    def add(self, token: str, weight: float) -> None:
        if weight > self.variants.get(token, 0.0):
            self.variants[token] = weight


def concept_of(index: BodyIndex, term: QueryTerm, vocabulary: Vocabulary) -> Concept:
    """The indexed forms of a query word: as typed, inflected, translated, or (for a compound
    that is not itself indexed) its pieces."""
    table = index.table
    concept = Concept(term.literal, {term.literal: EXACT_WEIGHT}, [term.literal])
    if not is_identifier(term.literal):
        for token in table.inflections(term.literal):
            concept.add(token, INFLECTED_WEIGHT)
            concept.forms.append(token)
        for token in table.relatives(term.literal):
            concept.add(token, DERIVED_WEIGHT)
            concept.forms.append(token)
        if term.stem:
            for token in table.of_key(term.stem, vocabulary):
                concept.add(token, TRANSLATED_WEIGHT)
    for word in term.cognates:
        for token in [word, *table.inflections(word)]:
            if token in table:
                concept.add(token, TRANSLATED_WEIGHT)
                concept.forms.append(token)
                concept.translated.append(token)
    for word in term.translations:
        if has_cyrillic(word):  # a Russian key: every token of that stem
            forms = list(table.of_key(word, vocabulary))
        else:
            forms = [word] if word in table else [t for t in table.with_prefix(word)] if len(word) >= 3 else []
            forms += [t for t in table.inflections(word) if t not in forms]
        for token in forms:
            concept.add(token, TRANSLATED_WEIGHT)
            concept.forms.append(token)
            concept.translated.append(token)
    if term.literal not in table:
        concept.fragments = tuple(dict.fromkeys(token_parts(term.literal)))
        concept.forms.extend(concept.fragments)
        for part in concept.fragments:
            concept.add(part, FRAGMENT_WEIGHT)
    return concept


def admitted(
    index: BodyIndex, doc_kind: str | None = None, layer: str | None = None, status: str | None = None
) -> set[str]:
    """Paths a query may return: no template, no inbox note, and the filters met."""
    if not (doc_kind or layer or status):
        return index.searchable
    docs = index.docs
    return {
        p
        for p in index.searchable
        if (not doc_kind or docs[p].doc_kind == doc_kind)
        and (not layer or docs[p].layer == layer)
        and (not status or docs[p].status == status)
    }


def _scanned(body: str) -> str:
    """The first ``SCANNED_CHARACTERS`` of a body, cut at the end of a line."""
    if len(body) <= SCANNED_CHARACTERS:
        return body
    end = body.rfind("\n", 0, SCANNED_CHARACTERS)
    return body[: end if end > 0 else SCANNED_CHARACTERS]
