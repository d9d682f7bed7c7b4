"""Numbered series: "the second plan review" picks plan-review-2 out of its siblings."""

from __future__ import annotations

from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.route import route
from memorybank.core.series import LAST, PACKAGE_LIFT, SERIES_LIFT, numbered_series, ordinals
from memorybank.tui.cli.routing import format_route

from tests.core.route_banks import doc, small_bank

BANKS = Path(__file__).resolve().parents[3] / "shared" / "banks"


@pytest.mark.parametrize(
    ("question", "places"),
    [
        ("what did the second review of the plan find", [2]),
        ("Что второе ревью плана нашло?", [2]),
        ("ревью восьмой версии брифа", [8]),
        ("в третьей версии плана", [3]),
        ("the last code review, then plan-v2 and review 3", [LAST, 2, 3]),
        ("последнее ревью спеки", [LAST]),
        ("runs on Ruby 3.4 with 12.5% coverage", []),  # a version number or a share names no place
        ("what should I check first", [1]),
        ("who reviewed the plan", []),
    ],
)
def test_ordinals_read_places_in_either_language(question, places):
    assert ordinals(question) == places


def test_a_series_is_one_folder_s_file_names_differing_by_a_trailing_number(tmp_path):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0001/iterations/plan-review-1.md": doc("R1", "Review."),
            "issues/0001/iterations/plan-review-2.md": doc("R2", "Review."),
            "issues/0001/iterations/plan-v1.md": doc("V1", "Plan."),
            "issues/0001/iterations/plan-v2.md": doc("V2", "Plan."),
            "issues/0002/iterations/plan-review-1.md": doc("R1", "Review."),  # alone: still the first review
            "adr/ADR-001-storage.md": doc("ADR-001", "Storage."),  # the number is not trailing
            "features/legacy/001.md": doc("One", "Legacy."),  # a number alone names no series
            "features/legacy/002.md": doc("Two", "Legacy."),
        },
    )
    found = {(s.words, tuple(sorted(s.members))) for s in numbered_series(bank.documents.values())}
    assert found == {(("plan", "review"), (1, 2)), (("plan", "version"), (1, 2)), (("plan", "review"), (1,))}


REVIEW_BODY = (
    "The plan for the checkpoint store was reviewed against the spec. Step 3 writes the checkpoint "
    "and the cursor together; the remark concerns {}."
)


def _review_bank(root: Path) -> Bank:
    files = {
        f"issues/0002-checkpoint/iterations/plan/plan-review-{n}.md": doc(
            f"Plan review {n}: checkpoint store",
            "Remarks on a version of the checkpoint plan.",
            REVIEW_BODY.format(topic),
        )
        for n, topic in ((1, "the missing rollback test"), (2, "a deep freeze"), (3, "naming"))
    }
    files.update(
        {
            f"issues/0002-checkpoint/iterations/plan/plan-v{n}.md": doc(
                f"Plan v{n}: checkpoint store", "A version of the checkpoint plan.", REVIEW_BODY.format("steps")
            )
            for n in (1, 2, 3)
        }
    )
    files["issues/0002-checkpoint/plan.md"] = doc("Plan: checkpoint store", "How the checkpoint store is built.")
    return small_bank(root / "memory_bank", files)


def test_the_member_a_question_names_by_its_place_leads_its_series(tmp_path):
    bank = _review_bank(tmp_path)
    for question, expected in [
        ("what did the second review of the checkpoint plan object to", "plan-review-2.md"),
        ("Что второе ревью плана чекпойнта нашло?", "plan-review-2.md"),
        ("the last review of the checkpoint plan", "plan-review-3.md"),
        ("review 1 of the checkpoint plan", "plan-review-1.md"),
        ("the review of the third version of the checkpoint plan", "plan-review-3.md"),  # more of its name
        ("what changed in the second version of the checkpoint plan", "plan-v2.md"),
    ]:
        first = route(bank, question).hits[0]
        assert first.path.endswith(expected), question
        assert first.breakdown.place == int(expected.rstrip(".md")[-1])
        assert first.breakdown.draft_of is None  # asked for by name: not damped as a version
        asked = "the last" if "last" in question else f"number {first.breakdown.place}"
        assert f"the question asks for {asked} of its series" in first.why
        assert first.breakdown.place_last == ("last" in question)


def test_a_place_without_the_series_name_or_without_the_body_term_lifts_nothing(tmp_path):
    bank = _review_bank(tmp_path)
    for question in (
        "what was checked first in the checkpoint store",
        "the checkpoint plan",
        "what should I check first in a checkpoint plan review",  # the place is far from the series' name
        "the checkpoint plan review of issue 2",  # a figure after another word is that word's number
        "step 3 of the checkpoint plan review",
    ):
        assert all(hit.breakdown.place == 0 for hit in route(bank, question).hits), question
    headers_only = route(bank, "the second review of the checkpoint plan", body_evidence=False)
    assert all(hit.breakdown.place == 0 for hit in headers_only.hits)  # the reference's ranking is kept


def test_explain_shows_the_lift(tmp_path):
    bank = _review_bank(tmp_path)
    result = route(bank, "the second review of the checkpoint plan")
    assert f"number 2 of its series: its best x {SERIES_LIFT:g}" in format_route(result, explain=True)


def test_the_package_the_question_names_chooses_whose_member_is_meant(tmp_path):
    files = {
        "issues/0001-plugin-contract/report.md": doc("Report: plugin contract", "How the plugin contract cycle went."),
        "issues/0001-plugin-contract/brief.md": doc("Brief", "Черновик.", "Контракт шага синка."),
        "issues/0006-telegram-client/report.md": doc("Report: Telegram client", "How the client cycle went."),
        "issues/0006-telegram-client/brief.md": doc("Brief", "Draft.", "The Telegram client."),
    }
    for n in (1, 2, 3):
        files[f"issues/0001-plugin-contract/iterations/brief/brief-v{n}.md"] = doc(
            "Brief draft", "Черновик брифа.", f"Версия {n}: контракт шага синка и состояние."
        )
        files[f"issues/0006-telegram-client/iterations/brief/brief-v{n}.md"] = doc(
            "Brief: Telegram client",
            "A brief draft.",
            f"Version {n} of the brief: the Telegram client fetches messages.",
        )
    bank = small_bank(tmp_path / "memory_bank", files)
    result = route(bank, "the second version of the brief for the plugin contract")
    first = result.hits[0]
    assert first.path == "issues/0001-plugin-contract/iterations/brief/brief-v2.md"
    assert first.breakdown.place == 2 and first.breakdown.place_package
    assert first.score > next(h.score for h in result.hits if h.path.endswith("plugin-contract/report.md"))
    assert f"number 2 of its series: its package's best x {PACKAGE_LIFT:g}" in format_route(result, explain=True)


@pytest.mark.skipif(not BANKS.is_dir(), reason="needs ../shared/banks")
def test_on_a_real_bank_the_review_asked_for_comes_first():
    bank = Bank.open(BANKS / "asromanychev__ai-setup" / "memory_bank")
    hits = route(bank, "Что второе ревью плана контракта плагина нашло недоделанным в глубокой заморозке?").hits
    assert hits[0].path == "issues/0001-plugin-contract/iterations/plan/plan-review-2.md"
    hits = route(bank, "the last review of the plugin contract plan").hits
    assert hits[0].path == "issues/0001-plugin-contract/iterations/plan/plan-review-4.md"


def test_a_lone_numbered_file_is_the_first_of_its_series(tmp_path):
    body = "The plan for the {} was reviewed against its spec; the remarks concern retries and naming."
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0001-store/iterations/plan/plan-review-1.md": doc(
                "Plan review 1", "Remarks.", body.format("store")
            ),
            "issues/0001-store/iterations/plan/plan-review-2.md": doc(
                "Plan review 2", "Remarks.", body.format("store")
            ),
            "issues/0007-telegram/iterations/plan/plan-review-1.md": doc(
                "Plan review 1", "Remarks.", body.format("telegram plugin")
            ),
            "issues/0007-telegram/plan.md": doc(
                "Plan: telegram plugin", "How the telegram plugin is built.", body.format("telegram plugin")
            ),
        },
    )
    hits = route(bank, "the first plan review of the telegram plugin").hits
    lone = next(hit for hit in hits if hit.path == "issues/0007-telegram/iterations/plan/plan-review-1.md")
    assert lone.breakdown.place == 1 and hits.index(lone) < 2  # beside the plan it reviews, lifted as its series' first


def test_a_member_asked_for_is_not_damped_as_a_near_copy_of_its_working_copy(tmp_path):
    text = " ".join(f"word{n}" for n in range(60)) + " the brief says the adapter fetches channel messages."
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0006/brief.md": doc("Brief: adapter", "What the adapter must do.", text),
            "issues/0006/iterations/brief/brief-v1.md": doc("Brief v1", "A draft.", text + " first"),
            "issues/0006/iterations/brief/brief-v2.md": doc("Brief v2", "A draft.", text + " second"),
        },
    )
    first = route(bank, "what did the second version of the adapter brief say").hits[0]
    assert first.path == "issues/0006/iterations/brief/brief-v2.md" and first.breakdown.draft_of is None
