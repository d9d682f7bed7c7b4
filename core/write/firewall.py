"""Write firewalls: content that must never land in a bank, refused with a named reason.

Two kinds: credentials (private keys, cloud and service tokens), which a bank in a git repository
would publish to everyone who clones it; and omission placeholders ("rest unchanged",
"[truncated]"), which a model writes when it means "keep what was there" and which would replace real
text with a promise. Placeholders are checked only in the text a write *adds*.
"""

from __future__ import annotations

import re

from core.errors import Refusal

CREDENTIALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("GitHub token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b")),
    ("GitLab token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("Stripe secret key", re.compile(r"\b[sr]k_live_[0-9A-Za-z]{20,}\b")),
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("OpenAI API key", re.compile(r"\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("PyPI token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}")),
)

OMISSIONS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"\brest (?:of (?:the )?(?:file|document|section|content|text|body) )?(?:is |remains |stays )?unchanged\b", re.I
    ),
    re.compile(
        r"\b(?:everything else|remaining (?:content|sections?)|other sections?) (?:is |are |remains? |stays? )?unchanged\b",
        re.I,
    ),
    re.compile(r"\[(?:\.\.\.\s*)?(?:truncated|omitted|snipped|content omitted|rest omitted)(?:\s*\.\.\.)?\]", re.I),
    re.compile(
        r"(?:\.\.\.|…)\s*(?:\(?\s*)?(?:existing|previous|original|unchanged|rest of(?: the)?|remaining) (?:content|text|sections?|lines?|code)(?:\s*\)?)?\s*(?:\.\.\.|…)",
        re.I,
    ),
    re.compile(r"\b(?:omitted|unchanged|elided) for brevity\b", re.I),
    re.compile(r"<!--\s*(?:rest unchanged|unchanged|existing content|\.\.\.)\s*-->", re.I),
)


def refuse_credentials(text: str, where: str) -> None:
    """Refuse ``text`` if it carries something that looks like a secret."""
    for kind, pattern in CREDENTIALS:
        match = pattern.search(text)
        if match:
            line = text.count("\n", 0, match.start()) + 1
            raise Refusal(
                f"Refusing to write {where}: line {line} of the new text holds what looks like a {kind}. "
                "A bank is committed and shared; keep secrets out and say where they are kept instead.",
                reason="credential",
            )


def refuse_omissions(added: str, where: str) -> None:
    """Refuse added text that stands in for content instead of being content."""
    for pattern in OMISSIONS:
        match = pattern.search(added)
        if match:
            raise Refusal(
                f'Refusing to write {where}: the new text says "{match.group(0).strip()}" instead of holding '
                "the content. Write the full text you mean to keep; nothing else is filled in for you.",
                reason="omission-placeholder",
            )


def check(added: str, where: str) -> None:
    """Both firewalls, on the text a write adds (what was already there is not re-judged)."""
    refuse_credentials(added, where)
    refuse_omissions(added, where)
