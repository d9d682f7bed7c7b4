"""What the workbench remembers between runs: the theme, the last pane shown, the width of the
Document pane's outline. One small JSON file in the user's config directory (``$XDG_CONFIG_HOME``,
else ``~/.config``), written whole through a temporary file; a missing or broken file means the
defaults, never an error."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memorybank" / "workbench.json"


@dataclass
class Settings:
    """The remembered choices; None means the default."""

    theme: str | None = None
    pane: str | None = None
    """The id of the last pane shown (``route``, ``inbox``...)."""
    outline_width: int | None = None
    """Columns of the Document pane's outline."""

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        try:
            data = json.loads((path or config_path()).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {f.name: f.type for f in fields(cls)}
        kept = {k: v for k, v in data.items() if k in known and (v is None or isinstance(v, (str, int)))}
        settings = cls(**kept)
        if not isinstance(settings.outline_width, int) or isinstance(settings.outline_width, bool):
            settings.outline_width = None
        return settings

    def save(self, path: Path | None = None) -> None:
        """Write the file; a read-only home only means nothing is remembered."""
        target = path or config_path()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temporary = target.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
            os.replace(temporary, target)
        except OSError:
            pass

    def update(self, **changes: object) -> None:
        """Change some choices and write them, when they changed."""
        if any(getattr(self, key) != value for key, value in changes.items()):
            for key, value in changes.items():
                setattr(self, key, value)
            self.save()
