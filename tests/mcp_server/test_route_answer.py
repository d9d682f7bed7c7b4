"""The shape of bank_route's answer: compact enough that routing before every read stays cheap."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.anyio


async def test_route_hits_are_compact_one_line_and_name_the_section_to_read(open_session, reference_root):
    async with open_session(reference_root) as s:
        answer = await s.call("bank_route", question="filter thresholds")
        hits = answer["hits"]
        assert hits and set(hits[0]) >= {"path", "title", "layer", "score", "why", "section", "line"}
        assert hits[0]["section"] == "Thresholds" and hits[0]["line"] == 17
        for hit in hits:
            assert "\n" not in hit["why"] and "purpose" not in hit
            assert len(json.dumps(hit, ensure_ascii=False)) < 250
            assert hit.get("status", "draft") != "active"  # shown only when it is not active
