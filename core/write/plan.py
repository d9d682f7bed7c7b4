"""A write as a plan: the file changes one operation makes, before it makes them.

Every gated write builds its changes in memory first. The plan is what every face shows: the MCP
``dryRun`` answer, the CLI's ``--dry-run``, the workbench's preview. A dry run is a plan that is
not committed; a commit lands exactly the plan's changes, all of them or none.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memorybank.core.errors import Refusal
from memorybank.core.versions import version_of

ChangeKind = Literal["create", "modify", "delete"]


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a write creates, changes or removes, with its bytes before and after."""

    path: str
    """The bank path."""
    kind: ChangeKind
    before: bytes | None
    """The file's bytes now; None when the write creates it."""
    after: bytes | None
    """The file's bytes once written; None when the write removes it."""

    @staticmethod
    def _text(data: bytes | None) -> str:
        return "" if data is None else data.decode("utf-8", errors="replace").lstrip("\ufeff").replace("\r\n", "\n")

    @property
    def text_before(self) -> str:
        return self._text(self.before)

    @property
    def text_after(self) -> str:
        return self._text(self.after)

    def diff(self, context: int = 3) -> list[str]:
        """A unified diff of the change (LF text, file headers dropped)."""
        lines = difflib.unified_diff(self.text_before.split("\n"), self.text_after.split("\n"), lineterm="", n=context)
        return [line for line in lines if not line.startswith(("---", "+++"))]

    def added_lines(self) -> list[str]:
        """The lines this change adds (every line of a new file)."""
        if self.kind == "create":
            return self.text_after.rstrip("\n").split("\n")
        return [line[1:] for line in self.diff(0) if line.startswith("+")]


@dataclass(frozen=True, slots=True)
class Plan:
    """The file changes of one operation, in the order they land."""

    changes: tuple[FileChange, ...] = ()

    @property
    def paths(self) -> list[str]:
        return [c.path for c in self.changes]

    def change(self, path: str) -> FileChange | None:
        return next((c for c in self.changes if c.path == path), None)

    def __add__(self, other: Plan) -> Plan:
        """Two plans as one: a file both touch keeps the first's ``before`` and the second's ``after``."""
        merged: dict[str, FileChange] = {c.path: c for c in self.changes}
        for change in other.changes:
            first = merged.get(change.path)
            if first is None:
                merged[change.path] = change
                continue
            before, after = first.before, change.after
            if before is None and after is None:
                del merged[change.path]
                continue
            kind: ChangeKind = "create" if before is None else ("delete" if after is None else "modify")
            merged[change.path] = FileChange(change.path, kind, before, after)
        return Plan(tuple(merged.values()))


def unchanged_since(root: Path, shown: Plan) -> None:
    """Refuse a commit whose files are not as they were when ``shown`` was previewed.

    A face previews a write, the owner reads it and confirms; meanwhile another process may have
    written one of its files. The write planned again at the confirmation would then land on what
    that process wrote (a section replaced with the line it added gone), which the preview never
    showed. Each file the preview read must still hold the same bytes (or still be missing).

    Raises:
        Refusal: a file changed; nothing was written.
    """
    changed = []
    for change in shown.changes:
        target = root / change.path
        try:
            now: bytes | None = target.read_bytes()
        except FileNotFoundError:
            now = None
        except OSError:
            now = b""  # unreadable now: not what the preview read
        if now != change.before:
            changed.append(change.path)
    if changed:
        raise Refusal(
            f"{', '.join(changed)} changed since the preview (another process wrote to it); nothing was "
            "written. Preview again to see the write as it now stands.",
            reason="changed-since-preview",
        )


def unchanged_since_read(path: str, data: bytes, expected: str | None) -> None:
    """Refuse a write to ``path`` (whose bytes are ``data`` now) when the caller read another version;
    an empty version is refused too, not read as "no check" (a caller that meant one would lose it)."""
    if expected is not None and not expected.strip():
        raise Refusal(
            f"`ifVersion` is empty; nothing was written to {path}. Pass the version bank_read reported (now "
            f"{version_of(data)}), or leave ifVersion out to write without the check.",
            reason="usage",
        )
    if expected is not None and expected.strip() and version_of(data) != expected.strip():
        raise Refusal(
            f"{path} changed since you read it (version {expected.strip()}, now {version_of(data)}); nothing was "
            "written. Read it again and make the change on what it now says.",
            reason="changed-since-read",
        )
