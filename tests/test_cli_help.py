"""Every help page of the command line explains itself: a description, examples, help on every
argument; and every example is a correct command line that runs on the demo bank."""

from __future__ import annotations

import argparse
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from memorybank.core.demo import build_demo
from memorybank.tui.cli.helptext import HelpFormatter, Parser, examples
from memorybank.tui.cli.main import build_parser, main
from memorybank.tui.cli.serving import serve_main

PARSE_ONLY = {
    "memorybank": "the overview repeats other commands' examples, one of them on a bank elsewhere",
    "memorybank tui": "opens the workbench",
    "memorybank demo": "opens the workbench on a new temporary repository",
    "memorybank mcp": "serves until the client hangs up",
    "memorybank doctor": "starts the installed server for a handshake and reads the real client configs",
}
"""Commands whose examples are checked as command lines only, and why they are not run here."""

EXIT_CODES = {"memorybank validate": {0, 1}, "memorybank drift": {0, 1}}
"""Examples that may end in a documented non-zero exit (validate: 1 when a finding is an error;
drift --check: 1 when a document lags its code, as the demo's do)."""

FILES = {
    "memorybank eval": {
        "memory_bank/dna/route-checks.md": "# Route Checks\n\n| Question | Expected |\n|---|---|\n"
        "| how are failed card payments retried | [retries](../engineering/payment-retries.md) |\n",
        "tuning.md": "| Question | Expected |\n|---|---|\n| vat rates | `domain/tax-model.md` |\n",
        "held-out.md": "| Question | Expected |\n|---|---|\n| how do we roll back a deploy | `ops/deploy-runbook.md` |\n",
    },
    "memorybank update-section": {"freeze.md": "No deploys on the last two working days of a month.\n"},
}
"""Files an example names, as a person running it would have them in the project directory."""


def walk(parser: argparse.ArgumentParser, path: str = "memorybank") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of the command line with its command path, nested subcommands included."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from walk(child, f"{path} {name}")


def example_lines(parser: argparse.ArgumentParser) -> list[str]:
    """The command lines of a parser's examples, continuation lines joined."""
    lines: list[str] = []
    text = parser.epilog or ""
    body = text.split("examples:\n", 1)[1] if "examples:\n" in text else ""
    pending = ""
    for raw in body.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip() + " "
            continue
        lines.append(pending)
        pending = ""
    return lines


def command_of(line: str) -> tuple[list[str], str]:
    """The memorybank arguments of an example line, and what it pipes into standard input."""
    stdin = ""
    if "| memorybank" in line:
        source, line = line.rsplit("|", 1)
        words = shlex.split(source)
        stdin = words[1] if words[:1] == ["echo"] and len(words) == 2 else ""
    words = shlex.split(line)
    for redirect in ("<", ">", ">>", "2>"):
        if redirect in words:
            words = words[: words.index(redirect)]
    return words, stdin


PARSERS = dict(walk(build_parser()))


def test_the_walk_reaches_every_nested_command():
    assert {"memorybank inbox apply", "memorybank inbox fold", "memorybank hook stop", "memorybank completion"} <= set(
        PARSERS
    )
    assert len(PARSERS) > 30


def test_every_command_has_a_description_and_an_example_of_itself():
    missing = []
    for path, parser in PARSERS.items():
        if not (parser.description or "").strip():
            missing.append(f"{path}: no description")
        if not any(command_of(line)[0][: len(path.split())] == path.split() for line in example_lines(parser)):
            missing.append(f"{path}: no example starting with `{path}`")
    assert not missing, "\n".join(missing)


def test_every_argument_and_option_has_help():
    missing = []
    for path, parser in PARSERS.items():
        for action in parser._actions:
            name = "/".join(action.option_strings) or action.dest
            if isinstance(action, argparse._SubParsersAction):
                helped = {a.dest for a in action._choices_actions if (a.help or "").strip()}
                missing += [f"{path} {name}: no help" for name in action.choices if name not in helped]
            elif action.help != argparse.SUPPRESS and not (action.help or "").strip():
                missing.append(f"{path} {name}: no help")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("path", sorted(PARSERS))
def test_every_example_is_a_correct_command_line(path):
    """Each example parses to the command whose page shows it (the overview's to any command)."""
    for line in example_lines(PARSERS[path]):
        words, _ = command_of(line)
        assert words[0] == "memorybank", line
        try:
            args = build_parser().parse_args(words[1:])
        except SystemExit as exit:
            pytest.fail(f"{path}: `{line}` is not a correct command line (exit {exit.code})")
        if path != "memorybank":
            assert getattr(args, "handler", None) is not None, f"{path}: `{line}` names no command"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo repository (``harbor/``, its bank in ``memory_bank/``), built once for the module."""
    return build_demo(tmp_path_factory.mktemp("demo")).parent


RUNNABLE = sorted(path for path in PARSERS if path not in PARSE_ONLY)


@pytest.mark.parametrize("path", RUNNABLE)
def test_every_example_runs_on_the_demo_bank(path, demo, tmp_path, monkeypatch, capsys):
    """The examples of one command, in order, from the project directory of a fresh copy of the
    demo (``init``'s from an empty directory): each exits 0 (``validate`` 0 or 1)."""
    project = tmp_path / "project"
    if path == "memorybank init":
        project.mkdir()
    else:
        shutil.copytree(demo, project, symlinks=True)
    for rel, text in FILES.get(path, {}).items():
        (project / rel).write_text(text, encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.delenv("MEMORYBANK_ROOT", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    lines = example_lines(PARSERS[path])
    assert lines
    for line in lines:
        words, stdin = command_of(line)
        monkeypatch.setattr("sys.stdin", _Stdin(stdin))
        code = main(words[1:])
        out, err = capsys.readouterr()
        assert code in EXIT_CODES.get(path, {0}), f"`{line}` exited {code}:\n{err}{out[-2000:]}"
        assert out.strip(), f"`{line}` printed nothing"


class _Stdin:
    def __init__(self, text: str) -> None:
        self.text = text

    def read(self, size: int = -1) -> str:
        return self.text if size < 0 else self.text[:size]


def test_mcp_help_on_its_fast_path_is_the_same_page(capsys):
    """``memorybank mcp`` skips the full parser to start fast (``serve_main``); its --help still has
    the full page."""
    with pytest.raises(SystemExit):
        serve_main(["--help"])
    fast = capsys.readouterr().out
    page = PARSERS["memorybank mcp"].format_help()
    assert fast.split("\n\n")[1] == page.split("\n\n")[1]
    assert fast.split("examples:")[1] == page.split("examples:")[1]


def test_the_help_formatter_wraps_prose_and_keeps_example_lines():
    parser = Parser(
        prog="tool",
        description="A sentence long enough to wrap. " * 6,
        epilog=examples("# a comment", "tool --first \\", "    --second", "", "tool --third"),
    )
    assert isinstance(parser._get_formatter(), HelpFormatter)
    help_text = parser.format_help()
    description = help_text.split("\n\n")[1]
    assert len(description.splitlines()) > 1 and all(len(line) <= 80 for line in description.splitlines())
    assert "examples:\n  # a comment\n  tool --first \\\n      --second\n\n  tool --third" in help_text
    sub = parser.add_subparsers().add_parser("child", epilog="examples:\n  tool child -x\n  tool child -y")
    assert "  tool child -x\n  tool child -y" in sub.format_help()


def test_a_mistyped_command_or_option_names_the_one_meant_under_its_commands_usage(capsys):
    for argv, said in (
        (["validat"], "invalid choice: 'validat'; did you mean 'validate'?"),
        (
            ["validate", "--sumary"],
            "memorybank validate: error: unrecognized arguments: --sumary; did you mean --summary?",
        ),
        (["inbox", "lst"], "invalid choice: 'lst'; did you mean 'list'?"),
        (["route", "testing", "policy"], "memorybank route: error: unrecognized arguments: policy (quote a value"),
    ):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2 and said in capsys.readouterr().err, argv
