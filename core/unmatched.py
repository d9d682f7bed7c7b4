"""Question words no document holds: a slip of the keyboard read as the bank's word, the rest said.

A word the bank holds in no form (as typed, inflected, translated, in a header or a body) takes no
part in the ranking, so the answer comes from the question's other words alone, with scores like any
other's: "deploy the backend to Kubernetes" in a bank that never mentions Kubernetes is answered
with a backend decision. When the missing word is written as a name (``names_in``), the route says
so in its hint ("No document mentions "kubernetes": the hits match the other words").

Before that, such a word is tried as a typo: a word of the bank's bodies one edit away (a letter
left out, added or changed, or two side by side swapped) that starts with the same letter, the most
used of them when several are as close. "autentication" is read as "authentication" and
"encrpytion" as "encryption", and the hint says so, so a reader sees the word that was matched in
place of the one typed. A typo is only guessed where a wrong guess is unlikely: in a word of eight
letters or more (a short name, "Stripe", is more often a name the bank lacks than a slip for
"strip"), one edit away (two edits turned "залогировать" into "заблокировать"), and in Russian only
for a word the dictionaries do not know ("заплатить" is a word, not a slip for "запустить").
Identifiers and numbers are left as typed. On the tunable question sets no question had a word
guessed, where one edit from words of five letters and two from nine read 44 real words as others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memorybank.core.body_index import TRANSLATED_WEIGHT, BodyIndex, concept_of
from memorybank.core.headers import HeaderIndex
from memorybank.core.lang import QueryTerm, Vocabulary, fold, has_cyrillic, is_identifier
from memorybank.core.morphology import is_known_word

SHORTEST = 8
"""Words shorter than this are never read as typos."""


@dataclass(frozen=True)
class Unmatched:
    """What became of the question's words that no document holds."""

    read_as: tuple[tuple[str, str], ...] = ()
    """(as typed, the bank's word it was read as)."""
    missing: tuple[str, ...] = ()
    """Names the question writes that no document holds (they took no part in the ranking)."""

    def hint(self) -> str | None:
        """One line for the answer, or None when every word was found."""
        parts = [f'read "{typed}" as "{word}"' for typed, word in self.read_as]
        if self.missing:
            quoted = ", ".join(f'"{word}"' for word in self.missing)
            parts.append(f"no document mentions {quoted}: the hits match the other words")
        if not parts:
            return None
        text = "; ".join(parts)
        return text[0].upper() + text[1:] + "."


def held(catalog: BodyIndex, index: HeaderIndex, vocabulary: Vocabulary, term: QueryTerm) -> bool:
    """True when some document holds the word in a form the ranking counts: a header match of any
    kind, or a body form as typed, inflected or translated."""
    if term.literal in catalog.postings or term.literal in index.table.tokens:  # as typed: most words
        return True
    if index.table.matches(term.literal, vocabulary):
        return True
    concept = concept_of(catalog, term, vocabulary)
    postings = catalog.postings
    return any(weight >= TRANSLATED_WEIGHT and token in postings for token, weight in concept.variants.items())


def read_typos(
    catalog: BodyIndex, index: HeaderIndex, vocabulary: Vocabulary, terms: list[QueryTerm], question: str
) -> tuple[list[QueryTerm], Unmatched]:
    """The question's terms with each word no document holds read as the bank's word it was
    likely meant for (``Unmatched.read_as``), and the names (``names_in``) left with no match."""
    kept: list[QueryTerm] = []
    read_as: list[tuple[str, str]] = []
    missing: list[str] = []
    for term in terms:
        if held(catalog, index, vocabulary, term):
            kept.append(term)
            continue
        meant = _meant(catalog, term.literal)
        if meant is None:
            missing.append(term.literal)
            kept.append(term)
            continue
        read_as.append((term.literal, meant))
        kept.append(catalog.with_cognates([vocabulary.term(meant)])[0])
    return kept, Unmatched(tuple(read_as), tuple(dict.fromkeys(names_in(question, missing))))


def names_in(question: str, words: list[str]) -> list[str]:
    """Those of ``words`` the question writes as a name: capitalised past its first word
    (``deploy it to Kubernetes``), in capitals or mixed case (``AWS``, ``GraphQL``), or in Latin
    letters inside a Russian question (``деплой в kubernetes``). A missing word written so is the
    topic the reader asked about; a missing ordinary word (``did``, ``сколько``, a paraphrase) is not
    worth a line: on the tunable question sets one question in two has one."""
    typed = re.findall(r"[\w\u0400-\u04ff][\w\u0400-\u04ff'-]*", question)
    russian = has_cyrillic(question)
    named = []
    for word in words:
        if word.isdigit():  # a number is not a name, and the bodies rarely spell one as asked
            continue
        forms = [(at, w) for at, w in enumerate(typed) if fold(w) == word]
        if any(
            (at > 0 and w[:1].isupper()) or (len(w) > 1 and w[1:] != w[1:].lower()) or (russian and not has_cyrillic(w))
            for at, w in forms
        ):
            named.append(word)
    return named


def _meant(catalog: BodyIndex, word: str) -> str | None:
    """The body word ``word`` is likely a slip for, or None."""
    if len(word) < SHORTEST or is_identifier(word) or any(c.isdigit() for c in word) or is_known_word(word):
        return None
    from rapidfuzz.distance import OSA  # on the first unknown word only: the import costs ~20 ms
    from rapidfuzz.process import extract

    first, cyrillic = word[0], has_cyrillic(word)
    choices = [
        token
        for token in catalog.postings
        if token[:1] == first and abs(len(token) - len(word)) <= 1 and has_cyrillic(token) == cyrillic
    ]
    found = extract(word, choices, scorer=OSA.distance, score_cutoff=1, limit=None)
    postings = catalog.postings
    return max((token for token, _, _ in found), key=lambda token: (len(postings[token]), token), default=None)
