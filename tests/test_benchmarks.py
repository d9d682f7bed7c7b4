"""The benchmark harness keeps working: the generator writes what it promises and a measurement runs."""

from __future__ import annotations

import pytest
from memorybank.core.bank import Bank

from tests.benchmarks import probe_mcp
from tests.benchmarks.generate import generate
from tests.benchmarks.run import measure, table


def test_generator_writes_the_requested_size_with_realistic_defects(tmp_path):
    root = generate(tmp_path / "bank", 400)
    bank = Bank.open(root)
    assert len(bank) == 400
    assert bank.contract.present and bank.contract.requires_derived_from
    assert any(e.fit for d in bank for e in d.derived_from)
    assert all(bank.registered_in(d.path) for d in bank if not d.is_index and not d.path.startswith("dna/principles"))


def test_measure_prints_every_figure(tmp_path, monkeypatch):
    # One start of the MCP server is enough to show the probe works; the benchmark takes five.
    monkeypatch.setattr(probe_mcp, "RUNS", 1)
    root = generate(tmp_path / "bank", 120)
    figures = measure(str(root))
    assert figures["docs"] == 120 and figures["cold_ms"] > 0 and "recheck_ms" in figures
    assert not [name for name, value in figures.items() if str(value).startswith("n/a")], figures
    assert figures["mcp_tools_list_ms"] > 0 and figures["route_ms"] >= 0
    assert "bank" in table([("x", figures)])


def test_the_headroom_model_learns_what_ranks_the_answer_first():
    from tests.benchmarks.route_headroom import Question, fit, recall

    # The router put the answer second everywhere; only "held" tells it apart, and the model finds it.
    def question(bank: str) -> Question:
        features = [{"score": 1.0, "held": 0.0}, {"score": 0.9, "held": 1.0}, {"score": 0.5, "held": 0.0}]
        return Question(bank, [False, True, False], features)

    questions = [question(f"bank {n}") for n in range(4)]
    assert recall(questions) == (0, 4)
    weights = fit(questions[1:])
    assert weights["held"] > 0 and recall(questions[:1], weights) == (1, 1)


def test_every_gold_section_is_a_heading_of_its_document():
    """The section gold cannot rot: each row's document exists and each heading it names is one."""
    from tests.benchmarks import section_quality

    files = sorted(section_quality.GOLD.glob("*.md"))
    assert len(files) == 8
    held_out = [
        path
        for name in ("held-out-21", "held-out-22", "held-out-23", "held-out-24")
        for path in sorted(section_quality.SETS[name].glob("*.md"))
    ]
    banks = ["4itosik__feedium", "asromanychev__ai-setup", "lynxlg__telegram_shop_bot"]
    assert [path.stem for path in held_out] == banks * 4
    for path in files + held_out:
        root = section_quality.BANKS / path.stem / "memory_bank"
        checks = section_quality.load(path)
        assert checks, path
        for check in checks:
            assert (root / check.document).is_file(), check
            assert all(section_quality.heading_lines(root, check).values()), check


def test_the_held_out_section_gold_is_never_listed(capsys, monkeypatch):
    from tests.benchmarks import section_quality

    assert section_quality.NEVER_LOOKED_AT == ("held-out-24",)
    for sealed in section_quality.NEVER_LOOKED_AT:
        monkeypatch.setattr("sys.argv", ["section_quality", "--set", sealed, "--misses"])
        with pytest.raises(SystemExit):
            section_quality.main()
        assert "refused" in capsys.readouterr().err


def test_the_section_benchmark_finds_most_shown_sections_answer_on_a_real_bank():
    from tests.benchmarks import section_quality

    outcomes = section_quality.measure("dapi__memory-bank-cli")
    assert len(outcomes) == 9 and all(o.found for o in outcomes)
    assert sum(o.right for o in outcomes) >= 5, [(o.check.question, o.shown) for o in outcomes]
