"""Text a write takes from a file (``bodyFile``, ``contentFile``): only from inside the project.

A file path is an argument an agent chooses, and over HTTP any local process can be that agent.
So a supplied file must be a regular file inside the project that holds the bank (its git work
tree, else the bank's parent folder) and not in git's own folder, no larger than the write accepts, and is opened without
blocking: never ``/etc/passwd``, ``/proc/self/environ``, a FIFO or ``/dev/zero``. A path outside
the project is refused with the same words whether or not it exists, so the refusal tells nothing
about the rest of the machine. A server may switch supplied files off altogether.
"""

from __future__ import annotations

import os
from pathlib import Path

from memorybank.core.errors import Refusal
from memorybank.core.regular import TooLarge, Unreadable, read_regular
from memorybank.core.write.state import git_directory
from memorybank.core.write.values import TEXT_LIMIT


def project_root(bank_root: Path) -> Path:
    """The folder a supplied file must lie in: the git work tree holding the bank, else its parent."""
    real = Path(os.path.realpath(bank_root))
    for directory in (real, *real.parents):
        if (directory / ".git").exists():
            return directory
        if git_directory(directory) is None:
            break
    return real.parent


def read_supplied(bank_root: Path, file: str, name: str, *, cwd: Path | None, allowed: bool) -> str:
    """The UTF-8 text of the file ``file`` names (absolute, or relative to ``cwd``).

    Raises:
        Refusal: files are off here, the file is outside the project, not a regular file, too
            large, unreadable or not UTF-8; nothing was read outside the project.
    """
    if not allowed:
        raise Refusal(
            f"{name}File is switched off on this server (it can be reached by other local programs); "
            f"pass the text inline as {name}.",
            reason="files-off",
        )
    if "\x00" in file:
        raise Refusal(f"{name}File holds a NUL byte, which no file name can: {file!r}", reason="nul-byte")
    project = project_root(bank_root)
    given = Path(file).expanduser()
    path = Path(os.path.realpath(given if given.is_absolute() else (cwd or Path.cwd()) / given))
    if path != project and project not in path.parents:
        resolved = "" if given.is_absolute() else " (a relative path is read from the server's working directory)"
        raise Refusal(
            f'{name}File "{file}" is outside the project ({project}){resolved}; only files inside it can be '
            f"read. Pass the text inline as {name} instead, or a path inside the project.",
            reason="outside-project",
        )
    if ".git" in path.relative_to(project).parts or _inside(path, git_directory(project)):
        raise Refusal(
            f"{name}File \"{file}\" lies in git's own folder, which holds the repository's remotes and "
            f"settings, not text for the bank. Pass the text inline as {name}, or a file of the project.",
            reason="git-internal",
        )
    try:
        data = read_regular(path, TEXT_LIMIT, follow_links=False)
    except TooLarge as error:
        raise Refusal(
            f'{name}File "{file}" is {error.size:,} bytes, past the {TEXT_LIMIT:,} a write accepts. '
            "Split it, or write the document section by section.",
            reason="too-large",
        ) from None
    except Unreadable as error:
        raise _unreadable(file, name, error.reason) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _unreadable(file, name, "it is not UTF-8 text") from None


def _inside(path: Path, folder: Path | None) -> bool:
    return folder is not None and (path == folder or Path(os.path.realpath(folder)) in path.parents)


def _unreadable(file: str, name: str, reason: str) -> Refusal:
    return Refusal(
        f'{name}File "{file}" could not be read ({reason}). The path is absolute, or relative to the '
        "working directory.",
        reason="unreadable-file",
    )
