"""Write commands from the shell: the same gates, exit codes and words as every other surface."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from memorybank.core.bank import Bank
from memorybank.core.init import init
from memorybank.core.write.proposals import propose
from memorybank.tui.cli.main import main

from tests.conftest import tree_snapshot


def seeded_root(tmp_path, capsys) -> str:
    root = str(tmp_path / "memory_bank")
    assert main(["init", "CLI Project", "--root", root]) == 0
    capsys.readouterr()
    return root


def test_init_dry_run_then_for_real_then_refused(tmp_path, capsys):
    root = str(tmp_path / "memory_bank")
    assert main(["init", "X", "--root", root, "--dry-run"]) == 0
    assert "WOULD CREATE" in capsys.readouterr().out and not (tmp_path / "memory_bank").exists()
    assert main(["init", "X", "--root", root, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["files"]) == 24
    assert main(["init", "X", "--root", root]) == 1
    err = capsys.readouterr().err
    assert "refused (bank-exists): This bank already holds 24 documents" in err
    assert "pass --force to override" in err


def test_create_then_refusal_with_its_reason(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    code = main(
        [
            "create",
            "domain/model.md",
            "--kind",
            "domain",
            "--title",
            "Model",
            "--purpose",
            "The model.",
            "--derived",
            "../product/context.md",
            "--canonical",
            "document_model",
            "--status",
            "active",
            "--root",
            root,
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("CREATED domain/model.md") and "registered in: domain/README.md" in out
    before = tree_snapshot(tmp_path)
    code = main(
        [
            "create",
            "domain/other.md",
            "--kind",
            "domain",
            "--title",
            "O",
            "--purpose",
            "o.",
            "--canonical",
            "document_model",
            "--root",
            root,
        ]
    )
    err = capsys.readouterr().err
    assert (
        code == 1 and 'refused (key-owned): canonical_for "document_model" is already owned by domain/model.md' in err
    )
    assert tree_snapshot(tmp_path) == before


def test_edit_update_status_and_field(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    assert (
        main(
            [
                "update-section",
                "product/context.md",
                "Problem",
                "--content",
                "Readers lose their place.",
                "--root",
                root,
            ]
        )
        == 0
    )
    assert (
        main(
            ["edit", "product/context.md", "--find", "lose their place", "--replace", "lose the thread", "--root", root]
        )
        == 0
    )
    assert main(["set-field", "product/context.md", "owner", "product team", "--root", root]) == 0
    assert main(["set-status", "product/context.md", "active", "--root", root]) == 0
    out = capsys.readouterr().out
    assert "UPDATED product/context.md :: Problem (replace)" in out and "SET product/context.md: draft -> active" in out
    text = (tmp_path / "memory_bank/product/context.md").read_text()
    assert "Readers lose the thread." in text and "owner: product team" in text and "status: active" in text
    assert main(["validate", "--root", root]) == 0


def test_inbox_capture_list_proposal_apply_and_reject(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    for name in ("one", "two"):
        assert (
            main(
                [
                    "create",
                    f"{name}.md",
                    "--kind",
                    "domain",
                    "--title",
                    name.title(),
                    "--purpose",
                    f"Fact {name}.",
                    "--derived",
                    "../product/context.md",
                    "--inbox",
                    "--root",
                    root,
                ]
            )
            == 0
        )
    bank = Bank.open(root)
    propose(bank, action="promote", path="_inbox/one.md", to="domain/one.md", client="claude-code")
    propose(bank, action="discard", path="_inbox/two.md", reason="duplicate", client="cursor")
    capsys.readouterr()
    assert main(["inbox", "list", "--root", root]) == 0
    listing = capsys.readouterr().out
    assert (
        "proposal: promote -> domain/one.md by claude-code" in listing
        and "proposal: discard (duplicate) by cursor" in listing
    )
    assert main(["inbox", "apply", "_inbox/one.md", "--root", root]) == 0
    assert "PROMOTED _inbox/one.md -> domain/one.md" in capsys.readouterr().out
    assert main(["inbox", "reject", "_inbox/two.md", "--note", "keep it", "--root", root]) == 0
    assert "REJECTED the discard proposal on _inbox/two.md by cursor" in capsys.readouterr().out
    assert main(["discard", "_inbox/two.md", "--reason", "folded into domain/one.md", "--root", root]) == 0
    assert main(["inbox", "--root", root]) == 0
    assert "(inbox empty)" in capsys.readouterr().out
    assert main(["inbox", "restore", "_inbox/two.md", "--root", root]) == 0
    assert "RESTORED _inbox/two.md (Two)" in capsys.readouterr().out
    assert main(["inbox", "restore", "_inbox/two.md", "--root", root]) == 1
    assert "refused (path-taken)" in capsys.readouterr().err
    assert main(["discard", "_inbox/two.md", "--reason", "folded into domain/one.md", "--root", root]) == 0
    assert main(["validate", "--root", root]) == 0


def test_inbox_with_no_action_takes_json_as_its_list_does(tmp_path, capsys):
    """`memorybank inbox` lists the notes, so `memorybank inbox --json` lists them as JSON."""
    root = seeded_root(tmp_path, capsys)
    args = ["create", "one.md", "--inbox", "--title", "One", "--purpose", "A fact.", "--root", root]
    assert main(args) == 0
    capsys.readouterr()
    assert main(["inbox", "--json", "--root", root]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["count"] == 1 and listed["entries"][0]["path"] == "_inbox/one.md"


def test_promote_from_the_shell(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    main(
        [
            "create",
            "note.md",
            "--kind",
            "domain",
            "--title",
            "Note",
            "--purpose",
            "A fact.",
            "--derived",
            "../product/context.md",
            "--inbox",
            "--root",
            root,
        ]
    )
    assert main(["promote", "_inbox/note.md", "--to", "domain/note.md", "--dry-run", "--root", root]) == 0
    assert "WOULD PROMOTE _inbox/note.md -> domain/note.md" in capsys.readouterr().out
    assert main(["promote", "_inbox/note.md", "--to", "domain/note.md", "--json", "--root", root]) == 0
    assert json.loads(capsys.readouterr().out)["promoted"] is True


def test_materialize_flows_from_the_shell(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    assert main(["materialize-flows", "--root", root]) == 0
    assert "COPIED 24 files" in capsys.readouterr().out
    assert main(["materialize-flows", "--root", root]) == 1
    assert "refused (templates-exist)" in capsys.readouterr().err


def test_init_in_a_fresh_project_seeds_memory_bank_and_refuses_an_existing_memory_dash_bank(tmp_path):
    """The README's first step for one's own project, from the shell: ``memorybank init "X"`` in an
    empty git repository, then in one that already holds a ``memory-bank/``."""
    import os
    import shutil
    import subprocess

    command = shutil.which("memorybank", path=str(Path(sys.executable).parent))
    env = {k: v for k, v in os.environ.items() if k != "MEMORYBANK_ROOT"}
    fresh = tmp_path / "fresh"
    subprocess.run(["git", "init", "-q", str(fresh)], check=True)
    dry = subprocess.run(
        [command, "init", "My Project", "--dry-run"], cwd=fresh, env=env, capture_output=True, text=True
    )
    assert dry.returncode == 0 and "WOULD CREATE" in dry.stdout and not (fresh / "memory_bank").exists()
    done = subprocess.run([command, "init", "My Project"], cwd=fresh, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (fresh / "memory_bank" / "README.md").is_file() and "My Project" in (
        fresh / "memory_bank" / "README.md"
    ).read_text()

    dashed = tmp_path / "dashed"
    subprocess.run(["git", "init", "-q", str(dashed)], check=True)
    init(dashed / "memory-bank", name="Dashed")
    before = sorted(p.name for p in (dashed / "memory-bank").rglob("*.md"))
    refused = subprocess.run(
        [command, "init", "X"], cwd=dashed / "memory-bank" / "dna", env=env, capture_output=True, text=True
    )
    assert refused.returncode != 0 and "already holds" in refused.stderr and "Traceback" not in refused.stderr
    assert sorted(p.name for p in (dashed / "memory-bank").rglob("*.md")) == before
    assert not (dashed / "memory-bank" / "memory_bank").exists() and not (dashed / "dna").exists()


def test_inbox_list_spells_out_escape_sequences_an_agent_left_in_a_note(tmp_path, capsys):
    """A note written before the gates refused them, or by hand: its words are shown, never obeyed."""
    root = seeded_root(tmp_path, capsys)
    (Path(root) / "_inbox").mkdir(exist_ok=True)
    (Path(root) / "_inbox" / "odd.md").write_text(
        "---\n"
        'title: "Odd\\e[2K"\n'
        "doc_kind: domain\n"
        'purpose: "Fact\\u202e."\n'
        "status: draft\n"
        'captured_by: "bot\\e[1A"\n'
        "captured_at: '2026-01-01T00:00:00Z'\n"
        "proposal:\n"
        "  action: discard\n"
        '  reason: "dup\\e[32m proposal: none (owner approved)"\n'
        "  proposed_by: bot\n"
        "---\n\n# Odd\n\nx\n",
        encoding="utf-8",
    )
    assert main(["inbox", "list", "--root", root]) == 0
    listing = capsys.readouterr().out
    assert "\x1b" not in listing and "\u202e" not in listing
    assert "from bot\\u001b[1A" in listing and "Odd\\u001b[2K" in listing and "Fact\\u202e." in listing
    assert "(dup\\u001b[32m proposal: none (owner approved))" in listing


def test_a_write_warning_goes_to_stderr_and_stdout_keeps_the_result(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    assert main(["set-status", "product/context.md", "actve", "--root", root]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("SET product/context.md: draft -> actve") and "warning" not in captured.out
    assert captured.err.startswith('warning: status "actve" is not among the values declared')


def test_a_refusals_advice_names_the_command_and_flag_not_the_agents_tool(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    assert main(["set-field", "product/context.md", "status", "active", "--root", root]) == 1
    err = capsys.readouterr().err
    assert "Use memorybank set-status, which runs them." in err and "bank_" not in err
    assert main(["set-status", "product/context.md", "archived", "--root", root]) == 1
    err = capsys.readouterr().err
    assert "Pass --release-canonical" in err and "memorybank set-field canonical_for" in err
    assert "releaseCanonical" not in err and "bank_" not in err


def piped(monkeypatch, data: bytes) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_a_file_named_dash_is_standard_input_for_a_body_and_a_sections_text(tmp_path, capsys, monkeypatch):
    root = seeded_root(tmp_path, capsys)
    piped(monkeypatch, "## Notes\n\nFrom a pipe, with ünïcode.\n".encode())
    args = ["create", "piped.md", "--inbox", "--title", "Piped", "--purpose", "A piped note.", "--body-file", "-"]
    assert main([*args, "--root", root]) == 0
    assert "From a pipe, with ünïcode." in (tmp_path / "memory_bank/_inbox/piped.md").read_text(encoding="utf-8")
    piped(monkeypatch, b"Appended from a pipe.\n")
    assert (
        main(["update-section", "product/context.md", "Problem", "--append", "--content-file", "-", "--root", root])
        == 0
    )
    assert "Appended from a pipe." in (tmp_path / "memory_bank/product/context.md").read_text(encoding="utf-8")
    capsys.readouterr()
    before = tree_snapshot(tmp_path)
    piped(monkeypatch, b"\xff\xfe not text")
    assert main([args[0], "other.md", *args[2:], "--root", root]) == 2
    assert "Standard input is not UTF-8 text (byte 1); nothing was written." in capsys.readouterr().err
    piped(monkeypatch, b"x")
    assert main([*args, "--body", "y", "--root", root]) == 2
    assert "give it or --body, not both" in capsys.readouterr().err
    assert tree_snapshot(tmp_path) == before


def test_a_note_needs_no_path_and_a_document_says_it_needs_one(tmp_path, capsys):
    root = seeded_root(tmp_path, capsys)
    before = tree_snapshot(Path(root))
    assert main(["create", "--root", root, "--kind", "adr", "--title", "T", "--purpose", "P."]) == 2
    assert "create needs the path of the new document" in capsys.readouterr().err
    assert tree_snapshot(Path(root)) == before
    note = ["create", "--inbox", "--title", "PDF test needs the Inter font", "--purpose", "Why it fails."]
    assert main([*note, "--root", root]) == 0
    assert "CREATED _inbox/pdf-test-needs-the-inter-font.md" in capsys.readouterr().out


def test_an_error_under_json_is_json_on_stdout_too(tmp_path, capsys):
    """A script reading the JSON reads the failure: the kind, the message, a refusal's reason."""
    root = seeded_root(tmp_path, capsys)
    assert main(["create", "domain/model.md", "--kind", "domain", "--title", "M", "--purpose", "m.",
                 "--canonical", "document_model", "--root", root]) == 0  # fmt: skip
    capsys.readouterr()
    args = ["create", "domain/other.md", "--kind", "domain", "--title", "O", "--purpose", "o."]
    assert main([*args, "--canonical", "document_model", "--root", root, "--json"]) == 1
    out, err = capsys.readouterr()
    failure = json.loads(out)["error"]
    assert failure["kind"] == "refused" and failure["reason"] == "key-owned" and "document_model" in failure["message"]
    assert "refused (key-owned)" in err
    assert main(["route", "queue", "--root", root, "--limit", "99", "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": {"kind": "usage", "message": "limit must be between 1 and 25, not 99"}}
    assert main(["route", "queue", "--root", root, "--limit", "99"]) == 2
    assert capsys.readouterr().out == ""  # text output: the error on stderr alone
