"""Cognates: the borrowed words two languages share, found by spelling rather than by dictionary.

Technical Russian borrows its words from English (``миграция`` migration, ``модератор``
moderator, ``транзакция`` transaction). A Russian word is written in Latin letters and both sides
are reduced to a consonant skeleton (``c``/``k``, ``s``/``z``, ``-tion``/``-ция`` made equal); words
of the other language in the bank with the same first four skeleton letters are candidates, and a
candidate whose spelling stays close (a ratio of 0.8 over the Russian stem's length) is a cognate.
Only the bank's own words are candidates, so a question in one language reaches the words the other
language actually uses here. Words the dictionary already translates keep their translations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from core.lang import has_cyrillic, inflection_stem, is_identifier

MIN_LETTERS = 5
KEY_LETTERS = 4
CLOSENESS = 0.8
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
    for letter in word.replace("ts", "s").replace("sch", "s").replace("sh", "s").replace("ch", "c"):
        letter = _SKELETON.get(letter, letter)
        if not letter or letter in "aeiou" or (out and out[-1] == letter):
            continue
        out.append(letter)
    return "".join(out)


def _form(token: str) -> str:
    return spelling(latin(inflection_stem(token))) if has_cyrillic(token) else spelling(token)


class CognateIndex:
    """The bank's words of each script, by the first letters of their skeleton."""

    def __init__(self, tokens: Iterable[str]) -> None:
        self.russian: dict[str, list[str]] = {}
        self.english: dict[str, list[str]] = {}
        for token in tokens:
            if len(token) < MIN_LETTERS or is_identifier(token):
                continue
            if _LATIN_ONLY.match(token):
                table = self.english
            elif _CYRILLIC_ONLY.match(token):
                table = self.russian
            else:
                continue
            key = skeleton(_form(token))
            if len(key) >= KEY_LETTERS:
                table.setdefault(key[:KEY_LETTERS], []).append(token)

    def of(self, word: str) -> tuple[str, ...]:
        """The bank's words of the other language that are cognates of ``word``."""
        if len(word) < MIN_LETTERS or is_identifier(word):
            return ()
        russian = has_cyrillic(word)
        if russian and not _CYRILLIC_ONLY.match(word) or not russian and not _LATIN_ONLY.match(word):
            return ()
        form = _form(word)
        key = skeleton(form)
        if len(key) < KEY_LETTERS:
            return ()
        found = []
        for token in (self.english if russian else self.russian).get(key[:KEY_LETTERS], ()):
            other = _form(token)
            stem, full = (form, other) if russian else (other, form)
            if SequenceMatcher(None, stem, full[: len(stem)]).ratio() >= CLOSENESS:
                found.append(token)
        found.sort(key=lambda t: (len(t), t))
        distinct = {inflection_stem(t): t for t in reversed(found)}  # one form per word, the shortest
        return tuple(sorted(distinct.values(), key=lambda t: (len(t), t))[:MAX_COGNATES])
