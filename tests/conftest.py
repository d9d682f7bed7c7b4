"""Shared test helpers: fixture banks, the real banks beside the project, temporary copies."""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import settings

PROJECT = Path(__file__).resolve().parents[1]
FIXTURES = PROJECT / "tests" / "fixtures" / "banks"
SHARED = PROJECT.parent / "shared"
REAL_BANKS = sorted(p for p in (SHARED / "banks").glob("*/memory_bank")) if (SHARED / "banks").is_dir() else []

# The suite gives the same result on any machine: UTC whatever the machine's zone, one locale, and
# no git identity or configuration of the person running it (tests that commit name their own).
os.environ["TZ"] = "UTC"
# The product's clock override is for people; tests pin the clock themselves where they need it.
os.environ.pop("MEMORYBANK_NOW", None)
time.tzset()
os.environ["LC_ALL"] = os.environ["LANG"] = "C.UTF-8"
# The CLI folds its answers to COLUMNS (pytest-xdist's workers set it to 80): a test sees whole
# lines unless it sets a width itself.
os.environ.pop("COLUMNS", None)
# Caches of the many temporary banks tests make go to a folder of this run, not the user's.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="memorybank-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
os.environ.update(
    GIT_CONFIG_NOSYSTEM="1",
    GIT_CONFIG_GLOBAL=os.devnull,
    GIT_AUTHOR_NAME="Test",
    GIT_AUTHOR_EMAIL="test@example.com",
    GIT_COMMITTER_NAME="Test",
    GIT_COMMITTER_EMAIL="test@example.com",
)
# Property tests draw the same examples on every run: a failure is reproducible, and the suite never
# fails on one machine and passes on the next because of a lucky draw.
settings.register_profile("suite", derandomize=True, database=None)
settings.load_profile("suite")


def real_bank_ids() -> list[str]:
    return [p.parent.name for p in REAL_BANKS]


def checkout(source: Path, dest: Path) -> Path:
    """A copy of a real bank as a git checkout of it would be: every file and folder writable by its
    owner (../shared/banks is read-only, and a copy keeps the modes, which the gates respect)."""
    shutil.copytree(source, dest)
    for path in [dest, *dest.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    return dest


@pytest.fixture
def fixture_bank(tmp_path: Path):
    """Copy a fixture bank into a temporary directory (so a test may write) and return its root."""

    def make(name: str = "reference", dest: str = "memory_bank") -> Path:
        target = tmp_path / dest
        shutil.copytree(FIXTURES / name, target)
        return target

    return make


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A parse cache of the test's own, empty at its start."""
    where = tmp_path / "cache"
    monkeypatch.setenv("MEMORYBANK_CACHE_DIR", str(where))
    monkeypatch.delenv("MEMORYBANK_CACHE", raising=False)
    return where


@pytest.fixture
def write_file():
    def write(root: Path, rel: str, text: str | bytes) -> Path:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return write


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    full_env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.com",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.com",
        **(env or {}),
    }
    return subprocess.run(["git", *args], cwd=cwd, env=full_env, check=True, capture_output=True, text=True).stdout


def tree_snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes: compare before and after to prove nothing moved.

    The write state folder of a bank outside git (``.memorybank/``: the lock, an open journal) is not
    the bank's content and is left out; a test that cares about a leftover journal looks at it."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memorybank" not in p.relative_to(root).parts
    }


HEAVY_FIRST = ("tests/core/writes/", "tests/tui/", "tests/mcp_server/", "tests/integration/")
"""Folders whose tests kill writers, run a whole app or start servers, in the order they are handed out."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The longest tests first: the suite is spread over workers in this order, and a long test
    handed out last keeps one worker busy while the others have nothing left to do."""

    def weight(item: pytest.Item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        path = item.nodeid
        return next(
            (rank for rank, folder in enumerate(HEAVY_FIRST, 1) if path.startswith(folder)), len(HEAVY_FIRST) + 1
        )

    items.sort(key=weight)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Two workers a core for ``-n auto``: a third of the suite's time is spent waiting (on the
    processes and servers tests start, and on the workbench's idle loop), and a second worker on the
    core fills it (on 2 cores: 134 s with 4 workers, 164 s with 2, 150 s with 6)."""
    return 2 * (os.cpu_count() or 1)


def without_override() -> list[str]:
    """The command prefix that runs a child without the superuser's power to read and write any
    file (a test of a permission refusal run as root), or skips the test when it cannot be dropped."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root, and setpriv is not there to drop the override")
    return ["setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
