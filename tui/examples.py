"""Examples for the workbench's text boxes, taken from the bank itself, so a Russian bank's boxes
suggest Russian questions and nobody is told to look for invoice numbering in a forum's bank."""

from __future__ import annotations

import re

from memorybank.core.bank import Bank

SEPARATORS = (" — ", " – ", " - ", ": ", " | ")
"""Where a title's subject ends and its qualifier starts ("Architecture — ai-da-collect")."""


def example_title(bank: Bank) -> str | None:
    """The subject of a short knowledge document's title, as a question would be typed (capitalised
    words lower-cased, acronyms kept: "Invoicing Rules" gives "invoicing rules"), or None."""
    with bank.lock:
        for doc in bank:
            if doc.layer == "knowledge" and not doc.is_index and not doc.is_inbox and 3 <= len(doc.title) <= 32:
                return as_typed(doc.title)
    return None


def as_typed(title: str) -> str:
    for separator in SEPARATORS:
        subject = title.split(separator, 1)[0].strip()
        if len(subject) >= 3:
            title = subject
    return " ".join(word.lower() if word[1:].islower() or len(word) == 1 else word for word in title.split())


def example_term(bank: Bank) -> str | None:
    """A key some document owns (``canonical_for``) that a body holds as written, so searching for
    it finds it literally (a key named only in frontmatter would find other words), else an
    identifier a few bodies hold, else any key (the bank's own words), or None."""
    return bank.extension("tui.example_term", lambda bank, _previous: _written_key(bank))


_IDENTIFIER = re.compile(r"[a-z][a-z0-9]{2,}(?:_[a-z][a-z0-9]+){1,3}")


def _written_key(bank: Bank) -> str | None:
    from memorybank.core.body_index import body_index

    index = body_index(bank)
    searched, postings = index.searchable, index.postings

    def written(token: str) -> bool:  # in a body search reads (no template, no inbox note)
        held = postings.get(token)
        return bool(held) and not searched.isdisjoint(held)

    keys = [
        key
        for doc in bank
        if isinstance(listed := doc.frontmatter.get("canonical_for"), list)
        for key in listed
        if isinstance(key, str) and len(key) <= 32
    ]
    key = next((k for k in keys if written(k.lower())), None)
    if key is None:  # an identifier a few bodies name, else at least the bank's own words
        named = sorted(t for t, held in postings.items() if len(held) <= 3 and _IDENTIFIER.fullmatch(t) and written(t))
        key = named[0] if named else next(iter(keys), None)
    return key
