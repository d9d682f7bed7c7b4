"""Byte-faithful edits on copies of the real banks: only the intended bytes change."""

from __future__ import annotations

import difflib

import pytest
from memorybank.core.bank import Bank
from memorybank.core.write.edit import update_section
from memorybank.core.write.fields import set_status

from tests.conftest import REAL_BANKS, checkout, real_bank_ids

pytestmark = pytest.mark.skipif(not REAL_BANKS, reason="../shared/banks is not beside the project")


@pytest.fixture(params=REAL_BANKS, ids=real_bank_ids())
def real_copy(request, tmp_path) -> Bank:
    checkout(request.param, tmp_path / "memory_bank")
    return Bank.open(tmp_path / "memory_bank")


def changed_lines(before: bytes, after: bytes) -> list[str]:
    a = before.decode("utf-8").splitlines(keepends=True)
    b = after.decode("utf-8").splitlines(keepends=True)
    return [
        line for line in difflib.unified_diff(a, b, n=0) if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_update_section_changes_only_that_section(real_copy):
    docs = [d for d in real_copy if len(d.sections) >= 2 and not d.is_template and not d.decode_error][:12]
    assert docs
    for doc in docs:
        path = real_copy.root / doc.path
        before = path.read_bytes()
        target = doc.sections[len(doc.sections) // 2]
        update_section(real_copy, path=doc.path, section=target.title, content="Replaced for the test.")
        after = path.read_bytes()
        before_lines = before.decode("utf-8").split("\n")
        after_lines = after.decode("utf-8").split("\n")
        start = target.line - 1
        removed = target.end_line - target.line + 1
        assert after_lines[:start] == before_lines[:start], doc.path  # frontmatter and earlier sections
        tail_before = before_lines[start + removed :]
        assert after_lines[len(after_lines) - len(tail_before) :] == tail_before, doc.path  # later sections
        assert before.startswith(b"\xef\xbb\xbf") == after.startswith(b"\xef\xbb\xbf")
        assert (b"\r\n" in before) == (b"\r\n" in after)


def test_set_status_changes_only_the_status_line(real_copy):
    docs = [
        d
        for d in real_copy
        if d.status == "active"
        and not d.canonical_for
        and not d.is_template
        and not d.is_inbox
        and d.has_frontmatter
        and not d.parse_error
    ][:12]
    assert docs
    for doc in docs:
        path = real_copy.root / doc.path
        before = path.read_bytes()
        result = set_status(real_copy, path=doc.path, status="draft")
        assert result.changed
        diff = changed_lines(before, path.read_bytes())
        assert len(diff) == 2 and diff[0].startswith("-status:") and diff[1].rstrip("\r\n") == "+status: draft", (
            doc.path,
            diff,
        )
