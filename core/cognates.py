"""Cognates: the borrowed words two languages share, found by spelling rather than by dictionary.

Technical Russian borrows its words from English (``миграция`` migration, ``модератор``
moderator, ``транзакция`` transaction). Both words are stemmed, the Russian one is written in Latin
letters, and both are reduced to a consonant skeleton (``c``/``k``, ``s``/``z``, ``-tion``/``-ция``
made equal); words of the other language in the bank with the same first four skeleton letters are
candidates, and one that starts with the same letter and stays close in spelling (a ratio of 0.8
over the shorter stem) is a cognate. A short skeleton (``токен``, ``докер``) must be spelled the
same; words under five letters (``три``/``try``, ``кому``) are left alone.
Only the bank's own words are candidates, so a question in one language reaches the words the other
language actually uses here. Words the dictionary already translates keep their translations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from memorybank.core.lang import ROUTE_STOPWORDS, has_cyrillic, inflection_stem, is_identifier

MIN_LETTERS = 5
KEY_LETTERS = 4
CLOSENESS = 0.8
"""Spelling ratio two words with a long skeleton need; a short one (``токен``, ``бот``) needs the
same spelling."""
MAX_COGNATES = 4

_LATIN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i i k l m n o p r s t u f h ts ch sh sch - y - e yu ya".split(),
    )
)
_SPELLING = (("tion", "tsi"), ("ph", "f"), ("th", "t"), ("ck", "k"), ("x", "ks"), ("w", "v"), ("c", "k"), ("q", "k"))
_SKELETON = {"z": "s", "j": "", "h": ""}
_LATIN_ONLY = re.compile("^[a-z]+$")
_CYRILLIC_ONLY = re.compile("^[\u0400-\u04ff]+$")


def latin(word: str) -> str:
    """A Russian word in Latin letters (``миграция`` -> ``migratsiya``)."""
    return "".join(_LATIN.get(c, c) for c in word).replace("-", "")


def spelling(word: str) -> str:
    """A Latin spelling with English's equivalent letters made equal (``migration`` -> ``migratsion``)."""
    for old, new in _SPELLING:
        word = word.replace(old, new)
    return word.replace("y", "i")


def skeleton(word: str) -> str:
    """The consonants of a spelling, doubled ones once (``migratsion`` -> ``mgrtsn``)."""
    out: list[str] = []
    for letter in word.replace("ts", "t").replace("sch", "s").replace("sh", "s").replace("ch", "c"):
        letter = _SKELETON.get(letter, letter)
        if not letter or letter in "aeiou" or (out and out[-1] == letter):
            continue
        out.append(letter)
    return "".join(out)


def _forms(token: str) -> tuple[str, ...]:
    """A word spelled in comparable Latin, whole and as its stem, in either language: Snowball cuts
    ``moderator`` to ``moder`` but ``tokens`` only to ``token``, and ``медиа`` to ``мед``, which
    no longer reads as ``media``."""
    if has_cyrillic(token):
        stem, whole = spelling(latin(inflection_stem(token))), spelling(latin(token))
        return (stem,) if whole == stem else (stem, whole)
    whole, stem = spelling(token), spelling(inflection_stem(token))
    return (whole,) if whole == stem else (whole, stem)


def _key(form: str) -> str | None:
    key = skeleton(form)
    if len(key) >= KEY_LETTERS:
        return key[:KEY_LETTERS]
    return f"={key}" if len(key) >= 2 else None  # a short skeleton must match whole


def _close(one: str, other: str, key: str) -> bool:
    short, long = sorted((one, other), key=len)
    if short[:1] != long[:1]:
        return False
    if key.startswith("="):
        return long.startswith(short) and len(long) - len(short) <= 1
    return SequenceMatcher(None, short, long[: len(short)]).ratio() >= CLOSENESS


class CognateIndex:
    """The bank's words of each script, by the first letters of their skeleton."""

    def __init__(self, tokens: Iterable[str]) -> None:
        self.russian: dict[str, list[str]] = {}
        self.english: dict[str, list[str]] = {}
        for token in tokens:
            if len(token) < MIN_LETTERS or is_identifier(token):
                continue
            if _LATIN_ONLY.match(token):
                if token in ROUTE_STOPWORDS:
                    continue
                table = self.english
            elif _CYRILLIC_ONLY.match(token):
                table = self.russian
            else:
                continue
            for key in {_key(form) for form in _forms(token)} - {None}:
                table.setdefault(key, []).append(token)  # type: ignore[arg-type]

    def of(self, word: str) -> tuple[str, ...]:
        """The bank's words of the other language that are cognates of ``word``."""
        if len(word) < MIN_LETTERS or is_identifier(word):
            return ()
        russian = has_cyrillic(word)
        if russian and not _CYRILLIC_ONLY.match(word) or not russian and not _LATIN_ONLY.match(word):
            return ()
        table = self.english if russian else self.russian
        found = []
        for form in _forms(word):
            key = _key(form)
            for token in table.get(key, ()) if key else ():
                if token not in found and any(_close(form, other, key) for other in _forms(token)):  # type: ignore[arg-type]
                    found.append(token)
        found.sort(key=lambda t: (len(t), t))
        distinct = {inflection_stem(t): t for t in reversed(found)}  # one form per word, the shortest
        return tuple(sorted(distinct.values(), key=lambda t: (len(t), t))[:MAX_COGNATES])
