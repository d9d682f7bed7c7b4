"""What kind of answer a question asks for, and which documents of a bank give that kind.

A why-question is answered by a decision record, a design or a decision log; a how-do-I question
by a runbook, a guide or the development notes; a status question by a brief, a roadmap or a
progress log; a "may I" question by a policy, a style guide or the agent's boundaries. Which
documents those are is read from the bank itself: each document's role words are its ``doc_kind``,
``doc_function``, its file name and its folder, whatever values this bank uses for them, and the
bank's own decision records answer why whatever it calls them: the kinds whose documents carry the
``decision_status`` its contract governs. The built-in role words stay for what the bank's fields
do not say. (Damping indexes below their members was tried and
dropped: on the measured banks a package's README often carries the answer itself. Lifting the
documents that carry a ``delivery_status`` for status questions, the flow layer for how-questions
or documents with a "Decision" heading for why-questions cost tuning questions, as did dropping the
built-in words for a bank whose fields speak.)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from memorybank.core.lang import fold
from memorybank.core.model import Document

_WHY_SUBSTRINGS = (
    "instead of", "trade-off", "tradeoff", "почему", "зачем", "обоснован", "вместо", "решени",
    "по какой причине", "по каким причинам", "с какой целью",
)  # fmt: skip
_WHY_WORDS = re.compile(r"\b(?:why|rationale|decision|decided|reasons?|reasoning)\b", re.ASCII | re.IGNORECASE)
_DEFINITION_WORDS = re.compile(r"\b(?:mean|means|meaning|definition|define|stands? for)\b", re.ASCII | re.IGNORECASE)
_DEFINITION_SUBSTRINGS = (
    "что такое",
    "кто такой",
    "кто такая",
    "кто такие",
    "что значит",
    "означает",
    "определени",
    "значит термин",
    "значение термин",
    "значение слов",
)


_WHO_IS = re.compile(r"^\s*who (?:is|are) (?:an? |the )?[\w-]+\s*\??\s*$", re.ASCII | re.IGNORECASE)
""""who is the requester?": a term asked about alone ("who is responsible for releases" is not)."""


def has_definition_intent(question: str) -> bool:
    """True when the question asks what a term means, so the bank's glossary should be considered."""
    if _DEFINITION_WORDS.search(question) or _WHO_IS.match(question):
        return True
    lowered = fold(question)
    return any(s in lowered for s in _DEFINITION_SUBSTRINGS)


def has_why_intent(question: str) -> bool:
    """True when the question asks for a rationale, so decision records should lead."""
    if _WHY_WORDS.search(question):
        return True
    lowered = fold(question)
    return any(s in lowered for s in _WHY_SUBSTRINGS)


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
    "rule": frozenset(
        "policy policies boundaries autonomy rules style conventions principles governance guidelines standards".split()
    ),
}
"""Words in a document's kind, function, file name or folder that say it answers this intent. A
"may I" question leans to the bank's policies, style guides and the agent's boundaries: a quarter of
the tunable sets' questions asking whether something is allowed or required are answered there,
against one in fifteen of the others (measured on the tunable sets: Recall@1 691 to 696, Recall@3
870 to 875, 12 questions up and 6 down; ``can`` is left out, it asks what a product does as often)."""

WHY_SECTIONS = (
    "rationale", "alternativ", "option", "driver", "considered", "why",
    "почему", "обоснован", "вариант", "альтернатив", "драйвер",
)  # fmt: skip
"""Beginnings of the heading words of a section that answers a why-question: the options
considered, the decision's drivers, its rationale (MADR's and the Russian ADR templates' names).
A why-question is read there rather than from the decision itself or its consequences, which
restate the choice without the reasons against the others."""
WHAT_IF_SECTIONS = (
    "failure", "exception", "edge", "error", "negative", "alternate", "fallback",
    "ошибк", "исключен", "отказ", "сбо", "граничн", "альтернативн",
)  # fmt: skip
"""Beginnings of the heading words of a section that answers a what-if question: failure modes,
exceptions and alternate flows, edge cases and boundary values, fallbacks."""
_WHAT_IF = re.compile(r"\bif\b|\bfails?\b|\bfailed\b|\bdown\b|\bwhat happens\b|если|упал|не удал|не загруж|что будет")
"""A conditional or a failure: "what if the rates service is down", "что будет, если нажать минус"
(a word like "unavailable" or "error" alone names a topic as often, and is left out)."""


SCOPE_SECTIONS = ("scope", "non-scope", "входит", "рамк")
"""Beginnings of the heading words of a section that answers whether something can be done: what
the work covers and what it leaves out (``Scope``, ``Non-Scope``, ``Out Of Scope``, ``Что не входит``,
``Рамки``)."""
_CAN = re.compile(
    r"^(?:can|could|may|is it possible|is there|are there|does|do)\b|"
    r"можно ли|получится ли|может ли|нужно ли|разрешено ли|поддерживает ли|есть ли"
)
"""A question of whether something can be done or is there: "does the list support paging",
"можно ли через админку редактировать характеристики товара"."""


def reading_roles(question: str) -> tuple[str, ...]:
    """Beginnings of the heading words of the sections that answer this kind of question (a why, a
    what-if, a can), for the section to read (``section_index.best_sections``); empty for other
    kinds. Measured on the section gold: 175 to 179 of 220 with the why's, 182 with the what-if's,
    none lost; over the three tunable golds (450), 345 to 348 with the can's, none lost."""
    if has_why_intent(question):
        return WHY_SECTIONS
    folded = fold(question)
    if _WHAT_IF.search(folded):
        return WHAT_IF_SECTIONS
    if _CAN.search(folded.strip()):
        return SCOPE_SECTIONS
    return ()


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
_RULE = re.compile(  # is it allowed, must I: what a policy, a style guide or the agent's boundaries settle
    r"\b(?:may|allowed|must|have to|has to|obliged|permitted|forbidden|is it (?:fine|ok|okay))\b|"
    r"можно ли|нельзя|разреш|обязан|должен ли|должна ли|должны ли|может ли|вправе|запрещ|допустим",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


def intents(question: str) -> frozenset[str]:
    """The kinds of answer a question asks for: ``why``, ``how``, ``status``, ``rule`` (may I, must
    the agent, is it allowed)."""
    found = set()
    folded = fold(question)
    if has_why_intent(question):
        found.add("why")
    if _HOW.search(folded):
        found.add("how")
    if _STATUS.search(folded):
        found.add("status")
    if _RULE.search(folded):
        found.add("rule")
    return frozenset(found)


def role_words(doc: Document) -> frozenset[str]:
    """What a document is, in this bank's own words: its kind, function, file name and folders."""
    words = set(_WORD.findall(fold(f"{doc.doc_kind} {doc.doc_function}")))
    words.update(value for value in (fold(doc.doc_kind).strip(), fold(doc.doc_function).strip()) if value)
    parts = doc.path.removesuffix(".md").lower().split("/")
    for part in parts:
        words.add(part)
        words.update(_WORD.findall(part.replace("_", "-")))
        words.update(re.split(r"[-_]", part))
    return frozenset(words)


DECISION_FIELD = "decision_status"
"""The field a decision record carries in this convention (its contract's value set says which)."""


def answering_roles(documents: Iterable[Document]) -> dict[str, frozenset[str]]:
    """Per intent, the role words that answer it in this bank: the built-in ones, and for "why"
    the kinds of the bank's decision records (a ``doc_kind`` most of whose documents carry a
    ``decision_status``), so an ``rfc`` or a ``решение`` counts like an ``adr``."""
    kinds: Counter[str] = Counter()
    deciding: Counter[str] = Counter()
    for doc in documents:
        kind = fold(doc.doc_kind).strip()
        if kind and not (doc.is_template or doc.is_inbox):
            kinds[kind] += 1
            if doc.frontmatter.get(DECISION_FIELD):
                deciding[kind] += 1
    decisions = {kind for kind, count in deciding.items() if count * 2 > kinds[kind]}
    return {**ROLE_WORDS, "why": ROLE_WORDS["why"] | decisions}


def intent_factor(asked: frozenset[str], roles: frozenset[str], answering: dict[str, Any] = ROLE_WORDS) -> float:
    """How much the question's intent favours this document, given what answers each intent in
    its bank (``answering_roles``)."""
    factor = 1.0
    for intent in asked:
        words = answering.get(intent)
        if words and roles & words:
            factor *= INTENT_BOOST
    return factor
