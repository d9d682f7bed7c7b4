"""Routing: the reference's acceptance checks 26-34 on our fixture, the bilingual cases, the layer
and "why" multipliers, body evidence as a secondary term, and the route command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from memorybank.core.bank import Bank
from memorybank.core.errors import UsageError
from memorybank.core.route import BODY_SHARE, EMPTY_HINT, PAIR_BOOST, SECTION_SHARE, route
from memorybank.tui.cli.main import main

from tests.core.route_banks import doc, small_bank

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "banks" / "reference"


@pytest.fixture(scope="module")
def bank() -> Bank:
    return Bank.open(FIXTURE)


def paths(result) -> list[str]:
    return [hit.path for hit in result.hits]


def test_the_owner_of_a_key_answers_its_topic_and_says_why(bank):
    result = route(bank, "filter thresholds")
    assert result.hits[0].path == "domain/rules.md"
    assert "owns canonical_for: filter_thresholds" in result.hits[0].why
    assert result.hits[0].section == "Thresholds" and result.hits[0].section_line == 17


def test_a_compound_key_wins_by_coverage_not_by_one_of_its_words(bank):
    assert route(bank, "frontmatter schema").hits[0].path == "dna/frontmatter.md"


def test_a_why_question_leads_to_the_decision_record(bank):
    assert (
        route(bank, "why one shared queue instead of per-tenant queues").hits[0].path == "adr/ADR-001-queue-choice.md"
    )
    result = route(bank, "почему выбрана эта очередь")
    assert result.why_intent and result.hits[0].path == "adr/ADR-001-queue-choice.md"


def test_delivery_is_damped_below_the_knowledge_it_uses(bank):
    found = paths(route(bank, "raise the filter threshold", limit=10))
    assert found.index("domain/rules.md") < found.index("features/FT-001/brief.md")
    feature = next(h for h in route(bank, "raise the filter threshold", limit=10).hits if h.layer == "delivery")
    assert feature.layer == "delivery" and "delivery" not in feature.why  # the layer is its own field


@pytest.mark.parametrize("question", ["filter thresholds placeholders", "brief template", "placeholder"])
def test_templates_never_appear(bank, question):
    assert not any("templates/" in p and not p.endswith("README.md") for p in paths(route(bank, question, limit=20)))


def test_inbox_notes_never_appear_in_route(fixture_bank, write_file):
    root = fixture_bank()
    write_file(
        root,
        "_inbox/thresholds-note.md",
        "---\ntitle: Filter thresholds note\npurpose: Filter thresholds again.\n"
        "canonical_for: [filter_thresholds]\nstatus: draft\n---\n# Filter thresholds\n\nfilter thresholds " * 3,
    )
    found = paths(route(Bank.open(root), "filter thresholds", limit=25))
    assert found and not any(p.startswith("_inbox/") for p in found)


def test_questions_of_function_words_or_unknown_topics_answer_nothing_with_a_hint(bank):
    for question in ("что как где", "kubernetes ingress certificate rotation"):
        result = route(bank, question)
        assert result.hits == () and result.hint == EMPTY_HINT


def test_a_document_with_invalid_yaml_is_still_routable(bank):
    assert route(bank, "retry backoff jitter").hits[0].path == "broken/bad-yaml.md"


def test_a_russian_question_finds_the_same_document_as_the_english_one(bank):
    english, russian = route(bank, "filter thresholds"), route(bank, "где пороги фильтрации")
    assert russian.hits[0].path == english.hits[0].path == "domain/rules.md"
    assert "filter_thresholds" in russian.hits[0].why and '"thresholds, filter"' in russian.hits[0].why


def test_filters_keep_one_layer_or_one_kind(bank):
    assert set(paths(route(bank, "queue", layer="decision", limit=25))) <= {
        "adr/ADR-001-queue-choice.md",
        "adr/README.md",
    }
    assert paths(route(bank, "queue", layer="decision"))
    assert paths(route(bank, "filter threshold", doc_kind="feature")) == ["features/FT-001/brief.md"]


def test_the_limit_is_checked(bank):
    assert len(route(bank, "thresholds", limit=1).hits) == 1
    for limit in (0, 26):
        with pytest.raises(UsageError):
            route(bank, "thresholds", limit=limit)


def test_the_breakdown_adds_up_to_the_score(bank):
    for hit in route(bank, "filter thresholds", limit=10).hits:
        b = hit.breakdown
        assert b.raw == pytest.approx(b.canonical + b.purpose + b.title + b.heading)
        assert hit.score == pytest.approx(
            (b.raw * b.layer_weight * b.status_weight * b.closed_work + b.body + b.section) * b.intent, abs=0.021
        )
    feature = next(
        h for h in route(bank, "raise the filter threshold", limit=10).hits if h.path.startswith("features/")
    )
    assert feature.breakdown.closed_work == 1.0 and feature.breakdown.layer_weight == pytest.approx(0.6**0.5)


def test_knowledge_outranks_delivery_for_the_same_words(tmp_path):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "engineering/cache.md": doc("Cache invalidation", "When the cache is invalidated.", "Owned here."),
            "features/FT-009/brief.md": doc("Cache invalidation", "When the cache is invalidated.", "The brief."),
        },  # not byte-identical: copies of one file would fold into one hit
    )
    assert paths(route(bank, "cache invalidation")) == ["engineering/cache.md", "features/FT-009/brief.md"]


def test_finished_work_weighs_like_open_work(tmp_path):
    """Closed delivery work (done, cancelled) is not damped: a shipped feature is often the only
    record of how a thing was built, so it competes on its headers and body like open work."""
    text = "The receipt is emailed as a PDF once payment is captured; a failed email is retried hourly."
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-001/feature.md": doc(
                "Order receipts", "Receipts sent after an order.", text + " Shipped.", delivery_status="done"
            ),
            "features/FT-002/feature.md": doc(
                "Order receipts", "Receipts sent after an order.", text + " Planned.", delivery_status="in_progress"
            ),
        },
    )
    hits = {hit.path: hit for hit in route(bank, "how is the order receipt emailed after payment").hits}
    shipped, planned = hits["features/FT-001/feature.md"], hits["features/FT-002/feature.md"]
    assert shipped.breakdown.closed_work == 1.0
    assert shipped.score == pytest.approx(planned.score, abs=0.011)


def test_a_low_layer_is_softened_when_bodies_count_and_kept_for_headers_alone(tmp_path):
    """Delivery (0.6) weighs 0.6 ** 0.5 when body evidence counts, so a feature whose body answers
    is not held far below a knowledge document naming the same topic; weights of 1 and above, and
    the header-only ranking, keep the declared weights."""
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "engineering/cache.md": doc("Cache invalidation", "When the cache is invalidated.", "By the platform."),
            "features/FT-009/feature.md": doc(
                "Cache invalidation",
                "When the cache is invalidated.",
                "On every write the cache entry is dropped; a stale read after a write falls back to the database.",
            ),
        },
    )
    fused = {h.path: h.breakdown.layer_weight for h in route(bank, "cache invalidation").hits}
    alone = {h.path: h.breakdown.layer_weight for h in route(bank, "cache invalidation", body_evidence=False).hits}
    assert fused["features/FT-009/feature.md"] == pytest.approx(0.6**0.5)
    assert alone["features/FT-009/feature.md"] == pytest.approx(0.6)
    assert fused["engineering/cache.md"] == alone["engineering/cache.md"] == pytest.approx(1.5)


def test_a_why_question_turns_the_order_of_knowledge_and_decision(tmp_path):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "engineering/cache.md": doc("Cache invalidation on write", "The cache is invalidated on write."),
            "adr/ADR-007-cache.md": doc("Cache invalidation on write", "The cache is invalidated on write."),
        },
    )
    assert paths(route(bank, "cache invalidated on write"))[0] == "engineering/cache.md"
    assert paths(route(bank, "why is the cache invalidated on write"))[0] == "adr/ADR-007-cache.md"


def test_a_question_asking_who_someone_is_leans_to_the_glossary(tmp_path):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "glossary.md": doc(
                "Glossary", "Terms of the project.", "- **Requester**: the client that orders a collection."
            ),
            "issues/0020/spec.md": doc(
                "Tasks API", "The tasks endpoints.", "The requester sends a token; the requester may list its tasks."
            ),
        },
    )
    assert paths(route(bank, "requester"))[0] == "issues/0020/spec.md"
    assert paths(route(bank, "кто такой requester"))[0] == "glossary.md"


def test_a_template_under_flows_templates_is_never_routed_whatever_function_it_declares(tmp_path):
    """A copied ADR template still saying ``doc_function: canonical`` is placeholders, not a decision."""
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "flows/templates/adr/adr.md": doc(
                "ADR-<id>", "Record the decision.", "## Decision\n", doc_function="canonical"
            ),
            "flows/templates/README.md": doc("Templates", "Where the decision templates live.", doc_function="index"),
            "adr/ADR-002-session.md": doc("ADR-002: Session", "The decision on sessions.", "## Decision\n"),
        },
    )
    assert bank.documents["flows/templates/adr/adr.md"].is_template
    assert not bank.documents["flows/templates/README.md"].is_template
    assert "flows/templates/adr/adr.md" not in paths(route(bank, "decision", limit=25))


def test_a_definition_question_leaves_a_glossary_that_defines_none_of_its_words(tmp_path):
    """The glossary is considered because it defines terms: one holding none of the question's words
    is not put first on the word "glossary" the reader never typed."""
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "glossary.md": doc("Glossary", "Terms of the project.", "- **Requester**: the client that orders."),
            "prd/PRD.md": doc("Product", "What the service does.", "Every retry is idempotent: sent twice, done once."),
        },
    )
    assert paths(route(bank, "кто такой Иван Петров")) == []
    assert paths(route(bank, "what does idempotent mean?")) == ["prd/PRD.md"]
    assert "glossary" not in route(bank, "what does idempotent mean?").hits[0].why
    assert paths(route(bank, "what does requester mean?"))[0] == "glossary.md"


def test_body_evidence_lifts_an_unnamed_document_but_never_above_a_strong_header_match(tmp_path):
    prose = "The scheduler retries a failed upload with jittered backoff. " * 30
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "engineering/retries.md": doc(
                "Upload retries", "How a failed upload is retried with backoff.", canonical_for="[upload_retries]"
            ),
            "engineering/notes.md": doc("Notes", "Loose engineering notes.", prose),
            "engineering/other.md": doc("Other", "Unrelated.", "Nothing here."),
        },
    )
    result = route(bank, "upload retries backoff")
    assert paths(result)[:2] == ["engineering/retries.md", "engineering/notes.md"]
    strong, lifted = result.hits[0], result.hits[1]
    assert lifted.breakdown.raw == 0 and 'body mentions "upload' in lifted.why
    header_score = strong.breakdown.raw * strong.breakdown.layer_weight * strong.breakdown.status_weight
    # at most the whole body and section shares, raised by the question's word pairs held together
    assert lifted.score <= (BODY_SHARE + SECTION_SHARE) * header_score * (1 + PAIR_BOOST) + 0.01
    assert "engineering/notes.md" not in paths(route(bank, "upload retries backoff", body_evidence=False))


def test_an_edit_shows_up_on_the_next_route_after_a_refresh(fixture_bank):
    root = fixture_bank()
    bank = Bank.open(root)
    assert route(bank, "orbital mechanics").hits == ()
    target = root / "orphan.md"
    target.write_text(
        target.read_text(encoding="utf-8").replace("Notes nobody links to.", "Orbital mechanics notes."),
        encoding="utf-8",
    )
    bank.refresh()
    assert paths(route(bank, "orbital mechanics")) == ["orphan.md"]


def test_a_router_kept_up_to_date_answers_exactly_like_a_fresh_one(fixture_bank, write_file):
    """The header index is updated document by document (a removed document's slots leave every
    field's postings, a retitled one is filed anew, layer weights follow): after edits its answers,
    scores and reasons equal those of a bank opened afresh."""
    root = fixture_bank()
    bank = Bank.open(root)
    questions = ["why one shared queue", "filter thresholds", "где пороги фильтрации", "orbital queue notes"]
    for question in questions:  # warm every cache the edits must keep true
        route(bank, question)
    (root / "domain" / "rules.md").unlink()
    orphan = root / "orphan.md"
    orphan.write_text(orphan.read_text(encoding="utf-8").replace("title:", "title: Orbital queue", 1), encoding="utf-8")
    write_file(
        root,
        "engineering/queue-notes.md",
        "---\ntitle: Queue notes\npurpose: Why the queue\n---\n# Queue\n\n## Filter thresholds\n",
    )
    bank.refresh()
    fresh = Bank.open(root)
    for question in questions:
        kept = [(h.path, h.score, h.why, h.section) for h in route(bank, question, limit=10).hits]
        assert kept == [(h.path, h.score, h.why, h.section) for h in route(fresh, question, limit=10).hits]
    assert "domain/rules.md" not in paths(route(bank, "filter thresholds", limit=25))


def test_the_route_command_prints_results_explains_them_and_speaks_json(capsys):
    assert main(["route", "filter thresholds", "--root", str(FIXTURE), "--explain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(" 1. domain/rules.md") and "owns canonical_for: filter_thresholds" in out
    assert "x layer 1.5" in out and "read: ## Thresholds (line 17)" in out
    parts = [line for line in out.splitlines() if line.startswith(("    headers:", "    x layer"))]
    assert parts and not [n for line in parts for n in re.findall(r"\d+\.\d{3,}", line)]  # two decimals at most
    assert main(["route", "где пороги фильтрации", "--root", str(FIXTURE), "--json", "-n", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["hits"][0]["path"] == "domain/rules.md" and "breakdown" not in data["hits"][0]
    assert main(["route", "kubernetes", "--root", str(FIXTURE)]) == 0
    assert "No document matches these words" in capsys.readouterr().out
    assert main(["route", "queue", "--root", str(FIXTURE), "--limit", "99"]) == 2


def test_the_why_names_a_matched_heading_only_where_reading_starts(tmp_path):
    """A heading that scored but is not the section to read is left out of the why: beside a
    `read:` line naming another section it sent the reader two ways (the explain still shows it)."""
    body = "## Handing work over\n\nNothing of the question here.\n\n## Tests\n\nLogin tests cover login and work.\n"
    bank = small_bank(tmp_path / "bank", {"guide.md": doc("Guide", "Miscellany.", body)})
    hit = route(bank, "login work").hits[0]
    assert hit.section == "Tests"  # where the question's words stand together
    assert "heading" not in hit.why and 'body mentions "login, work"' in hit.why
    assert hit.breakdown.heading > 0 and hit.breakdown.heading_section == "Handing work over"
    only = route(bank, "handing over").hits[0]
    assert only.section == "Handing work over" and 'heading matches "Handing work over"' in only.why


@pytest.mark.parametrize(
    ("filters", "known"),
    [({"doc_kind": "nosuchkind"}, "adr"), ({"doc_kind": "ADR"}, "adr"), ({"layer": "nowhere"}, "knowledge")],
)
def test_a_filter_nothing_in_the_bank_has_is_refused_with_the_values_it_knows(bank, filters, known):
    with pytest.raises(UsageError, match=f"Values it knows: .*{known}"):
        route(bank, "queue", **filters)
    assert route(bank, "queue", doc_kind="adr").hits  # a known kind still answers


REAL_BANKS = Path(__file__).resolve().parents[3] / "shared" / "banks"


@pytest.mark.parametrize(
    ("question", "layer", "kind"),
    [
        ("how are sources polled and what happens when a poll fails", "delivery", None),
        ("почему события хранятся в postgres, а не в очереди", "knowledge", None),
        ("health check endpoint response", None, "feature"),
    ],
)
def test_a_filter_keeps_the_unfiltered_ranking_and_its_scores(question, layer, kind):
    """A layer or kind filter only leaves documents out: those it keeps stand in the order and with
    the scores the unfiltered route gives them, so a filtered answer never reads differently."""
    bank = Bank.open(REAL_BANKS / "4itosik__feedium" / "memory_bank")
    kept = [
        (hit.path, hit.score)
        for hit in route(bank, question, limit=25).hits
        if (layer is None or hit.layer == layer) and (kind is None or hit.doc_kind == kind)
    ]
    filtered = [(hit.path, hit.score) for hit in route(bank, question, limit=5, layer=layer, doc_kind=kind).hits]
    assert len(filtered) == 5
    assert filtered == kept[:5]


def test_a_description_stands_for_a_missing_purpose(tmp_path):
    """The name/description frontmatter convention (skills, agents, site pages) says what a document
    is for in ``description``: routing reads it as the purpose, a ``purpose`` beside it wins."""
    described = (
        "---\nname: Retry review\ndescription: Why webhook retries back off exponentially\n---\n# Notes\n\nText.\n"
    )
    both = (
        "---\ntitle: Limits\npurpose: Rate limits of the public API\ndescription: webhook retries back off\n"
        "status: active\n---\n# Limits\n\nText.\n"
    )
    bank = small_bank(tmp_path / "memory_bank", {"reviews/retry.md": described, "api/limits.md": both})
    hit = route(bank, "why do webhook retries back off exponentially").hits[0]
    assert hit.path == "reviews/retry.md"
    assert hit.breakdown.purpose > 0 and "exponentially" in hit.breakdown.purpose_words
    limits = route(bank, "rate limits of the public API", body_evidence=False).hits[0]
    assert limits.path == "api/limits.md" and "webhook" not in limits.breakdown.purpose_words


def test_a_hit_carries_its_delivery_or_decision_status_and_the_command_line_shows_it(tmp_path, capsys):
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "features/FT-010-widget/feature.md": doc(
                "FT-010: Booking widget", "The widget guests book with.", "The widget.", delivery_status="in_progress"
            ),
            "domain/widgets.md": doc("Widgets", "Widget rules.", "Booking widget rules."),
        },
    )
    hits = {h.path: h for h in route(bank, "booking widget").hits}
    assert hits["features/FT-010-widget/feature.md"].progress == "in_progress"
    assert hits["domain/widgets.md"].progress == ""
    assert main(["route", "is the booking widget done", "--root", str(bank.root)]) == 0
    assert "features/FT-010-widget/feature.md" in (out := capsys.readouterr().out)
    assert "[delivery, active, in_progress]" in out


def test_an_identifier_only_the_title_writes_leaves_the_section_to_read_to_the_body(tmp_path):
    """ "IP-based" is written whole only in the title line, which is no place to start reading."""
    body = (
        "## Context\n\nThe login endpoint must resist password guessing.\n\n"
        "## Options considered\n\nLimit by address: chosen, it works before login. By account: rejected.\n"
    )
    bank = small_bank(
        tmp_path / "memory_bank", {"adr/ADR-2.md": doc("ADR-2: IP-based limits on login", "Limits.", body)}
    )
    hit = route(bank, "why did we choose IP-based limiting for login").hits[0]
    assert hit.path == "adr/ADR-2.md" and hit.section == "Options considered"


def test_the_section_to_read_is_the_one_writing_the_identifier_asked_about(tmp_path):
    """For "BL-30": not the section where "bl" and "30" score best, the one listing BL-30."""
    closed = "\n".join(f"- BL-{n}: closed in 30 days, bl item" for n in range(1, 9))
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "backlog.md": doc(
                "Backlog", "Open work.", f"## Closed\n\n{closed}\n\n## Deferred\n\n- BL-30: threads as a view\n"
            ),
        },
    )
    hit = route(bank, "BL-30").hits[0]
    assert hit.path == "backlog.md" and hit.section == "Deferred"


def test_the_why_names_an_identifier_the_question_quotes_as_it_wrote_it(tmp_path):
    """Matched in pieces ("ip", "based"), said whole: "ip, based" read as two unrelated words."""
    from memorybank.core.why import written_whole

    assert written_whole(("ip", "based", "rate"), ("ip-based",)) == ("ip-based", "rate")
    assert written_whole(("ft", "051"), ("ft-051", "bl-30")) == ("ft-051",)
    assert written_whole(("based", "ip"), ("ip-based",)) == ("based", "ip")  # not in its order: left apart
    body = "## Options\n\nLimit by address: chosen, it works before login.\n"
    bank = small_bank(
        tmp_path / "memory_bank", {"adr/ADR-2.md": doc("ADR-2: IP-based limits on login", "Limits.", body)}
    )
    why = route(bank, "why IP-based limits").hits[0].why
    assert 'title matches "ip-based, limits"' in why and '"ip, based' not in why
