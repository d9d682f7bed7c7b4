"""Wiring a bank into an agent client: the MCP entry, the instructions paragraph, the Stop hook.

``plan_setup`` computes every file change for one client and ``apply_setup`` writes them. Each
change touches only what memorybank owns: one server entry in a JSON (or TOML) config, a paragraph
between markers in the agent file, one Stop hook entry. Running it twice changes nothing the
second time, and a plan shows the exact diff without writing.
"""

from __future__ import annotations

import difflib
import os
import platform
import re
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memorybank.core import jsonc

CLIENTS = ("claude-code", "claude-desktop", "cursor", "vscode", "codex")
SERVER = "memorybank"
START, END = "<!-- memorybank:start -->", "<!-- memorybank:end -->"
SURFACES = ("full", "read-only", "capture")
"""What ``memorybank mcp --surface`` serves: every tool, the reading ones, or reading plus capture."""
CODEX_SCOPES = ("project", "user")

INSTRUCTIONS = """## Project memory: the memory bank

This project's knowledge lives in `{bank}/`, a memory bank served by the `memorybank` MCP server.
Its tools all start with `bank_`: load them and use them instead of reading or editing the bank's
files with the shell.

- **Finding**: `bank_route` with the question as it was asked (any language) says which documents
  to read; `bank_read` reads them, one `##` section or a line range at a time, several per call;
  `bank_search` finds where a literal string occurs.
- **Changing**: `bank_edit` replaces an exact fragment, `bank_update_section` rewrites one section,
  `bank_set_status` moves a document through its lifecycle (archiving releases its `canonical_for`
  keys), `bank_set_field` sets one frontmatter value.
- **Creating**: `bank_create` writes a governed document and registers it in its index; use
  `inbox: true` for a note you are not sure where to place.
- **Checking**: run `bank_validate` before committing. Notes in `_inbox/` are the owner's to
  promote or discard; you may only propose."""


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    before: str | None
    after: str
    what: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        old = (self.before or "").splitlines(keepends=True)
        new = self.after.splitlines(keepends=True)
        return "".join(
            difflib.unified_diff(old, new, fromfile=f"{self.path} (now)", tofile=f"{self.path} (after setup)")
        )


@dataclass(frozen=True, slots=True)
class SetupPlan:
    client: str
    project: str
    bank: str
    changes: list[FileChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


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


def _read(path: Path) -> str | None:
    """The file as its bytes say (CRLF kept: an edit must not rewrite every line ending)."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


# Which JSON configs may hold comments. VS Code documents .vscode/mcp.json as JSONC, the format of all
# its settings files (// and /* */ comments, trailing commas). Cursor's docs show plain JSON and say
# nothing either way about comments in .cursor/mcp.json, so we read what its owner put there (refusing
# would not make Cursor read it) and add none. Claude Code (.mcp.json, .claude/settings.json) and
# Claude Desktop read plain JSON: there a comment would make the client reject the file, so we name
# its line instead of carrying it on.
COMMENTS = {"vscode": True, "cursor": True, "claude-code": False, "claude-desktop": False}


class ConfigError(ValueError):
    """A config file ``setup`` will not touch; ``problem`` names the file and the line."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{problem}; fix it or move it aside first (nothing was written).")
        self.problem = problem


def read_config(path: Path, client: str) -> tuple[str | None, Any]:
    """A client's JSON config as text and value; a ``ConfigError`` naming file and line otherwise."""
    before = _read(path)
    try:
        return before, jsonc.load(before, comments=COMMENTS[client])
    except jsonc.JsoncError as error:
        where = f"{path}, line {error.line}, column {error.column}"
        if COMMENTS[client]:
            raise ConfigError(f"{where}: not valid JSON with comments ({error.reason})") from None
        reader = "Claude Desktop" if client == "claude-desktop" else "Claude Code"
        raise ConfigError(f"{where}: not valid JSON ({error.reason}; {reader} reads this file as plain JSON)") from None


def _json_entry(path: Path, client: str, section: str, entry: dict[str, Any]) -> FileChange:
    before, _ = read_config(path, client)
    try:
        after = jsonc.set_member(before, (section, SERVER), entry, comments=COMMENTS[client])
    except jsonc.JsoncError as error:
        raise ConfigError(f"{path}, line {error.line}: {error.reason}") from None
    return FileChange(str(path), before, after, f"the {SERVER} server entry under {section}")


def _between_markers(text: str | None, block: str, start: str, end: str) -> str:
    body = f"{start}\n{block.rstrip()}\n{end}\n"
    if text is None or not text.strip():
        return body
    if start in text and end in text:
        head, rest = text.split(start, 1)
        tail = rest.split(end, 1)[1]
        return head + body.rstrip("\n") + (tail or "\n")
    return text.rstrip("\n") + "\n\n" + body


def _agent_file(path: Path, bank_rel: str) -> FileChange:
    before = _read(path)
    after = _between_markers(before, INSTRUCTIONS.format(bank=bank_rel), START, END)
    return FileChange(str(path), before, after, "the instructions paragraph between memorybank markers")


def _is_our_hook(hook: Any) -> bool:
    command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
    return command.endswith("hook stop") and "memorybank" in command


def _stop_hook(path: Path, command: str) -> FileChange:
    before, data = read_config(path, "claude-code")
    if not isinstance(data, dict):
        raise ConfigError(f"{path} does not hold a JSON object")
    stop = data.get("hooks", {}).get("Stop", []) if isinstance(data.get("hooks"), dict) else []
    present = any(isinstance(group, dict) and any(_is_our_hook(h) for h in group.get("hooks", [])) for group in stop)
    after = before or ""
    if not present:
        group = {"hooks": [{"type": "command", "command": f"{command} hook stop"}]}
        try:
            after = jsonc.append_item(before, ("hooks", "Stop"), group, comments=False)
        except jsonc.JsoncError as error:
            raise ConfigError(f"{path}, line {error.line}: {error.reason}") from None
    return FileChange(str(path), before, after, "the Stop hook that asks the agent to capture notes into _inbox/")


def codex_home(home: Path, env: Mapping[str, str] | None = None) -> Path:
    """Where Codex keeps its user config: ``$CODEX_HOME``, else ``~/.codex``."""
    value = (os.environ if env is None else env).get("CODEX_HOME", "")
    return Path(value).expanduser() if value.strip() else home / ".codex"


_OLD_COMMENT = "# the bank is found from the working directory"


def _codex_entry(path: Path, command: str, args: list[str]) -> FileChange:
    """``[mcp_servers.memorybank]`` in a Codex ``config.toml``, edited with tomlkit so the owner's
    comments, order and other tables stay; only ``command`` and ``args`` of our table are set."""
    import tomllib

    import tomlkit
    from tomlkit.exceptions import ParseError

    before = _read(path)
    try:
        document = tomlkit.parse(before or "")
    except ParseError as error:
        reason = re.sub(r" at line \d+ col \d+$", "", str(error))
        raise ConfigError(f"{path}, line {error.line}, column {error.col}: not valid TOML ({reason})") from None
    servers = document.get("mcp_servers")
    if servers is None:
        servers = tomlkit.table(is_super_table=True)
        document["mcp_servers"] = servers
    if not isinstance(servers, dict):
        raise ConfigError(f"{path}: mcp_servers is not a table")
    entry = servers.get(SERVER)
    if entry is None:
        entry = tomlkit.table()
        servers[SERVER] = entry
    if not isinstance(entry, dict):
        raise ConfigError(f"{path}: mcp_servers.{SERVER} is not a table")
    for key, value in (("command", command), ("args", args)):
        if entry.get(key) != value:
            entry[key] = value
        item = entry[key]
        if getattr(item, "trivia", None) is not None and item.trivia.comment.startswith(_OLD_COMMENT):
            item.trivia.comment = ""  # an earlier setup's note, wrong now that --root is written
            item.trivia.comment_ws = ""
    after = tomlkit.dumps(document)  # unchanged input comes back byte for byte
    expected = tomllib.loads(before or "")
    expected.setdefault("mcp_servers", {}).setdefault(SERVER, {}).update(command=command, args=args)
    if tomllib.loads(after) != expected:  # pragma: no cover - a bug guard
        raise RuntimeError(f"{path}: the edit would change more than the {SERVER} table; nothing was written")
    return FileChange(str(path), before, after, f"the [mcp_servers.{SERVER}] table")


def desktop_config(home: Path) -> Path:
    system = platform.system()
    if system == "Darwin":
        return home / "Library/Application Support/Claude/claude_desktop_config.json"
    if system == "Windows":
        return Path(os.environ.get("APPDATA", home / "AppData/Roaming")) / "Claude/claude_desktop_config.json"
    return home / ".config/Claude/claude_desktop_config.json"


def plan_setup(
    client: str,
    bank_root: Path,
    *,
    home: Path | None = None,
    command: str | None = None,
    surface: str = "full",
    codex_scope: str = "project",
    env: Mapping[str, str] | None = None,
) -> SetupPlan:
    """Every change ``setup`` would make for ``client``; nothing is written.

    ``surface`` other than ``full`` is passed on as ``mcp --surface``. ``codex_scope`` picks the
    Codex config: the project's ``.codex/config.toml`` or the user's ``$CODEX_HOME/config.toml``."""
    if client not in CLIENTS:
        raise ValueError(f'Unknown client "{client}". Choose one of: {", ".join(CLIENTS)}.')
    if surface not in SURFACES:
        raise ValueError(f'Unknown surface "{surface}". Choose one of: {", ".join(SURFACES)}.')
    if codex_scope not in CODEX_SCOPES:
        raise ValueError(f'Unknown Codex scope "{codex_scope}". Choose one of: {", ".join(CODEX_SCOPES)}.')
    home = home or Path.home()
    exe = command or command_path()
    project = project_of(bank_root)
    bank = str(bank_root.resolve())
    bank_rel = os.path.relpath(bank, project).replace(os.sep, "/")
    extra = [] if surface == "full" else ["--surface", surface]
    # The bank's absolute path wherever the client documents no project variable: Claude Code starts
    # a server in the directory `claude` was started from (a subdirectory is not the project), Cursor's
    # working directory differs between its launch modes, and Codex and Claude Desktop have neither.
    absolute = ["mcp", "--root", bank, *extra]
    plan = SetupPlan(client, str(project), bank)
    if client == "claude-code":
        entry = {"type": "stdio", "command": exe, "args": absolute}
        plan.changes.append(_json_entry(project / ".mcp.json", client, "mcpServers", entry))
        plan.changes.append(_agent_file(project / "CLAUDE.md", bank_rel))
        plan.changes.append(_stop_hook(project / ".claude" / "settings.json", exe))
    elif client == "claude-desktop":
        entry = {"command": exe if os.path.isabs(exe) else shutil.which(exe) or exe, "args": absolute}
        plan.changes.append(_json_entry(desktop_config(home), client, "mcpServers", entry))
        plan.notes.append(
            "Claude Desktop has no project file for instructions; paste the paragraph from the README into a project's instructions."
        )
    elif client == "cursor":
        entry = {"command": exe, "args": absolute}
        plan.changes.append(_json_entry(project / ".cursor" / "mcp.json", client, "mcpServers", entry))
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
    elif client == "vscode":
        # VS Code resolves ${workspaceFolder} in mcp.json to the folder holding .vscode/, however it
        # was opened, so the entry is anchored to the project and stays the same on every machine.
        args = ["mcp", "--root", "${workspaceFolder}/" + bank_rel, *extra]
        entry = {"type": "stdio", "command": exe, "args": args}
        plan.changes.append(_json_entry(project / ".vscode" / "mcp.json", client, "servers", entry))
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
    else:
        user = codex_scope == "user"
        config = codex_home(home, env) / "config.toml" if user else project / ".codex" / "config.toml"
        plan.changes.append(_codex_entry(config, exe, absolute))
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
        plan.notes.append(
            "The user config serves this bank in every Codex session, in any project."
            if user
            else "Codex reads a project's .codex/config.toml once you trust the project; --user writes $CODEX_HOME/config.toml instead."
        )
    if client != "claude-code":
        plan.notes.append("The Stop hook is a Claude Code feature; other clients capture notes when asked.")
    return plan


def apply_setup(plan: SetupPlan) -> list[str]:
    """Write a plan's changes; returns the files written (byte for byte: line endings as planned)."""
    written = []
    for change in plan.changes:
        if change.changed:
            path = Path(change.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(change.after)
            written.append(change.path)
    return written
