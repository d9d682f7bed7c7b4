"""The rule-reference rule: prose that says a rule lives in a document the path does not reach."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from memorybank.core.parse import FenceTracker
from memorybank.core.paths import normalize_segments, relative_link
from memorybank.core.validate.registry import RULES, Context, Finding, rule

_CLAIM = re.compile(
    r"(?P<phrase>[^\W\d_][\w`, -]{4,60}?)\s+(?:(?:is|are)\s+)?"
    r"(?P<verb>defined|described|specified|owned|governed)\s+(?P<prep>by|in)\s+"
    r"(?:\[[^\]]*\]\((?P<link>[^)\s#]+?\.md)(?:#[^)\s]*)?\)|`?(?P<path>[\w./-]*[\w-]\.md)\b`?)",
    re.IGNORECASE,
)
_QUICK = re.compile(r"(?:defined|described|specified|owned|governed)\s+(?:by|in)\s", re.IGNORECASE)
_VERBS = ("defined", "described", "specified", "owned", "governed")


@lru_cache(maxsize=1)
def shipped_template_names() -> frozenset[str]:
    """File names of the templates shipped with the package (bare mentions of these are excused)."""
    from memorybank.starter import TEMPLATES_DIR

    return frozenset(p.name for p in TEMPLATES_DIR.rglob("*.md"))


@rule("unresolved-rule-reference", "warning", "Prose claims a rule lives in a path that does not resolve.")
def unresolved_rule_reference(ctx: Context) -> Iterator[Finding]:
    """A sentence such as "thresholds are defined in rules.md" whose path does not resolve from
    the document that says it.

    Only claims count (defined, described, specified, owned or governed, by or in, then a ``.md``
    path or link); plain links are ``broken-link``'s business. A bare file name is excused when
    several documents share it, when it names a template, or when it names a shipped template.
    Templates and fenced code are not read.
    Why: agents follow these sentences to find the rule; a wrong path sends them nowhere.
    Example: ``The Done gate is defined by testing-policy.md`` written in ``flows/``, where the
    policy lives in ``../engineering/testing-policy.md``.
    Fix: write the path relative to the document (the message suggests one when it is unique).
    """
    me = RULES["unresolved-rule-reference"]
    bank = ctx.bank
    by_name: dict[str, list[str]] = {}
    for path in bank.documents:
        by_name.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    for doc in bank:
        if doc.is_template or not ctx.in_scope(doc.path):
            continue
        text = bank.text(doc.path)
        lowered = text.lower()  # a substring test is far cheaper than a case-blind regex on every text
        if not any(verb in lowered for verb in _VERBS) or not _QUICK.search(text):
            continue
        directory = doc.path.rsplit("/", 1)[0] if "/" in doc.path else ""
        fences = FenceTracker(comments=True)
        for number, line in enumerate(text.split("\n"), start=1):
            if number >= doc.body_line and fences.feed(line):
                continue
            if not _QUICK.search(line):
                continue
            for match in _CLAIM.finditer(line):
                raw = match.group("link") or match.group("path")
                resolved = normalize_segments(f"{directory}/{raw}" if directory else raw)
                if resolved is None or resolved == doc.path or resolved in bank:
                    continue
                name = raw.rsplit("/", 1)[-1]
                same_name = by_name.get(name, [])
                if "/" not in raw:
                    if len(same_name) > 1:
                        continue
                    if len(same_name) == 1 and bank.documents[same_name[0]].is_template:
                        continue
                    if not same_name and name in shipped_template_names():
                        continue
                phrase = match.group("phrase").replace("`", "").strip()
                claim = f"{match.group('verb').lower()} {match.group('prep').lower()}"
                message = (
                    f'Claims "{phrase}" is {claim} {raw}, but that path does not resolve from this document '
                    f"(tried {resolved})."
                )
                if len(same_name) == 1:
                    message += f" Did you mean {relative_link(doc.path, same_name[0])} ({same_name[0]})?"
                yield me.finding(doc.path, message, number)
