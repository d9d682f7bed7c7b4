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


def test_route_hits_stay_compact_on_the_real_banks():
    """What an agent pays per hit on banks other people wrote: under 250 characters on average over
    a dozen of each bank's questions, the why one line of at most 160."""
    from memorybank.core.bank import Bank
    from memorybank.core.evaluate import load_checks
    from memorybank.core.route import route
    from memorybank.mcp_server.surface import chars
    from memorybank.mcp_server.tools.reads import compact_hit

    from tests.benchmarks.route_quality import SETS
    from tests.conftest import REAL_BANKS

    if not REAL_BANKS:
        pytest.skip("the real banks are not beside the project")
    sizes = []
    for root in REAL_BANKS:
        bank = Bank.open(root)
        questions = SETS["held-out-6"] / f"{root.parent.name}.md"  # the one set written for every bank
        for check in load_checks(bank, questions.read_text(encoding="utf-8"))[:12]:
            for hit in map(compact_hit, route(bank, check.question).hits):
                assert "\n" not in hit["why"] and len(hit["why"]) <= 160, hit
                sizes.append(chars(hit))
    assert len(sizes) > 300 and sum(sizes) / len(sizes) < 250


async def test_an_empty_answer_still_names_its_list_in_the_text(open_session, reference_root):
    async with open_session(reference_root) as s:
        result = await s.result("bank_route", question="что как где")
        text = json.loads(result.content[0].text)
        assert text["hits"] == [] and result.structured_content["hits"] == [] and "bank_search" in text["hint"]


async def test_an_edit_that_keeps_size_and_mtime_is_searched_and_routed_at_once(open_session, seeded_root):
    import os

    target = seeded_root / "README.md"
    head, body = target.read_text(encoding="utf-8").split("\n---\n", 1)
    word = next(w for w in body.split() if w.isalpha() and len(w) == 8)
    async with open_session(seeded_root) as s:
        assert (await s.call("bank_search", query=word))["hits"]
        stat = target.stat()
        target.write_text(head + "\n---\n" + body.replace(word, "Zorblaxq", 1), encoding="utf-8")
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as cp -p, rsync -a and touch -r do
        assert target.stat().st_size == stat.st_size
        assert [h["path"] for h in (await s.call("bank_search", query="Zorblaxq"))["hits"]] == ["README.md"]
        assert [h["path"] for h in (await s.call("bank_route", question="zorblaxq"))["hits"]][:1] == ["README.md"]


async def test_a_status_question_gets_each_hits_progress_and_others_do_not_pay_for_it(open_session, tmp_path):
    """ "Is the booking widget done?": ``active`` reads as yes; the delivery status says in progress."""
    from tests.core.route_banks import doc, small_bank

    root = tmp_path / "memory_bank"
    small_bank(
        root,
        {
            "features/FT-010-widget/feature.md": doc(
                "FT-010: Booking widget", "The widget guests book with.", "The widget.", delivery_status="in_progress"
            ),
            "adr/ADR-004-cents.md": doc("ADR-004: Cents", "Money in cents.", "Cents.", decision_status="accepted"),
        },
    )
    async with open_session(root) as s:
        asked = (await s.call("bank_route", question="is the booking widget done"))["hits"]
        assert asked[0]["path"] == "features/FT-010-widget/feature.md" and asked[0]["progress"] == "in_progress"
        told = (await s.call("bank_route", question="booking widget"))["hits"]
        assert told[0]["path"] == "features/FT-010-widget/feature.md" and "progress" not in told[0]
        assert (await s.call("bank_route", question="what is the status of cents"))["hits"][0]["progress"] == "accepted"
