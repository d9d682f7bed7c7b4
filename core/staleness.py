"""Age without anchors: live documents nobody committed for a while, as the code around them moved on.

Drift needs ``anchors:``; most banks have none, and their documents still age. A document is
*stale* when it is live, its last commit is more than N days old (the bank's "stale after N days"
sentence in ``dna/``, else 90) and files outside the bank were committed after it. Stale documents
are ranked by how much changed *around* them since their last commit, in three rings:

1. **named**: files at the code paths the document mentions anywhere in its text (a backticked
   ``src/billing/tax.py``, a link ``../src/api/``, a frontmatter list such as ``source_refs:``);
   a path may be written from the repository root, from the directory holding the bank, relative to
   the document, or as the unique tail of a tracked path (``billing/tax.py``, ``retry.py``);
2. **beside**: files in the directories of the named files, and under a named top-level directory
   (``src/`` is a region, not a name);
3. **anywhere** outside the bank.

The order is by named files, then beside, then anywhere, lines changed breaking ties in each, then
age. Git is read in two passes whatever the bank's size: the bank's history (names only) for each
document's last commit, then ``git log --numstat`` outside the bank since the oldest candidate.

A document is live unless something marks it as not current: a publication status such as
``draft`` or ``archived`` (``NOT_LIVE_STATUSES``), a decision that was superseded or rejected, or
finished delivery work (``done``, ``implemented``, ...), its own or that of the brief it derives from
in its folder (the implementation plan of a shipped feature). A document without a status is live: nobody
marked it as a draft or as history, so readers take it as current. Templates, indexes and notes in
``_inbox/`` never are. Documents of the ``dna`` and ``flow`` layers describe the bank's own law and
procedures rather than the code, so they are listed only when a path they name changed.
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from memorybank.core import clock
from memorybank.core.bank import Bank
from memorybank.core.drift import NO_COMMITS, NO_GIT
from memorybank.core.errors import UsageError
from memorybank.core.mentions import CodePlaces
from memorybank.core.model import Document
from memorybank.core.paths import within
from memorybank.core.repository import Repository, find_repository

DEFAULT_STALE_DAYS = 90
MAX_STALE_DAYS = 3650
NAMED_SHOWN = 5
"""Changed named paths listed per document; ``named_files`` says how many there were."""

NOT_LIVE_STATUSES = frozenset(
    {"draft", "proposed", "archived", "deprecated", "superseded", "obsolete", "retired", "rejected", "withdrawn"}
    | {"cancelled", "canceled", "abandoned", "replaced", "historical", "legacy"}
)
"""Publication statuses that say a document is not (or not yet, or no longer) current."""
NOT_LIVE_DECISIONS = frozenset({"superseded", "rejected", "deprecated", "withdrawn"})
CLOSED_DELIVERY = frozenset({"done", "cancelled", "canceled", "implemented", "delivered", "closed"})
"""Finished work: its brief is history, and the knowledge it used lives elsewhere."""
BANK_LAYERS = frozenset({"dna", "flow"})
"""Layers about the bank itself: listed only when a path they name changed (their examples of
regions, such as "a whole `src/`", are not a description of the code)."""

BANK_IS_REPOSITORY = "The bank is the whole repository: there is no code outside it for its documents to age against."
NOTHING_LIVE = "No live document in this scope: drafts, archived documents, finished work and indexes do not age."


@dataclass(frozen=True, slots=True)
class StaleDocument:
    """A live document untouched for more than the bank's days while the code moved on."""

    path: str
    title: str
    status: str
    last_commit: str
    """Committer date of the document's last commit (ISO 8601)."""
    age_days: int
    """Whole days between that commit and now."""
    commits: int
    """Commits that changed files outside the bank after it."""
    files: int
    """Files outside the bank changed since."""
    lines: int
    """Lines added and removed in them (binary files count no lines)."""
    named_files: int
    """Of those files, how many are at paths the document names."""
    named_lines: int
    beside_files: int
    """How many are beside what it names (same directory, or under a named top-level directory)."""
    beside_lines: int
    named: tuple[str, ...]
    """The changed files it names, most lines first (at most 5)."""
    reason: str
    """The ranking in words: "412 lines in 9 files changed since, 3 of them named in the document"."""


@dataclass(frozen=True, slots=True)
class Staleness:
    """The answer of one age check."""

    mode: str
    """``git`` when commit dates were read, ``none`` when there was nothing to read."""
    days: int
    days_from: str
    """Where ``days`` came from: the ``dna/`` document that sets it, ``default`` or ``given``."""
    scope: str
    live: int
    """Live documents in scope (the candidates)."""
    not_live: int
    """Documents in scope left out: drafts, archived, finished work, indexes, templates, notes."""
    stale: tuple[StaleDocument, ...] = ()
    """Most changed around them first."""
    uncommitted: int = 0
    """Live documents never committed: they cannot age yet."""
    repo: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class _Change:
    when: datetime
    files: tuple[tuple[str, int], ...]
    """Repository path and lines added plus removed."""


def is_live(doc: Document, documents: Mapping[str, Document] | None = None) -> bool:
    """Whether a document claims to be current: what staleness is about.

    With the bank's ``documents``, a document of a finished package is not live either: one that
    derives, within its own folder, from a brief whose work is done (a feature's implementation
    plan after the feature shipped).
    """
    if doc.is_template or doc.is_index or doc.is_inbox:
        return False
    if doc.status.lower() in NOT_LIVE_STATUSES or doc.decision_status.lower() in NOT_LIVE_DECISIONS:
        return False
    return not _finished(doc, documents or {}, set())


def _finished(doc: Document, documents: Mapping[str, Document], seen: set[str]) -> bool:
    """Finished work: its own ``delivery_status``, or that of an upstream in the same folder."""
    if doc.delivery_status.lower() in CLOSED_DELIVERY:
        return True
    seen.add(doc.path)
    folder = posixpath.dirname(doc.path)
    for edge in doc.derived_from:
        target = documents.get(edge.resolved or "")
        if target is None or target.path in seen or posixpath.dirname(target.path) != folder:
            continue
        if _finished(target, documents, seen):
            return True
    return False


def stale_days(bank: Bank, days: int | None = None) -> tuple[int, str]:
    """The days to use and where they came from: given, else the bank's ``dna/``, else the default."""
    if days is not None:
        if not 0 <= days <= MAX_STALE_DAYS:
            raise UsageError(f"days must be between 0 and {MAX_STALE_DAYS}, not {days}.")
        return days, "given"
    contract = bank.contract
    if contract.stale_after_days is not None and contract.stale_after_source:
        return contract.stale_after_days, contract.stale_after_source
    return DEFAULT_STALE_DAYS, "default"


def find_stale(bank: Bank, *, days: int | None = None, scope: str | None = None) -> Staleness:
    """Live documents whose last commit is more than ``days`` old while files outside the bank changed.

    Args:
        bank: an indexed bank (the caller refreshes it).
        days: list documents last committed strictly more than this many days before now (the
            product's clock); None takes the bank's "stale after N days" sentence, else 90.
            At most 3650.
        scope: a directory of the bank; documents outside it are not considered.

    Raises:
        UsageError: ``days`` out of range, or a scope that names nothing in the bank.
        GitError: git itself failed (a corrupt repository, say).
    """
    days, days_from = stale_days(bank, days)
    with bank.lock:
        area = bank.paths.to_existing_scope(scope, lambda: bank.documents)
        documents = bank.documents
        in_scope = [d for d in documents.values() if d.is_placed and within(d.path, area)]
        live = [d for d in in_scope if is_live(d, documents)]
    counts = {
        "days": days,
        "days_from": days_from,
        "scope": area,
        "live": len(live),
        "not_live": len(in_scope) - len(live),
    }
    if not live:
        return Staleness(mode="none", note=NOTHING_LIVE, **counts)
    repo = find_repository(bank.root)
    if repo is None:
        return Staleness(mode="none", note=NO_GIT, **counts)
    if not repo.bank_prefix:
        return Staleness(mode="none", repo=str(repo.root), note=BANK_IS_REPOSITORY, **counts)
    if not repo.has_commits():
        return Staleness(mode="git", repo=str(repo.root), note=NO_COMMITS, uncommitted=len(live), **counts)

    last = _last_commits(repo, {repo.repo_path(d.path) for d in live})
    now = clock.now()
    horizon = now - timedelta(days=days)
    candidates = [(d, last[repo.repo_path(d.path)]) for d in live if repo.repo_path(d.path) in last]
    candidates = [(d, when) for d, when in candidates if when[0] < horizon]
    uncommitted = sum(1 for d in live if repo.repo_path(d.path) not in last)
    found: list[tuple[tuple, StaleDocument]] = []
    if candidates:
        oldest = min(when for _, (when, _) in candidates)
        changes = _changes_outside(repo, oldest)
        changed = {path for change in changes for path, _ in change.files}
        places = CodePlaces(repo.bank_prefix, repo.run("ls-files", "-z").split("\0"), changed)
        found = _rank(bank, repo, places, candidates, changes, now)
    found.sort(key=lambda item: item[0])
    return Staleness(
        mode="git",
        stale=tuple(doc for _, doc in found),
        uncommitted=uncommitted,
        repo=str(repo.root),
        note=repo.shallow_note(),
        **counts,
    )


# -- git ---------------------------------------------------------------------------------------

_FORMAT = "--format=%x1e%cI"


def _entries(output: str) -> Iterable[tuple[datetime | None, str | None]]:
    """``(date, None)`` at each commit header, then ``(None, entry)`` for each file line after it."""
    for token in output.split("\0"):
        token = token.lstrip("\n")
        if not token:
            continue
        if token.startswith("\x1e"):
            yield datetime.fromisoformat(token[1:].strip()), None
        else:
            yield None, token


def _last_commits(repo: Repository, wanted: set[str]) -> dict[str, tuple[datetime, str]]:
    """The newest commit date of each wanted file of the bank (by date, not log order)."""
    output = repo.run(
        "log", "-z", "--no-renames", "--no-color", "--no-show-signature", "--name-only", _FORMAT,
        "--", f":(literal){repo.bank_prefix}",
        env={"GIT_LITERAL_PATHSPECS": "0"},
    )  # fmt: skip
    last: dict[str, tuple[datetime, str]] = {}
    when: datetime | None = None
    for date, path in _entries(output):
        if date is not None:
            when = date
        elif path in wanted and when is not None and (path not in last or when > last[path][0]):
            last[path] = (when, when.isoformat())
    return last


def _changes_outside(repo: Repository, since: datetime) -> list[_Change]:
    """Every commit from ``since`` on, newest first, with the files it changed outside the bank.

    One ``--numstat`` pass; merges show no files (their changes are counted on the commits merged),
    and a renamed file counts as one removed and one added."""
    output = repo.run(
        "log", "-z", "--no-renames", "--no-color", "--no-show-signature", "--numstat", _FORMAT,
        f"--since=@{math.floor(since.timestamp())}",
        "--", ".", f":(exclude,literal){repo.bank_prefix}",
        env={"GIT_LITERAL_PATHSPECS": "0"},  # the exclusion is pathspec magic
    )  # fmt: skip
    changes: list[_Change] = []
    when: datetime | None = None
    files: list[tuple[str, int]] = []
    for date, entry in [*_entries(output), (None, None)]:
        if date is None and entry is not None:
            added, removed, path = (entry.split("\t", 2) + ["", ""])[:3]
            if path:
                lines = (int(added) if added.isdigit() else 0) + (int(removed) if removed.isdigit() else 0)
                files.append((path, lines))
            continue
        if when is not None and when > since:
            changes.append(_Change(when, tuple(files)))
        when, files = date, []
    changes.sort(key=lambda change: change.when, reverse=True)
    return changes


# -- ranking -------------------------------------------------------------------------------------


def _rank(
    bank: Bank,
    repo: Repository,
    places: CodePlaces,
    candidates: list[tuple[Document, tuple[datetime, str]]],
    changes: list[_Change],
    now: datetime,
) -> list[tuple[tuple, StaleDocument]]:
    """Sweep the commits newest first, stopping at each candidate's date, newest candidate first."""
    seen: dict[str, int] = {}
    total_lines = commits = 0
    position = 0
    found: list[tuple[tuple, StaleDocument]] = []
    for doc, (when, date) in sorted(candidates, key=lambda c: c[1][0], reverse=True):
        while position < len(changes) and changes[position].when > when:
            for path, lines in changes[position].files:
                seen[path] = seen.get(path, 0) + lines
                total_lines += lines
            commits += bool(changes[position].files)
            position += 1
        if not seen:
            continue
        with bank.lock:
            text = bank.text(doc.path) if doc.path in bank else ""
        named, beside = places.regions(text, posixpath.dirname(repo.repo_path(doc.path)))
        named_files = {p: seen[p] for p in places.changed_in(named) if p in seen}
        beside_files = {p: seen[p] for p in places.changed_in(beside) if p in seen and p not in named_files}
        if doc.layer in BANK_LAYERS and not named_files:
            continue
        age = (now - when) // timedelta(days=1)
        named_lines, beside_lines = sum(named_files.values()), sum(beside_files.values())
        stale = StaleDocument(
            path=doc.path,
            title=doc.title,
            status=doc.status,
            last_commit=date,
            age_days=age,
            commits=commits,
            files=len(seen),
            lines=total_lines,
            named_files=len(named_files),
            named_lines=named_lines,
            beside_files=len(beside_files),
            beside_lines=beside_lines,
            named=tuple(sorted(named_files, key=lambda p: (-named_files[p], p))[:NAMED_SHOWN]),
            reason=_reason(date[:10], total_lines, len(seen), commits, len(named_files), len(beside_files)),
        )
        key = (-len(named_files), -named_lines, -len(beside_files), -beside_lines, -len(seen), -total_lines, -age)
        found.append(((*key, doc.path), stale))
    return found


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _reason(day: str, lines: int, files: int, commits: int, named: int, beside: int) -> str:
    """``412 lines in 9 files changed since 2026-01-12 (14 commits), 3 of them named in the document``."""
    text = f"{_plural(lines, 'line')} in {_plural(files, 'file')} changed since {day} ({_plural(commits, 'commit')})"
    if named:
        text += f", {named} of them named in the document"
    if beside:
        text += f", {beside} beside what it names"
    return text
