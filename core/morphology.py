"""Russian morphology for routing: a word's dictionary form, and whether it is a function word.

Both come from one pymorphy3 analysis (the OpenCorpora dictionaries, the most likely reading),
made once per distinct word and cached. A fixed stopword list cannot follow Russian inflection:
``который`` is listed, but ``которому``, ``каких``, ``моей`` or ``может`` are the same words in
other forms, and left in a question they match prose everywhere. So a word is a function word when
its part of speech says so (a preposition, conjunction, particle, pronoun, predicative such as
``нельзя``, a pronominal adjective such as ``какой``/``свой``, an interrogative or pronominal adverb
such as ``насколько``/``там``), or when it is a form of an auxiliary verb (``быть``, ``мочь``,
``стать``, ``являться``: what ``is``/``can``/``will`` are in English, already English stopwords).
Without the analyser installed every word is its own lemma and none is a function word.
"""

from __future__ import annotations

import re
import threading
from typing import Any

_CYRILLIC = re.compile("[\u0400-\u04ff]")
_IDENTIFIER = re.compile("[-_0-9a-z]")
FUNCTION_PARTS = frozenset({"PREP", "CONJ", "PRCL", "INTJ", "NPRO", "PRED"})
"""Parts of speech that carry no topic."""
FUNCTION_GRAMMEMES = frozenset({"Apro", "Ques", "Dmns"})
"""Pronominal adjectives (``какой``, ``который``, ``свой``), interrogative and demonstrative adverbs."""
AUXILIARY_VERBS = frozenset({"быть", "мочь", "стать", "являться"})
"""The Russian counterparts of English's stopword verbs (``be``, ``can``, ``will``, ``is``)."""

_CACHE: dict[str, tuple[str, bool, str | None]] = {}
_LOCK = threading.Lock()
_MORPH: list[Any] = []


def _analyser() -> Any:
    if not _MORPH:
        try:
            import pymorphy3  # on first use: loading its dictionaries takes ~0.2 s

            _MORPH.append(pymorphy3.MorphAnalyzer())
        except Exception:  # not installed, or its dictionaries are missing: stems still work
            _MORPH.append(None)
    return _MORPH[0]


def analyse(token: str) -> tuple[str, bool]:
    """(dictionary form, is a function word) of a folded token; a token that is not a plain
    Russian word is its own form and never a function word."""
    normal, function, _ = _analysis(token)
    return normal, function


def parse_of(token: str) -> tuple[str, str | None] | None:
    """(dictionary form, part of speech) of a plain Russian word; None for any other token or
    without the analyser."""
    normal, _, part = _analysis(token)
    return (normal, part) if part is not None else None


def _analysis(token: str) -> tuple[str, bool, str | None]:
    cached = _CACHE.get(token)
    if cached is not None:
        return cached
    found: tuple[str, bool, str | None] = (token, False, None)
    if _CYRILLIC.search(token) and not _IDENTIFIER.search(token):
        with _LOCK:  # the analyser is not documented as thread-safe
            analyser = _analyser()
            if analyser is not None:
                parse = analyser.parse(token)[0]
                normal = parse.normal_form.replace("ё", "е")
                tag = parse.tag
                function = (
                    tag.POS in FUNCTION_PARTS
                    or any(grammeme in tag for grammeme in FUNCTION_GRAMMEMES)
                    or normal in AUXILIARY_VERBS
                )
                found = (normal, function, tag.POS or "")
    if len(_CACHE) > 500_000:
        _CACHE.clear()
    _CACHE[token] = found
    return found


def lemma(token: str) -> str:
    """The dictionary form of a Russian word; any other token is returned as it is."""
    return analyse(token)[0]


def is_function_word(token: str) -> bool:
    """True for a Russian word that carries no topic (see the module's docstring)."""
    return analyse(token)[1]


def is_known_word(token: str) -> bool:
    """True for a Russian word the dictionaries know in some form (``заплатить``, ``балансировки``);
    False for a slip (``аутентификацыя``), jargon they lack, any other token, or without the analyser."""
    if not _CYRILLIC.search(token) or _IDENTIFIER.search(token):
        return False
    analyser = _analyser()
    if analyser is None:
        return False
    with _LOCK:
        return bool(analyser.word_is_known(token))
