"""A bank's own bilingual lexicon: word pairs read from what the bank already writes in two languages.

Banks written in Russian name their files in English (``UC-003-user-management.md`` titled
"Управление пользователями") and gloss terms in parentheses ("Лента (Feed)", "Source (источник)").
Each such pair of short phrases is aligned word by word: pairs the built-in dictionary already
explains are set aside, and when exactly one word is left on each side, they translate each other.
The pairs extend the dictionary in both directions, for this bank only; ``dna/vocabulary.md`` stays
the owner's place for what the bank cannot teach.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from memorybank.core.lang import (
    BUILTIN,
    BUILTIN_ENTRIES,
    ROUTE_STOPWORDS,
    VOCABULARY_PATH,
    Vocabulary,
    fold,
    has_cyrillic,
    inflection_stem,
    is_identifier,
    parse_vocabulary,
)

MIN_KEY = 4
"""A Russian stem shorter than this would match too many words by prefix."""
MAX_PARTNERS = 2
"""An English word aligned with more Russian words than this is a naming habit, not a translation."""
GENERIC_NAMES = frozenset(
    "readme index brief design feature spec plan implementation-plan decision-log protocol notes summary "
    "overview handoff review report strategy".split()
)
"""File names that say what kind of document it is, not what it is about: the folder names it."""
_PAREN_RU_EN = re.compile(r"([\u0400-\u04ff][\u0400-\u04ff\w -]{1,60}?)\s*\(\s*([A-Za-z][A-Za-z -]{1,40})\s*\)")
_PAREN_EN_RU = re.compile(r"([A-Za-z][A-Za-z -]{1,60}?)\s*\(\s*([\u0400-\u04ff][\u0400-\u04ff -]{1,40})\s*\)")
_SLUG_SPLIT = re.compile(r"[^a-z0-9]+")
_PHRASE_WORDS = 3


def _slug_words(path: str) -> list[str]:
    """English words of a path's file name (its folder's for a generic name), ids left out."""
    parts = path.removesuffix(".md").split("/")
    name = parts[-1].lower()
    if name in GENERIC_NAMES and len(parts) > 1:
        name = parts[-2].lower()
    tokens = [t for t in _SLUG_SPLIT.split(name) if t]
    words = []
    for at, token in enumerate(tokens):
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        if any(c.isdigit() for c in token) or any(c.isdigit() for c in following) and len(token) <= 4:
            continue  # an id (UC-003, FT-HW1-04) or its prefix
        if len(token) >= 3 and token not in ROUTE_STOPWORDS:
            words.append(token)
    return words


def _words(text: str, russian: bool) -> list[str]:
    tokens = [t for t in re.split(r"[^a-z\u0400-\u04ff]+", fold(text)) if len(t) >= 3 and t not in ROUTE_STOPWORDS]
    return [t for t in tokens if has_cyrillic(t) == russian and not is_identifier(t)]


def document_phrases(doc: Any) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(Russian words, English words) of every short phrase pair one document writes: its Russian
    title against its file name, and glosses in parentheses in its title and headings."""
    if doc.is_template or doc.is_inbox:
        return ()
    found: list[tuple[list[str], list[str]]] = []
    if has_cyrillic(doc.title):
        russian = _words(doc.title, True)
        if 0 < len(russian) <= _PHRASE_WORDS + 1:
            found.append((russian, _slug_words(doc.path)))
    for text in (doc.title, *(section.title for section in doc.sections)):
        if "(" not in text:
            continue
        for match in _PAREN_RU_EN.finditer(text):
            found.append((_words(match.group(1), True)[-_PHRASE_WORDS:], _words(match.group(2), False)))
        for match in _PAREN_EN_RU.finditer(text):
            found.append((_words(match.group(2), True), _words(match.group(1), False)[-_PHRASE_WORDS:]))
    return tuple((tuple(r), tuple(e)) for r, e in found if r and e)


def bank_phrases(bank: Any) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """Every phrase pair of the bank, each document read again only when its record changed."""

    def build(bank: Any, previous: dict | None) -> dict:
        cache = previous if previous is not None else {}
        documents = bank.documents
        for path in [p for p in cache if p not in documents]:
            del cache[path]
        for path, doc in documents.items():
            entry = cache.get(path)
            if entry is None or entry[0] is not doc:
                cache[path] = (doc, document_phrases(doc))
        return cache

    cache = bank.extension("lexicon.phrases", build)
    return tuple(pair for path in sorted(cache) for pair in cache[path][1])


def bank_pairs(
    phrases: Iterable[tuple[Sequence[str], Sequence[str]]], known: Vocabulary
) -> list[tuple[str, tuple[str, ...]]]:
    """Dictionary rows (Russian stem, English words) the bank's own phrase pairs teach."""
    pairs: Counter[tuple[str, str]] = Counter()
    for russian, english in phrases:
        if not russian or not english or len(english) > _PHRASE_WORDS + 1:
            continue
        left_ru = list(dict.fromkeys(russian))
        left_en = list(dict.fromkeys(english))
        for word in list(left_ru):
            key = known.stem_of(word)
            meanings = known.ru_to_en.get(key, ()) if key else ()
            explained = [e for e in left_en if e in meanings or inflection_stem(e) in map(inflection_stem, meanings)]
            if explained:
                left_ru.remove(word)
                left_en.remove(explained[0])
        if len(left_ru) == 1 and len(left_en) == 1:
            stem = inflection_stem(left_ru[0])
            if len(stem) >= MIN_KEY:
                pairs[stem, left_en[0]] += 1
    partners = Counter(english for _, english in pairs)
    rows: dict[str, list[str]] = {}
    for (stem, english), _ in sorted(pairs.items(), key=lambda item: (-item[1], item[0])):
        if partners[english] > MAX_PARTNERS:
            continue  # a word of many file names (``topic``, ``page``) names no one thing
        rows.setdefault(stem, []).append(english)
    return [(stem, tuple(words)) for stem, words in rows.items()]


def vocabulary_for(bank: Any) -> Vocabulary:
    """The built-in dictionary, the pairs the bank's own titles and glosses teach (see
    ``core.lexicon``) and this bank's ``dna/vocabulary.md``, rebuilt when either changes (the
    bank's refresh notices the edit; the next call sees the new words)."""

    def build(bank: Any, previous: Vocabulary | None) -> Vocabulary:
        text = bank.text(VOCABULARY_PATH) if VOCABULARY_PATH in bank.documents else ""
        phrases = bank_phrases(bank)
        if previous is not None and previous.source == text and previous.phrases == phrases:
            return previous
        rows = parse_vocabulary(text) if text else []
        learned = bank_pairs(phrases, BUILTIN)
        if not rows and not learned:
            return BUILTIN
        vocabulary = Vocabulary([*BUILTIN_ENTRIES, *learned, *rows], local=len(rows), source=text)
        vocabulary.learned = len(learned)
        vocabulary.phrases = phrases
        return vocabulary

    return bank.extension("lang.vocabulary", build)
