"""Building what a route reads before anyone asks: the header and body indexes, the bank's
vocabulary, its names, roles and families, and the Russian morphology.

The workbench does it in a worker as it opens, the MCP server in a thread once the handshake is
over, so the first question is answered as fast as the next one. It is one route of a question that
reaches every part the router builds on first use (an intent, a Russian word, and a document's
title, so something scores and the intent's roles are read), so a part added to the router later
is warmed with the rest.
"""

from __future__ import annotations

from memorybank.core.bank import Bank
from memorybank.core.route import route


def warm(bank: Bank) -> None:
    """Build every index a route reads for the bank's current state (the caller refreshed it)."""
    titles = (doc.title for doc in bank if doc.title.strip() and not (doc.is_template or doc.is_inbox))
    route(bank, f"how do I set up {next(titles, 'it')[:150]}? как это настроить?")
