"""A file's version: what ``bank_read`` reports and ``ifVersion`` checks before a write lands."""

from __future__ import annotations

import hashlib


def version_of(data: bytes) -> str:
    """The start of the bytes' SHA-256: twelve hex digits tell two versions of a document apart."""
    return hashlib.sha256(data).hexdigest()[:12]
