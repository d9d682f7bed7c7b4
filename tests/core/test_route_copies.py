"""Copies: byte-identical documents at several paths fold into one route hit that names the others."""

from __future__ import annotations

from memorybank.core.drafts import drafts, named_versions
from memorybank.core.evaluate import RouteCheck, evaluate
from memorybank.core.route import route
from memorybank.mcp_server.tools.reads import compact_hit
from memorybank.tui.cli.routing import format_route

from tests.core.route_banks import doc, small_bank

SPEC = doc("Blob storage spec", "How blobs are stored in S3.", "Blobs go to S3 under a content hash key.")


def _bank(tmp_path):
    return small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0004-blob/spec.md": SPEC,
            "issues/0004-blob/iterations/spec-v2.md": SPEC,
            "features/004/spec.md": SPEC,
            "domain/storage.md": doc("Storage", "Where data lives.", "Blobs in S3, rows in Postgres."),
            "domain/other.md": doc("Other", "Something else.", "Nothing about blobs, of a similar size!!"),
        },
    )


def test_copies_fold_into_one_hit_naming_the_others(tmp_path):
    bank = _bank(tmp_path)
    hits = route(bank, "how are blobs stored in S3").hits
    paths = [hit.path for hit in hits]
    twins = {"issues/0004-blob/spec.md", "issues/0004-blob/iterations/spec-v2.md", "features/004/spec.md"}
    assert len(twins & set(paths)) == 1  # one place in the answer for one text
    first = hits[0]
    assert first.path in twins and {first.path, *first.copies} == twins
    assert paths[1] == "domain/storage.md"  # the next answer is no longer pushed down by a copy
    assert not any(hit.copies for hit in hits[1:])
    assert compact_hit(first)["copies"] == list(first.copies) and "copies" not in compact_hit(hits[1])
    assert "same file: " in format_route(route(bank, "how are blobs stored in S3"))


def test_a_check_expecting_any_copy_counts_the_folded_hit(tmp_path):
    bank = _bank(tmp_path)
    first = route(bank, "how are blobs stored in S3").hits[0]
    other = sorted(first.copies)[0]
    report = evaluate(bank, [RouteCheck("how are blobs stored in S3", (other,), 1)])
    assert report.outcomes[0].rank == 1 and report.outcomes[0].got[0] == first.path


BRIEF = (
    "## Goal\n\nThe service has no component that fetches messages from public Telegram channels, so the plugin "
    "cannot start ingestion: there is no fetch layer that calls the external API, walks its pages and returns "
    "raw data fit for the core.\n\n## Success\n\nA channel id in, a list of message records out, retries on "
    "rate limits.\n"
)
DRAFT = BRIEF + "\nFetching Telegram channel messages: the adapter fetches messages page by page.\n"


def _drafted(tmp_path):
    return small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0006-adapter/brief.md": doc("Brief: Telegram adapter", "What the adapter must do.", BRIEF),
            "issues/0006-adapter/iterations/brief/brief-v1.md": doc(
                "Brief: Telegram adapter", "What the adapter must do.", DRAFT
            ),
            "domain/ingestion.md": doc("Ingestion", "How data enters.", "Plugins fetch messages into the core."),
        },
    )


def test_a_draft_nearly_the_same_as_its_working_copy_follows_it(tmp_path):
    bank = _drafted(tmp_path)
    hits = route(bank, "which component fetches messages from Telegram channels").hits
    paths = [hit.path for hit in hits]
    assert paths.index("issues/0006-adapter/brief.md") < paths.index("issues/0006-adapter/iterations/brief/brief-v1.md")
    draft = hits[paths.index("issues/0006-adapter/iterations/brief/brief-v1.md")]
    assert draft.breakdown.draft_of == "issues/0006-adapter/brief.md"
    assert "a draft of issues/0006-adapter/brief.md" in draft.why
    assert hits[0].breakdown.draft_of is None and not hits[0].copies  # a near copy is not folded


def test_only_near_copies_deeper_or_placed_lower_are_drafts():
    words = {
        "a/b/brief.md": frozenset(f"w{i}" for i in range(40)),
        "a/b/iterations/brief-v1.md": frozenset(f"w{i}" for i in range(42)),  # 40 of 42 shared
        "a/b/iterations/brief-v2.md": frozenset(f"w{i}" for i in range(41)),
        "a/b/plan.md": frozenset(f"w{i}" for i in range(20, 60)),  # a third shared: another text
        "a/b/copy.md": frozenset(f"w{i}" for i in range(40)),  # byte-for-byte copy: folded, not damped
        "a/c/brief.md": frozenset(f"w{i}" for i in range(41)),  # a sibling package's README from one template
    }
    ranked = [
        "a/b/iterations/brief-v1.md",
        "a/b/plan.md",
        "a/b/iterations/brief-v2.md",
        "a/b/brief.md",
        "a/b/copy.md",
        "a/c/brief.md",
    ]
    found = drafts(ranked, words.__getitem__, {"a/b/copy.md": ("a/b/brief.md",), "a/b/brief.md": ("a/b/copy.md",)})
    assert found == {"a/b/iterations/brief-v1.md": "a/b/brief.md", "a/b/iterations/brief-v2.md": "a/b/brief.md"}


def test_a_file_named_a_version_or_a_review_of_a_document_above_it_is_its_draft():
    paths = {
        "issues/0006/brief.md",
        "issues/0006/iterations/brief/brief-v2.md",  # two folders up
        "issues/0006/iterations/brief/brief-review-3.md",
        "issues/0006/brief-V1.md",  # its own folder, either case
        "issues/0006/iterations/plan/plan-v1.md",  # no plan.md within reach
        "plan.md",
        "features/a/b/c/plan-v2.md",  # the bank's plan.md is four folders up: another document
        "adr/ADR-002.md",  # a number, not a version
        "issues/0006/iterations/code/code-review-1.md",  # a review of code, no code.md
    }
    assert named_versions(paths) == {
        "issues/0006/iterations/brief/brief-v2.md": "issues/0006/brief.md",
        "issues/0006/iterations/brief/brief-review-3.md": "issues/0006/brief.md",
        "issues/0006/brief-V1.md": "issues/0006/brief.md",
    }


def test_a_review_that_repeats_the_question_more_than_the_brief_follows_it(tmp_path):
    review = doc(
        "Review of the adapter brief",
        "Remarks on the brief.",
        "The brief says the adapter fetches messages from Telegram channels, but fetching messages from "
        "Telegram channels page by page needs a retry rule. Fetch messages from channels: unclear.",
    )
    bank = small_bank(
        tmp_path / "memory_bank",
        {
            "issues/0006-adapter/brief.md": doc("Brief: Telegram adapter", "What the adapter must do.", BRIEF),
            "issues/0006-adapter/iterations/brief/brief-review-1.md": review,
        },
    )
    hits = route(bank, "which component fetches messages from Telegram channels").hits
    assert [hit.path for hit in hits] == [
        "issues/0006-adapter/brief.md",
        "issues/0006-adapter/iterations/brief/brief-review-1.md",
    ]
    assert hits[1].breakdown.draft_of == "issues/0006-adapter/brief.md"
    assert "a draft of issues/0006-adapter/brief.md" in hits[1].why
    headers_only = route(bank, "which component fetches messages from Telegram channels", body_evidence=False)
    assert all(hit.breakdown.draft_of is None for hit in headers_only.hits)  # the reference's ranking is kept
