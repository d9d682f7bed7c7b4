"""The boundaries of ARCHITECTURE.md, enforced: the core imports no face and no UI or MCP library."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT

PACKAGES = ("core", "mcp_server", "tui", "starter")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The wheel the project builds, unpacked: the tree ``pip install`` puts in site-packages."""
    import zipfile

    from hatchling.builders.wheel import WheelBuilder

    out = tmp_path_factory.mktemp("wheel")
    (wheel,) = WheelBuilder(str(PROJECT)).build(directory=str(out), versions=["standard"])
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(out / "site")
    return out / "site"


def test_the_wheel_installs_one_package_holding_every_folder(installed):
    """Nothing lands at the top of site-packages but ``memorybank`` (and its metadata), and every
    folder of the checkout, its data files included, is inside it."""
    top = {path.name for path in installed.iterdir()}
    assert "memorybank" in top and all(name == "memorybank" or name.endswith(".dist-info") for name in top), top
    for package in PACKAGES:
        here = {p.relative_to(PROJECT / package).as_posix() for p in (PROJECT / package).rglob("*")}
        shipped = {
            p.relative_to(installed / "memorybank" / package).as_posix()
            for p in (installed / "memorybank" / package).rglob("*")
        }
        missing = {name for name in here - shipped if "__pycache__" not in name}
        assert not missing, f"{package}: {sorted(missing)[:5]}"
    assert not list(installed.rglob("*.pyc"))
    entry = (next(installed.glob("*.dist-info")) / "entry_points.txt").read_text()
    assert "memorybank = memorybank.tui.cli:main" in entry


def test_no_module_imports_a_folder_by_its_checkout_name():
    """Every import names the installed package (``memorybank.core``...), never the folder: in the
    wheel there is no top-level ``core``."""
    import ast

    for package in (*PACKAGES, "tests", "memorybank"):
        for path in (PROJECT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                for name in names:
                    assert name.split(".")[0] not in PACKAGES, f"{path.relative_to(PROJECT)} imports {name}"


def test_importing_core_loads_neither_textual_nor_the_mcp_sdk():
    code = (
        "import sys, pkgutil, importlib, memorybank.core as core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'memorybank.core.'):\n    if not m.name.endswith('__main__'): importlib.import_module(m.name)\n"
        "heavy = ('textual', 'mcp', 'rich', 'memorybank.tui', 'memorybank.mcp_server')\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in heavy or '.'.join(n.split('.')[:2]) in heavy)\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True)
    assert result.stdout.strip() == ""


def test_the_cli_entry_point_does_not_load_textual():
    code = "import sys, memorybank.tui.cli.main\nprint(any(n.startswith('textual') for n in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True)
    assert result.stdout.strip() == "False"


def test_import_linter_contracts_hold(installed):
    """The contracts in pyproject.toml, checked by import-linter (installed with the test extra) on
    the tree the wheel installs."""
    import os

    lint = Path(sys.executable).parent / "lint-imports"
    command = [str(lint)] if lint.exists() else [shutil.which("lint-imports") or "lint-imports"]
    env = {**os.environ, "PYTHONPATH": str(installed)}
    command += ["--config", str(PROJECT / "pyproject.toml"), "--no-cache"]  # a cache would land in the installed tree
    result = subprocess.run(command, capture_output=True, text=True, cwd=installed, env=env)
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

    allowed = {"memorybank.tui.app", "memorybank.tui.mcp_host"}
    for path in sorted((PROJECT / "tui" / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith("memorybank.tui.") and not name.startswith("memorybank.tui.cli"):
                    assert name in allowed, f"{path.name} imports {name}"


def _cycles(graph, modules: set[str]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each a cycle of imports."""
    edges = {m: sorted(set(graph.find_modules_directly_imported_by(m)) & modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(modules):
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(edges[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return groups


def test_the_import_graph_has_no_cycle(installed):
    """No module of core, mcp_server or tui imports itself back through others, type-checking
    imports included (grimp, installed with import-linter), in the tree the wheel installs."""
    import grimp

    code = (
        "import sys, grimp; sys.path.insert(0, sys.argv[1])\n"
        "g = grimp.build_graph('memorybank', cache_dir=None)\n"
        "print('\\n'.join(f'{m} {i}' for m in sorted(g.modules) for i in sorted(g.find_modules_directly_imported_by(m))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(installed)], capture_output=True, text=True, check=True, cwd=installed
    )
    edges = [line.split() for line in done.stdout.splitlines()]
    modules = {m for pair in edges for m in pair}
    assert len(modules) > 120, "the graph should hold every module of the package"
    graph = grimp.ImportGraph()
    for importer, imported in edges:
        graph.add_import(importer=importer, imported=imported)
    assert _cycles(graph, set(graph.modules)) == []


LIGHT_COMMANDS = [
    ["validate"],
    ["validate", "--format", "sarif"],
    ["stats"],
    ["read", "README.md"],
    ["route", "deploy"],
    ["search", "deploy"],
    ["eval"],
    ["graph", "dna/governance.md"],
    ["drift"],
    ["changed", "2020-01-01"],
    ["inbox", "list"],
    ["create", "--dry-run", "--kind", "domain", "--title", "X", "--purpose", "Y.", "domain/x.md"],
    ["hook", "stop"],
    ["setup", "claude-code", "--plan"],
    ["completion", "bash"],
]


@pytest.mark.parametrize("argv", LIGHT_COMMANDS, ids=lambda argv: " ".join(argv[:2]))
def test_commands_that_need_no_ui_and_no_mcp_import_neither(argv, fixture_bank):
    """``memorybank validate`` runs on every commit and ``hook stop`` on every agent turn: they, and
    every command that needs neither, load no Textual and no MCP SDK; only ``completion`` loads shtab."""
    root = fixture_bank("reference")
    full = [*argv, "--root", str(root)] if argv[0] not in ("hook",) else argv
    code = (
        "import io, sys\n"
        "from memorybank.tui.cli import main\n"
        "sys.stdin = io.StringIO('{}')\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "heavy = {'textual', 'mcp', 'mcp_types', 'starlette', 'uvicorn'} | ({'shtab'} if sys.argv[1] != 'completion' else set())\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & heavy)\n"
        "print('HEAVY', ','.join(heavy), file=sys.__stderr__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *full], capture_output=True, text=True, cwd=root.parent, timeout=120
    )
    marker = [line for line in done.stderr.splitlines() if line.startswith("HEAVY")]
    assert marker == ["HEAVY "], done.stderr


def test_the_command_table_names_the_module_that_registers_each_command():
    import argparse

    from memorybank.tui.cli.main import COMMANDS, MODULES, build_parser

    everything = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(COMMANDS) == set(everything)
    for module in MODULES:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(f"memorybank.tui.cli.{module}").register(sub, argparse.ArgumentParser(add_help=False))
        assert {c for c, m in COMMANDS.items() if m == module} == set(sub.choices), module


def test_no_module_outgrows_one_job():
    """Modules with one job stay under 400 lines, and no function of the write path branches more
    than fifteen ways (ruff's C901)."""
    sizes = {
        path.relative_to(PROJECT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for package in ("core", "mcp_server", "tui")
        for path in (PROJECT / package).rglob("*.py")
    }
    assert {path: lines for path, lines in sizes.items() if lines > 400} == {}
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    done = subprocess.run(
        [ruff, "check", "--quiet", "--select", "C901", "--config", "lint.mccabe.max-complexity=15", "core/write"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout
