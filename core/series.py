"""Numbered series: documents of one folder whose file names differ only by a trailing number
(``plan-review-1.md`` ... ``plan-review-11.md``, ``brief-v1.md`` ... ``brief-v8.md``,
``code-review-2.md``), the record an iterative workflow leaves of its rounds.

Siblings of a series share nearly every word, so neither headers nor bodies tell them apart; the
question does, when it names a member by its place: "the second review of the plan", "ревью
восьмой версии брифа", "the last code review", "plan-review 3". A series is named when the
question holds every word of its name (``plan`` and ``review``, in either language and any
inflection; ``v`` reads as "version" and is never required) and a number one of its members
carries, as an ordinal word, a figure, or "last"/"последний" for the highest. The member so named
takes the best score of its series, raised by ``SERIES_LIFT`` (the series' topic is what the rest
of the question scored; the ordinal picks the member), and at least just above the best document
of its package (``issues/0001-plugin-contract/`` for a series in its ``iterations/brief/``), which
the rest of the question may name where the series' own bodies do not (drafts in Russian asked
about in English). Where two series of a folder are named with
the same number (``brief-v8`` and ``brief-review-8`` for "the review of the eighth version of the
brief"), the one whose name covers more of the question's words is chosen.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from memorybank.core.bank import Bank
from memorybank.core.drafts import DRAFT_WEIGHT
from memorybank.core.lang import QueryTerm, fold, inflection_stem, route_tokens
from memorybank.core.model import Document

SERIES_LIFT = 1.5
"""How far above its series' best score the named member goes."""

_MEMBER = re.compile(r"^(?P<name>[a-z\u0400-\u04ff][\w\u0400-\u04ff-]*?)[-_ ]?(?P<v>v)?(?P<n>\d{1,3})$")
_VERSION = "version"

_EN_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "1st": 1, "2nd": 2, "3rd": 3,
}  # fmt: skip
_RU_STEMS = {
    "перв": 1, "втор": 2, "трет": 3, "четверт": 4, "пят": 5, "шест": 6, "седьм": 7, "восьм": 8,
    "девят": 9, "десят": 10, "одиннадцат": 11, "двенадцат": 12,
}  # fmt: skip
_RU_ORDINAL = re.compile(
    rf"^({'|'.join(_RU_STEMS)})"
    r"(ый|ой|ий|ая|ое|ого|ому|ом|ую|ые|ых|ым|ыми|ей|ья|ье|ьи|ьего|ьему|ьей|ьим|ьих|ью|ьими|ьем)$"
)
_LAST = re.compile(r"^(last|latest|final|последн\w*|финальн\w*)$")
LAST = -1
"""The number "last" stands for: the series' highest."""
_FIGURE = re.compile(r"v?(\d{1,3})")
"""A word that is a place by figure (``3``, ``v2``); ``3.4`` is one word and none."""
_WORD = re.compile(r"[\w\u0400-\u04ff]+(?:\.\d+)*")
NEAR = 2
"""Words at most between a place and the series' name it belongs to ("the second review of the
plan", "ревью восьмой версии брифа"): an ordinal further away ("what should I check first in a code
review") names no member. A figure must follow a word of the name or "version" at once ("review
3", "brief v2"): after another word it is that word's number ("the brief of issue 3", "step 2")."""


def words_of(question: str) -> list[str]:
    """The question's words as ``ordinals`` counts them."""
    return _WORD.findall(fold(question).replace("ё", "е"))


def ordinals(question: str) -> list[int]:
    """The places a question names, in its order: ordinal words of either language, figures
    standing alone (``3``, ``v2``, not ``3.4``), and ``LAST`` for "last", "latest", "последний"."""
    return [number for number, _ in placed_ordinals(words_of(question))]


def placed_ordinals(words: list[str]) -> list[tuple[int, int]]:
    """(place named, word position) of each ordinal among ``words``."""
    found: list[tuple[int, int]] = []
    for at, word in enumerate(words):
        if word in _EN_ORDINALS:
            found.append((_EN_ORDINALS[word], at))
        elif (ordinal := _RU_ORDINAL.match(word)) is not None:
            found.append((_RU_STEMS[ordinal.group(1)], at))
        elif _LAST.match(word):
            found.append((LAST, at))
        elif (figure := _FIGURE.fullmatch(word)) is not None:
            found.append((int(figure.group(1)), at))
    return found


@dataclass(frozen=True)
class Series:
    """Members of one folder sharing a name: the name's words, and number -> path."""

    words: tuple[str, ...]
    members: dict[int, str]

    def member(self, number: int) -> str | None:
        return self.members[max(self.members)] if number == LAST else self.members.get(number)


def numbered_series(documents: Iterable[Document]) -> list[Series]:
    """Every series (templates and inbox notes left out); one member is a series too: a lone
    ``plan-review-1.md`` is still the first plan review."""
    groups: dict[tuple[str, str], dict[int, str]] = defaultdict(dict)
    for doc in documents:
        if doc.is_template or doc.is_inbox:
            continue
        folder, file_name = posixpath.split(doc.path)
        member = _MEMBER.match(fold(file_name.removesuffix(".md")))
        if member is not None:
            name = member.group("name") + ("-v" if member.group("v") else "")
            groups[folder, name][int(member.group("n"))] = doc.path
    found = []
    for (_, name), members in sorted(groups.items()):
        words = tuple(_VERSION if w == "v" else w for w in re.split(r"[-_ ]+", name) if w)
        if any(w != _VERSION for w in route_tokens(" ".join(words))):
            found.append(Series(tuple(w for w in words if w == _VERSION or route_tokens(w)), dict(members)))
    return found


def named_members(
    series: list[Series], question: str, forms_of: dict[str, set[str]]
) -> dict[str, tuple[Series, int, bool]]:
    """The members a question names: path -> (its series, its number, named as the last).
    ``forms_of`` gives the stems a question word may stand for (itself, its translations)."""
    words = words_of(question)
    places = placed_ordinals(words)
    if not places:
        return {}
    forms = [forms_of.get(word) or {inflection_stem(word)} for word in words]
    held = set().union(*forms)
    best: dict[tuple[str, int], tuple[int, str, Series, int, bool]] = {}
    for entry in series:
        needed = {inflection_stem(w) for w in entry.words if w != _VERSION}
        if not needed or not needed <= held:
            continue
        near = needed | {inflection_stem(_VERSION)}
        for number, at in places:
            path = entry.member(number)
            if _FIGURE.fullmatch(words[at]):  # "review 3", "brief v2"; not "the brief of issue 3"
                close = at > 0 and bool(forms[at - 1] & near)
            else:
                close = any(
                    forms[j] & near for j in range(max(at - NEAR - 1, 0), min(at + NEAR + 2, len(words))) if j != at
                )
            if path is None or not close:
                continue
            key = (posixpath.dirname(path), number)
            if key not in best or best[key][0] < len(needed):
                last = number == LAST
                best[key] = (len(needed), path, entry, max(entry.members) if last else number, last)
            break  # the first place near the series' name
    return {path: (entry, number, last) for _, path, entry, number, last in best.values()}


PACKAGE_LIFT = 1.01
"""A named member goes at least this far above the best document of its package: the rest of the
question named the package (its brief, its report), the place names the member. Lifting it by
``SERIES_LIFT`` above the package's best instead put a review asked about in passing ("what the fix
step does if the last review left remarks") above the document that answers (tunable sets: 2
questions up, 6 down; this way 2 up, 2 down, and a member whose series' bodies hold none of the
question's words, such as Russian drafts asked about in English, is found)."""
PACKAGE_DEPTH = 2
"""Folders from the bank's root to a package (``issues/0001-plugin-contract/``): a series kept
deeper (``iterations/brief/``) is the record of that package's rounds."""


def package_of(path: str) -> str | None:
    """The package folder a document belongs to: its folder ``PACKAGE_DEPTH`` deep; None when it
    lies shallower (``adr/ADR-1.md`` is in a section, not a package)."""
    parts = path.split("/", PACKAGE_DEPTH)
    return "/".join(parts[:PACKAGE_DEPTH]) if len(parts) > PACKAGE_DEPTH else None


def lift_named_members(
    scores: dict[str, float], named: dict[str, tuple[Series, int, bool]]
) -> dict[str, tuple[int, bool, bool]]:
    """Raise each named member to its series' best score times ``SERIES_LIFT``, and at least just
    above its package's best (``PACKAGE_LIFT``), in place; the members raised, with the number they
    were named by and whether as the last."""
    lifted: dict[str, tuple[int, bool, bool]] = {}
    if not named:  # most questions name no place: no pass over every score
        return lifted
    packages = {package_of(path) for path in named} - {None}
    package_best: dict[str | None, float] = defaultdict(float)
    for path, score in scores.items():
        package = package_of(path)
        if package in packages and score > package_best[package]:
            package_best[package] = score
    for path, (entry, number, last) in named.items():
        best = max((scores.get(p, 0.0) for p in entry.members.values()), default=0.0)
        by_package = package_best.get(package_of(path), 0.0) * PACKAGE_LIFT
        lift = max(best * SERIES_LIFT, by_package)
        if lift > 0 and lift > scores.get(path, 0.0):
            scores[path] = lift
            lifted[path] = (number, last, by_package > best * SERIES_LIFT)
    return lifted


def pick_series_members(
    bank: Bank,
    question: str,
    terms: list[QueryTerm],
    scores: dict[str, float],
    damped: dict[str, str],
    allowed: set[str],
) -> dict[str, tuple[int, bool, bool]]:
    """The member of a numbered series the question names by its place ("the second plan review")
    is not damped as a version and rises above its siblings (``core.series``), in place; those
    raised, with their number."""
    series = bank.extension("route.series", lambda bank, _: numbered_series(bank.documents.values()))
    if not series:
        return {}
    forms_of = {t.literal: {inflection_stem(w) for w in (t.literal, *t.translations, *t.cognates)} for t in terms}
    picked = {p: named for p, named in named_members(series, question, forms_of).items() if p in allowed}
    for path in picked.keys() & damped.keys():
        scores[path] /= DRAFT_WEIGHT
        del damped[path]
    return lift_named_members(scores, picked)
