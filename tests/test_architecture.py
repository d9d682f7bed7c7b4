"""The boundaries of ARCHITECTURE.md, enforced: the core imports no face and no UI or MCP library."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT


def test_importing_core_loads_neither_textual_nor_the_mcp_sdk():
    code = (
        "import sys, pkgutil, importlib, core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'mcp', 'rich', 'tui', 'mcp_server'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True)
    assert result.stdout.strip() == ""


def test_the_cli_entry_point_does_not_load_textual():
    code = "import sys, tui.cli.main\nprint(any(n.startswith('textual') for n in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True)
    assert result.stdout.strip() == "False"


def test_import_linter_contracts_hold():
    """The contracts in pyproject.toml, checked by import-linter (installed with the test extra)."""
    lint = Path(sys.executable).parent / "lint-imports"
    command = [str(lint)] if lint.exists() else [shutil.which("lint-imports") or "lint-imports"]
    result = subprocess.run(command, capture_output=True, text=True, cwd=PROJECT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_code_is_linted_and_formatted():
    """``ruff check`` and ``ruff format --check`` pass on the whole tree, with the rules in pyproject."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency: pip install -e '.[test]'"
    for command in ([ruff, "check", "--quiet", "."], [ruff, "format", "--check", "--quiet", "."]):
        done = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True)
        assert done.returncode == 0, f"{' '.join(command[1:])}:\n{done.stdout}{done.stderr}"


def test_the_command_line_imports_nothing_of_the_workbench_but_the_app_it_launches():
    """``tui/cli`` composes core calls; of the TUI package it may import only the app (and the MCP
    host the app runs), so no face grows logic the others cannot reach."""
    import ast

    allowed = {"tui.app", "tui.mcp_host"}
    for path in sorted((PROJECT / "tui" / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("tui.") and not name.startswith("tui.cli"):
                    assert name in allowed, f"{path.name} imports {name}"
