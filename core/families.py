"""Document families: the few documents of one package folder, which share what their headers say.

A feature, an epic or an issue is often a folder of a handful of documents: a README or brief
whose title and purpose name the topic, and members (a design, a decision log, an implementation
plan) titled by their role ("FT-049: Decision Log"). A question about the topic matches the
headers of the first and hardly those of the members, though a member's body often holds the
answer. So a member inherits its family's best header match (under its own layer, with the status
of the member that made it), and its body and sections decide which member leads. Measured on
tuning-2 (sections counted by coverage): Recall@1 0.59 to 0.64, Recall@3 0.83 to 0.86; with the
member's own status instead, an archived plan sharing its feature's headers stayed below it
(Recall@1 0.63, and held-out-2 lost a question).

An index (a ``README.md`` or a ``doc_function: index``) neither lends nor receives: its headers
name a collection ("Runbooks", "Operational procedures of the bot"), not what each member is about,
so a question sharing a word with the collection's name does not lift every member (measured on
the tunable sets, with held-out-5 among them: four questions rose, none fell; on
``lynxlg__telegram_shop_bot`` Recall@3 0.72 to 0.78, where a runbook inherited its folder's README).

A family is the documents directly in one folder at least two levels deep (``features/FT-020/``,
not ``adr/``), when there are at most ``MAX_MEMBERS`` of them: a deeper folder with many documents
is a collection (prompts, templates), whose members are about different things.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from memorybank.core.bank import Bank

FAMILY_SHARE = 1.0
"""The share of its family's best header score a member's header score is raised to."""
GIVERS = 50
"""Only the families of this many best header matches share them (what keeps a route flat on 10,000
documents)."""
MAX_MEMBERS = 8
MIN_DEPTH = 2
"""Folders between the bank's root and a family's documents, at least (``features/FT-020/``)."""


class Families:
    """The bank's families: each member's folder, and each folder's members."""

    def __init__(self, members: dict[str, tuple[str, ...]], indexes: set[str]) -> None:
        self.members = members
        self.family_of = {path: folder for folder, paths in members.items() for path in paths}
        self.receivers = {folder: tuple(p for p in paths if p not in indexes) for folder, paths in members.items()}
        self.indexes = frozenset(indexes)
        """Documents that lend their family nothing (see the module's docstring)."""


def families(bank: Bank, _previous: object = None) -> Families:
    """The families of a bank (templates and inbox notes belong to none)."""
    by_folder: dict[str, list[str]] = {}
    indexes: set[str] = set()
    for doc in bank:
        if doc.is_index:
            indexes.add(doc.path)
        if doc.is_template or doc.is_inbox:
            continue
        folder, _, _ = doc.path.rpartition("/")
        if folder.count("/") + 1 >= MIN_DEPTH:
            by_folder.setdefault(folder, []).append(doc.path)
    return Families({f: tuple(paths) for f, paths in by_folder.items() if 2 <= len(paths) <= MAX_MEMBERS}, indexes)


def share_family_headers(headers: dict[str, float], found: Families, layers: Mapping[str, float]) -> dict[str, float]:
    """Raise each family member's header score (in place) to ``FAMILY_SHARE`` of the family's best
    match made by a member that is not an index, put under the member's own layer. The match keeps the status of the member that made it:
    it is the family's evidence, so an archived plan sharing its live feature's headers is not
    discounted for its own status (its own header match still is).

    Args:
        headers: path -> header score (layer weight and status prior applied).
        found: the bank's families (``families``).
        layers: path -> its layer's weight.

    Returns:
        Per member raised, the points its family added to its own header score.
    """
    best: dict[str, float] = {}
    lifts: dict[str, float] = {}
    family_of, indexes = found.family_of, found.indexes
    if len(headers) > GIVERS:  # only the best header matches can lift a member into an answer
        cut = heapq.nlargest(GIVERS, headers.values())[-1]
        givers = [(p, v) for p, v in headers.items() if v >= cut]
    else:
        givers = list(headers.items())
    for path, score in givers:
        folder = family_of.get(path)
        if folder is not None and score > 0 and layers[path] and path not in indexes:
            unlayered = score / layers[path]
            if unlayered > best.get(folder, 0.0):
                best[folder] = unlayered
    for folder, unlayered in best.items():
        for path in found.receivers[folder]:
            inherited = FAMILY_SHARE * unlayered * layers[path]
            own = headers.get(path, 0.0)
            if inherited > own:
                headers[path] = inherited
                lifts[path] = inherited - own
    return lifts
