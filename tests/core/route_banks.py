"""Small banks written for routing tests: a few documents, each a title, a purpose and a body."""

from __future__ import annotations

from pathlib import Path

from memorybank.core.bank import Bank


def small_bank(root: Path, files: dict[str, str]) -> Bank:
    """A bank at ``root`` holding ``files`` (bank path -> text), opened."""
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return Bank.open(root)


def doc(title: str, purpose: str, body: str = "", **fields: str) -> str:
    """An active document's text: its frontmatter (``fields`` added), its title as a heading, ``body``."""
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ntitle: {title}\npurpose: {purpose}\nstatus: active\n{extra}---\n# {title}\n\n{body}\n"
