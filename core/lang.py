"""Words for routing and search: tokenizers, stopwords, Russian stems, Snowball inflections, vocabulary.

A Russian question reaches English headers and bodies (and an English question Russian ones)
through a dictionary of Russian *stem prefixes*, each listing English words. The longest key a
token starts with wins, so homonyms split cleanly (``глав`` chapter, ``главн`` main). A bank may
extend the dictionary with ``dna/vocabulary.md``; that overlay belongs to the bank, re-read when
the file changes, never shared between banks. Snowball stemming (English and Russian) lets the
inflections of one word meet (``deploy``/``deploying``/``deployment``, ``порог``/``порогов``).
"""

from __future__ import annotations

import bisect
import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memorybank.core.derivation import root, root_probe
from memorybank.core.dictionary import BUILTIN_ENTRIES
from memorybank.core.errors import UsageError
from memorybank.core.morphology import is_function_word, lemma

VOCABULARY_PATH = "dna/vocabulary.md"

VERB_PREFIXES: tuple[str, ...] = ("пере", "раз", "при", "про", "под", "об", "за", "вы", "от", "до", "на")
"""Tried in this order when a token starts with no key; at least 4 letters must remain."""
PREFIXED_KEY = 5
"""The letters a key must have to be met through a verb prefix. A short key after a prefix is
mostly a different word: ``выпустить`` (release) is not ``пуст`` (empty), ``подключить``
(connect) not ``ключ`` (key), ``задать`` (set) not ``дат`` (date), ``разрешили`` (allowed) not
``реш`` (decision), while ``перезапуск``, ``пересоздать`` or ``подкатегории`` keep their longer
keys. The common prefixed verbs whose key is short have entries of their own."""

RUSSIAN_STOPWORDS = frozenset(
    "что как где когда кто почему зачем какой какая какие каком который которая которые это этот "
    "эта эти том для или при над под про из по на не ни но же ли бы мы вы он она они его ее их мне "
    "мой моя наш был была быть есть нет так там тут еще уже только если чтобы нужно надо можно все "
    "весь себя чем без до от за удалось удастся удается удавалось".split()
)
"""Russian question and function words (``ё`` written as ``е``, as tokens are)."""

ROUTE_STOPWORDS = (
    RUSSIAN_STOPWORDS
    | frozenset(
        "the a an of in on for to and or is are what where how which that this do does when why who with "
        "about i we it not no from but its has have had was were be been being can could should would may "
        "might must will as at by if into than then there these those them they you my our us me any all "
        "some such only also just very each both get got".split()
    )
    | frozenset(
        "me myself ours ourselves your yours yourself yourselves he him his himself she her hers herself itself "
        "their theirs themselves whom am having doing because until while against between through during before "
        "after above below up down out off over under again further once here few more most other own same so too "
        "nor don now".split()
    )
)
"""The English half is Snowball's English stopword list (what Snowball's authors call words that carry
no topic), with the words of a question (``what``, ``how``) and a few verbs (``get``, ``can``)."""
SEARCH_STOPWORDS = RUSSIAN_STOPWORDS | frozenset(
    "the and for that this with from are was were not but its has have had can may must when which "
    "what where how why".split()
)

_CYRILLIC = re.compile("[\u0400-\u04ff]")
ROUTE_SPLIT = re.compile("[^a-z0-9\u0400-\u04ff]+")
_SEARCH_TOKEN = re.compile("[a-z0-9\u0400-\u04ff]+(?:[-_]+[a-z0-9\u0400-\u04ff]+)*")
_PARTS = re.compile("[-_]+")
_ENGLISH_WORD = re.compile(r"^[a-z][a-z0-9_-]*$")
_SEPARATOR_ROW = re.compile(r"^[\s|:\-]+$")


def fold(text: str) -> str:
    """Lowercase, with ``ё`` read as ``е`` (Russian writers use either)."""
    return text.lower().replace("ё", "е")


def has_cyrillic(text: str) -> bool:
    return _CYRILLIC.search(text) is not None


def route_tokens(text: str) -> list[str]:
    """Words of a question or a header field: split on anything but a-z, 0-9 and Cyrillic (so
    ``filter_thresholds`` gives two words), two letters at least, stopwords and Russian function
    words in any form (``core.morphology``) dropped, repeats kept."""
    return [
        t
        for t in ROUTE_SPLIT.split(fold(text))
        if len(t) >= 2 and t not in ROUTE_STOPWORDS and not (t >= "Ѐ" and is_function_word(t))
    ]


def search_tokens(text: str, *, folded: bool = False) -> list[str]:
    """Words of a body or a search query: ``_`` and ``-`` join identifiers (``ft-smd-843``), leading
    and trailing ones are dropped, two characters at least. ``folded``: the text is already
    passed through ``fold``."""
    return [t for t in _SEARCH_TOKEN.findall(text if folded else fold(text)) if len(t) >= 2]


def token_parts(token: str) -> list[str]:
    """The pieces of a compound identifier (``ft-smd-843`` -> ``ft``, ``smd``, ``843``); none for a
    plain word."""
    if "-" not in token and "_" not in token:
        return []
    return [p for p in _PARTS.split(token) if len(p) >= 2]


def is_identifier(token: str) -> bool:
    """Compounds and tokens with digits name things; they are never translated or stemmed."""
    return "-" in token or "_" in token or any(c.isdigit() for c in token)


# -- Snowball ----------------------------------------------------------------------------------

_SNOWBALL_CACHE: dict[str, str] = {}
_SNOWBALL_LOCK = threading.Lock()
_STEMMERS: dict[str, Any] = {}


def inflection_stem(token: str) -> str:
    """The Snowball stem of a word (English or Russian by its letters); identifiers and mixed-script
    tokens are their own stem. Cached: each distinct word is stemmed once per process."""
    cached = _SNOWBALL_CACHE.get(token)
    if cached is not None:
        return cached
    cyrillic = has_cyrillic(token)
    if is_identifier(token) or (cyrillic and re.search("[a-z]", token)):
        stem = token
    else:
        language = "russian" if cyrillic else "english"
        with _SNOWBALL_LOCK:  # a Snowball stemmer keeps state between calls
            stemmer = _STEMMERS.get(language)
            if stemmer is None:
                import snowballstemmer  # on first use: it loads every language it knows

                stemmer = _STEMMERS[language] = snowballstemmer.stemmer(language)
            stem = stemmer.stemWord(token)
    if len(_SNOWBALL_CACHE) > 500_000:
        _SNOWBALL_CACHE.clear()
    _SNOWBALL_CACHE[token] = stem
    return stem


_WORD_FINAL = frozenset("ьйаяоеы")
"""Letters a Russian word form may change at its end (``путь``/``пути``, ``слой``/``слоя``)."""


# -- the dictionary ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QueryTerm:
    """One word of a question and what it may also be written as."""

    literal: str
    translations: tuple[str, ...] = ()
    """English words for a Russian token; Russian stem keys for an English one."""
    stem: str | None = None
    """The dictionary stem of a Cyrillic token, when the dictionary knows it."""
    cognates: tuple[str, ...] = ()
    """Words of the other language in this bank spelled like it (see ``core.cognates``)."""


class Vocabulary:
    """The stem dictionary as lookups: Russian key -> English words, English word -> keys."""

    def __init__(self, entries: Iterable[tuple[str, Sequence[str]]], *, local: int = 0, source: str = "") -> None:
        ru_to_en: dict[str, list[str]] = {}
        en_to_ru: dict[str, list[str]] = {}
        for key, words in entries:
            key = fold(key)
            bucket = ru_to_en.setdefault(key, [])
            for word in words:
                word = fold(word)
                if word not in bucket:
                    bucket.append(word)
                keys = en_to_ru.setdefault(word, [])
                if key not in keys:
                    keys.append(key)
        self.ru_to_en = {k: tuple(v) for k, v in ru_to_en.items()}
        self.en_to_ru = {k: tuple(v) for k, v in en_to_ru.items()}
        self._by_initial: dict[str, list[str]] = {}
        for key in sorted(self.ru_to_en, key=len, reverse=True):  # stable: equal lengths keep order
            self._by_initial.setdefault(key[:1], []).append(key)
        self._stems: dict[str, str | None] = {}
        self._english_stems: dict[str, tuple[str, ...]] | None = None
        self.local = local
        """Rows the bank's ``dna/vocabulary.md`` added."""
        self.source = source
        self.learned = 0
        """Rows the bank's own phrase pairs taught (``core.lexicon``)."""
        self.phrases: tuple = ()

    def __len__(self) -> int:
        return len(self.ru_to_en)

    def _key_prefix(self, token: str) -> str | None:
        for key in self._by_initial.get(token[:1], ()):
            if token.startswith(key):
                return key
        return None

    def stem_of(self, token: str) -> str | None:
        """The dictionary key a Russian token belongs to, or None (Latin tokens have none). The
        token's dictionary form is tried when the token itself starts with no key, so irregular
        forms (``пути``, ``слоя``) meet the key of their lemma (``путь``, ``слой``)."""
        if token in self._stems:
            return self._stems[token]
        stem: str | None = None
        if has_cyrillic(token):
            stem = self._key_prefix(token)
            if stem is None:
                normal = lemma(token)
                if normal != token:
                    stem = self._key_prefix(normal)
            if stem is None:
                for prefix in VERB_PREFIXES:
                    if token.startswith(prefix) and len(token) - len(prefix) >= 4:
                        stem = self._key_prefix(token[len(prefix) :])
                        if stem is not None:
                            stem = stem if len(stem) >= PREFIXED_KEY else None
                            break
        self._stems[token] = stem
        return stem

    def term(self, token: str) -> QueryTerm:
        """A question word with its other-language forms. Identifiers are never translated."""
        if is_identifier(token):
            return QueryTerm(token)
        if has_cyrillic(token):
            stem = self.stem_of(token)
            return QueryTerm(token, self.ru_to_en.get(stem, ()) if stem else (), stem)
        return QueryTerm(token, self.en_to_ru.get(token) or self._keys_by_english_stem(token))

    def _keys_by_english_stem(self, token: str) -> tuple[str, ...]:
        """The keys of the dictionary's English words sharing the token's Snowball stem, so
        ``deleted``, ``publishing`` or ``translations`` meet ``delete``, ``publish``, ``translation``
        as a Russian word meets its key through any of its forms."""
        if self._english_stems is None:  # on the first English word the dictionary lacks
            stems: dict[str, list[str]] = {}
            for word, keys in self.en_to_ru.items():
                bucket = stems.setdefault(inflection_stem(word), [])
                bucket.extend(key for key in keys if key not in bucket)
            self._english_stems = {stem: tuple(keys) for stem, keys in stems.items()}
        return self._english_stems.get(inflection_stem(token), ())

    def terms(self, tokens: Iterable[str]) -> list[QueryTerm]:
        return [self.term(t) for t in tokens]


def parse_vocabulary(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Rows of a ``dna/vocabulary.md`` table whose left cell is Cyrillic: ``| стем | word, word |``.

    Backticks are dropped, the English cell is split on commas, and only words (a letter, then
    letters, digits, ``_`` or ``-``) are kept. Headers, separators and prose are ignored.
    """
    rows = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line.startswith("|") or _SEPARATOR_ROW.match(line):
            continue
        cells = [c.strip().replace("`", "") for c in line.strip("|").split("|")]
        if len(cells) < 2:
            continue
        russian = fold(cells[0]).strip()
        english = tuple(w for w in (fold(x).strip() for x in cells[1].split(",")) if _ENGLISH_WORD.match(w))
        if has_cyrillic(russian) and english:
            rows.append((russian, english))
    return rows


BUILTIN = Vocabulary(BUILTIN_ENTRIES)


# -- matching words against a set of indexed tokens --------------------------------------------

EXACT = 1.0
INFLECTED = 0.85
"""Another form of the same word (Snowball stem or dictionary stem): nearly as good as exact."""
PREFIX = 0.6
"""One word starts with the other, four letters at least on each side (``pr``, ``per`` are abbreviations, not
stems). Tunable sets: Recall@1 and Recall@3 +1 each against two header letters (11 questions moved both ways)."""
DERIVED = 0.7
"""Another word of its family (``удалять``/``удаление``, see ``core.derivation``): between a prefix and an
inflection."""
LEMMA_LETTERS = 5
"""A Russian word this long meets the tokens sharing its lemma and its first letters (as many, short
of its last two). Measured on the tunable sets: Recall@3 +1, MRR 0.808 to 0.809, only Russian
questions moved (held-out-5 ``4itosik__feedium`` 8th to 1st, tuning-2 one 1st to 2nd)."""


class TokenTable:
    """The distinct tokens of an index (the keys of its postings), sorted on demand so prefixes are
    found by bisection. The index calls ``changed()`` when a token appears or disappears."""

    def __init__(self, tokens: Mapping[str, Any]) -> None:
        self.tokens = tokens
        self._sorted: list[str] | None = None

    def changed(self) -> None:
        self._sorted = None

    def __contains__(self, token: object) -> bool:
        return token in self.tokens

    def with_prefix(self, prefix: str) -> Iterator[str]:
        if self._sorted is None:
            self._sorted = sorted(self.tokens)
        tokens = self._sorted
        at = bisect.bisect_left(tokens, prefix)
        while at < len(tokens) and tokens[at].startswith(prefix):
            yield tokens[at]
            at += 1

    def inflections(self, word: str) -> Iterator[str]:
        """Tokens sharing the word's Snowball stem or, for a Russian word, its lemma (the word itself
        excluded): Snowball cuts ``переведен`` from ``перевести`` and ``должна`` from ``должен``."""
        stem = inflection_stem(word)
        if is_identifier(word) or not stem:
            return
        probe = stem[:-1] if len(stem) > 3 else stem  # Snowball may rewrite the last letter (happy -> happi)
        for token in self.with_prefix(probe):
            if token != word and inflection_stem(token) == stem:
                yield token
        if len(word) >= LEMMA_LETTERS and has_cyrillic(word):
            normal = lemma(word)
            for token in self.with_prefix(word[: min(LEMMA_LETTERS, len(word) - 2)]):
                if token != word and lemma(token) == normal and inflection_stem(token) != stem:
                    yield token

    def relatives(self, word: str) -> Iterator[str]:
        """Tokens of the word's family that are not its inflections: a Russian verb's nouns and
        other aspect, and the verb of a noun made from it (see ``core.derivation``)."""
        if len(word) < LEMMA_LETTERS or not has_cyrillic(word) or is_identifier(word):
            return
        family = root(word)
        if family is None:
            return
        normal, stem = lemma(word), inflection_stem(word)
        for token in self.with_prefix(root_probe(word, family)):
            if token != word and root(token) == family and lemma(token) != normal and inflection_stem(token) != stem:
                yield token

    def of_key(self, key: str, vocabulary: Vocabulary) -> Iterator[str]:
        """Tokens whose dictionary stem is ``key``, verb-prefixed forms included; a key that is a
        whole word (``путь``) also finds its forms that change its last letter (``пути``)."""
        probe = key[:-1] if len(key) >= 4 and key[-1] in _WORD_FINAL else key
        for start in ("", *VERB_PREFIXES):
            for token in self.with_prefix(start + probe):
                if vocabulary.stem_of(token) == key:
                    yield token

    def matches(self, word: str, vocabulary: Vocabulary, *, is_key: bool = False) -> dict[str, float]:
        """Every indexed token the word matches, with how well (``EXACT``, ``INFLECTED``, ``PREFIX``).

        A dictionary key (the Russian side of an English word) matches the tokens of its stem. A
        word matches itself, its inflections, tokens of its dictionary stem, and by prefix.
        """
        found: dict[str, float] = {}
        if is_key:
            for token in self.of_key(word, vocabulary):
                found[token] = EXACT
            return found
        if len(word) >= 4:
            for token in self.with_prefix(word):
                found[token] = PREFIX
        for end in range(4, len(word)):
            if word[:end] in self.tokens:
                found[word[:end]] = PREFIX
        for token in self.relatives(word):
            found[token] = DERIVED
        for token in self.inflections(word):
            found[token] = INFLECTED
        stem = vocabulary.stem_of(word) if has_cyrillic(word) and not is_identifier(word) else None
        if stem is not None:
            for token in self.of_key(stem, vocabulary):
                if token != word:
                    found[token] = INFLECTED
        if word in self.tokens:
            found[word] = EXACT
        return found


QUESTION_LIMIT = 4_096
"""Characters a question or a search query may hold: a real one is a sentence, never a document."""


def check_question(text: str, name: str) -> None:
    """Refuse an empty question, and one longer than any question (it would only be echoed back
    and tokenised)."""
    if all(char.isspace() or unicodedata.category(char) == "Cc" for char in text):  # blank, or control characters
        raise UsageError(f"The {name} is empty: ask in words what you are looking for.")
    if len(text) > QUESTION_LIMIT:
        raise UsageError(
            f"The {name} is {len(text):,} characters; ask in at most {QUESTION_LIMIT:,}. To find where a passage "
            "occurs, search for a distinctive phrase of it."
        )
