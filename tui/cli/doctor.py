"""``memorybank doctor``: what is wrong with this installation, and how to fix each thing.

It checks the bank and its contract, the command on PATH, Python and package versions, the
terminal's encoding, a real MCP handshake with the installed server (``tools/list`` over stdio), and
every client configuration that mentions memorybank: does its command start, does its bank exist.
"""

from __future__ import annotations

import argparse
import json
import locale
import os
import shlex
import shutil
import sys
import time
import tomllib
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TextIO

from memorybank.core.bank import Bank, find_root
from memorybank.core.client_files import is_our_hook
from memorybank.core.setup import ConfigError, codex_home, desktop_config, project_of, read_config
from memorybank.core.validate import validate

HANDSHAKE_TIMEOUT = 20.0


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: str
    """``ok``, ``warn`` or ``fail``."""
    detail: str
    fix: str = ""


def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def handshake(command: str, args: list[str], cwd: Path | None = None) -> tuple[int, float]:
    """Start ``command args`` as an MCP stdio server and list its tools: (count, seconds)."""
    import anyio
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=command, args=args, cwd=str(cwd) if cwd else None)

    async def run() -> tuple[int, float]:
        started = time.perf_counter()
        with anyio.fail_after(HANDSHAKE_TIMEOUT):
            # The server's stderr goes where ours goes now: the SDK's default is the stream there was
            # when it was first imported, which may be gone (a closed pipe, a replaced stream).
            async with Client(stdio_client(params, errlog=_errlog())) as client:
                tools = await client.list_tools()
        return len(tools.tools), time.perf_counter() - started

    return anyio.run(run)


def _resolve(command: str) -> str | None:
    if os.path.isabs(command):
        return command if os.access(command, os.X_OK) else None
    return shutil.which(command)


def environment_checks() -> list[Check]:
    checks = []
    py = sys.version_info
    checks.append(
        Check(
            "python",
            "ok" if py >= (3, 11) else "fail",
            f"{py.major}.{py.minor}.{py.micro} at {sys.executable}",
            "" if py >= (3, 11) else "memorybank needs Python 3.11 or newer.",
        )
    )
    checks.append(
        Check(
            "packages",
            "ok",
            f"memorybank {_version('memorybank')}, mcp {_version('mcp')}, textual {_version('textual')}",
        )
    )
    encodings = {
        "stdout": getattr(sys.stdout, "encoding", None) or "?",
        "stdin": getattr(sys.stdin, "encoding", None) or "?",
        "locale": locale.getpreferredencoding(False),
    }
    utf8 = all(str(e).lower().replace("-", "") in ("utf8", "?") for e in encodings.values())
    checks.append(
        Check(
            "encoding",
            "ok" if utf8 else "warn",
            ", ".join(f"{k} {v}" for k, v in encodings.items()),
            "" if utf8 else "Run with PYTHONIOENCODING=utf-8 (or a UTF-8 locale such as LANG=C.UTF-8).",
        )
    )
    on_path = shutil.which("memorybank")
    if on_path:
        checks.append(Check("command", "ok", f"memorybank on PATH: {on_path}"))
    else:
        here = Path(sys.executable).parent / "memorybank"
        checks.append(
            Check(
                "command",
                "warn",
                "memorybank is not on PATH",
                f"Add {here.parent} to PATH, or let `memorybank setup` write the absolute path {here}.",
            )
        )
    return checks


def bank_checks(root: Path | None) -> list[Check]:
    if root is None or not root.is_dir():
        return [
            Check(
                "bank",
                "fail",
                f"no bank found{f' at {root}' if root else ''}",
                "Pass --root, set MEMORYBANK_ROOT, or run `memorybank init NAME` in the project.",
            )
        ]
    bank = Bank.open(root)
    checks = [Check("bank", "ok", f"{root} ({len(bank)} documents)")]
    if bank.contract.present:
        checks.append(Check("contract", "ok", f"read from {', '.join(bank.contract.source)}"))
    else:
        checks.append(
            Check(
                "contract",
                "warn",
                "no dna/: degraded mode (routing and reading, no contract rules)",
                "`memorybank init NAME --force` seeds a contract, or write dna/governance.md yourself.",
            )
        )
    report = validate(bank)
    checks.append(
        Check(
            "validation",
            "ok" if not report.errors else "warn",
            f"{report.errors} errors, {report.warnings} warnings",
            "" if not report.errors else "Run `memorybank validate` and fix the errors it lists.",
        )
    )
    return checks


def server_check(root: Path) -> Check:
    command = shutil.which("memorybank") or str(Path(sys.executable).parent / "memorybank")
    try:
        count, seconds = handshake(command, ["mcp", "--root", str(root)])
    except BaseException as error:
        if _interrupted(error):  # Ctrl-C stops doctor; it is not a server that failed to answer
            raise KeyboardInterrupt from None
        return Check(
            "mcp handshake",
            "fail",
            f"{command} mcp did not answer tools/list: {_short(error)}",
            "Run `memorybank mcp --root <bank>` by hand to see its error.",
        )
    status = "ok" if count else "warn"
    return Check(
        "mcp handshake",
        status,
        f"{command} mcp listed {count} tools in {seconds:.2f} s",
        "" if count else "The surface is off or seed only: check --off paths and .memorybank-off.",
    )


def _errlog() -> TextIO:
    """Our stderr, when it is a file a child process can write to; else the one we started with."""
    try:
        sys.stderr.fileno()
    except (AttributeError, ValueError, OSError):
        return sys.__stderr__
    return sys.stderr


def _interrupted(error: BaseException) -> bool:
    if isinstance(error, BaseExceptionGroup):
        return any(_interrupted(inner) for inner in error.exceptions)
    return isinstance(error, KeyboardInterrupt)


def _short(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup):
        return _short(error.exceptions[0])
    return f"{error.__class__.__name__}: {error}".strip()


def _entry_check(name: str, path: Path, command: str | None, args: list[str], project: Path, fix: str) -> Check:
    if not command:
        return Check(name, "fail", f"{path} names memorybank without a command", f"Re-run `{fix}`.")
    resolved = _resolve(command)
    if resolved is None:
        return Check(
            name, "fail", f"{path}: command {command!r} is not found", f"Re-run `{fix}` to write the installed path."
        )
    if "--root" in args:
        raw = args[args.index("--root") + 1] if args.index("--root") + 1 < len(args) else ""
        root = Path(raw.replace("${workspaceFolder}", str(project)))
        if not (project / root if not root.is_absolute() else root).is_dir():
            return Check(
                name, "fail", f"{path}: --root {raw} does not exist", "Point --root at the bank, or re-run setup."
            )
        if not root.is_absolute():
            return Check(
                name,
                "warn",
                f"{path}: --root {raw} is relative, so it depends on the directory the client starts the server in",
                f"Re-run `{fix}` to write the bank's absolute path.",
            )
    return Check(name, "ok", f"{path}: {command} {' '.join(args)}")


def _codex_checks(project: Path, home: Path) -> list[Check]:
    checks = []
    for scope, path, fix in (
        ("project", project / ".codex" / "config.toml", "memorybank setup codex"),
        ("user", codex_home(home) / "config.toml", "memorybank setup codex --user"),
    ):
        if not path.exists():
            continue
        name = f"codex {scope} config"
        try:
            entry = tomllib.loads(path.read_text(encoding="utf-8")).get("mcp_servers", {}).get("memorybank")
        except tomllib.TOMLDecodeError as error:
            checks.append(
                Check(name, "fail", f"{path} is not valid TOML ({error})", "Fix the file, then re-run setup.")
            )
            continue
        if isinstance(entry, dict):
            checks.append(_entry_check(name, path, entry.get("command"), list(entry.get("args", [])), project, fix))
    return checks


def client_checks(root: Path | None, home: Path) -> list[Check]:
    project = project_of(root) if root else Path.cwd()
    checks: list[Check] = []
    for client, path, section in (
        ("claude-code", project / ".mcp.json", "mcpServers"),
        ("cursor", project / ".cursor" / "mcp.json", "mcpServers"),
        ("vscode", project / ".vscode" / "mcp.json", "servers"),
        ("claude-desktop", desktop_config(home), "mcpServers"),
    ):
        if not path.exists():
            continue
        try:
            entry = read_config(path, client)[1].get(section, {}).get("memorybank")
        except ConfigError as error:
            checks.append(Check(f"{client} config", "fail", error.problem, "Fix the file, then re-run setup."))
            continue
        except AttributeError:
            checks.append(Check(f"{client} config", "fail", f"{path}: {section} is not an object", "Fix the file."))
            continue
        if isinstance(entry, dict):
            args = list(entry.get("args", []))
            fix = f"memorybank setup {client}"
            checks.append(_entry_check(f"{client} config", path, entry.get("command"), args, project, fix))
    checks += _codex_checks(project, home)
    settings = project / ".claude" / "settings.json"
    if settings.exists():
        try:
            groups = read_config(settings, "claude-code")[1].get("hooks", {}).get("Stop", [])
        except (ValueError, AttributeError):
            groups = []
        for group in groups:
            for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                command = str(hook.get("command", ""))
                if is_our_hook(hook):
                    exe = shlex.split(command.split(" hook stop", 1)[0] or "memorybank")[0]
                    ok = _resolve(exe) is not None
                    checks.append(
                        Check(
                            "claude-code stop hook",
                            "ok" if ok else "fail",
                            f"{settings}: {command}",
                            "" if ok else "Re-run `memorybank setup claude-code` to write the installed path.",
                        )
                    )
    if not checks:
        checks.append(
            Check(
                "clients",
                "warn",
                "no client configuration mentions memorybank",
                "Run `memorybank setup claude-code` (or cursor, vscode, codex, claude-desktop).",
            )
        )
    return checks


def run_checks(root: Path | None, *, home: Path | None = None) -> list[Check]:
    checks = environment_checks() + bank_checks(root)
    if root is not None and root.is_dir():
        checks.append(server_check(root))
    return checks + client_checks(root, home or Path.home())


MARKS = {"ok": "✓", "warn": "!", "fail": "✗"}


def doctor(args: argparse.Namespace) -> int:
    checks = run_checks(find_root(getattr(args, "root", None)))
    if args.json:
        print(json.dumps([asdict(c) for c in checks], ensure_ascii=False, indent=2))
    else:
        ascii_only = (getattr(sys.stdout, "encoding", "") or "").lower().replace("-", "") != "utf8"
        for check in checks:
            mark = {"ok": "ok", "warn": "!!", "fail": "XX"}[check.status] if ascii_only else MARKS[check.status]
            print(f"{mark} {check.name}: {check.detail}")
            if check.fix:
                print(f"   fix: {check.fix}")
        failed = sum(1 for c in checks if c.status == "fail")
        warned = sum(1 for c in checks if c.status == "warn")
        counted = f"{failed} problem{'s' * (failed != 1)}, {warned} warning{'s' * (warned != 1)}"
        print(f"\n{'all green' if not failed and not warned else counted}")
    return 1 if any(c.status == "fail" for c in checks) else 0
