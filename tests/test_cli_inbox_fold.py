"""``memorybank inbox fold``: a note's text into its owner's section, then the note discarded with
the destination as its reason; a refused step writes nothing at all."""

from __future__ import annotations

from memorybank.core.bank import Bank
from memorybank.core.read import read_document
from memorybank.core.write.create import create
from memorybank.tui.cli.main import main

from tests.conftest import tree_snapshot


def bank_with_a_note(tmp_path, capsys) -> str:
    root = str(tmp_path / "memory_bank")
    assert main(["init", "Fold", "--root", root]) == 0
    create(
        Bank.open(root),
        path="_inbox/parsers.md",
        title="Parsers need round-trip tests",
        purpose="Every parser is tested on real files.",
        body="Round-trip tests caught two bugs.\n",
        inbox=True,
    )
    capsys.readouterr()
    return root


def test_fold_appends_the_note_body_then_discards_it_with_the_reason(tmp_path, capsys):
    root = bank_with_a_note(tmp_path, capsys)
    args = [
        "inbox",
        "fold",
        "_inbox/parsers.md",
        "--into",
        "engineering/testing-policy.md",
        "--section",
        "what must be tested",  # no --append: appending is the default, a fold never wipes by default
        "--root",
        root,
    ]
    before = tree_snapshot(tmp_path)
    assert main([*args, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "WOULD FOLD _inbox/parsers.md into engineering/testing-policy.md :: What Must Be Tested (append)"
    )
    assert "would discard _inbox/parsers.md: folded into engineering/testing-policy.md#What Must Be Tested" in out
    assert "+Round-trip tests caught two bugs." in out and tree_snapshot(tmp_path) == before

    assert main(args) == 0
    assert (
        "discarded _inbox/parsers.md: folded into engineering/testing-policy.md#What Must Be Tested"
        in capsys.readouterr().out
    )
    bank = Bank.open(root)
    section = read_document(bank, "engineering/testing-policy.md", section="What Must Be Tested").content
    assert section.endswith("\n\nRound-trip tests caught two bugs.") and "_inbox/parsers.md" not in bank


def test_fold_into_a_missing_section_is_refused_and_writes_nothing(tmp_path, capsys):
    root = bank_with_a_note(tmp_path, capsys)
    before = tree_snapshot(tmp_path)
    code = main(
        [
            "inbox",
            "fold",
            "_inbox/parsers.md",
            "--into",
            "engineering/testing-policy.md",
            "--section",
            "Nowhere",
            "--content",
            "x",
            "--root",
            root,
        ]
    )
    err = capsys.readouterr().err
    assert code == 1 and 'Section "Nowhere" not found in engineering/testing-policy.md' in err
    assert tree_snapshot(tmp_path) == before


def test_fold_says_on_stderr_which_of_the_notes_links_reach_no_document(tmp_path, capsys):
    root = bank_with_a_note(tmp_path, capsys)
    create(
        Bank.open(root),
        path="_inbox/linked.md",
        title="Linked",
        purpose="A note with a link to nothing.",
        body="See [the spec](../missing/spec.md).\n",
        inbox=True,
    )
    capsys.readouterr()
    into = ["--into", "engineering/testing-policy.md", "--section", "what must be tested", "--root", root]
    assert main(["inbox", "fold", "_inbox/linked.md", *into, "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert "+See [the spec](../missing/spec.md)." in out and "warning" not in out
    assert err == (
        "warning: Link to a document that does not exist: missing/spec.md "
        "(written ../missing/spec.md from the new place)\n"
    )
