"""The command line's output streams as scripts and odd terminals leave them: a reader that stops
early, a closed or full standard output, a locale that cannot spell the bank's words, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES

REFERENCE = FIXTURES / "reference"


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
