"""Search: where a string occurs in the bank's bodies, and the body evidence routing fuses in.

Matches come in tiers: the word as typed (10), another form of it (8), the other language (6), a
piece of a compound identifier that is not itself indexed (1). Documents containing every
concept of the query come first; when none does, the broader pass is used and the result says
so. Phrase, title and purpose bonuses follow the reference. ``body_scores`` is BM25 over the same
index, routing's secondary term and the baseline it is measured against.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.body_index import (
    BM25_K1,
    EXACT_WEIGHT,
    FRAGMENT_WEIGHT,
    INFLECTED_WEIGHT,
    TRANSLATED_WEIGHT,
    BodyIndex,
    Concept,
    admitted,
    body_index,
    concept_of,
)
from memorybank.core.controls import STEERING_TEXT  # a body's NUL or escape never reaches an excerpt
from memorybank.core.errors import UsageError
from memorybank.core.lang import (
    SEARCH_STOPWORDS,
    QueryTerm,
    Vocabulary,
    check_question,
    fold,
    route_tokens,
    search_tokens,
)
from memorybank.core.lexicon import vocabulary_for
from memorybank.core.search_literal import as_written, holding_as_written, left_out

PHRASE_IN_BODY = 25.0
PHRASE_IN_TITLE = 15.0
PHRASE_IN_PURPOSE = 10.0
CROSS_LANGUAGE = 0.6
"""A title or purpose containing only a translated form earns this share of the phrase bonus."""
ARCHIVED = 0.3
EXCERPT_CHARS = 240
DEFAULT_LIMIT = 10
MAX_LIMIT = 50  # the most an agent's search answers (its tool's schema holds it there)
LIST_LIMIT = 500  # the most the workbench and the command line list, a page at a time
EMPTY_HINT = "No document body contains these terms. Try bank_route for a topic."


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One document whose body holds the query."""

    path: str
    title: str
    doc_kind: str
    layer: str
    status: str
    score: float
    excerpt: str
    """The best matching line of the body, trimmed to 240 characters; empty when no line holds a
    whole term."""
    line: int
    """1-based line of the excerpt in the raw file (0 when there is no excerpt)."""
    hits: int
    """Weighted occurrences, in units of one exact occurrence."""
    as_written: bool = False
    """The body holds the query as written (a phrase in order, a literal): such hits come first,
    whatever their score, so one after them may score higher."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    query: str
    hits: tuple[SearchHit, ...] = ()
    broadened: bool = False
    """True when no document held every concept of the query, so documents holding some are shown."""
    hint: str | None = None
    matched: int = 0
    """How many documents hold the query (the hits are the first ``limit`` of them)."""


def _check_limit(limit: int, maximum: int) -> None:
    if not 1 <= limit <= maximum:
        raise UsageError(f"limit must be between 1 and {maximum}, not {limit}")


def round_half_up(value: float, digits: int) -> float:
    """Deterministic rounding, halves away from zero (Python's ``round`` goes to even)."""
    scale = 10**digits
    return math.floor(abs(value) * scale + 0.5) / scale * (1 if value >= 0 else -1)


def search(
    bank: Bank,
    query: str,
    *,
    limit: int = DEFAULT_LIMIT,
    doc_kind: str | None = None,
    layer: str | None = None,
    status: str | None = None,
) -> SearchResult:
    """Documents whose bodies hold the query, best first, each with its best line.

    Args:
        bank: the bank, already refreshed by the caller.
        query: words, phrases or identifiers, in English or Russian.
        limit: how many documents to return (1-500; an agent's tool allows 50).
        doc_kind, layer, status: keep only documents with exactly this value.

    Returns:
        A ``SearchResult``; ``broadened`` tells that no document held every concept. Templates and
        ``_inbox/`` notes are never returned.
    """
    _check_limit(limit, LIST_LIMIT)
    check_question(query, "query")
    check_filters(bank, doc_kind=doc_kind, layer=layer, status=status)
    with bank.lock:
        index = body_index(bank)
        tokens = search_tokens(query)
        literal = " ".join(fold(query).split())
        vocabulary = vocabulary_for(bank)
        primary = [t for t in tokens if t not in SEARCH_STOPWORDS] or tokens
        concepts = [concept_of(index, vocabulary.term(t), vocabulary) for t in primary]
        allowed = admitted(index, doc_kind, layer, status)
        per_concept = [index.docs_with(c.variants) & allowed for c in concepts]
        strict = set.intersection(*per_concept) if per_concept else set()
        whole = [index.docs_with({t: w for t, w in c.variants.items() if w > FRAGMENT_WEIGHT}) for c in concepts]
        complete = strict & set.intersection(*whole) if whole else set()  # no concept met only in pieces
        pool = strict or set().union(*per_concept)
        said = " ".join(tokens) == literal  # the words are all the query says: a literal holds them all
        written = as_written(literal) if literal else None
        verbatim = holding_as_written(index, literal, written, tokens if said else [], allowed)
        pool |= verbatim
        if not pool:
            return SearchResult(query, hint=left_out(index, literal, written) or EMPTY_HINT)
        weighted = _weighted_counts(index, concepts, pool)
        if not said:  # what the words missed (a version, a dotted name, a symbol) counts as found
            for path in verbatim:
                weighted[path] += index.bodies[path].count(literal) * EXACT_WEIGHT
        if said and " " in literal:  # a phrase a line break splits: only the likeliest bodies are read
            likeliest = heapq.nlargest(limit, weighted, key=weighted.__getitem__)
            verbatim |= {p for p in likeliest if p not in verbatim and written.search(index.bodies[p])}
        ranked = _rank(index, weighted, literal, [t for c in concepts for t in c.translated], verbatim)
        docs = index.docs
        hits = []
        for later, negative, path, count in heapq.nsmallest(limit, ranked):
            doc = docs[path]
            excerpt, line = _excerpt(bank.text(path), doc.body_line, concepts, literal if path in verbatim else "")
            hits.append(
                SearchHit(
                    path,
                    doc.title,
                    doc.doc_kind,
                    doc.layer,
                    doc.status,
                    -negative,
                    excerpt,
                    line,
                    int(round_half_up(count / EXACT_WEIGHT, 0)),
                    as_written=not later,
                )
            )
        broadened = (not complete or not said) and not verbatim  # hits lack the query as written
        hint = left_out(index, literal, written) if broadened else None  # where it is as written, if anywhere
        return SearchResult(query, tuple(hits), broadened, hint, matched=len(ranked))


def _weighted_counts(index: BodyIndex, concepts: list[Concept], pool: set[str]) -> dict[str, float]:
    weighted: dict[str, float] = dict.fromkeys(pool, 0.0)
    get = weighted.get
    for concept in concepts:
        for token, weight in concept.variants.items():
            for path, count in index.postings.get(token, {}).items():
                current = get(path)
                if current is not None:
                    weighted[path] = current + count * weight
    return weighted


def _rank(
    index: BodyIndex, weighted: dict[str, float], phrase: str, translated: list[str], verbatim: set[str]
) -> list[tuple[int, float, str, float]]:
    """(0 when the body holds the query as written, else 1; -score rounded to one decimal; path;
    weighted count) for every document of the pool: a literal match comes first."""
    titles, purposes = index.headers()
    bonus: dict[str, float] = {}
    for joined, full in ((titles, PHRASE_IN_TITLE), (purposes, PHRASE_IN_PURPOSE)):
        partial = set().union(*(joined.holding(form) for form in translated)) if translated else set()
        whole = joined.holding(phrase)
        for path in partial - whole:
            bonus[path] = bonus.get(path, 0.0) + full * CROSS_LANGUAGE
        for path in whole:
            bonus[path] = bonus.get(path, 0.0) + full
    if " " in phrase:
        for path in verbatim:
            bonus[path] = bonus.get(path, 0.0) + PHRASE_IN_BODY
    archived, floor, get = index.archived, math.floor, bonus.get
    ranked = []
    for path, count in weighted.items():
        score = count / EXACT_WEIGHT + get(path, 0.0)
        if path in archived:
            score *= ARCHIVED
        ranked.append((path not in verbatim, -floor(score * 10 + 0.5) / 10, path, count))
    return ranked


def _excerpt(text: str, body_line: int, concepts: list[Concept], literal: str = "") -> tuple[str, int]:
    """The first body line holding the query as written (``literal``, when given; a heading only
    when no plain line does), else the first holding the most concepts (headings count 0.9), in
    its original case; a long line is cut around its first match, so the excerpt shows it."""
    best, best_line, best_score, at = "", 0, 0.0, 0
    lines = text.split("\n")
    folded = fold(text).split("\n")
    if len(folded) != len(lines):  # a letter whose lowercase changes length; compare line by line
        folded = [fold(line) for line in lines]
    for number in range(body_line, len(lines) + 1) if literal else ():  # a plain line, else a heading
        lowered = folded[number - 1]
        if literal in " ".join(lowered.split()) and (not best_line or not lowered.lstrip().startswith("#")):
            best, best_line, at = lines[number - 1].strip(), number, lowered.strip().find(literal)
            if not lowered.lstrip().startswith("#"):
                break
    if best_line:
        return STEERING_TEXT.sub("", _window(best, max(at, 0))), best_line
    everything = float(len(concepts))
    for number in range(body_line, len(lines) + 1):
        lowered = folded[number - 1]
        score, first = 0.0, len(lowered)
        for concept in concepts:
            for form in concept.forms:
                if (place := lowered.find(form)) >= 0:
                    score, first = score + 1.0, min(first, place)
                    break
        if not score:
            continue
        if lowered.lstrip().startswith("#"):
            score *= 0.9
        if score > best_score:
            best, best_line, best_score = lines[number - 1].strip(), number, score
            at = first - (len(lowered) - len(lowered.lstrip()))
            if score == everything:  # nothing later can beat a plain line holding every concept
                break
    return STEERING_TEXT.sub("", _window(best, max(at, 0))), best_line


def _window(line: str, at: int) -> str:
    """At most ``EXCERPT_CHARS`` of a line, holding the place ``at`` where the match starts."""
    if len(line) <= EXCERPT_CHARS:
        return line
    if at + 40 <= EXCERPT_CHARS - 3:
        return line[: EXCERPT_CHARS - 3] + "..."
    start = min(at - 40, len(line) - (EXCERPT_CHARS - 3))
    cut = line[start : start + EXCERPT_CHARS - 6]
    return "..." + cut + ("..." if start + EXCERPT_CHARS - 6 < len(line) else "")


def body_scores(
    bank: Bank, terms: list[QueryTerm], *, doc_kind: str | None = None, layer: str | None = None
) -> dict[str, float]:
    """BM25 of each document body for the question's words (with their inflections and
    translations, a translation counting 0.9). Templates and inbox notes are left out. Callers
    hold ``bank.lock``."""
    return body_evidence(bank, terms, doc_kind=doc_kind, layer=layer)[0]


def body_evidence(
    bank: Bank, terms: list[QueryTerm], *, doc_kind: str | None = None, layer: str | None = None
) -> tuple[dict[str, float], list[tuple[float, dict[str, float]]]]:
    """``body_scores``, and per concept of the question its idf and its indexed forms with their
    weight (1 for the word and its inflections, 0.9 for a translation): what section scoring needs."""
    index = body_index(bank)
    vocabulary = vocabulary_for(bank)
    norms = index.norms()
    total = len(index) or 1
    scores: defaultdict[str, float] = defaultdict(float)
    weighted: list[tuple[float, dict[str, float]]] = []
    for concept in _body_concepts(index, terms, vocabulary):
        forms = _forms(index, concept)
        frequency = _frequencies(index, forms)
        if not frequency:
            continue
        idf = math.log(1.0 + (total - len(frequency) + 0.5) / (len(frequency) + 0.5))
        weighted.append((idf, dict(forms)))
        boost = idf * (BM25_K1 + 1.0)
        if not scores:  # the first concept met: a comprehension, much faster than a loop on 10,000 documents
            scores = defaultdict(float, {path: boost * tf / (tf + norms[path]) for path, tf in frequency.items()})
            continue
        for path, tf in frequency.items():
            scores[path] += boost * tf / (tf + norms[path])
    scores.default_factory = None  # a plain mapping from here: reading a missing document is an error
    if doc_kind or layer:
        allowed = admitted(index, doc_kind, layer)
        return {p: v for p, v in scores.items() if p in allowed}, weighted
    for path in index.excluded:
        scores.pop(path, None)
    return scores, weighted


def _body_concepts(index: BodyIndex, terms: list[QueryTerm], vocabulary: Vocabulary) -> list[Concept]:
    seen: dict[str, Concept] = {}
    for term in terms:
        if term.literal not in seen:
            seen[term.literal] = concept_of(index, term, vocabulary)
    return list(seen.values())


def _forms(index: BodyIndex, concept: Concept) -> list[tuple[str, float]]:
    """The indexed forms of a concept that count as it: its own forms 1, translations 0.9."""
    return [
        (t, 1.0 if w >= INFLECTED_WEIGHT else 0.9)
        for t, w in concept.variants.items()
        if w >= TRANSLATED_WEIGHT and t in index.postings
    ]


def _frequencies(index: BodyIndex, forms: list[tuple[str, float]]) -> dict[str, float]:
    """Occurrences of a concept per document."""
    if not forms:
        return {}
    first, weight = forms[0]
    if weight == 1.0:  # the word as typed: its postings copied whole, the other forms added in order
        if len(forms) == 1:
            return index.postings[first]
        frequency: dict[str, float] = dict(index.postings[first])
        forms = forms[1:]
    else:
        frequency = {}
    get = frequency.get
    for token, weight in forms:
        for path, count in index.postings[token].items():
            frequency[path] = get(path, 0.0) + count * weight
    return frequency


def body_words(bank: Bank, terms: list[QueryTerm], path: str) -> tuple[str, ...]:
    """For each question word found in one document body, the form found there (the word as
    typed first, then its inflections and translations): what a route's ``why`` shows."""
    index = body_index(bank)
    vocabulary = vocabulary_for(bank)
    found = []
    for concept in _body_concepts(index, terms, vocabulary):
        forms = [*concept.forms, *(t for t, w in concept.variants.items() if w >= TRANSLATED_WEIGHT)]
        form = next((f for f in forms if path in index.postings.get(f, ())), None)
        if form is not None and form not in found:
            found.append(form)
    return tuple(found)


def rank_bodies(bank: Bank, question: str, *, limit: int = 10) -> list[str]:
    """Plain BM25 over whole bodies, the baseline routing is measured against."""
    with bank.lock:
        scores = body_scores(bank, vocabulary_for(bank).terms(route_tokens(question)))
    return [p for _, p in heapq.nsmallest(limit, ((-v, p) for p, v in scores.items()))]


def check_filters(bank: Bank, **filters: str | None) -> None:
    """A filter value nothing in the bank has is a mistake, not an empty answer: say which exist."""
    for name, value in filters.items():
        if value is None or not value.strip():
            continue
        known = {str(getattr(doc, name) or "") for doc in bank if not doc.is_template and not doc.is_inbox} - {""}
        declared = {"status": bank.contract.statuses, "doc_kind": bank.contract.doc_kinds}.get(name)
        known |= set(declared) if declared is not None else set(bank.layers.weights) | set(bank.layers.by_dir.values())
        if value not in known:
            shown = ", ".join(sorted(known)[:20]) or "none"
            raise UsageError(f'No document of this bank has {name} "{value}". Values it knows: {shown}.')
