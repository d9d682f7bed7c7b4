"""Examples for the workbench's text boxes, taken from the bank itself, so a Russian bank's boxes
suggest Russian questions and nobody is told to look for invoice numbering in a forum's bank."""

from __future__ import annotations

from memorybank.core.bank import Bank


def example_title(bank: Bank) -> str | None:
    """The title of a short knowledge document (lower-cased, as a question would be typed), or None."""
    with bank.lock:
        for doc in bank:
            if doc.layer == "knowledge" and not doc.is_index and not doc.is_inbox and 3 <= len(doc.title) <= 32:
                return doc.title[:1].lower() + doc.title[1:]
    return None


def example_term(bank: Bank) -> str | None:
    """A key some document owns (``canonical_for``), a literal term worth searching for, or None."""
    with bank.lock:
        for doc in bank:
            keys = doc.frontmatter.get("canonical_for")
            if isinstance(keys, list) and keys and isinstance(keys[0], str) and len(keys[0]) <= 32:
                return keys[0]
    return None
