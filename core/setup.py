"""Wiring a bank into an agent client: the MCP entry, the instructions paragraph, the Stop hook.

``plan_setup`` computes every file change for one client and ``apply_setup`` writes them. Each
change touches only what memorybank owns: one server entry in a JSON (or TOML) config, a paragraph
between markers in the agent file, one Stop hook entry. Running it twice changes nothing the
second time, and a plan shows the exact diff without writing.
"""

from __future__ import annotations

import os
import platform
import shlex
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memorybank.core.client_files import (
    SERVER,
    ConfigError,
    FileChange,
    between_markers,
    codex_entry,
    existing_entry,
    json_entry,
    owned_args,
    read_config,
    read_file,
    stop_hook,
    without_codex_entry,
    without_json_entry,
    without_markers,
    without_stop_hook,
)

CLIENTS = ("claude-code", "claude-desktop", "cursor", "vscode", "codex")
SURFACES = ("full", "read-only", "capture")
"""What ``memorybank mcp --surface`` serves: every tool, the reading ones, or reading plus capture."""
CODEX_SCOPES = ("project", "user")
CLIENT_FOLDERS = (".claude", ".codex", ".cursor", ".vscode")
"""The project folders setup may make for a client's file; ``--remove`` takes one away once empty."""

INSTRUCTIONS = """## Project memory: the memory bank

This project's knowledge lives in `{bank}/`, a memory bank served by the `memorybank` MCP server.
Its tools all start with `bank_`: load them and use them instead of reading or editing the bank's
files with the shell.

- **Finding**: `bank_route` with the question as it was asked (any language) says which documents
  to read; `bank_read` reads them, one `##` section or a line range at a time, several per call;
  `bank_search` finds where a literal string occurs.
{rest}"""
WRITING = {
    "full": """- **Changing**: `bank_edit` replaces an exact fragment, `bank_update_section` rewrites one section
  (pass the `version` `bank_read` reported, or the one your last write answered, as `ifVersion`: an
  edit someone made since is then never overwritten), `bank_set_status` moves a document through its
  lifecycle (archiving releases its `canonical_for` keys), `bank_set_field` sets one frontmatter value.
- **Creating**: `bank_create` writes a governed document and registers it in its index; use
  `inbox: true` for a note you are not sure where to place.
- **Checking**: run `bank_validate` before committing. Notes in `_inbox/` are the owner's to
  promote or discard; you may only propose.""",
    "capture": """- **Capturing**: `bank_capture` files a note into `_inbox/` for anything the bank should learn;
  the owner promotes, folds or discards it. No other writes are offered: say what should change in
  a document instead of changing it.
- **Checking**: `bank_validate` says what is wrong with the bank.""",
    "read-only": """- The server is read-only: say what should change in a document instead of changing it.
- **Checking**: `bank_validate` says what is wrong with the bank.""",
}
"""What the paragraph says about writing, per ``--surface``: only the tools the client is given."""


def instructions(bank_rel: str, surface: str = "full") -> str:
    return INSTRUCTIONS.format(bank=bank_rel, rest=WRITING[surface])


@dataclass(frozen=True, slots=True)
class SetupPlan:
    client: str
    project: str
    bank: str
    changes: list[FileChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    surface: str = "full"


def command_path() -> str:
    """How a client should start memorybank: the bare name when PATH finds this installation,
    else the absolute path of the installed script."""
    here = Path(sys.executable).parent / ("memorybank.exe" if os.name == "nt" else "memorybank")
    on_path = shutil.which("memorybank")
    if on_path and here.exists() and Path(on_path).resolve() == here.resolve():
        return "memorybank"
    if here.exists():
        return str(here)
    return on_path or "memorybank"


def project_of(bank_root: Path) -> Path:
    """The project a bank belongs to: the git work tree holding it, else the bank's parent."""
    probe = bank_root.resolve()
    for directory in (probe, *probe.parents):
        if (directory / ".git").exists():
            return directory
    return bank_root.resolve().parent


def _previous_entry(client: str, config: Path, section: str) -> dict[str, Any]:
    """The entry this client's config holds now ({} when none, or when the file will be refused)."""
    if client == "codex":
        import tomllib

        try:
            data = tomllib.loads(read_file(config) or "")
        except tomllib.TOMLDecodeError:
            return {}
        return existing_entry(data, "mcp_servers")
    try:
        return existing_entry(read_config(config, client)[1], section)
    except ConfigError:
        return {}


def _agent_file(path: Path, bank_rel: str, surface: str) -> FileChange:
    before = read_file(path)
    after = between_markers(path, before, instructions(bank_rel, surface))
    return FileChange(str(path), before, after, "the instructions paragraph between memorybank markers")


def hook_command(exe: str, bank_rel: str, surface: str) -> str:
    """The Stop hook's command: the bank named from the project Claude Code runs it in, so a bank in
    a subfolder of a monorepo is found whatever directory the session started in."""
    root = '"$CLAUDE_PROJECT_DIR"' if bank_rel == "." else f'"$CLAUDE_PROJECT_DIR/{bank_rel}"'
    command = f"{shlex.quote(exe)} hook stop --root {root}"
    return command + (" --surface capture" if surface == "capture" else "")


def codex_home(home: Path, env: Mapping[str, str] | None = None) -> Path:
    """Where Codex keeps its user config: ``$CODEX_HOME``, else ``~/.codex``."""
    value = (os.environ if env is None else env).get("CODEX_HOME", "")
    return Path(value).expanduser() if value.strip() else home / ".codex"


def desktop_config(home: Path) -> Path:
    system = platform.system()
    if system == "Darwin":
        return home / "Library/Application Support/Claude/claude_desktop_config.json"
    if system == "Windows":
        return Path(os.environ.get("APPDATA", home / "AppData/Roaming")) / "Claude/claude_desktop_config.json"
    return home / ".config/Claude/claude_desktop_config.json"


CONFIGS = {
    "claude-code": (".mcp.json", "mcpServers"),
    "cursor": (".cursor/mcp.json", "mcpServers"),
    "vscode": (".vscode/mcp.json", "servers"),
}


def _config_of(client: str, project: Path, home: Path, user: bool, env: Mapping[str, str] | None) -> tuple[Path, str]:
    """The config file holding the client's server entry, and the section the entry sits in."""
    if client == "codex":
        return (codex_home(home, env) if user else project / ".codex") / "config.toml", "mcp_servers"
    if client == "claude-desktop":
        return desktop_config(home), "mcpServers"
    return project / CONFIGS[client][0], CONFIGS[client][1]


def _check_choices(client: str, surface: str | None, codex_scope: str) -> None:
    if client not in CLIENTS:
        raise ValueError(f'Unknown client "{client}". Choose one of: {", ".join(CLIENTS)}.')
    if surface is not None and surface not in SURFACES:
        raise ValueError(f'Unknown surface "{surface}". Choose one of: {", ".join(SURFACES)}.')
    if codex_scope not in CODEX_SCOPES:
        raise ValueError(f'Unknown Codex scope "{codex_scope}". Choose one of: {", ".join(CODEX_SCOPES)}.')


def plan_setup(
    client: str,
    bank_root: Path,
    *,
    home: Path | None = None,
    command: str | None = None,
    surface: str | None = None,
    codex_scope: str = "project",
    env: Mapping[str, str] | None = None,
) -> SetupPlan:
    """Every change ``setup`` would make for ``client``; nothing is written.

    ``surface`` other than ``full`` is passed on as ``mcp --surface``; None keeps the one the
    client's entry has (else full), so a teammate re-running setup does not widen it. Arguments
    and keys the owner added to the entry stay. ``codex_scope`` picks the Codex config: the
    project's ``.codex/config.toml`` or the user's ``$CODEX_HOME/config.toml``."""
    _check_choices(client, surface, codex_scope)
    home = home or Path.home()
    exe = command or command_path()
    project = project_of(bank_root)
    bank = str(bank_root.resolve())
    bank_rel = os.path.relpath(bank, project).replace(os.sep, "/")
    user = client == "codex" and codex_scope == "user"
    config, section = _config_of(client, project, home, user, env)
    previous = _previous_entry(client, config, section)
    kept, had_surface, had_root = owned_args(previous.get("args"))
    surface = surface or (had_surface if had_surface in SURFACES else None) or "full"
    extra = [] if surface == "full" else ["--surface", surface]
    # The bank's absolute path wherever the client documents no project variable: Claude Code starts
    # a server in the directory `claude` was started from (a subdirectory is not the project), Cursor's
    # working directory differs between its launch modes, and Codex and Claude Desktop have neither.
    root_arg = "${workspaceFolder}/" + bank_rel if client == "vscode" else bank
    args = ["mcp", "--root", root_arg, *extra, *kept]
    plan = SetupPlan(client, str(project), bank, surface=surface)
    if had_root and had_root != root_arg:
        where = "in every session, in any project" if client == "claude-desktop" or user else "for this project"
        plan.notes.append(f"The {SERVER} entry served {had_root}; from now on it serves {root_arg} {where}.")
    if client == "codex":
        plan.changes.append(codex_entry(config, exe, args))
    elif client == "claude-desktop":
        entry = {"command": exe if os.path.isabs(exe) else shutil.which(exe) or exe, "args": args}
        plan.changes.append(json_entry(config, client, section, entry))
    else:
        # VS Code resolves ${workspaceFolder} in mcp.json to the folder holding .vscode/, however it
        # was opened, so its entry is anchored to the project and stays the same on every machine.
        entry = {"command": exe, "args": args}
        entry = {"type": "stdio", **entry} if client in ("claude-code", "vscode") else entry
        plan.changes.append(json_entry(config, client, section, entry))
    if client == "claude-code":
        plan.changes.append(_agent_file(project / "CLAUDE.md", bank_rel, surface))
        hook = None if surface == "read-only" else hook_command(exe, bank_rel, surface)
        change = stop_hook(project / ".claude" / "settings.json", hook)
        if change is not None:
            plan.changes.append(change)
    elif client != "claude-desktop":
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel, surface))
    if client == "claude-desktop":
        plan.notes.append(
            "Claude Desktop has no project file for instructions; paste the paragraph from the README into a project's instructions."
        )
    if client == "codex":
        plan.notes.append(
            "The user config serves this bank in every Codex session, in any project."
            if user
            else "Codex reads a project's .codex/config.toml once you trust the project; --user writes $CODEX_HOME/config.toml instead."
        )
    if client != "claude-code":
        plan.notes.append("The Stop hook is a Claude Code feature; other clients capture notes when asked.")
    return plan


def plan_removal(
    client: str,
    bank_root: Path,
    *,
    home: Path | None = None,
    codex_scope: str = "project",
    env: Mapping[str, str] | None = None,
) -> SetupPlan:
    """What ``setup --remove`` takes away for ``client``: our server entry, our paragraph and our
    Stop hook, each from the file setup put it in; everything else in those files stays, and a file
    left holding nothing (setup made it) goes. Nothing is written."""
    _check_choices(client, None, codex_scope)
    home = home or Path.home()
    project = project_of(bank_root)
    user = client == "codex" and codex_scope == "user"
    config, section = _config_of(client, project, home, user, env)
    plan = SetupPlan(client, str(project), str(bank_root.resolve()), surface="")
    if client == "codex":
        plan.changes.append(without_codex_entry(config))
    else:
        plan.changes.append(without_json_entry(config, client, section))
    if client == "claude-code":
        agent = project / "CLAUDE.md"
    elif client != "claude-desktop":
        agent = project / "AGENTS.md"
        still = [
            other
            for other in ("cursor", "vscode", "codex")
            if other != client and _previous_entry(other, *_config_of(other, project, home, False, env))
        ]
        if still:  # Cursor, VS Code and Codex read the same paragraph
            serve = "serves" if len(still) == 1 else "serve"
            plan.notes.append(f"AGENTS.md keeps the paragraph: {' and '.join(still)} still {serve} the bank here.")
            return plan
    if client != "claude-desktop":
        before = read_file(agent)
        after = without_markers(agent, before)
        plan.changes.append(FileChange(str(agent), before, after, "no memorybank instructions paragraph"))
    if client == "claude-code":
        change = without_stop_hook(project / ".claude" / "settings.json")
        if change is not None:
            plan.changes.append(change)
    return plan


def apply_setup(plan: SetupPlan) -> list[str]:
    """Write a plan's changes; returns the files written or deleted (byte for byte: line endings
    as planned)."""
    written = []
    for change in plan.changes:
        if change.changed and change.after is None:
            path = Path(change.path)
            path.unlink(missing_ok=True)
            if path.parent.name in CLIENT_FOLDERS and not any(path.parent.iterdir()):
                path.parent.rmdir()  # the folder setup made for the file
            written.append(change.path)
        elif change.changed and change.after is not None:
            path = Path(change.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(change.after)
            written.append(change.path)
    return written
