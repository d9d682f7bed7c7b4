"""Inputs whose size decides an answer's size or a call's time are bounded.

A new document's frontmatter is bounded like its body: a list parameter holds at most a few hundred
items and ``extra`` at most 64 KB, so one call can neither hold the bank's lock for minutes (every
other writer waiting) nor write, and echo back, megabytes of frontmatter. A batch read holds at most
a hundred requests, so its answer stays near its 40,000-byte budget instead of listing thousands of
skipped or failed paths. A frontmatter value is one line of text that displays as it reads."""

from __future__ import annotations

import time

import pytest

from tests.conftest import tree_snapshot
from tests.mcp_server.conftest import connect

pytestmark = pytest.mark.anyio

BASE = dict(docKind="domain", path="domain/big.md", title="Big", purpose="p")
HUGE = {
    "derived-from": dict(derivedFrom=["../product/context.md"] * 20_000),
    "canonical-for": dict(canonicalFor=[f"key_{n}" for n in range(20_000)]),
    "must-not-define": dict(mustNotDefine=[f"key_{n}" for n in range(20_000)]),
    "extra-long-list": dict(extra={"tags": ["y" * 4_000] * 200}),
    "extra-many-keys": dict(extra={f"k{n}": "v" for n in range(20_000)}),
}


@pytest.mark.parametrize("case", sorted(HUGE))
async def test_a_huge_frontmatter_is_refused_quickly_and_briefly(seeded_root, case):
    from memorybank.mcp_server.server import build_server

    before = tree_snapshot(seeded_root.parent)
    async with connect(build_server(seeded_root)) as s:
        started = time.perf_counter()
        message = await s.refusal("bank_create", **BASE, **HUGE[case])
        assert time.perf_counter() - started < 5
        assert "Refused (too-large)" in message and len(message) < 400
    assert tree_snapshot(seeded_root.parent) == before


async def test_a_batch_read_is_bounded_in_requests_as_in_bytes(seeded_root):
    from memorybank.mcp_server.server import build_server

    async with connect(build_server(seeded_root)) as s:
        for paths in (["dna/governance.md"] * 5_000, [f"nope{n}.md" for n in range(5_000)]):
            message = await s.refusal("bank_read", path=paths)
            assert "at most 100" in message and len(message) < 400
        assert "list of paths is empty" in await s.refusal("bank_read", path=[])
        answer = await s.result("bank_read", path=["dna/governance.md"] * 100)
        assert not answer.is_error and len(answer.content[0].text) < 80_000


@pytest.mark.parametrize("mark", ["\u202e", "\u202d", "\u2066", "\u2069"])
async def test_a_frontmatter_value_cannot_reorder_how_it_is_displayed(seeded_root, mark):
    """Bidirectional overrides and isolates make a value read one way in the workbench and another
    way to the router and to git: a title or purpose holding one is refused like a control character."""
    from memorybank.mcp_server.server import build_server

    before = tree_snapshot(seeded_root.parent)
    async with connect(build_server(seeded_root)) as s:
        message = await s.refusal("bank_set_field", path="product/context.md", field="purpose", value=f"a{mark}b")
        assert "Refused (control-character)" in message
        message = await s.refusal("bank_create", **{**BASE, "title": f"Safe{mark}txt.exe"})
        assert "Refused (control-character)" in message
    assert tree_snapshot(seeded_root.parent) == before
