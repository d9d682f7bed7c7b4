"""Drift: where the code a document describes moved on in git and the document did not.

A document says which code it describes in ``anchors:``, a list of repository-relative files or
directories. That annotation is the only thing read: no pairing is ever inferred from names or
prose. One ``git log`` pass over every anchor and every anchored document gives the last commit
touching each; a pair drifts when its code was committed more than the threshold after its
document. An anchor whose path no longer exists is always reported. Nothing is ever edited.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from datetime import datetime, timedelta

from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.model import Document
from memorybank.core.paths import within
from memorybank.core.repository import Repository, find_repository

DEFAULT_THRESHOLD_DAYS = 90
MAX_THRESHOLD_DAYS = 3650
PATHSPECS = 32
"""Pathspecs handed to git at most: beyond a few dozen, git's matching dominates the whole pass."""
COMMITS_SHOWN = 5
"""Commits listed per drifted pair, newest first; ``commit_count`` says how many there were."""

NOTHING_ANCHORED = (
    "No document in this scope declares `anchors:`. Add a list of repository-relative code paths to the "
    "frontmatter of the documents that describe code; that annotation is the only thing drift reads, and "
    "without it there is nothing to compare."
)
NO_GIT = (
    "This bank is not inside a git repository, so there are no commit dates to compare. Modification "
    "times would answer a different question: a file copied yesterday is not a file changed yesterday."
)
NO_COMMITS = "The repository has no commits yet, so there are no commit dates to compare."
NOT_IN_REPOSITORY = "no such file or directory in the repository"
LEAVES_REPOSITORY = "the path leaves the repository"


@dataclass(frozen=True, slots=True)
class CodeCommit:
    """A commit that touched anchored code after its document last changed."""

    short_hash: str
    date: str
    """Committer date, ISO 8601 with the committer's offset."""
    subject: str


@dataclass(frozen=True, slots=True)
class DriftedPair:
    """A document and one of its anchors whose code was committed well after the document."""

    path: str
    title: str
    status: str
    anchor: str
    doc_touched: str
    """Last commit date of the document (ISO 8601)."""
    code_touched: str
    """Last commit date of the anchored file, or of anything under the anchored directory."""
    ahead_days: int
    """Whole days the code is ahead (floored)."""
    commits: tuple[CodeCommit, ...]
    """The newest commits that touched the code since the document changed (at most 5)."""
    commit_count: int
    """How many commits touched the code since the document changed."""


@dataclass(frozen=True, slots=True)
class MissingAnchor:
    """An anchor naming a path that does not exist in the repository: reported at any threshold."""

    path: str
    title: str
    anchor: str
    reason: str


@dataclass(frozen=True, slots=True)
class Drift:
    """The answer of one drift check."""

    mode: str
    """``git`` when commit dates were compared, ``none`` when there was nothing to compare."""
    threshold_days: int
    scope: str
    anchored: int
    """Documents in scope declaring at least one anchor."""
    unanchored: int
    """Documents in scope declaring none: an unannotated bank must not look clean."""
    drifted: tuple[DriftedPair, ...] = ()
    """Widest gap first, then path and anchor."""
    missing: tuple[MissingAnchor, ...] = ()
    """Sorted by path, then anchor."""
    uncommitted: tuple[str, ...] = ()
    """Anchored documents never committed: they cannot drift yet."""
    repo: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class _Commit:
    short_hash: str
    when: datetime
    date: str
    subject: str


class _History:
    """What one ``git log`` pass learned: for each wanted path (a document, an anchored file or an
    anchored directory), the commits that touched it or anything under it."""

    def __init__(self, wanted: set[str]) -> None:
        self.wanted = wanted
        self.commits: dict[str, _Commit] = {}
        self.touching: dict[str, list[str]] = {}

    def feed(self, output: str) -> None:
        """Parse ``git log -z --name-only --format=%x1e%H%x09%h%x09%cI%x09%s`` output."""
        current: str | None = None
        for token in output.split("\0"):
            token = token.lstrip("\n")
            if not token:
                continue
            if token.startswith("\x1e"):
                full, short, date, subject = (token[1:].split("\t", 3) + ["", "", ""])[:4]
                current = full
                if full not in self.commits:
                    self.commits[full] = _Commit(short, datetime.fromisoformat(date), date, subject)
                continue
            if current is None:
                continue
            for key in _self_and_ancestors(token):
                if key not in self.wanted:
                    continue
                seen = self.touching.setdefault(key, [])
                if current not in seen[-1:]:
                    seen.append(current)

    def last(self, path: str) -> _Commit | None:
        """The newest commit touching a file, or anything under a directory (by date, not log order)."""
        hashes = self.touching.get(path)
        if not hashes:
            return None
        return max((self.commits[h] for h in set(hashes)), key=lambda c: c.when)

    def since(self, path: str, moment: datetime) -> list[_Commit]:
        """Commits touching ``path`` strictly after ``moment``, newest first."""
        found = {h for h in self.touching.get(path, ()) if self.commits[h].when > moment}
        return sorted((self.commits[h] for h in found), key=lambda c: (c.when, c.short_hash), reverse=True)


def _self_and_ancestors(path: str) -> list[str]:
    keys = [path]
    while "/" in path:
        path = path.rsplit("/", 1)[0]
        keys.append(path)
    keys.append("")
    return keys


def _normalise_anchor(anchor: str) -> str | None:
    """A repository-relative anchor in canonical form; None when it leaves the repository."""
    text = anchor.replace("\\", "/").strip()
    if text.startswith("/"):
        return None
    text = posixpath.normpath(text) if text else "."
    if text == ".." or text.startswith("../"):
        return None
    return "" if text == "." else text


def _pathspecs(wanted: set[str], most: int = PATHSPECS) -> list[str]:
    """The deepest directory prefixes (three levels at most) covering every wanted path, in at most
    ``most`` pathspecs; failing that, the top-level entries."""
    if "" in wanted:
        return ["."]
    for depth in (3, 2, 1):
        specs = sorted({"/".join(path.split("/")[:depth]) for path in wanted})
        if len(specs) <= most:
            break
    return specs


def _log(repo: Repository, history: _History) -> None:
    """One ``git log`` pass over everything drift needs.

    Git matches each changed path against every pathspec, so a thousand exact pathspecs cost about
    twenty milliseconds per commit; a few directory prefixes cost almost nothing, and the paths they
    let through that nobody anchored are dropped while parsing.
    """
    history.feed(
        repo.run(
            "log",
            "-z",
            "--no-renames",
            "--no-color",
            "--no-show-signature",
            "--name-only",
            "--format=%x1e%H%x09%h%x09%cI%x09%s",
            "--",
            *_pathspecs(history.wanted),
            env={"GIT_LITERAL_PATHSPECS": "1"},
        )
    )


def check_drift(bank: Bank, *, threshold_days: int = DEFAULT_THRESHOLD_DAYS, scope: str | None = None) -> Drift:
    """Compare the last commit of each anchored document with the last commit of each of its anchors.

    Dates are real datetimes compared with their offsets (the reference compared ISO strings). An
    anchor that no longer exists is reported in ``missing`` whatever the dates, and only there: a
    deletion is not also listed as drift. Documents never committed are listed in ``uncommitted``.

    Args:
        bank: an indexed bank (the caller refreshes it).
        threshold_days: report a pair when its code is ahead by strictly more than this many days;
            0 reports every gap. At most 3650.
        scope: a directory of the bank; documents outside it are not considered.

    Raises:
        UsageError: a threshold out of range, or a scope that names nothing in the bank.
        GitError: git itself failed (a corrupt repository, say).
    """
    if not 0 <= threshold_days <= MAX_THRESHOLD_DAYS:
        raise UsageError(f"threshold_days must be between 0 and {MAX_THRESHOLD_DAYS}, not {threshold_days}.")
    with bank.lock:
        area = bank.paths.to_existing_scope(scope, lambda: bank.documents)
        in_scope = [d for d in bank if d.is_placed and within(d.path, area)]
    anchored = [d for d in in_scope if d.anchors]
    counts = {
        "threshold_days": threshold_days,
        "scope": area,
        "anchored": len(anchored),
        "unanchored": len(in_scope) - len(anchored),
    }
    if not anchored:
        return Drift(mode="none", note=NOTHING_ANCHORED, **counts)
    repo = find_repository(bank.root)
    if repo is None:
        return Drift(mode="none", note=NO_GIT, **counts)

    pairs: list[tuple[Document, str, str]] = []  # document, anchor as written, anchor normalised
    missing: list[MissingAnchor] = []
    for doc in anchored:
        for anchor in dict.fromkeys(doc.anchors):
            normal = _normalise_anchor(anchor)
            if normal is None:
                missing.append(MissingAnchor(doc.path, doc.title, anchor, LEAVES_REPOSITORY))
            elif not (repo.root / normal).exists():
                missing.append(MissingAnchor(doc.path, doc.title, anchor, NOT_IN_REPOSITORY))
            else:
                pairs.append((doc, anchor, normal))

    history = _History({*(normal for _, _, normal in pairs), *(repo.repo_path(d.path) for d in anchored)})
    note: str | None = None
    if repo.has_commits():
        _log(repo, history)
        note = repo.shallow_note()
    else:
        note = NO_COMMITS

    threshold = timedelta(days=threshold_days)
    drifted: list[tuple[timedelta, DriftedPair]] = []
    uncommitted: list[str] = []
    for doc in anchored:
        if history.last(repo.repo_path(doc.path)) is None:
            uncommitted.append(doc.path)
    for doc, anchor, normal in pairs:
        doc_commit = history.last(repo.repo_path(doc.path))
        code_commit = history.last(normal)
        if doc_commit is None or code_commit is None:
            continue
        gap = code_commit.when - doc_commit.when
        if gap <= threshold or gap <= timedelta(0):
            continue
        since = history.since(normal, doc_commit.when)
        drifted.append(
            (
                gap,
                DriftedPair(
                    path=doc.path,
                    title=doc.title,
                    status=doc.status,
                    anchor=anchor,
                    doc_touched=doc_commit.date,
                    code_touched=code_commit.date,
                    ahead_days=gap // timedelta(days=1),
                    commits=tuple(CodeCommit(c.short_hash, c.date, c.subject) for c in since[:COMMITS_SHOWN]),
                    commit_count=len(since),
                ),
            )
        )
    drifted.sort(key=lambda item: (-item[0], item[1].path, item[1].anchor))
    missing.sort(key=lambda m: (m.path, m.anchor))
    return Drift(
        mode="git",
        drifted=tuple(pair for _, pair in drifted),
        missing=tuple(missing),
        uncommitted=tuple(uncommitted),
        repo=str(repo.root),
        note=note,
        **counts,
    )
