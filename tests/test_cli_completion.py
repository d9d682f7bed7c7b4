"""``memorybank completion``: the scripts it prints complete commands, options, choices and paths
in a real bash, and zsh and fish accept theirs (where those shells are installed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from memorybank.tui.cli.completion import SHELLS, script
from memorybank.tui.cli.main import main


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> dict[str, Path]:
    """Each shell's script, as ``memorybank completion SHELL`` prints it, saved to a file."""
    folder = tmp_path_factory.mktemp("completion")
    paths = {}
    for shell in SHELLS:
        paths[shell] = folder / f"memorybank.{shell}"
        paths[shell].write_text(script(shell), encoding="utf-8")
    return paths


def test_the_command_prints_the_script(capsys, scripts):
    assert main(["completion", "bash"]) == 0
    assert capsys.readouterr().out == scripts["bash"].read_text(encoding="utf-8")


def bash_complete(script_file: Path, *words: str, cwd: Path | None = None) -> list[str]:
    """What bash offers for the last word of ``words``, driving the completion function the way
    bash does on Tab (COMP_WORDS, COMP_CWORD)."""
    assert shutil.which("bash"), "bash is the shell this test runs"
    line = " ".join(words)
    program = (
        f"source {script_file}\n"
        f"COMP_WORDS=({' '.join(_quote(w) for w in words)})\n"
        f"COMP_CWORD={len(words) - 1}\n"
        f"COMP_LINE={_quote(line)}\nCOMP_POINT={len(line)}\n"
        "COMPREPLY=()\n"
        '"$(complete -p memorybank | sed -E "s/.* -F ([^ ]+) .*/\\1/")" memorybank\n'
        "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, cwd=cwd, check=True
    )
    return [line for line in done.stdout.splitlines() if line]


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def test_bash_completes_a_command_name(scripts):
    assert bash_complete(scripts["bash"], "memorybank", "val") == ["validate"]
    assert {"set-status", "set-field", "setup", "search"} == set(bash_complete(scripts["bash"], "memorybank", "se"))


def test_bash_completes_options_and_their_choices(scripts):
    assert bash_complete(scripts["bash"], "memorybank", "validate", "--sev") == ["--severity"]
    assert bash_complete(scripts["bash"], "memorybank", "validate", "--severity", "") == ["error", "warning"]
    assert bash_complete(scripts["bash"], "memorybank", "graph", "x.md", "--direction", "b") == ["both"]
    assert bash_complete(scripts["bash"], "memorybank", "inbox", "") == ["list", "apply", "reject", "restore", "fold"]
    assert bash_complete(scripts["bash"], "memorybank", "inbox", "fold", "n.md", "--in") == ["--into"]


def test_bash_completes_paths_where_an_argument_is_a_path(scripts, fixture_bank):
    root = fixture_bank("reference")
    offered = bash_complete(scripts["bash"], "memorybank", "read", "memory_bank/eng", cwd=root.parent)
    assert offered == ["memory_bank/engineering"]
    offered = bash_complete(scripts["bash"], "memorybank", "read", "memory_bank/engineering/", cwd=root.parent)
    assert offered == ["memory_bank/engineering/architecture.md"]
    assert bash_complete(scripts["bash"], "memorybank", "validate", "--scope", "memory_bank/a", cwd=root.parent) == [
        "memory_bank/adr"
    ]


@pytest.mark.skipif(not shutil.which("zsh"), reason="zsh is not installed")
def test_zsh_accepts_its_script(scripts):
    subprocess.run(["zsh", "-n", str(scripts["zsh"])], check=True, capture_output=True)
    program = (
        f"autoload -Uz compinit && compinit -u -D && source {scripts['zsh']} && (( $+functions[_shtab_memorybank] ))"
    )
    subprocess.run(["zsh", "-f", "-c", program], check=True, capture_output=True)


@pytest.mark.skipif(not shutil.which("fish"), reason="fish is not installed")
def test_fish_accepts_its_script_and_completes_from_it(scripts, tmp_path):
    subprocess.run(["fish", "--no-execute", str(scripts["fish"])], check=True, capture_output=True)
    program = f"source {scripts['fish']}; complete -C 'memorybank val'; complete -C 'memorybank inbox '"
    done = subprocess.run(
        ["fish", "--no-config", "-c", program],
        capture_output=True,
        text=True,
        check=True,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(tmp_path)},
    )
    offered = dict(line.split("\t", 1) for line in done.stdout.splitlines())
    assert offered["validate"].startswith("check the bank")
    assert {"list", "apply", "reject", "fold"} <= set(offered)
