"""Git, read through GitPython: the repository that holds a bank, and one git command at a time.

Drift and changes are the only answers that need history. Both find the repository the same way
and run git through this module, so a missing git, a bank outside any repository and a git failure
are told apart in one place. Paths are compared as real paths on both ends: a bank reached through
a symbolic link (a temporary directory on macOS, a linked checkout) still lies inside its
repository. GitPython is imported lazily; the MCP server's start-up does not pay for it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memorybank.core.errors import GitError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
"""The hash of the empty tree in a SHA-1 repository: "before anything was committed"."""


@dataclass(frozen=True, slots=True)
class Repository:
    """A git work tree that holds a bank."""

    root: Path
    """Real path of the work tree."""
    bank_prefix: str
    """The bank's real path relative to ``root`` ('' when the bank is the work tree itself)."""
    handle: Any
    """The GitPython ``Repo``."""

    def repo_path(self, bank_path: str) -> str:
        """The repository-relative path of a bank-relative path."""
        return f"{self.bank_prefix}/{bank_path}" if self.bank_prefix else bank_path

    def bank_path(self, repo_path: str) -> str | None:
        """The bank-relative path of a repository-relative path, or None when it lies outside the bank."""
        if not self.bank_prefix:
            return repo_path
        if repo_path.startswith(self.bank_prefix + "/"):
            return repo_path[len(self.bank_prefix) + 1 :]
        return None

    def run(self, *args: str, **kwargs: Any) -> str:
        """Run one git command in the work tree and return its standard output.

        Raises:
            GitError: git exited non-zero; the message carries git's own first line of complaint.
        """
        import git

        try:
            return self.handle.git.execute(["git", *args], with_extended_output=False, **kwargs)
        except git.GitCommandError as error:
            raise GitError(f"git {args[0]} failed in {self.root}: {_first_complaint(error)}") from None

    def succeeds(self, *args: str) -> str | None:
        """Run a git query that may legitimately fail; its output, or None when it failed."""
        import git

        try:
            return self.handle.git.execute(["git", *args], with_extended_output=False)
        except git.GitCommandError:
            return None

    def has_commits(self) -> bool:
        return self.succeeds("rev-parse", "--verify", "--quiet", "HEAD^{commit}") is not None

    def shallow_note(self) -> str | None:
        """What a shallow clone (CI's default checkout) hides from dates read in git, or None for a
        full history: every file last changed before the clone's first commit seems changed in it."""
        if (self.succeeds("rev-parse", "--is-shallow-repository") or "").strip() != "true":
            return None
        first = (self.succeeds("log", "-1", "--format=%h %cs", "--max-parents=0", "HEAD") or "").split()
        start = f" (it starts at {first[0]}, {first[1]})" if len(first) == 2 else ""
        return (
            f"This clone is shallow{start}: a document and its code last changed before that commit both "
            "seem changed in it, so drift and staleness from before it cannot show. Fetch the history "
            "first (git fetch --unshallow) and ask again."
        )


def _first_complaint(error: Any) -> str:
    """Git's first line of complaint out of GitPython's wrapped stderr."""
    text = str(error.stderr or "").strip()
    text = text.removeprefix("stderr:").strip().strip("'")
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return f"exit status {error.status}"


def find_repository(bank_root: Path) -> Repository | None:
    """The git work tree holding ``bank_root``, or None when there is none (or git is not installed).

    The search starts from the bank's real path: a bank that is itself a link into a repository
    belongs to that repository, and a link out of one does not.
    """
    try:
        import git
    except ImportError:  # GitPython refuses to import when no git executable is on PATH
        return None
    real_bank = Path(os.path.realpath(bank_root))
    try:
        handle = git.Repo(real_bank, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    if handle.working_tree_dir is None:  # a bare repository has no files to compare
        return None
    root = Path(os.path.realpath(handle.working_tree_dir))
    try:
        prefix = real_bank.relative_to(root).as_posix()
    except ValueError:
        return None
    return Repository(root=root, bank_prefix="" if prefix == "." else prefix, handle=handle)
