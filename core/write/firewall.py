"""Write firewalls: content that must never land in a bank, refused with a named reason.

Two kinds: credentials (private keys, cloud and service tokens, passwords in connection strings and
in secret-named assignments), which a bank in a git repository would publish to everyone who clones
it; and omission placeholders ("rest unchanged", "[truncated]"), which a model writes when it means
"keep what was there" and which would replace real text with a promise, in English, Russian and a
few more languages. Both are checked in the text a write *adds*; credentials also on the lines of
the file a write changes (``refuse_credentials_made``: two harmless halves joined by a later edit are
a token on disk), and each is read through no-break and zero-width spaces and Latin look-alike
Cyrillic letters. Lines a write leaves alone are never re-judged.

The credential rules are the well-known token formats (the same prefixes secret scanners such as
detect-secrets and gitleaks key on) plus shapes those scanners find with keyword plugins: a password
inside a connection URL or a ``.pgpass`` line, a value assigned to a name that says it is secret,
and a quoted passphrase of several words assigned to a password-like name. All skip what a document legitimately shows:
placeholders (``<password>``, ``${DB_PASSWORD}``, ``****``, ``changeme``), sentences about the value
(``password: "must be at least 12 characters"``), and local development defaults (a URL to
``localhost`` or ``127.0.0.1``). Every real bank beside the project passes them without a single
refusal (a test holds that).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from memorybank.core.errors import Refusal
from memorybank.core.parse import FenceTracker

_UNBOUNDED = r"(?<![A-Za-z0-9])"
"""An identifier may be glued to a key by ``_`` or ``-`` (``k_AKIA...``): a word boundary would miss it."""

CREDENTIALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a private key block", re.compile(r"(?i)-----\s*BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?\s*-----")),
    ("an AWS access key", re.compile(_UNBOUNDED + r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])")),
    ("a GitHub token", re.compile(r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})")),
    ("a GitLab token", re.compile(r"glpat-[A-Za-z0-9_-]{20,}")),
    ("a Slack token", re.compile(r"xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("a Google API key", re.compile(_UNBOUNDED + r"AIza[0-9A-Za-z_-]{35}")),
    ("a Stripe secret key", re.compile(r"[sr]k_live_[0-9A-Za-z]{20,}")),
    ("an Anthropic API key", re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}")),
    ("an OpenAI API key", re.compile(_UNBOUNDED + r"sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}")),
    ("an npm token", re.compile(r"npm_[A-Za-z0-9]{36}")),
    ("a PyPI token", re.compile(r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}")),
    ("a Telegram bot token", re.compile(_UNBOUNDED + r"[0-9]{8,10}:AA[0-9A-Za-z_-]{30,34}(?![0-9A-Za-z_-])")),
    (
        "an AWS secret access key",
        re.compile(
            r"(?i)\baws\b[^\n]{0,40}?\bsecret\b[^\n]{0,40}?(?<![A-Za-z0-9/+=])"
            r"(?=[A-Za-z0-9/+=]*[0-9])(?=[A-Za-z0-9/+=]*[a-z])(?=[A-Za-z0-9/+=]*[A-Z])[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])"
        ),
    ),
    ("a JSON web token", re.compile(r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
)

_AUTHORIZATION = re.compile(r"(?i)\bauthorization\s*:\s*(?:bearer|basic|token)\s+([A-Za-z0-9._~+/=-]{20,})")
"""An HTTP Authorization header carrying its credentials (a placeholder such as ``<token>`` or
``$TOKEN`` is not a run of token characters)."""
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
"""Zero-width characters: a token split by one is still the token."""
_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@'\"`<>]+):([^\s@/'\"`<>]+)@([^\s:/'\"`<>]+)")
_PGPASS = re.compile(r"(?m)^[ \t]*([A-Za-z*][A-Za-z0-9.*-]*):(?:[0-9]{1,5}|\*):[^:\s]+:[^:\s]+:(\S+)[ \t]*$")
"""A ``~/.pgpass`` entry: ``host:port:database:user:password``, the host a name (not a time)."""
_SECRET_ASSIGNMENT = re.compile(
    r"(?i)\b([a-z0-9_.-]*(?:password|passwd|pwd|secret|secret_key|api_key|apikey|access_key|auth_token|"
    r"private_key|client_secret|token))\b[\"']?\s*(?:[:=]|=>)\s*(?:[>|][-+]?[ \t]*\n[ \t]*)?[\"']?([^\s\"'`,;)}\]]+)"
)
_TABLE_SECRET = re.compile(
    r"(?im)^[ \t]*\|[^|\n]*?\b([a-z0-9_.-]*(?:password|passwd|secret|secret_key|api_key|apikey|access_key|"
    r"auth_token|private_key|client_secret))\b[^|\n]*\|[ \t]*`?([^\s|`]+)`?[ \t]*\|"
)
"""A secret-named row of a table and its value in the next cell (``| DB_PASSWORD | Xk9m... |``)."""
_NOT_SECRET_NAMES = re.compile(r"(?i)(?:page|next|continuation|sync|cursor|pagination|csrf)_?token$")
"""Tokens that are positions or forms, not credentials: a pagination cursor is base64 of a row's key."""
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_QUOTED_PASSPHRASE = re.compile(
    r"(?i)\b([a-z0-9_.-]*(?:password|passwd|passphrase))\b[\"']?\s*(?:[:=]|=>)\s*([\"'`])((?:(?!\2)[^\n]){1,200})\2"
)
"""A password-like name given a quoted value (``password: "correct horse battery staple"``): the
assignment above stops at the first space, so a passphrase of words slipped through. Not ``pwd``,
which names a working directory as often as a password."""
_DESCRIBING = frozenset(
    "required optional must should cannot can't field characters chars length min max minimum maximum invalid "
    "incorrect wrong too missing see stored kept in from via env environment vault manager generated provided "
    "set same as here hidden masked omitted not is are".split()
)
"""Words of a sentence about the value (``"must be at least 12 characters"``, ``"stored in the vault"``),
which a passphrase made of words would not hold."""
_CUT = ("...", "…")
"""A value that ends so was cut short on purpose: an example, not the secret."""
_LOCAL_HOSTS = ("localhost", "127.0.0.1", "0.0.0.0", "::1", "example.com", "example.org", "host")
_PLACEHOLDER = re.compile(
    r"(?i)^(?:<.*|\$\{.*\}|\$\(.*\)|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|\{\{.*\}\}|\*+|x+|\.+|-+|_+|"
    r"(?:your|my|the|some|example|sample|dummy|fake|test|change|placeholder|secret|password|passwd|token|redacted|"
    r"xxx|todo|tbd|none|null|empty|env|os\.environ|process\.env|settings|config|credentials)\b.*)$"
)


def _looks_secret(value: str) -> bool:
    """A value that holds a real secret, as opposed to a name, a placeholder, a reference, a value
    cut short (``live_a1b2c3...``) or words describing it (``base64url-строка``: secrets are ASCII)."""
    if value.strip().endswith(_CUT) or re.search(r"[^\x00-\x7f]", value):
        return False
    value = value.strip().rstrip(".")
    if len(value) < 8 or _PLACEHOLDER.match(value):
        return False
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*\(.*", value) or "." in value and not re.search(r"\d", value):
        return False  # a call or a dotted name: settings.SECRET_KEY, os.getenv(...)
    return bool(re.search(r"[0-9]", value)) and bool(re.search(r"[A-Za-z]", value))


def _looks_passphrase(value: str) -> bool:
    """A quoted value of several words that is the password itself, not a placeholder or a sentence
    describing it."""
    words = value.split()
    if not 2 <= len(words) <= 8 or len(value.strip()) < 12 or value.rstrip()[-1] in ".!?:":
        return False
    if _PLACEHOLDER.match(value.strip()) or re.search(r"[<>{}$%]", value):
        return False
    return not any(word.lower().strip(",;") in _DESCRIBING for word in words)


def _credentials(text: str) -> Iterator[tuple[str, int, int]]:
    """Every credential in ``text``: its kind, where it starts and where it ends."""
    text = text.translate(_INVISIBLE)  # lines stay where they were: only zero-width characters go
    for kind, pattern in CREDENTIALS:
        for match in pattern.finditer(text):
            yield kind, match.start(), match.end()
    for match in _AUTHORIZATION.finditer(text):
        token = match.group(1)  # base64 may hold no digit: two of lower, upper and digits will do
        mixed = sum(bool(re.search(c, token)) for c in ("[a-z]", "[A-Z]", "[0-9]")) >= 2
        if mixed and not _PLACEHOLDER.match(token) and not token.endswith(_CUT):
            yield "a credential in an Authorization header", match.start(), match.end()
    yield from _by_place(text)


def _by_place(text: str) -> Iterator[tuple[str, int, int]]:
    """Credentials known by where they stand, not by their shape: in a URL, a pgpass line, beside
    a secret name."""
    for match in _URL_PASSWORD.finditer(text):
        user, password, host = match.groups()
        if host.lower() in _LOCAL_HOSTS or host.startswith("127.") or _PLACEHOLDER.match(password):
            continue
        if password != user:
            yield "a password in a connection URL", match.start(), match.end()
    for match in _PGPASS.finditer(text):
        host, password = match.groups()
        if host.lower() not in _LOCAL_HOSTS and _looks_secret(password):
            yield "a password in a pgpass line", match.start(), match.end()
    for match in _SECRET_ASSIGNMENT.finditer(text):
        if _looks_secret(match.group(2)) and not _NOT_SECRET_NAMES.search(match.group(1)):
            yield f"a value assigned to {match.group(1)}", match.start(), match.end()
    for match in _TABLE_SECRET.finditer(text):
        if _looks_secret(match.group(2)):
            yield f"a value in the {match.group(1)} row of a table", match.start(), match.end()
    for match in _QUOTED_PASSPHRASE.finditer(text):
        if _looks_passphrase(match.group(3)):
            yield f"a passphrase assigned to {match.group(1)}", match.start(), match.end()


def _credential(text: str) -> tuple[str, int] | None:
    found = next(_every_reading(text), None)
    return None if found is None else found[:2]


def _every_reading(text: str) -> Iterator[tuple[str, int, int]]:
    """``_credentials`` of the text as written, with Latin look-alike letters read as Latin
    (``раssword`` with a Cyrillic ``р`` and ``а``), and without HTML comments (``pass<!-- -->word``
    renders as ``password``; its offsets are read on the text without them)."""
    yield from _credentials(text)
    yield from _credentials(text.translate(LATIN_LOOK_ALIKES))
    if "<!--" in text:
        yield from _credentials(_HTML_COMMENT.sub("", text))


_LEAD = r"^[ \t]*(?:[-*+>]|//|#|--|/\*|<!--)?[ \t]*[_*(\[<]*[ \t]*(?:\.{3}|…)?[ \t]*"
_TAIL = r"[ \t]*(?:\.{3}|…)?[ \t]*[.!)\]>_*]*[ \t]*(?:-->)?[ \t]*$"
"""What may stand around a placeholder phrase alone on its line."""

OMISSIONS: tuple[re.Pattern[str], ...] = (
    re.compile(
        r"(?<!\bat )\b(?-i:(?!REST\b[^\n]*[a-z]))rest (?:of (?:the )?(?:file|document|section|content|text|body) )?"
        r"(?:is |remains |stays )?unchanged\b",
        re.I,
    ),
    re.compile(
        r"\b(?:everything else|remaining (?:content|sections?)|other sections?) (?:is |are |remains? |stays? )?unchanged\b",
        re.I,
    ),
    re.compile(r"\[(?:\.\.\.\s*)?(?:truncated|omitted|snipped|content omitted|rest omitted)(?:\s*\.\.\.)?\]", re.I),
    re.compile(
        r"(?:\.\.\.|…)\s*(?:\(?\s*)?(?:existing|previous|original|unchanged|rest of(?: the)?|remaining) (?:content|text|sections?|lines?|code)"
        r"(?: (?:as before|as is|unchanged|stays the same|remains the same|goes here|here))?(?:\s*\)?)?\s*(?:\.\.\.|…)",
        re.I,
    ),
    re.compile(r"\b(?:omitted|unchanged|elided) for brevity\b", re.I),
    re.compile(r"<!--\s*(?:rest unchanged|unchanged|existing content|\.\.\.)\s*-->", re.I),
    re.compile(
        r"^[ \t]*(?:[-*+>]|//|#)?[ \t]*[_*]*[(\[<][ \t]*(?:unchanged|no changes|as before|same as before|"
        r"без изменений|не изменилось|как было)[ \t]*[)\]>][_*]*[ \t]*$",
        re.I | re.M,
    ),
    *(
        re.compile(_LEAD + "(?:" + phrase + ")" + _TAIL, re.I | re.M)
        for phrase in (
            r"rest of (?:the |this )?\w+\b[^.\n]{0,24}?"
            r"\b(?:unchanged|the same|as (?:it |they )?(?:is|was|were|before))",
            r"(?:the )?(?:remaining|other) (?:content|sections?|entries|items|lines|text|rows|parts?)\b[^.\n]{0,24}?"
            r"\b(?:unchanged|the same|as (?:it |they )?(?:is|was|were|are|before))",
            r"(?:keep|leave) (?:everything|all|the rest) (?:else )?(?:as is|as it was|unchanged|the same)",
            r"(?:остальное|остальн(?:ой|ая|ые|ое) (?:текст|часть(?: \w+)?|разделы?|содержимое(?: \w+)?)|прочее|"
            r"оставш(?:аяся|иеся|ийся) (?:текст|часть(?: \w+)?|разделы?)|далее|дальше)[\s,:;—–-]+"
            r"(?:(?:остаётся|остается|остаются|оставлен\w*)\s+)?"
            r"(?:без изменени\w*|без изм\.?|не изменил\w*|не менял\w*|как было|как раньше|прежн\w*|опущен\w*)",
            r"resto (?:del \w+ |de la \w+ )?sin cambios|le reste (?:est )?inchangé|(?:der )?rest (?:bleibt )?unverändert",
            r"(?:其余|其他|剩余)(?:部分|内容)?(?:保持)?不变|(?:以下|其余)(?:内容)?(?:省略|略)",
        )
    ),
    re.compile(r"<\s*(?:same as before|unchanged|rest unchanged|existing content|previous content)\s*>", re.I),
    re.compile(
        r"[(\[]\s*(?:остальн\w*|оставш\w*|прочее|далее)[^()\[\]\n]{0,30}?(?<!\w)"
        r"(?:опущен\w*|пропущен\w*|сокращен\w*|без изм\w*\.?)\s*[)\]]",
        re.I,
    ),
)
"""Said in the languages banks are written in (English, Russian, and a few more); "rest unchanged"
is not the acronym REST in a sentence, nor data "at rest". The phrases added
to the first, English-only list stand alone on their line (with list, quote or comment marks,
brackets and ellipses around them): inside a sentence, "далее запрос передаётся без изменений" or
"the remaining items are the same as in FT-002" describes the thing, it does not stand in for text."""

_BARE_ELISION = re.compile(r"^ {0,3}\[(?:\.\.\.|…)\][ \t]*$", re.M)
"""A ``[...]`` line outside code: a fence, or four spaces in (there, it is a log cut short on purpose)."""
_CODE_COMMENT_STAND_IN = re.compile(
    r"^[ \t]*(?://|#|--|/\*|\*)[ \t]*(?:\.{3}|…)?[ \t]*(?:(?:остальн\w+|прочие|оставш\w+)(?: \w+)?[\s,:;—–-]+"
    r"(?:без изменени\w*|как (?:раньше|было|прежде)|не менял\w*|не изменил\w*)|(?:the )?(?:other|remaining) \w+ "
    r"(?:unchanged|as before|the same)|rest of (?:the )?\w+ (?:unchanged|as before))[ \t.…]*(?:\*/)?[ \t]*$",
    re.I | re.M,
)
"""A comment inside code that stands for the code it replaced (``-- остальные колонки как раньше``)."""
_STANDS_FOR_ALL = re.compile(
    r"(?:same(?: as (?:before|above))?|as (?:above|before)|see (?:above|(?:the )?previous(?: version| revision)?"
    r"(?: of (?:the|this) \w+)?)|unchanged(?: from \S+)?|no changes?|snip|etc|rest as in the previous (?:version|revision)|"
    r"и так далее|прежний текст|как (?:и )?раньше|см\.? выше|см\.? предыдущую версию(?: документа)?|"
    r"без изм(?:енений)?|содержимое (?:раздела )?(?:прежнее|не менял\w*|не изменил\w*)|остальное без изм(?:енений)?|"
    r"аналогично|то же(?: самое)?|similarly|ditto|)",
    re.I,
)
"""A whole section's new content that only points at what was there (``(same)``, ``As above.``,
``Как и раньше.``, ``- …``): a replacement that is nothing but that is a placeholder in any words."""
_MARKS = " \t\n-*+>#_.,:;!…()[]<>\"'`"

_SPACES = dict.fromkeys(map(ord, "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003"), " ")
LATIN_LOOK_ALIKES = str.maketrans("аеорсухіАЕОРСХІКМТВН", "aeopcyxiAEOPCXIKMTBH")
"""Cyrillic letters that look Latin: ``rest unchangеd`` with a Cyrillic ``е`` is the same promise."""


def refuse_credentials(text: str, where: str) -> None:
    """Refuse ``text`` if it carries something that looks like a secret."""
    found = _credential(text)
    if found is None:
        return
    kind, at = found
    line = text.count("\n", 0, at) + 1
    raise Refusal(
        f"Refusing to write {where}: line {line} of the new text holds what looks like {kind}. "
        "A bank is committed and shared; keep secrets out and say where they are kept instead.",
        reason="credential",
    )


def refuse_omissions(added: str, where: str, *, whole: bool = False) -> None:
    """Refuse added text that stands in for content instead of being content: a placeholder phrase
    (spaces of any width and Latin look-alike letters read as what they look like), a ``[...]`` line
    outside code; and with ``whole`` (the text replaces a whole section), a text that only points at
    what was there (``(same)``, ``As above.``, an ellipsis)."""
    spaced = added.translate(_SPACES).translate(_INVISIBLE)
    if whole and spaced.strip() and _STANDS_FOR_ALL.fullmatch(spaced.strip(_MARKS).strip()):
        raise Refusal(
            f'Refusing to write {where}: the new text is only "{spaced.strip()}", which points at what was there '
            "instead of holding it. Write the full text you mean to keep.",
            reason="omission-placeholder",
        )
    outside = _outside_fences(spaced)
    for pattern in (*OMISSIONS, _BARE_ELISION, _CODE_COMMENT_STAND_IN):
        text = outside if pattern is _BARE_ELISION else spaced
        match = pattern.search(text) or pattern.search(text.translate(LATIN_LOOK_ALIKES))
        if match:
            raise Refusal(
                f'Refusing to write {where}: the new text says "{match.group(0).strip()}" instead of holding '
                "the content. Write the full text you mean to keep; nothing else is filled in for you.",
                reason="omission-placeholder",
            )


def _outside_fences(text: str) -> str:
    tracker = FenceTracker()
    return "\n".join(line for line in text.split("\n") if not tracker.feed(line))


def refuse_credentials_made(before: str, after: str, where: str) -> None:
    """Refuse a write whose result holds a credential on a line it changed, though the text it added
    did not: two harmless halves joined (``ghp_abc`` and ``def...`` once a line break between them
    goes) are a token on disk. Lines the write left alone are not re-judged."""
    old = before.split("\n")
    new = after.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, _, _, start, end in matcher.get_opcodes():
        if tag not in ("replace", "insert"):
            continue
        first = max(start - CONTEXT_LINES, 0)  # a name above the changed line may be given a value on it
        block = "\n".join(new[first:end])
        changed_from = len("\n".join(new[first:start])) + (1 if start > first else 0)
        for kind, at, finish in _every_reading(block):
            if finish > changed_from:  # it ends on a changed line: the change made it
                line = first + block.count("\n", 0, max(at, changed_from)) + 1
                raise Refusal(
                    f"Refusing to write {where}: with this change, line {line} holds what looks like {kind}. "
                    "A bank is committed and shared; keep secrets out and say where they are kept instead.",
                    reason="credential",
                )


CONTEXT_LINES = 2
"""Lines above a changed one read with it: ``secret_key:``, a blank line, then the value."""


def check(added: str, where: str, *, whole: bool = False) -> None:
    """Both firewalls, on the text a write adds (what was already there is not re-judged); ``whole``
    when it replaces a whole section (see ``refuse_omissions``)."""
    refuse_credentials(added, where)
    refuse_omissions(added, where, whole=whole)
