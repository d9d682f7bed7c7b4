"""What kind of answer a question asks for, and which documents of a bank give that kind.

A why-question is answered by a decision record, a design or a decision log; a how-do-I question
by a runbook, a guide or the development notes; a status question by a brief, a roadmap or a
progress log. Which documents those are is read from the bank itself: each document's role words
are its ``doc_kind``, ``doc_function``, its file name and its folder, whatever values this bank
uses for them. (Damping indexes below their members was tried and
dropped: on the measured banks a package's README often carries the answer itself.)
"""

from __future__ import annotations

import re

from memorybank.core.lang import fold, has_why_intent
from memorybank.core.model import Document

INTENT_BOOST = 1.3
"""A document whose role fits the question's intent weighs this much more (1.2 before routing III:
on tuning-2 a why-question's decision log still sat below its package's design and brief; 1.3 lifts
it without moving the other sets, 1.4 costs held-out Recall@3)."""

ROLE_WORDS: dict[str, frozenset[str]] = {
    "why": frozenset(
        "adr decision decisions decision-log decision_log design rationale tradeoffs alternatives".split()
    ),
    "how": frozenset(
        "runbook runbooks guide guides development setup howto how-to procedure playbook instructions ops".split()
    ),
    "status": frozenset("status progress roadmap backlog changelog brief".split()),
}
"""Words in a document's kind, function, file name or folder that say it answers this intent."""

_HOW = re.compile(
    r"\bhow (?:do|can|should|to|would)\b|\bwhat (?:do|should) i do\b|\bsteps? to\b|"
    r"\bкак (?:мне |нам )?(?:запуст|настро|установ|разверн|выпуст|сдела|добав|подключ|обнов|почин|исправ|прогна|собра|подня)|"
    r"\bчто делать\b",
    re.IGNORECASE,
)
_STATUS = re.compile(
    r"\b(?:status|progress|done|shipped|finished|implemented|planned|in progress)\b|"
    r"статус|прогресс|готов|сделан|реализован|в работе|запланирован",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


def intents(question: str) -> frozenset[str]:
    """The kinds of answer a question asks for: ``why``, ``how``, ``status``."""
    found = set()
    folded = fold(question)
    if has_why_intent(question):
        found.add("why")
    if _HOW.search(folded):
        found.add("how")
    if _STATUS.search(folded):
        found.add("status")
    return frozenset(found)


def role_words(doc: Document) -> frozenset[str]:
    """What a document is, in this bank's own words: its kind, function, file name and folders."""
    words = set(_WORD.findall(fold(f"{doc.doc_kind} {doc.doc_function}")))
    parts = doc.path.removesuffix(".md").lower().split("/")
    for part in parts:
        words.add(part)
        words.update(_WORD.findall(part.replace("_", "-")))
        words.update(re.split(r"[-_]", part))
    return frozenset(words)


def intent_factor(asked: frozenset[str], roles: frozenset[str]) -> float:
    """How much the question's intent favours this document."""
    factor = 1.0
    for intent in asked:
        words = ROLE_WORDS.get(intent)
        if words and roles & words:
            factor *= INTENT_BOOST
    return factor
