"""The command line that opens a file at a line in the user's editor."""

from __future__ import annotations

import shlex
from pathlib import Path

GOTO_FLAG = {"code", "code-insiders", "codium", "cursor", "windsurf"}
"""Editors that take ``--goto FILE:LINE``."""
COLON_LINE = {"subl", "zed", "hx", "helix", "kate"}
"""Editors that take ``FILE:LINE``."""


def editor_command(editor: str, path: Path | str, line: int) -> list[str]:
    """``$EDITOR`` (which may carry arguments) opening ``path`` at ``line``; ``+LINE FILE`` is the
    convention of vi, vim, neovim, nano, emacs, micro and most terminal editors."""
    parts = shlex.split(editor)
    name = Path(parts[0]).name if parts else ""
    line = max(int(line), 1)
    if name in GOTO_FLAG:
        return [*parts, "--goto", f"{path}:{line}"]
    if name in COLON_LINE:
        return [*parts, f"{path}:{line}"]
    return [*parts, f"+{line}", str(path)]
