"""The command line's output streams as scripts and odd terminals leave them: a reader that stops
early, a closed or full standard output, a locale that cannot spell the bank's words, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

REFERENCE = FIXTURES / "reference"


def memorybank(*args: str, **kwargs) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "memorybank", *args], **kwargs)


@pytest.fixture
def erring_bank(tmp_path: Path) -> Path:
    """The reference bank (which has error findings) with enough extra findings that validating it
    prints far more than a pipe holds."""
    root = tmp_path / "memory_bank"
    shutil.copytree(REFERENCE, root)
    for n in range(400):
        (root / "domain" / f"stray-{n}.md").write_text(
            f"---\ntitle: Stray {n}\npurpose: a document nobody registered\nderived_from: [missing-{n}.md]\n---\n"
            "# Stray\n",
            encoding="utf-8",
        )
    return root


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_validate_still_fails_when_the_reader_stops_early(erring_bank, fmt):
    """`memorybank validate | head` under `set -o pipefail` must not turn a bank with errors green."""
    proc = memorybank(
        "validate", "--format", fmt, "--root", str(erring_bank), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err


def test_a_read_command_stops_quietly_and_succeeds_when_the_reader_goes_away():
    proc = memorybank("stats", "--json", "--root", str(REFERENCE), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.wait(timeout=60) == 0 and proc.stderr.read() == b""


@pytest.mark.parametrize("args", [["stats", "--json"], ["route", "thresholds", "--json"], ["inbox", "list", "--json"]])
def test_json_to_a_closed_stdout_is_no_traceback(args):
    """`memorybank stats --json >&-`: there is nowhere to print, and that is all."""
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", sys.executable, "-m", "memorybank", *args, "--root", str(REFERENCE)],
        stderr=subprocess.PIPE, text=True, timeout=60,
    )  # fmt: skip
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_not_blamed_on_the_bank(tmp_path):
    """A write that succeeded and whose report could not be printed must not say "nothing was
    written" or point at the bank's disk: the user would write it again."""
    root = tmp_path / "memory_bank"
    shutil.copytree(REFERENCE, root)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "memorybank", "create", "_inbox/note.md", "--inbox", "--title", "A note",
             "--purpose", "a fact", "--body", "text", "--root", str(root)],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert (root / "_inbox" / "note.md").exists()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "output" in done.stderr and "holding the bank" not in done.stderr
    assert "nothing was written" not in done.stderr


@pytest.fixture
def unicode_project(tmp_path: Path) -> Path:
    project = tmp_path / "проект"
    root = project / "memory_bank"
    shutil.copytree(REFERENCE, root)
    (root / "domain" / "деньги.md").write_text(
        "---\ntitle: Деньги\npurpose: как хранить суммы\n---\n# Деньги\n\n## Суммы\n\nСуммы в копейках — всегда.\n",
        encoding="utf-8",
    )
    return project


@pytest.mark.parametrize(
    "args",
    [
        ["stats"],
        ["read", "domain/деньги.md"],
        ["read", "domain/деньги.md", "--json"],
        ["validate", "--format", "json"],
        ["search", "копейках"],
        ["inbox"],
    ],
)
def test_an_ascii_locale_without_utf8_mode_gets_output_not_a_traceback(unicode_project, args):
    """LC_ALL=C with Python's UTF-8 mode off: a path and a document the locale cannot spell still
    read, and JSON stays JSON."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run(
        [sys.executable, "-m", "memorybank", *args], cwd=unicode_project, env=env, capture_output=True, timeout=60
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
    assert done.returncode in (0, 1) and done.stdout
    if "--json" in args or "json" in args:
        json.loads(done.stdout.decode("ascii"))


def test_ctrl_c_while_the_command_starts_is_exit_130_without_a_traceback():
    """Ctrl-C lands while the command is still importing what it runs (a deterministic stand-in:
    the import of the command's module is interrupted)."""
    script = (
        "import importlib, sys\n"
        "from memorybank.tui.cli import main\n"
        "def interrupted(*_):\n"
        "    raise KeyboardInterrupt\n"
        "importlib.import_module = interrupted\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "stats", "--root", str(REFERENCE)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 130 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses file names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_is_indexed_not_a_crash(tmp_path):
    """A Latin-1 file name (an old archive unpacked into the bank) reaches Python as surrogates; the
    bank still opens, twice (the second time from the parse cache), and JSON stays JSON."""
    root = tmp_path / "memory_bank"
    shutil.copytree(REFERENCE, root)
    with open(os.path.join(os.fsencode(root), b"caf\xe9.md"), "wb") as handle:
        handle.write(b"---\ntitle: Cafe\npurpose: where the coffee is\n---\n# Cafe\n")
    for args in (["stats"], ["stats"], ["validate", "--format", "json"], ["route", "coffee", "--json"]):
        done = subprocess.run(
            [sys.executable, "-m", "memorybank", *args, "--root", str(root)], capture_output=True, timeout=60
        )
        assert b"Traceback" not in done.stderr and done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")
        if "--json" in args or "json" in args:
            assert "caf\udce9.md" in json.dumps(json.loads(done.stdout), ensure_ascii=False)


def _read_through(tmp_path: Path, terminal: bool) -> bytes:
    root = tmp_path / "memory_bank"
    shutil.copytree(REFERENCE, root)
    (root / "domain" / "loud.md").write_bytes(
        b"---\ntitle: Loud\n---\n# Loud\n\nred \x1b[31mALERT\x1b[0m, a new title \x1b]0;owned\x07, tab\there\n"
    )
    command = [sys.executable, "-m", "memorybank", "read", "domain/loud.md", "--root", str(root)]
    if not terminal:
        return subprocess.run(command, stdout=subprocess.PIPE, timeout=60, check=True).stdout
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(command, stdout=follower, stderr=subprocess.DEVNULL)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed when the command ended
                break
            if not chunk:
                break
            shown += chunk
        assert proc.wait(timeout=60) == 0
    finally:
        os.close(leader)
    return shown


def test_read_on_a_terminal_spells_out_escape_sequences_and_into_a_pipe_keeps_them(tmp_path):
    """A document an agent wrote must not recolour, retitle or rewrite the owner's terminal; a
    script reading the same document through a pipe still gets its bytes."""
    on_screen = _read_through(tmp_path / "tty", terminal=True)
    assert b"\x1b" not in on_screen and b"\x07" not in on_screen
    assert b"red \\u001b[31mALERT\\u001b[0m" in on_screen and b"tab\there" in on_screen
    piped = _read_through(tmp_path / "pipe", terminal=False)
    assert b"red \x1b[31mALERT\x1b[0m, a new title \x1b]0;owned\x07" in piped
