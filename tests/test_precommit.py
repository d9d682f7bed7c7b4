"""The pre-commit hook the README documents, run for real: ``pre-commit install`` in a scratch git
repository, then commits that pass on a valid bank and are blocked, with the finding, on a broken one."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES, PROJECT

README = (PROJECT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent
CASE = FIXTURES / "rules" / "broken-derived-from"


def readme_config() -> str:
    """The ``.pre-commit-config.yaml`` the README shows (the yaml block that names a local repo)."""
    blocks = re.findall(r"```yaml\n(.*?)```", README, flags=re.S)
    (config,) = [block for block in blocks if "repo: local" in block]
    return config


def readme_hook() -> dict:
    (repo,) = yaml.safe_load(readme_config())["repos"]
    (hook,) = repo["hooks"]
    return hook


def test_the_readme_hook_is_a_local_system_hook_and_matches_the_hook_manifest():
    hook = readme_hook()
    assert hook["entry"] == "memorybank validate" and hook["language"] == "system"
    assert hook["pass_filenames"] is True
    assert hook["require_serial"] is True  # one process reads the bank once, not one per batch
    assert re.search(hook["files"], "memory_bank/adr/ADR-1.md") and re.search(hook["files"], "docs/memory-bank/x.md")
    assert not re.search(hook["files"], "src/memory_banking.py")
    (manifest,) = yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    shared = {key: value for key, value in hook.items() if key != "language"}
    assert {key: manifest[key] for key in shared} == shared
    assert "github.com/memorybank" not in README and "rev: v" not in README


@pytest.fixture
def repo(tmp_path) -> tuple[Path, dict[str, str]]:
    """A git repository with a valid bank, the README's config and the hook installed; and the
    environment to run git in: the venv's memorybank on PATH, pre-commit's cache in tmp_path."""
    if not (BIN / "pre-commit").exists() and not shutil.which("pre-commit"):
        pytest.fail("pre-commit is a test dependency: pip install -e '.[test]'")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "HOME": str(tmp_path / "home"),
        "GIT_AUTHOR_DATE": "2026-01-05T09:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-05T09:00:00Z",
        "NO_COLOR": "1",
    }
    env.pop("MEMORYBANK_ROOT", None)
    env.pop("GITHUB_ACTIONS", None)
    project = tmp_path / "project"
    shutil.copytree(CASE / "clean", project / "memory_bank")
    (project / ".pre-commit-config.yaml").write_text(readme_config(), encoding="utf-8")
    run(project, env, "git", "-c", "init.defaultBranch=main", "init", "-q")
    run(project, env, str(BIN / "pre-commit"), "install")
    return project, env


def run(cwd: Path, env: dict[str, str], *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if check:
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"
    return done


def test_a_commit_of_a_valid_bank_passes_the_hook(repo):
    project, env = repo
    run(project, env, "git", "add", "-A")
    done = run(project, env, "git", "commit", "-q", "-m", "Seed the bank")
    assert re.search(r"memorybank validate\.+Passed", done.stdout + done.stderr)
    assert run(project, env, "git", "log", "--format=%s").stdout.strip() == "Seed the bank"


def test_a_commit_that_breaks_the_bank_is_blocked_with_the_finding(repo):
    project, env = repo
    run(project, env, "git", "add", "-A")
    run(project, env, "git", "commit", "-q", "-m", "Seed the bank")
    shutil.copy(CASE / "fires" / "domain" / "a.md", project / "memory_bank" / "domain" / "a.md")
    run(project, env, "git", "add", "-A")
    done = run(project, env, "git", "commit", "-q", "-m", "Point a.md nowhere", check=False)
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert re.search(r"memorybank validate\.+Failed", output), output
    # the path opens from the repository top, where pre-commit runs
    assert (
        "broken-derived-from        memory_bank/domain/a.md:8  derived_from points at a file that does not exist"
        in output
    )
    assert run(project, env, "git", "log", "--format=%s").stdout.split("\n")[0] == "Seed the bank"
    again = run(project, env, str(BIN / "pre-commit"), "run", "--all-files", check=False)
    assert again.returncode == 1 and "broken-derived-from" in again.stdout


def test_a_commit_that_touches_no_bank_file_skips_the_hook(repo):
    project, env = repo
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("print('hello')\n", encoding="utf-8")
    run(project, env, "git", "add", "src")
    done = run(project, env, "git", "commit", "-q", "-m", "Add the app")
    assert re.search(r"memorybank validate\.+\(no files to check\)Skipped", done.stdout + done.stderr)


def test_an_error_already_in_the_bank_blocks_only_the_commits_that_touch_its_file(repo):
    """The hook checks the files a commit changes: a bank adopted with an error in it does not
    block every commit, only one that touches the file the error is in."""
    project, env = repo
    shutil.copy(CASE / "fires" / "domain" / "a.md", project / "memory_bank" / "domain" / "a.md")
    run(project, env, "git", "add", "-A")
    run(project, env, "git", "commit", "-q", "--no-verify", "-m", "Adopt a bank with an error")
    readme = project / "memory_bank" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    run(project, env, "git", "add", "-A")
    done = run(project, env, "git", "commit", "-q", "-m", "Touch the index only")
    assert re.search(r"memorybank validate\.+Passed", done.stdout + done.stderr)
    a = project / "memory_bank" / "domain" / "a.md"
    a.write_text(a.read_text(encoding="utf-8") + "\nStill pointing nowhere.\n", encoding="utf-8")
    run(project, env, "git", "add", "-A")
    done = run(project, env, "git", "commit", "-q", "-m", "Touch a.md", check=False)
    assert done.returncode != 0 and "broken-derived-from        memory_bank/domain/a.md:8" in done.stdout + done.stderr
