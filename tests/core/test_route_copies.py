"""Copies: byte-identical documents at several paths fold into one route hit that names the others."""

from __future__ import annotations

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
