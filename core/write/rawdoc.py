"""A document's bytes as an in-place edit sees them: BOM and line endings kept, frontmatter apart.

Edits never re-serialise a document: they change characters of its text and write it back with
the same BOM and the same line-ending style, so every byte they did not mean to touch survives.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memorybank.core.errors import Refusal
from memorybank.core.parse import BOM, split_frontmatter


@dataclass
class RawDoc:
    path: str
    text: str
    """The text with a BOM removed and, when the file uses CRLF throughout, LF line endings."""
    bom: bool
    crlf: bool
    original: bytes
    cr: bool = False
    """The file ends its lines with a lone CR; the text holds LF, and writes put CR back."""

    @classmethod
    def load(cls, root: Path, path: str) -> RawDoc:
        data = (root / path).read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Refusal(
                f"{path} is not valid UTF-8 (byte {error.start}); editing it here could corrupt it. "
                "Re-save it as UTF-8 first.",
                reason="not-utf8",
            ) from None
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        cr = "\r" in text and "\n" not in text
        if cr:
            text = text.replace("\r", "\n")
        lone_lf = text.count("\n") - text.count("\r\n")
        crlf = "\r\n" in text and lone_lf == 0
        if crlf:
            text = text.replace("\r\n", "\n")
        return cls(path=path, text=text, bom=bom, crlf=crlf, original=data, cr=cr)

    def encode(self, text: str) -> bytes:
        """New text in this file's own style."""
        if self.crlf:
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        elif self.cr:
            text = text.replace("\n", "\r")
        return ((BOM if self.bom else "") + text).encode("utf-8")

    def split(self) -> tuple[str, str]:
        """``(head, body)``: the frontmatter block through its closing line, and the rest."""
        head = head_of(self.text)
        return head, self.text[len(head) :]


def head_of(text: str) -> str:
    """The frontmatter block ``text`` reads with, through its closing line ("" when none closes)."""
    split = split_frontmatter(text)
    return text[: split.head_end] if split.closed else ""
