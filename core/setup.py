"""Wiring a bank into an agent client: the MCP entry, the instructions paragraph, the Stop hook.

``plan_setup`` computes every file change for one client and ``apply_setup`` writes them. Each
change touches only what memorybank owns: one server entry in a JSON (or TOML) config, a paragraph
between markers in the agent file, one Stop hook entry. Running it twice changes nothing the
second time, and a plan shows the exact diff without writing.
"""

from __future__ import annotations

import difflib
import json
import os
import platform
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CLIENTS = ("claude-code", "claude-desktop", "cursor", "vscode", "codex")
SERVER = "memorybank"
START, END = "<!-- memorybank:start -->", "<!-- memorybank:end -->"
TOML_START, TOML_END = "# memorybank:start", "# memorybank:end"

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
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def _json_entry(path: Path, section: str, entry: dict[str, Any]) -> FileChange:
    before = _read(path)
    try:
        data = json.loads(before) if before and before.strip() else {}
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path} is not valid JSON ({error.msg}, line {error.lineno}); fix it or move it aside first."
        ) from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object; fix it or move it aside first.")
    servers = data.setdefault(section, {})
    servers[SERVER] = entry
    after = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if before is not None and _same_json(before, after):
        after = before
    return FileChange(str(path), before, after, f"the {SERVER} server entry under {section}")


def _same_json(a: str, b: str) -> bool:
    try:
        return json.loads(a) == json.loads(b)
    except json.JSONDecodeError:
        return False


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


def _stop_hook(path: Path, command: str) -> FileChange:
    before = _read(path)
    try:
        data = json.loads(before) if before and before.strip() else {}
    except json.JSONDecodeError as error:
        raise ValueError(f"{path} is not valid JSON ({error.msg}, line {error.lineno}); fix it first.") from None
    hooks = data.setdefault("hooks", {})
    stop = hooks.setdefault("Stop", [])
    wanted = f"{command} hook stop"
    present = any(
        isinstance(group, dict)
        and any(
            isinstance(h, dict)
            and str(h.get("command", "")).endswith("hook stop")
            and "memorybank" in str(h.get("command", ""))
            for h in group.get("hooks", [])
        )
        for group in stop
    )
    if not present:
        stop.append({"hooks": [{"type": "command", "command": wanted}]})
    after = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if before is not None and _same_json(before, after):
        after = before
    return FileChange(str(path), before, after, "the Stop hook that asks the agent to capture notes into _inbox/")


def _codex_entry(path: Path, command: str) -> FileChange:
    before = _read(path)
    block = "\n".join(
        [
            f"[mcp_servers.{SERVER}]",
            f"command = {json.dumps(command)}",
            'args = ["mcp"]  # the bank is found from the working directory (memory_bank/ or memory-bank/)',
        ]
    )
    if before and f"[mcp_servers.{SERVER}]" in before and TOML_START not in before:
        raise ValueError(
            f"{path} already defines [mcp_servers.{SERVER}] outside memorybank's markers; edit it by hand."
        )
    after = _between_markers(before, block, TOML_START, TOML_END)
    return FileChange(str(path), before, after, f"the [mcp_servers.{SERVER}] table between markers")


def desktop_config(home: Path) -> Path:
    system = platform.system()
    if system == "Darwin":
        return home / "Library/Application Support/Claude/claude_desktop_config.json"
    if system == "Windows":
        return Path(os.environ.get("APPDATA", home / "AppData/Roaming")) / "Claude/claude_desktop_config.json"
    return home / ".config/Claude/claude_desktop_config.json"


def plan_setup(client: str, bank_root: Path, *, home: Path | None = None, command: str | None = None) -> SetupPlan:
    """Every change ``setup`` would make for ``client``; nothing is written."""
    if client not in CLIENTS:
        raise ValueError(f'Unknown client "{client}". Choose one of: {", ".join(CLIENTS)}.')
    home = home or Path.home()
    exe = command or command_path()
    project = project_of(bank_root)
    bank_rel = os.path.relpath(bank_root.resolve(), project).replace(os.sep, "/")
    project_args = ["mcp", "--root", bank_rel]
    plan = SetupPlan(client, str(project), str(bank_root.resolve()))
    if client == "claude-code":
        plan.changes.append(
            _json_entry(project / ".mcp.json", "mcpServers", {"type": "stdio", "command": exe, "args": project_args})
        )
        plan.changes.append(_agent_file(project / "CLAUDE.md", bank_rel))
        plan.changes.append(_stop_hook(project / ".claude" / "settings.json", exe))
    elif client == "claude-desktop":
        entry = {
            "command": exe if os.path.isabs(exe) else shutil.which(exe) or exe,
            "args": ["mcp", "--root", str(bank_root.resolve())],
        }
        plan.changes.append(_json_entry(desktop_config(home), "mcpServers", entry))
        plan.notes.append(
            "Claude Desktop has no project file for instructions; paste the paragraph from the README into a project's instructions."
        )
    elif client == "cursor":
        plan.changes.append(
            _json_entry(project / ".cursor" / "mcp.json", "mcpServers", {"command": exe, "args": project_args})
        )
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
    elif client == "vscode":
        entry = {"type": "stdio", "command": exe, "args": ["mcp", "--root", "${workspaceFolder}/" + bank_rel]}
        plan.changes.append(_json_entry(project / ".vscode" / "mcp.json", "servers", entry))
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
    else:
        plan.changes.append(_codex_entry(home / ".codex" / "config.toml", exe))
        plan.changes.append(_agent_file(project / "AGENTS.md", bank_rel))
    if client != "claude-code":
        plan.notes.append("The Stop hook is a Claude Code feature; other clients capture notes when asked.")
    return plan


def apply_setup(plan: SetupPlan) -> list[str]:
    """Write a plan's changes; returns the files written."""
    written = []
    for change in plan.changes:
        if change.changed:
            path = Path(change.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(change.after, encoding="utf-8")
            written.append(change.path)
    return written
