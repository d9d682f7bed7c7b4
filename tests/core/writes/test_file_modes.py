"""A write replaces a document's content, never its permissions: the mode and owner stay, and a file
its owner made read-only is refused with nothing written."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from memorybank.core.write.edit import update_section

from tests.conftest import tree_snapshot, without_override

CONTEXT = "product/context.md"


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_a_written_document_keeps_its_permission_bits(seeded, mode):
    target = seeded.root / CONTEXT
    os.chmod(target, mode)
    update_section(seeded, path=CONTEXT, section="Problem", content="Readers lose their place.")
    assert "Readers lose their place." in target.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(target).st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="only the superuser gives a file to another user")
def test_a_document_written_by_the_superuser_keeps_its_owner(seeded):
    target = seeded.root / CONTEXT
    os.chown(target, 65534, 65534)
    update_section(seeded, path=CONTEXT, section="Problem", content="Readers lose their place.")
    assert (os.stat(target).st_uid, os.stat(target).st_gid) == (65534, 65534)


WRITE = """
import sys
from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from memorybank.core.write.edit import update_section
try:
    update_section(Bank.open(sys.argv[1]), path=sys.argv[2], section="Problem", content="Overwritten.")
except BankError as error:
    print(error.reason, error.message)
"""


def test_a_read_only_document_is_refused_and_nothing_is_written(seeded):
    """Run without the superuser's power to write anything (root writes read-only files)."""
    without = without_override()
    target = seeded.root / CONTEXT
    os.chmod(target, 0o444)
    before = tree_snapshot(seeded.root)
    project = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [*without, sys.executable, "-c", WRITE, str(seeded.root), CONTEXT],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "MEMORYBANK_CACHE": "off"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("read-only "), done.stdout
    assert "product/context.md is read-only (-r--r--r--); nothing was written." in done.stdout
    assert tree_snapshot(seeded.root) == before
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o444


def test_a_read_only_index_is_refused_in_this_process_whoever_runs_it(seeded):
    """The superuser's open would not refuse a read-only file, nor would the rename a write lands
    with: a create that would register in a read-only index is refused when it is planned (its
    preview says so), by the mode the owner set."""
    from memorybank.core.errors import Refusal
    from memorybank.core.write.create import create

    index = seeded.root / "domain" / "README.md"
    os.chmod(index, 0o444)
    before = tree_snapshot(seeded.root)
    for dry_run in (True, False):
        with pytest.raises(Refusal) as refused:
            create(
                seeded,
                path="domain/new.md",
                title="New",
                purpose="p",
                doc_kind="domain",
                derived_from=["../product/context.md"],
                dry_run=dry_run,
            )
        assert refused.value.reason == "read-only" and "domain/README.md is read-only (-r--r--r--)" in str(
            refused.value
        )
    assert tree_snapshot(seeded.root) == before


DRY_RUN = """
import sys
from memorybank.core.bank import Bank
from memorybank.core.errors import BankError
from memorybank.core.write.fields import set_field
try:
    result = set_field(Bank.open(sys.argv[1]), path="product/context.md", field="owner", value="docs team", dry_run=True)
    print("PREVIEW", result.dry_run)
except BankError as error:
    print(error.reason, error.message)
"""


def test_a_dry_run_on_a_bank_it_may_not_write_previews_and_writes_nothing(seeded):
    without = without_override()
    shutil.rmtree(seeded.root / ".memorybank", ignore_errors=True)  # never written: no lock folder yet
    before = tree_snapshot(seeded.root)
    folders = [p for p in (seeded.root, *seeded.root.rglob("*")) if p.is_dir()]
    for folder in folders:
        os.chmod(folder, 0o555)
    try:
        done = subprocess.run(
            [*without, sys.executable, "-c", DRY_RUN, str(seeded.root)],
            cwd=Path(__file__).resolve().parents[3],
            capture_output=True,
            text=True,
            env={**os.environ, "MEMORYBANK_CACHE": "off"},
        )
    finally:
        for folder in folders:
            os.chmod(folder, 0o755)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "PREVIEW True"
    assert tree_snapshot(seeded.root) == before
