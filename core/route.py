"""Routing: which documents answer a question, ranked first from what humans wrote about them.

A document's headers (``canonical_for`` 5, ``purpose`` 3, ``title`` 2, its best ``##`` heading 1)
are matched word by word, each concept of the question scoring once, a translation discounted
so the word as typed wins ties. Beyond the reference, a concept counts by its rarity across the
bank's headers (the rarest fully; the project's name, in every title, hardly at all). The bank's
layer weights, the status and a "why" question then scale the sum (closed delivery work is not
damped, see ``CLOSED_WORK``). Body
evidence (BM25 over the search index) is a secondary term, capped so prose lifts a document no
header mentions but never drowns a strong header match; a match is strong by what it names of the
question, so when the best one names a sliver of it the bodies decide (``FULL_MATCH``). The members of a package folder share its
best header match (``families``), so its body and sections choose the member to read. What other
documents write beside their links to a document counts for it (``linked``), and a body holding the
question's words side by side is raised (``proximity``). A document the question names by its
identifier or path leads (``named``). A draft
nearly the same as another document of the answer, or named a version or a review of one, follows
its working copy (``drafts``).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable

from memorybank.core.bank import Bank
from memorybank.core.body_index import admitted, body_index
from memorybank.core.drafts import POOL, damp_drafts, damp_named, named_versions
from memorybank.core.duplicates import copies
from memorybank.core.errors import UsageError
from memorybank.core.families import families, share_family_headers
from memorybank.core.glossary import glossary_term
from memorybank.core.headers import PURPOSE_WEIGHT, Fields, HeaderMatch, details, header_index
from memorybank.core.hits import Evidence, enclosing, finished, hit_of
from memorybank.core.intent import (
    INTENT_BOOST,
    answering_roles,
    has_definition_intent,
    has_why_intent,
    intent_factor,
    intents,
    reading_roles,
    role_words,
)
from memorybank.core.lang import check_question, inflection_stem, route_tokens
from memorybank.core.lexicon import vocabulary_for
from memorybank.core.model import ROUTE_CHECKS, RouteResult
from memorybank.core.model import RouteHit as RouteHit  # the hit callers import with the route
from memorybank.core.named import names
from memorybank.core.phrasal import joined_words
from memorybank.core.proximity import PAIR_BOOST, closeness, pairs_held
from memorybank.core.registries import own_evidence, registries
from memorybank.core.search import body_evidence as body_evidence_of
from memorybank.core.search import body_words, check_filters, round_half_up
from memorybank.core.section_index import SectionEntry, best_sections
from memorybank.core.series import pick_series_members
from memorybank.core.specific import SPECIFIC_CANDIDATES, identifiers, reward_specific_matches, section_quoting
from memorybank.core.unmatched import read_typos

WHY_DECISION = 4 / 3
WHY_KNOWLEDGE = 0.8
BODY_SHARE = 1.5
"""The best body evidence of a question is worth this share of its best header score, so a
document no header mentions never passes the best header match (measured: 0.7 lost questions that
only a body answers; held-out questions rose from Recall@3 0.82 to 0.88 at 0.95). Body evidence is not scaled by layer or status (those are priors for topical header
matches; a body that describes exactly what was asked is specific evidence). An archived document
is damped by its status in the header term only: its body still counts in full, because an archived
plan or QA report is often the only record of a detail (a risk met, a fallback chosen), and a live
document holding the same words still leads on its headers (measured on tuning-2: Recall@3 0.77 to
0.82 with the body damped like the headers before; no other set moved)."""
SECTION_SHARE = 1.0
"""The best section of a question is worth this share of its best header score, on top of the
body term: a document one of whose sections holds the question's words together gains over one
that mentions them here and there. It is scaled by how many of the question's words the body holds
within a sentence or two (``proximity``)."""
LINKED_SHARE = 0.2
"""What other documents write around their links to a document (``core.linked``) is worth at best
this share of the best header score: a hint beside the document's own evidence, not a match of
its own (measured in ``core.linked``)."""
SECTION_CANDIDATES = 30
"""Documents whose sections are scored: this many best by headers and as many best by body."""
BODY_FLOOR = 1.0
"""The header score body evidence is scaled to when no header matched at all."""
FULL_MATCH = PURPOSE_WEIGHT
"""Body evidence is scaled to at least what a purpose naming every word of the question the bank's
headers know would score (the purpose's field weight times those words' rarity weights), not only
to the best header match found: a best match naming a sliver of the question is weak evidence, and
the bodies decide. Measured on the tunable sets with held-out-5 among them: Recall@1 0.77 to 0.79,
Recall@3 0.92 to 0.93 (held-out-5 0.70/0.87 to 0.72/0.89, ``lynxlg__telegram_shop_bot`` 0.50/0.78
to 0.61/0.83); the first tuning set lost two questions at rank 1. 2 and 4 gain less."""
NAMED_FLOOR = 0.01
"""The score of a document the question names by identifier or path when nothing else scored it."""
DEFAULT_LIMIT = 5
MAX_LIMIT = 25
EMPTY_HINT = "No document matches these words. Try bank_search for a literal term, or widen the question."


def _check(limit: int) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise UsageError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")


LOW_LAYER = 0.5
"""With body evidence, a declared layer weight below 1 counts by this power (delivery 0.6 as 0.77):
a low layer is a prior about topical header matches, and at full strength it put the feature whose
body answers below the use case or ADR that only names the topic. Weights of 1 and above are kept,
and headers alone keep the declared weights (the reference's ranking). Measured on all tunable sets
together (held-out-6 among them): Recall@1 0.745 to 0.748, Recall@3 0.908 to 0.911 (held-out-6
``Pegorino82__lfcru_forum`` Recall@1 0.50 to 0.67, ``dapi__memory-bank-cli`` Recall@3 0.67 to 0.83,
tuning-2 ``Arshev__apartus`` Recall@1 0.77 to 0.80; held-out-5 ``dapi__zelma`` Recall@1 0.67 to
0.61); the bar unchanged at 0.783/0.909. Softening every weight (the power over all of them) lost
the bar two questions at rank 1."""


def layer_weights(bank: Bank, why_intent: bool, soften: bool = False) -> dict[str, float]:
    """The bank's declared layer weights (those below 1 softened by ``LOW_LAYER`` when asked), with
    decisions raised and knowledge lowered for a "why"."""
    weights = dict(bank.layers.weights)
    if soften:
        weights = {layer: weight**LOW_LAYER if weight < 1.0 else weight for layer, weight in weights.items()}
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

    Raises:
        UsageError: a limit out of range, an empty or over-long question, or a kind or layer no
            document of the bank has (an answer filtered to nothing would read as "no match").
    """
    _check(limit)
    check_question(question, "question")
    with bank.lock:
        check_filters(bank, doc_kind=doc_kind, layer=layer)
        index = header_index(bank)
        vocabulary = vocabulary_for(bank)
        catalog = body_index(bank)
        known = lambda word: word in catalog.table or word in index.table  # noqa: E731
        terms = vocabulary.terms([*route_tokens(question), *joined_words(question, known)])
        if has_definition_intent(question) and (glossary := glossary_term(bank, index, vocabulary, terms)):
            terms.append(glossary)  # "what does X mean" is a question for the glossary defining X
        why_intent = has_why_intent(question)
        weights = layer_weights(bank, why_intent, soften=body_evidence)
        terms, unmatched = read_typos(catalog, index, vocabulary, catalog.with_cognates(terms), question)
        match = HeaderMatch(index, terms, vocabulary)
        headers, coverage = match.scores(weights)  # templates and inbox notes are never indexed
        lifts: dict[str, float] = {}
        if body_evidence:  # only bodies tell the members apart; headers alone stay the reference's ranking
            lifts = share_family_headers(
                headers, bank.extension("route.families", families), index.layer_weights(weights)
            )
        bodies: dict[str, float] = {}
        sections: dict[str, tuple[float, SectionEntry]] = {}
        if body_evidence:
            bodies, concepts = body_evidence_of(bank, terms)
            bodies.pop(ROUTE_CHECKS, None)  # it quotes every question: no evidence of its own
            listing = bank.extension("registries", registries)
            own_evidence(bodies, listing, catalog, concepts)  # entries repeat other documents' headers
            leading = _best(bodies, max(SPECIFIC_CANDIDATES, SECTION_CANDIDATES))
            reward_specific_matches(bodies, leading, question, catalog.bodies)
            candidates = [p for p in _candidates(headers, bodies, leading) if p != ROUTE_CHECKS and p not in listing]
            sections = best_sections(catalog.sections_of, candidates, concepts, reading_roles(question))
            scale = max(max(headers.values(), default=0.0), FULL_MATCH * match.known_weight, BODY_FLOOR)
            body_scale = _scale(bodies, BODY_SHARE * scale, leading)
            bodies = bodies if body_scale else {}
            near = closeness(catalog.positions_of, list(sections), concepts)
            section_points = _points({p: v * near[p] for p, (v, _) in sections.items()}, SECTION_SHARE * scale)
            linked_points = _points(catalog.linked.evidence(concepts, candidates), LINKED_SHARE * scale)
        else:
            body_scale, section_points, linked_points = 0.0, {}, {}
        scores = _sum(headers, bodies, body_scale, section_points, linked_points)
        together: dict[str, float] = {}
        if body_evidence:  # the question's words side by side in a body: raised wherever it ranks
            for path, share in pairs_held(catalog.positions_of, candidates, concepts).items():
                if path in scores:
                    together[path] = 1.0 + PAIR_BOOST * share
                    scores[path] *= together[path]
        allowed = admitted(catalog, doc_kind, layer)
        if doc_kind or layer:  # scored as without the filter, so a kept document reads the same
            scores = {p: v for p, v in scores.items() if p in allowed}
        asked = intents(question)
        roles = bank.extension("route.roles", _roles)
        factors: dict[str, float] = {}
        if asked and scores:  # only documents a boost could lift into the answer are looked at
            reach = _cut(scores, limit) / (INTENT_BOOST ** len(asked))
            answering = bank.extension("route.answering", lambda bank, _: answering_roles(bank))
            factors = {p: intent_factor(asked, roles[p], answering) for p, v in scores.items() if v >= reach}
            for path, factor in factors.items():
                scores[path] *= factor
        named: dict[str, str] = {}
        numbered: dict[str, tuple[int, bool, bool]] = {}
        if body_evidence:  # a version or a review its file name declares is damped wherever it ranks
            named = damp_named(scores, bank.extension("route.versions", lambda bank, _: named_versions(bank.documents)))
            numbered = pick_series_members(bank, question, terms, scores, named, allowed)
        owners = _owners_named(bank, terms, coverage, headers) & allowed
        mentioned = _mentioned(bank, question, scores, allowed)
        found, hits = copies(bank), []
        quoted = tuple(identifiers(question))  # the section to read is the one writing them
        extra = sum(1 for path in found.of if path in scores)  # enough to fill the limit once copies fold
        # POOL more than the limit: working copies a draft may follow
        ranked = _top(scores, limit + extra + POOL, first=owners, named=mentioned)
        unnamed = [p for _, p in ranked if p not in named and p not in numbered]  # asked for: no one's draft
        versions = damp_drafts(scores, unnamed, catalog.words_of, found.of) if body_evidence else {}
        if versions:  # ranked again: among the pool alone while its undamped part fills the answer
            pool = {p: scores[p] for _, p in ranked} if len(ranked) - len(versions) >= limit + extra else scores
            ranked = _top(pool, limit + extra, first=owners, named=mentioned)
        for negative, path, twins in found.fold(ranked, limit):
            acc = details(index, match, path) if path in headers else Fields()
            words = body_words(bank, terms, path) if path in bodies else ()
            best = sections.get(path)
            if quoted and path in bodies and (writing := section_quoting(catalog.sections_of(path), quoted)):
                best = (best[0] if best else 0.0, writing)
            place = enclosing(bank.documents[path], best[1].line, lambda path=path: bank.text(path)) if best else None
            said = linked_points.get(path, 0.0)
            evidence = Evidence(
                bodies.get(path, 0.0) * body_scale,
                words,
                section_points.get(path, 0.0),
                place,
                said,
                catalog.linked.words_for(path, concepts) if said else (),
            )
            hit = hit_of(
                bank.documents[path],
                acc,
                -negative,
                evidence,
                weights,
                intent=factors.get(path, 1.0),
                together=together.get(path, 1.0),
                draft_of=versions.get(path) or named.get(path),
                named=path in mentioned,
                series_place=numbered.get(path, (0, False, False)),
                quoted=quoted,
            )
            hits.append(finished(hit, lifts.get(path, 0.0), twins))
        return RouteResult(question, tuple(hits), why_intent, unmatched.hint() if hits else EMPTY_HINT)


def _roles(bank: Bank, _previous: object = None) -> dict[str, frozenset[str]]:
    return {path: role_words(doc) for path, doc in bank.documents.items()}


def _points(evidence: dict[str, float], worth: float) -> dict[str, float]:
    """Evidence as points: the best is worth ``worth``, the rest in proportion (scaled in place).
    Body evidence is specific, so no prior scales it (see ``BODY_SHARE``)."""
    scale = _scale(evidence, worth, evidence)
    for path, value in evidence.items():
        evidence[path] = value * scale
    return evidence if scale else {}


def _scale(evidence: dict[str, float], worth: float, best_of: Iterable[str]) -> float:
    """What one unit of evidence is worth when the best, found among ``best_of``, is worth ``worth``."""
    best = max(map(evidence.__getitem__, best_of), default=0.0)
    return worth / best if best else 0.0


def _sum(
    headers: dict[str, float],
    bodies: dict[str, float],
    body_scale: float,
    sections: dict[str, float],
    linked: dict[str, float],
) -> dict[str, float]:
    """Every document's points: the larger part first (copied, bodies scaled to points as they
    are) and the others added."""
    ordered = sorted(
        ((headers, 1.0), (bodies, body_scale), (sections, 1.0), (linked, 1.0)),
        key=lambda part: len(part[0]),
        reverse=True,
    )
    first, scale = ordered[0]
    scores = defaultdict(float, {p: v * scale for p, v in first.items()} if scale != 1.0 else first)
    for part, scale in ordered[1:]:
        if scale == 1.0:
            for path, value in part.items():
                scores[path] += value
        else:
            for path, value in part.items():
                scores[path] += value * scale
    scores.default_factory = None  # a plain mapping from here
    return scores


def _cut(scores: dict[str, float], count: int) -> float:
    """The ``count``-th best score (the lowest when there are fewer)."""
    if len(scores) <= count:
        return min(scores.values(), default=0.0)
    return heapq.nlargest(count, scores.values())[-1]


def _best(scores: dict[str, float], count: int) -> list[str]:
    """About the ``count`` best documents (ties at the cut included), in the order of ``scores``."""
    cut = _cut(scores, count)
    return [p for p, v in scores.items() if v >= cut]


def _candidates(headers: dict[str, float], bodies: dict[str, float], leading: list[str]) -> list[str]:
    """The documents whose sections are scored: the best by headers and the best by body (found
    among ``leading``, which holds every document at or above the body cut)."""
    chosen = dict.fromkeys(_best(headers, SECTION_CANDIDATES))
    chosen.update(dict.fromkeys(_best({p: bodies[p] for p in leading}, SECTION_CANDIDATES)))
    return list(chosen)


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


def _mentioned(bank: Bank, question: str, scores: dict[str, float], allowed: set[str]) -> set[str]:
    """The documents the question names by identifier or path (``core.named``), the best scored of
    each name (a package folder's best member), put in ``scores`` when nothing scored them."""
    chosen = set()
    for group in bank.extension("route.named", names).named_in(question):
        group = [p for p in sorted(group) if p in allowed]
        if group:
            best = max(group, key=lambda p: scores.get(p, 0.0))
            scores[best] = max(scores.get(best, 0.0), NAMED_FLOOR)
            chosen.add(best)
    return chosen


def _top(
    scores: dict[str, float], limit: int, first: set[str] = frozenset(), named: set[str] = frozenset()
) -> list[tuple[float, str]]:
    """The best ``limit`` as (-score rounded to 2 decimals, path), ties in path order; documents the
    question names (``named``), then those in ``first`` (owners of the fact it names), lead whatever
    their score. Only scores near the cut are rounded and sorted."""
    if not scores:
        return []
    leaders = [p for p in named if scores.get(p, 0) > 0], [p for p in first if p not in named and scores.get(p, 0) > 0]
    leading = [entry for group in leaders for entry in sorted((-round_half_up(scores[p], 2), p) for p in group)]
    ahead = {p for _, p in leading}
    rest = {p: v for p, v in scores.items() if p not in ahead} if ahead else scores
    if not rest or len(leading) >= limit:
        return leading[:limit]
    cut = heapq.nlargest(limit, rest.values())[-1] - 0.01
    near = [(-round_half_up(v, 2), p) for p, v in rest.items() if v >= cut and v > 0]
    near.sort()
    return (leading + near)[:limit]
