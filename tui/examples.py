"""Examples for the workbench's text boxes, taken from the bank itself, so a Russian bank's boxes
suggest Russian questions and nobody is told to look for invoice numbering in a forum's bank."""

from __future__ import annotations

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
    """A key some document owns (``canonical_for``), a literal term worth searching for, or None."""
    with bank.lock:
        for doc in bank:
            keys = doc.frontmatter.get("canonical_for")
            if isinstance(keys, list) and keys and isinstance(keys[0], str) and len(keys[0]) <= 32:
                return keys[0]
    return None
