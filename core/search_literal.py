"""A search query as written: the bodies that hold it so (case and ``ё`` folded, whole words), and
the hint when only the documents search leaves out (templates, inbox notes) do."""

from __future__ import annotations

import re

from memorybank.core.body_index import BodyIndex


def holding_as_written(
    index: BodyIndex, literal: str, written: re.Pattern[str] | None, words: list[str], allowed: set[str]
) -> set[str]:
    """The documents whose body holds the query as written (case and ``ё`` folded), not inside a
    longer word. When the query is nothing but ``words``, only documents indexed under every one
    of them are read (one word needs no reading at all); otherwise every allowed body is."""
    if written is None or (len(literal) < 2 and literal.isalnum()):  # one letter is no query; one symbol is
        return set()
    bodies = index.bodies
    if words:
        buckets = sorted((index.postings.get(w, {}) for w in set(words)), key=len)
        holding = {p for p in buckets[0] if p in allowed and all(p in b for b in buckets[1:])}
        if len(words) == 1:
            return holding
    else:
        holding = allowed
    return {p for p in holding if _holds(bodies.get(p, ""), literal, written)}


def _holds(body: str, literal: str, written: re.Pattern[str]) -> bool:
    """Whether ``body`` holds the query as written (the substring first: it is the cheap test)."""
    return literal in body and written.search(body) is not None


def left_out(index: BodyIndex, literal: str, written: re.Pattern[str] | None) -> str | None:
    """When only templates or inbox notes hold the query as written, a hint naming them: search
    leaves them out, and "no document holds it" would send the reader looking elsewhere."""
    if written is None or not literal:
        return None
    holding = sorted(p for p in index.excluded if _holds(index.bodies.get(p, ""), literal, written))
    if not holding:
        return None
    named = ", ".join(holding[:3]) + (f" and {len(holding) - 3} more" if len(holding) > 3 else "")
    return (
        "No document body contains these terms as written outside templates and inbox notes, which search "
        f"leaves out; these hold them: {named} (bank_read reads them)."
    )


def as_written(literal: str) -> re.Pattern[str]:
    """The query as written: its words with any run of spaces or a line break between them, not
    inside a longer word or number (``a b`` is not in ``metadata before``, ``0.1.0`` not in
    ``10.1.0``, though it is in ``v0.1.0``)."""

    first, last = literal[:1], literal[-1:]
    lead = re.escape(first)  # the edge is checked behind the first character, so the scan can seek it
    before = rf"(?<![0-9]{lead})(?<![0-9]\.{lead})" if first.isdigit() else rf"(?<![^\W\d_]{lead})" * first.isalpha()
    after = r"(?![0-9]|\.[0-9])" if last.isdigit() else r"(?![^\W\d_])" if last.isalpha() else ""
    return re.compile(lead + before + r"\s+".join(map(re.escape, literal.split()))[len(lead) :] + after)
