"""What changed in the bank since a git ref or a date: added, modified, renamed, deleted documents.

In a git repository the answer is an exact delta between a commit and the working tree (uncommitted
edits included), plus untracked documents; a date picks the last commit before it. Without a
repository only modification times are left, which cannot tell a new document from an edited one
nor see a deletion, and the answer says so.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.errors import GitError, NotACommit, UsageError
from memorybank.core.index import SKIPPED_DIRS
from memorybank.core.repository import EMPTY_TREE, Repository, find_repository

CHANGE_KINDS: tuple[str, ...] = ("added", "modified", "renamed", "deleted")

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]|$)")
_WALKING = re.compile(r"^(.*?)((?:~\d*|\^)+)$")
"""A ref that walks back from a base: ``HEAD~3``, ``main^^``, ``v1~``."""

_AGO = re.compile(r"^(\d{1,5})\s*(d|days?|w|weeks?|months?|y|years?)(?:\s+ago)?$", re.IGNORECASE)
"""``7d``, ``2w``, ``3 days ago``, ``1 month ago``: a span back from now (a month is 30 days, a
year 365)."""
_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}

_MTIME_LIMITS = "they cannot tell a new document from an edited one, and cannot see deletions"


@dataclass(frozen=True, slots=True)
class Change:
    """One document that changed."""

    path: str
    """Bank path (the new path of a renamed document)."""
    title: str
    """The document's title, or its file name without ``.md`` when it no longer exists."""
    change_kind: str
    """``added``, ``modified``, ``renamed`` or ``deleted``."""
    layer: str
    doc_kind: str | None = None
    """Present only when the document exists now; likewise ``status``."""
    status: str | None = None
    renamed_from: str | None = None
    """The old bank path of a renamed document."""


@dataclass(frozen=True, slots=True)
class Changes:
    """The answer of one ``changed`` call."""

    since: str
    """What the caller asked for, as given."""
    mode: str
    """``git`` for an exact delta, ``mtime`` when only modification times were available."""
    changes: tuple[Change, ...]
    """Sorted by path."""
    repo: str | None = None
    base: str | None = None
    """The commit the delta is measured from (None in mtime mode, or before the first commit)."""
    note: str | None = None
    total: int | None = None
    """How many documents changed in all, when ``changes`` is one page of them."""
    next_offset: int | None = None
    """Where the next page starts, when there is one."""

    def page(self, offset: int, limit: int) -> Changes:
        """``limit`` changes from ``offset``, with the total and where the next page starts."""
        chosen = self.changes[offset : offset + limit]
        following = offset + limit if offset + limit < len(self.changes) else None
        return replace(self, changes=chosen, total=len(self.changes), next_offset=following)


def is_date(text: str) -> bool:
    """``YYYY-MM-DD``, alone or followed by ``T`` or a space and a time."""
    return bool(_DATE.match(text))


def parse_date(text: str) -> datetime:
    """An ISO date or date-time as an aware datetime.

    A date alone and a date-time without an offset are both read in local time, as a person means
    them (the reference read a date alone as UTC midnight but a date-time as local time).

    Raises:
        UsageError: the text is not a date.
    """
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        raise UsageError(f'"{text}" is neither an ISO date nor a usable git ref.') from None
    try:
        return moment.astimezone() if moment.tzinfo is None else moment
    except (ValueError, OverflowError):  # the first or last days of the calendar, in local time
        raise UsageError(f'"{text}" is too close to the calendar\'s ends to compare with; pass a later date.') from None


def relative_moment(text: str) -> datetime | None:
    """The moment ``7d``, ``2 weeks ago``, ``yesterday`` or ``today`` (its start, UTC) names, by the
    product's clock; None for any other text."""
    word = text.strip().lower()
    if word in ("today", "yesterday"):
        start = clock.now().replace(hour=0, minute=0, second=0, microsecond=0)
        return start - timedelta(days=1) if word == "yesterday" else start
    found = _AGO.match(word)
    if found is None:
        return None
    return clock.now() - timedelta(days=int(found.group(1)) * _DAYS[found.group(2)[0]])


def changes_since(bank: Bank, since: str) -> Changes:
    """The documents that changed since a git ref (commit, tag, ``HEAD~N``), an ISO date, or a span
    back from now (``7d``, ``2 weeks ago``, ``yesterday``) that names no ref of the repository.

    Raises:
        UsageError: ``since`` is blank, or looks like a date and is not one.
        GitError: a ref that names no commit, or a ref given for a bank outside any repository.
    """
    text = (since or "").strip()
    if not text:
        raise UsageError("`since` is required: a git ref, an ISO date, or a span such as 7d.")
    repo = find_repository(bank.root)
    ago = relative_moment(text)
    if ago is not None and repo is not None and repo.has_commits() and _commit_of(repo, text) is not None:
        ago = None  # a branch or tag of that name is what the caller means
    if ago is not None or is_date(text):
        cutoff = ago or parse_date(text)
        if repo is None:
            note = f"This bank is not in a git repository, so the delta comes from modification times: {_MTIME_LIMITS}."
            return _by_mtime(bank, text, cutoff, note)
        if not repo.has_commits():
            note = f"This repository has no commits yet, so the delta comes from modification times: {_MTIME_LIMITS}."
            return _by_mtime(bank, text, cutoff, note)
        told = f"{text} ({cutoff.astimezone(UTC):%Y-%m-%d %H:%M} UTC)" if ago is not None else text
        return _since_date(bank, repo, text, cutoff, told)
    if repo is None:
        if _WALKING.match(text):
            note = (
                f'This bank is not in a git repository, so "{text}" has no commit to reach back to and every '
                "document is listed as present. Commit the bank, or pass an ISO date, for a real delta."
            )
            return _by_mtime(bank, text, datetime.fromtimestamp(0, UTC), note)
        raise NotACommit(  # no ref names a commit here: the argument is what has to change (exit 2)
            f'This bank is not inside a git repository, so "{text}" cannot be resolved. Pass an ISO date instead.'
        )
    base, note = _resolve_ref(repo, text)
    return _by_git(bank, repo, text, base, note)


def _commit_of(repo: Repository, ref: str) -> str | None:
    if ref.startswith("-"):
        return None  # never let a ref be read as an option
    found = repo.succeeds("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    return found.strip() if found else None


def _resolve_ref(repo: Repository, ref: str) -> tuple[str, str | None]:
    """The commit a ref names; a walking ref past the start of history lands on the first commit."""
    commit = _commit_of(repo, ref)
    if commit is not None:
        return commit, None
    walking = _WALKING.match(ref)
    not_a_commit = f'"{ref}" is not a commit in {repo.root}. Pass a valid ref, an ISO date or a span such as 7d.'
    if walking is None:
        raise NotACommit(not_a_commit)
    base = walking.group(1) or "HEAD"
    if _commit_of(repo, base) is None:
        if not repo.has_commits():
            not_a_commit = f'"{ref}" is not a commit in {repo.root}: it has no commits yet. Pass an ISO date instead.'
        raise NotACommit(not_a_commit)
    # Walking back follows first parents, so the root it runs into is the first-parent root (the
    # reference took the last root commit listed, which in a repository joined from unrelated
    # histories may be another one).
    first = repo.run("rev-list", "--first-parent", "--max-parents=0", base, "--").split()[0]
    _refuse_past_a_shallow_start(repo, ref, first)
    note = (
        f'"{ref}" reaches past the start of this repository, so the delta is measured from its first commit '
        f"({first[:8]}) instead."
    )
    return first, note


def _refuse_past_a_shallow_start(repo: Repository, since: str, first: str | None = None) -> None:
    """In a shallow clone (CI's default checkout) the commits before ``first`` (the clone's first
    commit when not given) exist but were not fetched: measuring from it would report a false delta,
    so say what to fetch instead."""
    if (repo.succeeds("rev-parse", "--is-shallow-repository") or "").strip() != "true":
        return
    if first is None:
        first = repo.run("rev-list", "--max-parents=0", "HEAD", "--").split()[0]
    raise GitError(
        f'"{since}" reaches past the history this shallow clone holds (it starts at {first[:8]}), so what '
        "changed since then cannot be told. Fetch more history first (git fetch --unshallow, or git fetch "
        "--shallow-since=DATE) and ask again."
    )


def _since_date(bank: Bank, repo: Repository, since: str, cutoff: datetime, told: str) -> Changes:
    """``told``: the moment as a note names it (the date given, or a span with the date it reached)."""
    # Seconds since the epoch: git's own date parser gives up on years past 2100.
    seconds = int(cutoff.timestamp())
    found = ""
    if seconds > 0:
        found = repo.run(
            "log", "-1", f"--before=@{seconds}", "--no-show-signature", "--format=%H%x09%cI", "HEAD", "--"
        ).strip()
    if found:
        full, date = found.split("\t")
        if datetime.fromisoformat(date) <= cutoff:
            note = f"Measured from commit {full[:8]} ({date}), the last one before {told}."
            return _by_git(bank, repo, since, full, note)
    _refuse_past_a_shallow_start(repo, since)
    empty = repo.succeeds("hash-object", "-t", "tree", os.devnull)
    note = f"No commit is older than {told}, so every document in the bank counts as added."
    return _by_git(bank, repo, since, (empty or EMPTY_TREE).strip(), note, base_is_commit=False)


def _is_document(bank_path: str | None) -> bool:
    """Whether a bank path is one the bank would index (markdown, not hidden, not skipped)."""
    if bank_path is None or not bank_path.endswith(".md"):
        return False
    return not any(part.startswith(".") or part in SKIPPED_DIRS for part in bank_path.split("/"))


def _by_git(
    bank: Bank, repo: Repository, since: str, base: str, note: str | None, *, base_is_commit: bool = True
) -> Changes:
    scope = repo.bank_prefix or "."
    literal = {"GIT_LITERAL_PATHSPECS": "1"}
    diff = repo.run("diff", "-z", "--name-status", "-M", "--no-color", "--no-ext-diff", base, "--", scope, env=literal)
    found: dict[str, tuple[str, str | None]] = {}  # bank path -> (kind, renamed from)
    tokens = diff.split("\0")
    position = 0
    while position < len(tokens):
        code = tokens[position].strip()
        if not code:
            position += 1
            continue
        letter = code[0]
        if letter in "RC":
            old, new = repo.bank_path(tokens[position + 1]), repo.bank_path(tokens[position + 2])
            position += 3
            if letter == "R" and _is_document(old) and _is_document(new):
                found[new] = ("renamed", old)
            else:  # a copy, or a rename across the edge of what the bank indexes
                if _is_document(new):
                    found[new] = ("added", None)
                if letter == "R" and _is_document(old):
                    found.setdefault(old, ("deleted", None))
            continue
        path = repo.bank_path(tokens[position + 1])
        position += 2
        if not _is_document(path):
            continue
        # T (a file became a link) and U (unmerged) are modifications; the reference dropped them.
        kind = {"A": "added", "D": "deleted"}.get(letter, "modified")
        found[path] = (kind, None)
    untracked = repo.run("ls-files", "-z", "--others", "--exclude-standard", "--", scope, env=literal)
    for name in untracked.split("\0"):
        path = repo.bank_path(name) if name else None
        if _is_document(path) and path not in found:
            found[path] = ("added", None)
    with bank.lock:
        changes = tuple(_change(bank, path, kind, origin) for path, (kind, origin) in sorted(found.items()))
    return Changes(
        since=since, mode="git", changes=changes, repo=str(repo.root), base=base if base_is_commit else None, note=note
    )


def _change(bank: Bank, path: str, kind: str, renamed_from: str | None = None) -> Change:
    doc = bank.documents.get(path)
    if doc is None:
        name = path.rsplit("/", 1)[-1]
        return Change(
            path,
            name[:-3] if name.endswith(".md") else name,
            kind,
            bank.layers.layer_of(path),
            renamed_from=renamed_from,
        )
    return Change(path, doc.title, kind, doc.layer, doc.doc_kind, doc.status, renamed_from)


def _by_mtime(bank: Bank, since: str, cutoff: datetime, note: str) -> Changes:
    moment = cutoff.timestamp()
    with bank.lock:
        changes = tuple(_change(bank, d.path, "modified") for d in bank if d.mtime > moment)
    return Changes(since=since, mode="mtime", changes=changes, note=note)
