"""The index on the five real banks beside the project, checked against independently computed counts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from memorybank.core.bank import Bank
from memorybank.core.stats import bank_stats

from tests.conftest import REAL_BANKS, real_bank_ids

pytestmark = pytest.mark.skipif(not REAL_BANKS, reason="../shared/banks is not beside the project")


def independent_scan(root: Path) -> dict:
    """Counts computed without the product's parser: os.walk, PyYAML's own safe_load."""
    files = []
    for directory, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "dist")]
        files += [Path(directory) / n for n in names if n.endswith(".md") and not n.startswith(".")]
    no_frontmatter, errors, edges, keys = [], [], 0, set()
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
        rel = path.relative_to(root).as_posix()
        if not text.startswith("---\n") and not text.startswith("---\r\n"):
            no_frontmatter.append(rel)
            continue
        block = text.split("\n---", 1)[0][4:]
        try:
            data = yaml.safe_load(block) or {}
        except yaml.YAMLError:
            errors.append(rel)
            continue
        derived = data.get("derived_from")
        if isinstance(derived, (str, dict)):
            derived = [derived]
        edges += sum(
            1 for d in derived or [] if isinstance(d, str) or (isinstance(d, dict) and isinstance(d.get("path"), str))
        )
        canonical = data.get("canonical_for")
        if isinstance(canonical, str):
            canonical = [canonical]
        keys.update(k.strip() for k in canonical or [] if isinstance(k, str) and k.strip())
    return {
        "documents": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "no_frontmatter": sorted(no_frontmatter),
        "errors": sorted(errors),
        "edges": edges,
        "keys": keys,
    }


@pytest.mark.parametrize("root", REAL_BANKS, ids=real_bank_ids())
def test_stats_counts_match_an_independent_scan(root: Path):
    bank = Bank.open(root)
    stats = bank_stats(bank)
    expected = independent_scan(root)
    assert stats.documents == expected["documents"]
    assert stats.bytes == expected["bytes"]
    assert sorted(stats.without_frontmatter) == expected["no_frontmatter"]
    assert sorted(p.path for p in stats.parse_errors) == expected["errors"]
    clean_edges = sum(len(d.derived_from) for d in bank if not d.parse_error and d.has_frontmatter)
    assert clean_edges == expected["edges"]
    clean_keys = {k for d in bank if not d.parse_error for k in d.canonical_for}
    assert clean_keys == expected["keys"]
    assert stats.edges.total == stats.edges.internal + stats.edges.external + stats.edges.broken + sum(
        1 for d in bank for e in d.derived_from if e.resolved is None and not e.external
    )


def test_the_real_banks_exercise_the_messy_inputs():
    """The shared banks hold invalid YAML, missing frontmatter, URL edges and broken edges."""
    totals = {"errors": 0, "no_frontmatter": 0, "external": 0, "broken": 0}
    for root in REAL_BANKS:
        stats = bank_stats(Bank.open(root))
        totals["errors"] += len(stats.parse_errors)
        totals["no_frontmatter"] += len(stats.without_frontmatter)
        totals["external"] += stats.edges.external
        totals["broken"] += stats.edges.broken
    assert all(value > 0 for value in totals.values()), totals
