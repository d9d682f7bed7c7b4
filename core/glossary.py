"""A definition question ("what does X mean", "кто такой X") and the bank's glossary.

The glossary is the place a term is defined, so routing adds the word "glossary" to a question that
asks what a term means: the bank's glossary, whatever language it is titled in, is considered
beside the documents that use the term. It is added only when a glossary defines something the
question names: a glossary whose body holds none of the question's own words cannot answer it, and
leading with it ("кто такой Иван Петров", "что такое идемпотентность" where no glossary mentions
either) would send the reader to the wrong place on the strength of a word they never typed.
"""

from __future__ import annotations

from memorybank.core.bank import Bank
from memorybank.core.headers import TITLE, HeaderIndex, HeaderMatch
from memorybank.core.lang import QueryTerm, Vocabulary
from memorybank.core.search import body_words

GLOSSARY = "glossary"


def glossary_term(bank: Bank, index: HeaderIndex, vocabulary: Vocabulary, terms: list[QueryTerm]) -> QueryTerm | None:
    """The term "glossary" to add to a definition question's ``terms``, or None when no document
    titled a glossary (in either language) holds one of those terms in its body. Callers hold
    ``bank.lock``."""
    if not terms:
        return None
    term = vocabulary.term(GLOSSARY)
    titled = HeaderMatch(index, [term], vocabulary).concepts[0][0][TITLE]
    return term if any(body_words(bank, terms, path) for path in sorted(titled)) else None
