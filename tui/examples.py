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
    searched = index.searchable
    written = {t: held for t, held in index.postings.items() if not searched.isdisjoint(held)}
    for doc in bank:
        keys = doc.frontmatter.get("canonical_for")
        for key in keys if isinstance(keys, list) else ():
            if isinstance(key, str) and len(key) <= 32 and key.lower() in written:
                return key
    named = sorted(t for t, held in written.items() if len(held) <= 3 and _IDENTIFIER.fullmatch(t))
    if named:  # an identifier a few bodies name, when no key is written out
        return named[0]
    keys = (doc.frontmatter.get("canonical_for") for doc in bank)  # at least the bank's own words
    return next((k[0] for k in keys if isinstance(k, list) and k and isinstance(k[0], str) and len(k[0]) <= 32), None)
