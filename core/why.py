"""The ``why`` of a route hit: one short line saying what matched, in the order a reader weighs it."""

from __future__ import annotations

from memorybank.core.lang import ROUTE_SPLIT, inflection_stem
from memorybank.core.model import ScoreBreakdown

WHY_WORDS = 3
"""Matched words a ``why`` names per field: enough to see the match, short enough for one line."""
LINKED_AFTER = 2
"""What the links to a document say (at most a fifth of the best header score) is named only
beside fewer than this many other reasons: after a purpose and a body it lengthened the line with
words that read as unrelated (a translation, "фиксируй" for "records")."""


def _pieces(identifier: str) -> tuple[str, ...]:
    """The words a question's identifier was cut into when its words were read (``route_tokens``)."""
    return tuple(p for p in ROUTE_SPLIT.split(identifier) if p)


def written_whole(words: tuple[str, ...], quoted: tuple[str, ...]) -> tuple[str, ...]:
    """The matched words with the pieces of an identifier the question quotes put back together as
    it wrote them: "ip", "based" for "IP-based" is said "ip-based", "ft", "051" is said "ft-051"."""
    wholes = [(whole, pieces) for whole in quoted if len(pieces := _pieces(whole)) > 1]
    if not wholes:
        return words
    joined: list[str] = []
    at = 0
    while at < len(words):
        for whole, pieces in wholes:
            if words[at : at + len(pieces)] == pieces:
                joined.append(whole)
                at += len(pieces)
                break
        else:
            joined.append(words[at])
            at += 1
    return tuple(joined)


def _stems(words: tuple[str, ...], quoted: tuple[str, ...]) -> set[str]:
    """The stems of words already named, an identifier's pieces among them: said once."""
    return {inflection_stem(piece) for w in words for piece in ((w, *_pieces(w)) if w in quoted else (w,))}


def explain(b: ScoreBreakdown, reading: str | None, quoted: tuple[str, ...] = ()) -> str:
    """The ``why`` of a hit, one short line: what matched, in the order a reader weighs it.
    The heading that matched (``b.heading_section``) is named when no key, purpose or title did,
    and only where reading starts (``reading``, the hit's section: the body's best may be another),
    unless nothing else says why the document ranks: naming one section beside a `read:` line
    naming another sent the reader two ways. The layer is the hit's own field too, so unlike the reference the line does
    not add "delivery layer, ranked below knowledge": it took 40 characters in a third of the hits
    on the real banks, and it was false whenever a delivery document's body lifted it above the
    knowledge it uses. The pieces of an identifier the question quotes (``quoted``) are named as it
    wrote them."""
    parts = ["the question names it"] if b.named else []
    if b.place:
        parts.append(f"the question asks for {'the last' if b.place_last else f'number {b.place}'} of its series")
    if b.canonical_key:
        parts.append(f"owns canonical_for: {b.canonical_key}")
    title = written_whole(b.title_words, quoted)[:WHY_WORDS]
    said = _stems(title, quoted)  # "job" in the title and "jobs" in the purpose: once
    purpose = tuple(w for w in written_whole(b.purpose_words, quoted) if inflection_stem(w) not in said)[:WHY_WORDS]
    if purpose:
        parts.append(f'purpose matches "{", ".join(purpose)}"')
    if title:
        parts.append(f'title matches "{", ".join(title)}"')
    heading = b.heading_section if not (title or purpose or b.canonical_key) else None
    if heading and heading == reading:
        parts.append(f'heading matches "{heading}"')
    shown = {*title, *purpose}
    said.update(_stems(purpose, quoted))
    body = [w for w in written_whole(b.body_words, quoted) if inflection_stem(w) not in said][:WHY_WORDS]
    if body:
        parts.append(f'body mentions "{", ".join(body)}"')
    told = {inflection_stem(w) for w in b.body_words} if b.linked_words else set()
    linked = [w for w in b.linked_words if w not in shown and inflection_stem(w) not in told][:WHY_WORDS]
    if linked and len(parts) < LINKED_AFTER:  # the weakest evidence: said when little else is
        parts.append(f'links to it mention "{", ".join(linked)}"')
    if b.draft_of:
        parts.append(f"a draft of {b.draft_of}")
    if heading and not parts:
        parts.append(f'heading matches "{heading}"')
    return "; ".join(parts)
