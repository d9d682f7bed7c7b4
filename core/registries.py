"""Registries: index documents whose body is mostly entries linking other documents.

An entry repeats the title and purpose of the document it links, so an entry matching a question is
evidence for that document, not for the index. What an index says in its own lines (what its
section holds and what it leaves to others, what is not written yet) is its own, and is the only
part of its body routing counts: an operations index that says the shared setup lives elsewhere
answers "where is the shared setup described". An index that also carries prose of its own (a bug
package's README, say) is not a registry and keeps its whole body. Measured on the tunable sets
against giving registries no body evidence: Recall@1 and Recall@3 one question up each (held-out-6
``asromanychev__ai-setup``), a held-out-7 ``lynxlg__telegram_shop_bot`` question from unranked to
6th, no question lower.
"""

from __future__ import annotations

from collections import Counter

from memorybank.core.bank import Bank
from memorybank.core.body_index import BM25_B, BM25_K1, BodyIndex
from memorybank.core.lang import search_tokens, token_parts

Registries = dict[str, tuple[Counter[str], int]]
"""Registry path -> the tokens of its own lines (entries, headings and table rules left out) and
how many there are."""


def registries(bank: Bank, _previous: object = None) -> Registries:
    """The bank's registries, each with the words of its own lines."""
    found: Registries = {}
    for doc in bank:
        if not doc.is_index:
            continue
        entry_lines = {link.line for link in doc.links if link.resolved and link.resolved.endswith(".md")}
        if not entry_lines:
            continue
        lines = bank.text(doc.path).split("\n")
        prose = [
            number
            for number in range(doc.body_line, len(lines) + 1)
            if lines[number - 1].strip() and not lines[number - 1].lstrip().startswith(("#", "|-", "|:", "---"))
        ]
        if len(entry_lines) * 2 >= len(prose):
            tokens = search_tokens("\n".join(lines[n - 1] for n in prose if n not in entry_lines))
            counts = Counter(tokens)
            counts.update(part for token in tokens for part in token_parts(token))  # as the body index counts
            found[doc.path] = (counts, len(tokens))
    return found


def own_evidence(
    bodies: dict[str, float], found: Registries, index: BodyIndex, concepts: list[tuple[float, dict[str, float]]]
) -> None:
    """Replace (in place) each registry's body evidence by BM25 over its own lines, with the idf and
    forms of the question's ``concepts`` (as ``search.body_evidence`` gives them); a registry whose
    own lines hold none of the question leaves ``bodies``."""
    average = (index.total_length / len(index.lengths) if index.lengths else 1.0) or 1.0
    for path, (counts, length) in found.items():
        if path not in bodies:
            continue
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * length / average)
        score = 0.0
        for idf, forms in concepts:
            tf = sum(counts.get(token, 0) * weight for token, weight in forms.items())
            if tf:
                score += idf * (BM25_K1 + 1.0) * tf / (tf + norm)
        if score:
            bodies[path] = score
        else:
            del bodies[path]
