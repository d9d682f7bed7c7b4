"""Route checks: reading the table, measuring Recall@1/@3 and MRR, the misses validation reports, the
eval command, and the quality bar on our own questions over the real banks."""

from __future__ import annotations

import json

import pytest
from memorybank.core.bank import Bank
from memorybank.core.evaluate import (
    ROUTE_CHECKS,
    RouteCheck,
    evaluate,
    evaluate_bank,
    load_checks,
    parse_route_checks,
    route_check_misses,
)
from memorybank.tui.cli.main import main

from tests.benchmarks.route_quality import QUESTIONS, measure, overall
from tests.conftest import REAL_BANKS

CHECKS = """---
title: Route Checks
doc_kind: governance
doc_function: canonical
purpose: Questions this bank must route well.
status: active
---
# Route Checks

| Question | Expected |
|---|---|
| filter thresholds | `domain/rules.md` |
| где пороги фильтрации | [rules](../domain/rules.md) |
| thresholds invariants scoring | `conflict.md` |
| kubernetes ingress | orphan.md, memory_bank/dna/principles.md |

```markdown
| not a check | `orphan.md` |
```
"""


def test_rows_are_read_in_every_spelling_and_fenced_tables_are_skipped():
    text = (
        "| Question | Expected |\n|-|-|\n| a \\| b | `x.md`, `y.md` |\n| c | [c](./z.md) |\n| d | w.md; v.md |\n"
        "| e | no path here |\n```\n| f | `q.md` |\n```\n"
    )
    assert parse_route_checks(text) == [
        RouteCheck("a | b", ("x.md", "y.md"), 3),
        RouteCheck("c", ("z.md",), 4),
        RouteCheck("d", ("w.md", "v.md"), 5),
    ]


@pytest.fixture
def checked_bank(fixture_bank, write_file) -> Bank:
    root = fixture_bank()
    write_file(root, ROUTE_CHECKS, CHECKS)
    return Bank.open(root)


def test_the_banks_checks_are_measured(checked_bank):
    report = evaluate_bank(checked_bank)
    assert report.source == ROUTE_CHECKS and report.checks == 4
    assert [o.line for o in report.outcomes] == [12, 13, 14, 15]
    assert report.outcomes[1].expected == ("domain/rules.md",)  # the link resolved like any caller path
    assert report.outcomes[3].expected == ("orphan.md", "dna/principles.md")
    ranks = [o.rank for o in report.outcomes]
    assert ranks[0] == 1 and ranks[1] == 1 and ranks[2] == 2 and ranks[3] is None
    assert report.recall_at_1 == pytest.approx(2 / 4)
    assert report.recall_at_3 == pytest.approx(3 / 4)
    assert report.mrr == pytest.approx((1 + 1 + 0.5) / 4)
    assert [m.question for m in report.misses] == ["kubernetes ingress"]


def test_each_miss_is_reported_for_validation_with_its_line(checked_bank):
    misses = route_check_misses(checked_bank)
    assert len(misses) == 1
    miss = misses[0]
    assert (miss.path, miss.line, miss.question) == (ROUTE_CHECKS, 15, "kubernetes ingress")
    assert miss.expected == ("orphan.md", "dna/principles.md") and miss.got == ()
    assert "kubernetes ingress" in miss.message and "orphan.md" in miss.message


def test_a_bank_without_checks_has_no_misses(fixture_bank):
    assert route_check_misses(Bank.open(fixture_bank())) == []


def test_a_custom_ranker_can_be_measured(checked_bank):
    report = evaluate(
        checked_bank, [RouteCheck("anything", ("orphan.md",), 1)], ranker=lambda bank, q: ["x.md", "orphan.md"]
    )
    assert report.recall_at_1 == 0 and report.recall_at_3 == 1 and report.mrr == 0.5


def test_the_eval_command_prints_the_figures_and_the_misses(checked_bank, capsys):
    root = str(checked_bank.root)
    assert main(["eval", "--root", root]) == 0
    out = capsys.readouterr().out
    assert "dna/route-checks.md: 4 route checks" in out
    assert "Recall@1 0.50   Recall@3 0.75   MRR 0.62" in out
    assert "line 15: kubernetes ingress" in out and "not in the first 10" in out
    assert main(["eval", "--root", root, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["checks"] == 4 and data["misses"][0]["line"] == 15


def test_the_eval_command_reads_another_file_and_refuses_when_there_is_nothing(fixture_bank, tmp_path, capsys):
    root = str(fixture_bank())
    assert main(["eval", "--root", root]) == 2
    assert "no dna/route-checks.md" in capsys.readouterr().err
    questions = tmp_path / "questions.md"
    questions.write_text(
        "| Question | Expected |\n|-|-|\n| retry backoff jitter | `broken/bad-yaml.md` |\n", encoding="utf-8"
    )
    assert main(["eval", "--root", root, "--file", str(questions)]) == 0
    assert "Recall@1 1.00" in capsys.readouterr().out
    assert main(["eval", "--root", root, "--file", str(tmp_path / "missing.md")]) == 2


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_our_questions_over_the_real_banks_meet_the_bar():
    """At least 60 questions; the fused route reaches Recall@3 0.85 overall, and on every bank it
    ranks better (MRR) than plain BM25 over bodies and at least as well as headers alone."""
    results = measure()
    assert sum(next(iter(r.values())).checks for r in results.values()) >= 60
    tuned = {p.stem for p in QUESTIONS.glob("*.md")}
    held_out = {p.stem for p in (QUESTIONS / "held-out-3").glob("*.md")}
    assert tuned | held_out == {p.parent.name for p in REAL_BANKS}, "every real bank needs routing questions"
    assert not tuned & held_out, "a bank of the fresh held-out set must not be tuned on"
    _, recall_at_3, _, _ = overall([r["fused"] for r in results.values()])
    assert recall_at_3 >= 0.85
    for reports in results.values():
        assert reports["fused"].mrr > reports["bm25"].mrr
        assert reports["fused"].recall_at_3 >= reports["headers"].recall_at_3


def test_the_bar_stays_on_the_original_sets_and_the_fresh_held_out_is_never_listed(capsys, monkeypatch):
    """``--set all`` puts the four original sets together (the bar) and reports tuning-2 apart;
    ``--misses`` is refused on the set whose questions are never looked at."""
    from tests.benchmarks import route_quality

    together, apart = route_quality.GROUPS["all"]
    assert together == ("tuning", "held-out", "held-out-2", "held-out-3")
    assert apart[:2] == ("tuning-2", "held-out-4") and apart[-3:] == ("held-out-22", "held-out-23", "held-out-24")
    assert len(apart) == len(route_quality.SETS) - len(together)
    assert not set(route_quality.NEVER_LOOKED_AT) & set(route_quality.GROUPS["tunable"][0])
    assert "held-out-5" in route_quality.GROUPS["tunable"][0], "held-out-5 was measured once, then tuned on"
    assert "held-out-6" in route_quality.GROUPS["tunable"][0], "held-out-6 was measured once, then tuned on"
    assert "held-out-7" in route_quality.GROUPS["tunable"][0], "held-out-7 was measured once, then tuned on"
    assert "held-out-8" in route_quality.GROUPS["tunable"][0], "held-out-8 was measured once, then tuned on"
    assert "held-out-9" in route_quality.GROUPS["tunable"][0], "held-out-9 was measured once, then tuned on"
    assert "held-out-10" in route_quality.GROUPS["tunable"][0], "held-out-10 was measured once, then tuned on"
    assert "held-out-11" in route_quality.GROUPS["tunable"][0], "held-out-11 was measured once, then tuned on"
    assert "held-out-12" in route_quality.GROUPS["tunable"][0], "held-out-12 was measured once, then tuned on"
    assert "held-out-13" in route_quality.GROUPS["tunable"][0], "held-out-13 was measured once, then tuned on"
    assert "held-out-14" in route_quality.GROUPS["tunable"][0], "held-out-14 was measured once, then tuned on"
    assert "held-out-15" in route_quality.GROUPS["tunable"][0], "held-out-15 was measured once, then tuned on"
    assert "held-out-16" in route_quality.GROUPS["tunable"][0], "held-out-16 was measured once, then tuned on"
    assert "held-out-17" in route_quality.GROUPS["tunable"][0], "held-out-17 was measured once, then tuned on"
    assert "held-out-18" in route_quality.GROUPS["tunable"][0], "held-out-18 was measured once, then tuned on"
    assert "held-out-19" in route_quality.GROUPS["tunable"][0], "held-out-19 was measured once, then tuned on"
    assert "held-out-20" in route_quality.GROUPS["tunable"][0], "held-out-20 was measured once, then tuned on"
    assert "held-out-21" in route_quality.GROUPS["tunable"][0], "held-out-21 was measured once, then tuned on"
    assert "held-out-22" in route_quality.GROUPS["tunable"][0], "held-out-22 was measured once, then tuned on"
    assert "held-out-23" in route_quality.GROUPS["tunable"][0], "held-out-23 was measured once, then tuned on"
    assert route_quality.NEVER_LOOKED_AT == ("held-out-3", "held-out-4", "held-out-24")
    assert (route_quality.SETS["tuning-2"] / "baseline.txt").is_file()
    for hidden in ("all", *route_quality.NEVER_LOOKED_AT):
        monkeypatch.setattr("sys.argv", ["route_quality", "--set", hidden, "--misses"])
        with pytest.raises(SystemExit):
            route_quality.main()
        assert "refused" in capsys.readouterr().err


@pytest.mark.skipif(not REAL_BANKS, reason="the real banks are not beside the project")
def test_every_question_of_every_set_expects_documents_its_bank_has():
    """A question whose expected path is not a document of its bank would count as a miss forever;
    the fresh held-out set covers every real bank."""
    from tests.benchmarks import route_quality

    for name, folder in route_quality.SETS.items():
        for questions in sorted(folder.glob("*.md")):
            bank = Bank.open(route_quality.BANKS / questions.stem / "memory_bank")
            checks = load_checks(bank, questions.read_text(encoding="utf-8"))
            assert checks, f"{name}/{questions.name} has no questions"
            for check in checks:
                missing = [path for path in check.expected if path not in bank.documents]
                assert not missing, f"{name}/{questions.name}:{check.line} expects {missing}"
    newest = {p.stem for p in route_quality.SETS["held-out-6"].glob("*.md")}
    assert newest == {p.parent.name for p in REAL_BANKS}


def test_links_in_a_file_of_checks_are_read_from_where_the_file_lies(fixture_bank, tmp_path, capsys):
    root = fixture_bank()
    row = "| Question | Expected |\n|-|-|\n| raise the filter threshold | [rules]({link}) |\n"
    (root / "dna" / "more-checks.md").write_text(row.format(link="../domain/rules.md"), encoding="utf-8")
    beside = tmp_path / "beside.md"  # beside the bank: its link goes through the bank's folder
    beside.write_text(row.format(link=f"{root.name}/domain/rules.md"), encoding="utf-8")
    for file in (root / "dna" / "more-checks.md", beside):
        assert main(["eval", "--root", str(root), "--file", str(file), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["outcomes"][0]["expected"] == ["domain/rules.md"] and report["recall_at_3"] == 1, file


def test_a_row_naming_no_document_of_the_bank_is_stale_not_a_routing_miss(fixture_bank, capsys):
    root = fixture_bank()
    rows = "| Question | Expected |\n|-|-|\n| raise the filter threshold | [gone](../domain/gone.md) |\n"
    rows += "| raise the filter threshold | [rules](../domain/rules.md) |\n"
    (root / ROUTE_CHECKS).write_text(rows, encoding="utf-8")
    (miss,) = route_check_misses(Bank.open(root))
    assert miss.stale and "not a document of this bank" in miss.message and "ranks" not in miss.message
    assert main(["eval", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert "domain/gone.md (not a document of this bank: the row is stale)" in out
    assert "1 route check (1 stale row left out)" in out and "Recall@3 1.00" in out  # the figures measure routing


def test_a_link_to_a_heading_of_the_expected_document_is_a_check(fixture_bank):
    bank = Bank.open(fixture_bank())
    rows = "| Question | Expected |\n|-|-|\n| raise the filter threshold | [rules](domain/rules.md#thresholds) |\n"
    (check,) = load_checks(bank, rows)
    assert check.expected == ("domain/rules.md",)


def test_a_file_of_checks_kept_in_the_bank_never_answers_its_own_questions(fixture_bank, capsys):
    root = fixture_bank()
    inside = root / "dna" / "more-checks.md"  # a document of the bank: its body quotes every question
    inside.write_text(
        "| Question | Expected |\n|-|-|\n| raise the filter threshold | [rules](../domain/rules.md) |\n",
        encoding="utf-8",
    )
    assert main(["eval", "--root", str(root), "--file", str(inside), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "dna/more-checks.md" not in report["outcomes"][0]["got"]
