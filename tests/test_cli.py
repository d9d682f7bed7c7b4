"""The command line as a user runs it: exit codes, text and JSON output, errors on stderr."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from memorybank.tui.cli.main import main

from tests.conftest import FIXTURES, REAL_BANKS, real_bank_ids


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memorybank", *args], capture_output=True, text=True)


def test_stats_text_names_the_contract_and_counts(capsys):
    assert main(["stats", "--root", str(FIXTURES / "reference")]) == 0
    out = capsys.readouterr().out
    assert "documents  17" in out
    assert "filter_thresholds: conflict.md, domain/rules.md" in out
    assert "broken/bad-yaml.md" in out and "required for active non-root documents" in out
    assert main(["validate", "--rule", "invalid-frontmatter", "--root", str(FIXTURES / "reference")]) == 1
    line = capsys.readouterr().out.split("broken/bad-yaml.md:")[1].split()[0]
    assert f"broken/bad-yaml.md:{line}  mapping values are not allowed" in out  # the line validate gives
    assert re.search(r"^unreadable +0$", out, re.M)


def test_stats_reports_degraded_mode(capsys, tmp_path):
    shutil.copytree(FIXTURES / "reference" / "domain", tmp_path / "domain")  # a bank of its own: no dna/
    assert main(["--root", str(tmp_path / "domain"), "stats"]) == 0
    assert "ABSENT (degraded mode)" in capsys.readouterr().out


@pytest.mark.parametrize("root", REAL_BANKS, ids=real_bank_ids())
def test_stats_json_runs_on_every_real_bank(root, capsys):
    assert main(["stats", "--json", "--root", str(root)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["documents"] > 0 and "edges" in data and "contract" in data


def test_read_section_and_lines(capsys):
    root = str(FIXTURES / "reference")
    assert main(["read", "memory_bank/domain/rules.md", "--section", "Invariants", "--root", root]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# domain/rules.md :: Invariants") and "evaluated before scoring" in out
    assert main(["read", "domain/rules.md", "--lines", "19", "--json", "--root", root]) == 0
    assert json.loads(capsys.readouterr().out)["content"] == "L1 rejects below 60."
    assert "frontmatter not shown" not in out  # a section is read for its text


def test_reading_a_whole_document_says_where_its_frontmatter_went(capsys):
    root = str(FIXTURES / "reference")
    assert main(["read", "domain/rules.md", "--root", root]) == 0
    out = capsys.readouterr().out.split("\n")
    body_line = next(
        i
        for i, line in enumerate((FIXTURES / "reference/domain/rules.md").read_text().split("\n"))
        if i and line == "---"
    )
    assert out[1] == f"(frontmatter not shown: --lines 1-{body_line + 1} prints it as written, --json as data)"
    assert main(["read", "domain/rules.md", "--lines", f"1-{body_line + 1}", "--root", root]) == 0
    assert capsys.readouterr().out.rstrip().endswith("---")


def test_errors_go_to_stderr_with_exit_codes():
    root = str(FIXTURES / "reference")
    missing = run("read", "nope.md", "--root", root)
    assert missing.returncode == 1 and "Not a document of this bank: nope.md" in missing.stderr and not missing.stdout
    bad_range = run("read", "domain/rules.md", "--lines", "x-y", "--root", root)
    assert bad_range.returncode == 2 and "Line range" in bad_range.stderr
    usage = run("read")
    assert usage.returncode == 2
    no_bank = run("stats", "--root", str(FIXTURES / "does-not-exist"))
    assert no_bank.returncode == 2 and "does not exist" in no_bank.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["validate", "--root", "does-not-exist"], "does not exist"),  # CI pointed at nothing
        (["validate", "--scope", "../", "--root", "reference"], "Scope must stay inside the bank"),
        (["changed", "no-such-ref", "--root", "reference"], '"no-such-ref" is not a commit'),
    ],
)
def test_a_misconfigured_run_exits_2_never_1_which_means_errors_found(args, said, tmp_path):
    """SPEC: 0 clean, 1 errors found, 2 usage error. A CI job whose --root, --scope or ref is wrong
    must not read as a bank with findings."""
    args = [str(FIXTURES / a) if a in ("reference", "does-not-exist") else a for a in args]
    if args[0] == "changed":
        import subprocess

        repo = tmp_path / "repo"
        shutil.copytree(FIXTURES / "reference", repo)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
        subprocess.run(
            ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start"], check=True
        )
        args[-1] = str(repo)
    done = run(*args)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert said in done.stderr and "Traceback" not in done.stderr


def test_a_root_that_names_a_file_says_so(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("# Notes\n", encoding="utf-8")
    assert main(["validate", "--root", str(tmp_path / "notes.md")]) == 2
    assert "that is a file" in capsys.readouterr().err


def test_version_prints_the_installed_version_and_exits_zero(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"memorybank {version('memorybank')}"


def test_a_reader_that_stops_early_gets_no_error(tmp_path):
    """``memorybank read ... | head``: the pipe closes under the command, which stops quietly."""
    root = tmp_path / "bank"
    shutil.copytree(FIXTURES / "reference", root)
    index = root / "README.md"
    index.write_text(index.read_text() + "".join(f"- line {n} of a long index\n" for n in range(20_000)))
    command = f"{shlex.quote(sys.executable)} -m memorybank read README.md --root {shlex.quote(str(root))}"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -c 1 >/dev/null"], capture_output=True, text=True
    )
    assert done.stderr == "" and done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["route", "ctl red"],
        ["search", "ctl"],
        ["validate"],
        ["stats"],
        ["graph", "ctrl.md"],
    ],
)
def test_text_output_spells_out_control_characters_a_document_holds(fixture_bank, capsys, command):
    """A hostile title reaches the terminal as text: an escape sequence is shown, never obeyed."""
    root = fixture_bank("reference")
    (root / "ctrl.md").write_text(
        '---\ntitle: "ctl\\u0007\\u001b[31mred"\npurpose: "ctl \\u001b]0;owned\\u0007"\nstatus: active\n---\n# ctl\n\nctl red\n',
        encoding="utf-8",
    )
    main([*command, "--root", str(root)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    if command[0] in ("route", "search"):
        assert "\\u001b[31mred" in out


def test_a_root_that_is_the_project_names_its_bank_instead_of_validating_the_project(tmp_path):
    """`memorybank validate --root .` from a repository's top once read the project as a bank with no
    contract and reported a fraction of the findings; it now says where the bank is."""
    from memorybank.core.init import init

    init(tmp_path / "memory_bank", name="Inner")
    (tmp_path / "README.md").write_text("# The project\n", encoding="utf-8")
    done = run("validate", "--root", str(tmp_path))
    assert done.returncode == 2
    assert f"that is the project, its bank is {tmp_path / 'memory_bank'}" in done.stderr
    assert run("validate", "--root", str(tmp_path / "memory_bank")).returncode == 0


def test_a_root_that_is_a_folder_of_a_bank_names_the_bank_instead_of_reading_the_folder(tmp_path):
    """`--root memory_bank/features` once read one folder as a bank without its contract, every link
    out of it broken; it now says which bank the folder belongs to."""
    from memorybank.core.init import init

    bank = tmp_path / "kb"
    init(bank, name="Inner")  # not named memory_bank: found as a bank by its dna/ beside its index
    for root, folder in ((bank / "adr", "adr"), (bank / "flows" / "templates", "flows/templates")):
        done = run("route", "--root", str(root), "decisions")
        assert done.returncode == 2, done.stdout
        assert f"that is the folder {folder}/ of the bank {bank}. Pass --root {bank}." in done.stderr
    assert run("validate", "--root", str(bank)).returncode == 0


def test_the_workbench_without_a_terminal_is_refused_instead_of_drawing_into_a_pipe(tmp_path):
    """In CI or a pipe, a bare ``memorybank`` wrote escape codes into the output and waited for keys
    forever; ``demo`` likewise (its --no-open prints where the bank is)."""
    import subprocess
    import sys

    for command in ([], ["tui"], ["demo", "--dest", str(tmp_path / "demo")]):
        done = subprocess.run(
            [sys.executable, "-m", "memorybank", *command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert done.returncode == 2, command
        assert done.stdout == "" and "needs a terminal" in done.stderr and "\x1b" not in done.stderr
    assert not (tmp_path / "demo").exists()


def test_a_document_path_given_from_the_working_directory_reaches_the_bank(tmp_path, monkeypatch, capsys):
    """From src/, shell completion offers ../memory_bank/x.md: read and graph refused it as a path
    leaving the bank, though validate took the same form."""
    import shutil

    shutil.copytree(FIXTURES / "reference", tmp_path / "memory_bank")
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path / "src")
    assert main(["read", "../memory_bank/domain/rules.md", "--section", "Invariants"]) == 0
    assert capsys.readouterr().out.startswith("# domain/rules.md :: Invariants")
    assert main(["graph", "../memory_bank/domain/rules.md"]) == 0
    assert main(["read", "../elsewhere.md"]) == 1  # outside the bank: refused as before


def test_a_bank_named_by_the_environment_is_said_to_come_from_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MEMORYBANK_ROOT", str(tmp_path / "nope"))
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 2
    assert f"No bank at {tmp_path / 'nope'} ($MEMORYBANK_ROOT): the directory does not exist" in capsys.readouterr().err
    assert main(["validate", "--root", str(tmp_path / "other")]) == 2  # --root wins, and is not blamed on it
    assert "$MEMORYBANK_ROOT" not in capsys.readouterr().err


def test_route_folds_its_lines_to_the_terminal_and_leaves_a_pipe_whole(capsys, monkeypatch):
    """At 80 columns every line of the answer fits, a folded one indented under its text; written
    to a pipe (no terminal, no COLUMNS) each line stays whole, for grep."""
    root = str(next(bank for bank in REAL_BANKS if bank.parent.name == "dapi__zelma"))
    question = "Какой интервал обновления по умолчанию у TUI монитора и почему?"
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["route", "--root", root, "--explain", question]) == 0
    folded = capsys.readouterr().out.splitlines()
    assert max(map(len, folded)) <= 80
    assert any(line.startswith("      ") for line in folded)  # a continuation, under its text
    monkeypatch.delenv("COLUMNS")
    assert main(["route", "--root", root, "--explain", question]) == 0  # capsys: not a terminal
    whole = capsys.readouterr().out.splitlines()
    assert max(map(len, whole)) > 80
    assert " ".join(" ".join(folded).split()) == " ".join(" ".join(whole).split())  # the same words
    cli_bank = str(next(bank for bank in REAL_BANKS if bank.parent.name == "dapi__memory-bank-cli"))
    monkeypatch.setenv("COLUMNS", "80")  # a long path: the hit's states go under it
    assert main(["route", "--root", cli_bank, "-n", "3", "почему push не публикует adapted файлы по умолчанию?"]) == 0
    folded = capsys.readouterr().out.splitlines()
    assert max(map(len, folded)) <= 80
    assert any(line.startswith("    [") and line.endswith("]") for line in folded)


def test_route_explain_says_which_kind_of_answer_lifted_a_document(capsys):
    root = str(next(bank for bank in REAL_BANKS if bank.parent.name == "dapi__zelma"))
    assert main(["route", "--root", root, "--explain", "--limit", "1", "how do I roll back a broken release"]) == 0
    assert "x intent 1.3 (how: the kind of answer asked for)" in capsys.readouterr().out
