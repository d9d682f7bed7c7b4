"""Routing: which documents answer a question, ranked first from what humans wrote about them.

A document's headers (``canonical_for`` 5, ``purpose`` 3, ``title`` 2, its best ``##`` heading 1)
are matched word by word, each concept of the question scoring once, a translation discounted
so the word as typed wins ties. Beyond the reference, a concept counts by its rarity across the
bank's headers (the rarest fully; the project's name, in every title, hardly at all). The bank's
layer weights, the status, closed delivery work and a "why" question then scale the sum. Body
evidence (BM25 over the search index) is a secondary term, capped so prose lifts a document no
header mentions but never drowns a strong header match.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass

from core.bank import Bank
from core.body_index import admitted, body_index
from core.errors import UsageError
from core.headers import (
    CLOSED_WORK,
    OTHER_STATUS,
    STATUS_WEIGHTS,
    Fields,
    HeaderMatch,
    canonical_coverage,
    details,
    document_scores,
    header_index,
)
from core.lang import has_definition_intent, has_why_intent, inflection_stem, route_tokens, vocabulary_for
from core.model import Document
from core.search import body_scores, body_words, round_half_up

WHY_DECISION = 4 / 3
WHY_KNOWLEDGE = 0.8
BODY_SHARE = 0.95
"""The best body evidence of a question is worth this share of its best header score, so a
document no header mentions never passes the best header match (measured: 0.7 lost questions that
only a body answers; held-out questions rose from Recall@3 0.82 to 0.88 at 0.95). Body evidence is not scaled by layer or status (those are priors for topical header
matches; a body that describes exactly what was asked is specific evidence), except that an
archived document stays damped."""
BODY_FLOOR = 1.0
"""The header score body evidence is scaled to when no header matched at all."""
ROUTE_CHECKS = "dna/route-checks.md"
"""The bank's own routing questions: its body quotes every question, so it gives no body evidence.
Registries give none either (see ``_registries``)."""
DEFAULT_LIMIT = 5
MAX_LIMIT = 25
EMPTY_HINT = "No frontmatter match. Try bank_search for a literal term, or widen the question."
DELIVERY_NOTE = "delivery-layer document, ranked below knowledge"


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Where a route score came from, for the TUI's explain view."""

    canonical: float = 0.0
    canonical_key: str | None = None
    purpose: float = 0.0
    purpose_words: tuple[str, ...] = ()
    title: float = 0.0
    title_words: tuple[str, ...] = ()
    heading: float = 0.0
    body: float = 0.0
    """Points the body evidence added to the score, after the header multipliers."""
    body_words: tuple[str, ...] = ()
    raw: float = 0.0
    """Sum of the header field contributions, before the multipliers."""
    layer_weight: float = 1.0
    """The bank's weight for the layer, with the "why" adjustment applied."""
    status_weight: float = 1.0
    closed_work: float = 1.0


@dataclass(frozen=True, slots=True)
class RouteHit:
    """One document that answers the question."""

    path: str
    title: str
    purpose: str
    doc_kind: str
    layer: str
    status: str
    score: float
    why: str
    """What matched, in words: the owned key, the purpose and title words, the section, the body."""
    section: str | None
    """The best matching ``##`` heading, the place to start reading."""
    section_line: int | None
    breakdown: ScoreBreakdown


@dataclass(frozen=True, slots=True)
class RouteResult:
    """The answer to one question: the hits best first, or a hint when there are none."""

    question: str
    hits: tuple[RouteHit, ...] = ()
    why_intent: bool = False
    """The question asks for a rationale: decision records were favoured."""
    hint: str | None = None


def _check(limit: int) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")


def layer_weights(bank: Bank, why_intent: bool) -> dict[str, float]:
    """The bank's declared layer weights, with decisions raised and knowledge lowered for a "why"."""
    weights = dict(bank.layers.weights)
    if why_intent:
        weights["decision"] = weights.get("decision", 1.0) * WHY_DECISION
        weights["knowledge"] = weights.get("knowledge", 1.0) * WHY_KNOWLEDGE
    return weights


def route(
    bank: Bank,
    question: str,
    *,
    limit: int = DEFAULT_LIMIT,
    doc_kind: str | None = None,
    layer: str | None = None,
    body_evidence: bool = True,
) -> RouteResult:
    """The documents to read for a question, best first.

    Args:
        bank: the bank, already refreshed by the caller.
        question: a question or topic in English or Russian.
        limit: how many documents to return (1-25).
        doc_kind: keep only documents of this ``doc_kind``.
        layer: keep only documents of this layer.
        body_evidence: add the body term (False gives the reference's header-only ranking).

    Returns:
        A ``RouteResult``; when nothing matched, ``hint`` says what to try instead. Templates and
        ``_inbox/`` notes are never returned.
    """
    _check(limit)
    with bank.lock:
        index = header_index(bank)
        vocabulary = vocabulary_for(bank)
        terms = vocabulary.terms(route_tokens(question))
        if terms and has_definition_intent(question):
            terms.append(vocabulary.term("glossary"))  # "what does X mean" is a glossary's question
        why_intent = has_why_intent(question)
        weights = layer_weights(bank, why_intent)
        match = HeaderMatch(index, terms, vocabulary)
        totals = match.totals()
        catalog = body_index(bank)
        filtered = admitted(catalog, doc_kind, layer) if doc_kind or layer else None
        headers: dict[str, float] = {}
        for path, raw in document_scores(index, totals).items():
            if filtered is None or path in filtered:  # templates and inbox notes are never indexed
                layer_name, prior = index.priors[path]
                headers[path] = raw * weights.get(layer_name, 1.0) * prior
        bodies: dict[str, float] = {}
        if body_evidence:
            bodies = body_scores(bank, terms, doc_kind=doc_kind, layer=layer)
            registries = bank.extension("registries", _registries)
            for path in [p for p in bodies if p == ROUTE_CHECKS or p in registries]:
                del bodies[path]  # their bodies repeat other documents' headers, not evidence of their own
            _scale_bodies(bodies, max(headers.values(), default=0.0), catalog.archived)
            _reward_specific_matches(bodies, question, catalog.bodies)
        scores = dict(headers)
        for path, value in bodies.items():
            scores[path] = scores.get(path, 0.0) + value
        owners = _owners_named(bank, terms, canonical_coverage(index, totals), headers)
        hits = []
        for negative, path in _top(scores, limit, first=owners):
            acc = details(index, match, totals, path) if path in headers else Fields()
            words = body_words(bank, terms, path) if path in bodies else ()
            hits.append(_hit(bank.documents[path], acc, -negative, (bodies.get(path, 0.0), words), weights))
        return RouteResult(question, tuple(hits), why_intent, None if hits else EMPTY_HINT)


PHRASE_WORDS = 4
"""A run of this many consecutive question words found verbatim in a body is specific evidence."""
SPECIFIC_REWARD = 2.0
SPECIFIC_CANDIDATES = 30
_IDENTIFIER = re.compile(r"[a-z0-9]+(?:[_.-][a-z0-9]+)+|[a-z]+[0-9]+[a-z0-9]*", re.ASCII)


def _reward_specific_matches(bodies: dict[str, float], question: str, texts: dict[str, str]) -> None:
    """Double the body evidence of a document whose body holds what the question names exactly:
    an identifier it quotes (``registry_unknown_field``, ``FT-042``) or its words in its order
    (``two active records for the same pane``). Both are the strongest sign that the body answers
    exactly this. Only the best candidates are checked, so the cost stays flat."""
    lowered = question.lower()
    words = re.findall(r"\w+", lowered)
    phrases = [" ".join(words[i : i + PHRASE_WORDS]) for i in range(len(words) - PHRASE_WORDS + 1)]
    phrases = [p for p in phrases if sum(1 for w in p.split() if len(w) > 3) >= 2]
    identifiers = [t for t in _IDENTIFIER.findall(lowered) if len(t) > 4]
    if not phrases and not identifiers:
        return
    for path in heapq.nlargest(SPECIFIC_CANDIDATES, bodies, key=bodies.__getitem__):
        body = texts.get(path, "")
        flat = " ".join(re.findall(r"\w+", body)) if phrases else ""
        if any(i in body for i in identifiers) or any(p in flat for p in phrases):
            bodies[path] *= SPECIFIC_REWARD


def _registries(bank: Bank, _previous: object = None) -> frozenset[str]:
    """Index documents whose body is mostly entries linking other documents: their words are those
    documents' titles and purposes, so they are not evidence that the index itself answers anything.
    An index that also carries prose of its own (a bug package's README, say) keeps its evidence."""
    found = set()
    for doc in bank:
        if not doc.is_index:
            continue
        entry_lines = {link.line for link in doc.links if link.resolved and link.resolved.endswith(".md")}
        if not entry_lines:
            continue
        lines = bank.text(doc.path).split("\n")[doc.body_line - 1 :]
        prose = [line for line in lines if line.strip() and not line.lstrip().startswith(("#", "|-", "|:", "---"))]
        if len(entry_lines) * 2 >= len(prose):
            found.add(doc.path)
    return frozenset(found)


def _scale_bodies(bodies: dict[str, float], best_header: float, archived: set[str]) -> None:
    """BM25 values become points: the best body is worth ``BODY_SHARE`` of the best header score.
    Body evidence is specific, so only an archived document (no longer true) is damped."""
    best_body = max(bodies.values(), default=0.0)
    if not best_body:
        return
    scale = BODY_SHARE * (best_header or BODY_FLOOR) / best_body
    for path, evidence in bodies.items():
        bodies[path] = evidence * scale * (STATUS_WEIGHTS["archived"] if path in archived else 1.0)


def _owners_named(bank: Bank, terms: list, coverage: dict[str, float], headers: dict[str, float]) -> set[str]:
    """Documents owning a ``canonical_for`` key whose every word the question names (in any
    language or inflection): they own the answer and lead, whatever the bodies say, so a strong
    header match is never drowned by prose."""
    forms = {inflection_stem(word) for term in terms for word in (term.literal, *term.translations)}
    owners = set()
    for path in coverage:
        if path not in headers:
            continue
        for key in bank.documents[path].canonical_for:
            words = route_tokens(key)
            if words and all(inflection_stem(word) in forms for word in words):
                owners.add(path)
                break
    return owners


def _top(scores: dict[str, float], limit: int, first: set[str] = frozenset()) -> list[tuple[float, str]]:
    """The best ``limit`` as (-score rounded to 2 decimals, path), ties in path order; documents in
    ``first`` (owners of the fact the question names) lead whatever their score. Only scores near
    the cut are rounded and sorted."""
    if not scores:
        return []
    leading = sorted((-round_half_up(scores[p], 2), p) for p in first if scores.get(p, 0) > 0)
    rest = {p: v for p, v in scores.items() if p not in first}
    if not rest or len(leading) >= limit:
        return leading[:limit]
    cut = heapq.nlargest(limit, rest.values())[-1] - 0.01
    near = [(-round_half_up(v, 2), p) for p, v in rest.items() if v >= cut and v > 0]
    near.sort()
    return (leading + near)[:limit]


def _hit(
    doc: Document, acc: Fields, score: float, body: tuple[float, tuple[str, ...]], weights: dict[str, float]
) -> RouteHit:
    closed = CLOSED_WORK if doc.delivery_status in ("done", "cancelled") else 1.0
    breakdown = ScoreBreakdown(
        acc.canonical,
        acc.key,
        acc.purpose,
        acc.purpose_words,
        acc.title,
        acc.title_words,
        acc.heading,
        round_half_up(body[0], 2),
        body[1],
        acc.total,
        weights.get(doc.layer, 1.0),
        STATUS_WEIGHTS.get(doc.status, OTHER_STATUS),
        closed,
    )
    return RouteHit(
        doc.path,
        doc.title,
        doc.purpose,
        doc.doc_kind,
        doc.layer,
        doc.status,
        score,
        explain(breakdown, acc.section, doc.layer),
        acc.section,
        acc.section_line,
        breakdown,
    )


def explain(b: ScoreBreakdown, section: str | None, layer: str) -> str:
    """The ``why`` of a hit: what matched, in the order a reader weighs it."""
    parts = []
    if b.canonical_key:
        parts.append(f"owns canonical_for: {b.canonical_key}")
    if b.purpose_words:
        parts.append(f'purpose matches "{", ".join(b.purpose_words)}"')
    if b.title_words:
        parts.append(f'title matches "{", ".join(b.title_words)}"')
    if section:
        parts.append(f'has section "{section}"')
    if b.body_words:
        parts.append(f'body mentions "{", ".join(b.body_words)}"')
    if layer == "delivery":
        parts.append(DELIVERY_NOTE)
    return "; ".join(parts)
