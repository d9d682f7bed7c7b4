"""Agent clients' files as ``setup`` edits them: each change is one entry or paragraph memorybank owns.

A JSON (or JSONC) config gets our server entry, a Codex ``config.toml`` our table, an agent file
our paragraph between markers, Claude Code's settings our Stop hook. Everything else in a file
stays byte for byte: the owner's comments, other servers, keys and arguments the owner added to
our entry, line endings. A file that cannot be edited safely (it does not parse, its markers do
not pair up) is refused with its line, and nothing is written.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memorybank.core import jsonc

SERVER = "memorybank"
START, END = "<!-- memorybank:start -->", "<!-- memorybank:end -->"


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    before: str | None
    after: str | None
    """None: the file goes (``setup --remove`` took the last of what it held)."""
    what: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        old = (self.before or "").splitlines(keepends=True)
        new = (self.after or "").splitlines(keepends=True)
        then = "(deleted)" if self.after is None else "(after)"
        return "".join(difflib.unified_diff(old, new, fromfile=f"{self.path} (now)", tofile=f"{self.path} {then}"))


def read_file(path: Path) -> str | None:
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
    before = read_file(path)
    try:
        return before, jsonc.load(before, comments=COMMENTS[client])
    except jsonc.JsoncError as error:
        where = f"{path}, line {error.line}, column {error.column}"
        if COMMENTS[client]:
            raise ConfigError(f"{where}: not valid JSON with comments ({error.reason})") from None
        reader = "Claude Desktop" if client == "claude-desktop" else "Claude Code"
        raise ConfigError(f"{where}: not valid JSON ({error.reason}; {reader} reads this file as plain JSON)") from None


def json_entry(path: Path, client: str, section: str, entry: dict[str, Any]) -> FileChange:
    """Our server entry set to ``entry``; keys the owner added to it (``env``, ``cwd``...) stay."""
    before, data = read_config(path, client)
    found = existing_entry(data, section)
    try:
        after = jsonc.set_member(before, (section, SERVER), {**found, **entry}, comments=COMMENTS[client])
    except jsonc.JsoncError as error:
        raise ConfigError(f"{path}, line {error.line}: {error.reason}") from None
    return FileChange(str(path), before, after, f"the {SERVER} server entry under {section}")


def existing_entry(data: Any, section: str) -> dict[str, Any]:
    servers = data.get(section) if isinstance(data, dict) else None
    found = servers.get(SERVER) if isinstance(servers, dict) else None
    return dict(found) if isinstance(found, dict) else {}


def owned_args(args: Any) -> tuple[list[str], str | None, str | None]:
    """An existing entry's arguments split: those setup does not manage (``--inbox-exits``,
    ``--http``...: kept as they are), and the ``--surface`` and ``--root`` it had."""
    if not isinstance(args, list) or args[:1] != ["mcp"] or not all(isinstance(a, str) for a in args):
        return [], None, None
    kept: list[str] = []
    values: dict[str, str | None] = {}
    rest = iter(args[1:])
    for arg in rest:
        name, equals, value = arg.partition("=")
        if name in ("--root", "--surface"):
            values[name] = value if equals else next(rest, None)
        else:
            kept.append(arg)
    return kept, values.get("--surface"), values.get("--root")


def between_markers(path: Path, text: str | None, block: str) -> str:
    """The block between memorybank's markers: replaced when one pair is there, appended when none
    is, in the file's own line endings; unmatched markers are refused (what lies after a lone start
    marker is the owner's, not ours to replace)."""
    newline = "\r\n" if text and "\r\n" in text else "\n"
    body = f"{START}\n{block.rstrip()}\n{END}\n".replace("\n", newline)
    if text is None or not text.strip():
        return body
    starts, ends = text.count(START), text.count(END)
    if starts == ends == 0:
        return text.rstrip("\r\n") + newline * 2 + body
    if starts != 1 or ends != 1 or text.index(START) > text.index(END):
        raise ConfigError(
            f"{path}: its memorybank markers do not pair up ({starts} {START}, {ends} {END}); "
            "leave one start and one end marker around the old paragraph, or none"
        )
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    return head + body.rstrip("\r\n") + (tail or newline)


def is_our_hook(hook: Any) -> bool:
    command = str(hook.get("command", "")) if isinstance(hook, dict) else ""
    return "memorybank" in command and re.search(r"\shook stop(\s|$)", command) is not None


def stop_hook(path: Path, command: str | None) -> FileChange | None:
    """Our Stop hook set to ``command`` (added, or an older one of ours rewritten), or removed when
    ``command`` is None (a read-only client has nothing to capture with)."""
    before, data = read_config(path, "claude-code")
    if not isinstance(data, dict):
        raise ConfigError(f"{path} does not hold a JSON object")
    stop = data.get("hooks", {}).get("Stop", []) if isinstance(data.get("hooks"), dict) else []
    stop = stop if isinstance(stop, list) else []
    ours = [h for group in stop if isinstance(group, dict) for h in group.get("hooks", []) if is_our_hook(h)]
    if command is None and not ours:
        return None  # nothing to add, nothing of ours to take away
    after = before or ""
    try:
        if command is not None and not ours:
            group = {"hooks": [{"type": "command", "command": command}]}
            after = jsonc.append_item(before, ("hooks", "Stop"), group, comments=False)
        elif ours and (command is None or any(h.get("command") != command for h in ours)):
            kept = []
            for group in stop:
                if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                    hooks = [
                        {**h, "command": command} if is_our_hook(h) else h
                        for h in group["hooks"]
                        if command is not None or not is_our_hook(h)
                    ]
                    if not hooks:
                        continue
                    group = {**group, "hooks": hooks}
                kept.append(group)
            after = jsonc.set_member(before, ("hooks", "Stop"), kept, comments=False)
    except jsonc.JsoncError as error:
        raise ConfigError(f"{path}, line {error.line}: {error.reason}") from None
    what = "the Stop hook that asks the agent to capture notes into _inbox/"
    return FileChange(
        str(path), before, after, what if command else "no Stop hook: a read-only client captures nothing"
    )


_OLD_COMMENT = "# the bank is found from the working directory"


def codex_entry(path: Path, command: str, args: list[str]) -> FileChange:
    """``[mcp_servers.memorybank]`` in a Codex ``config.toml``, edited with tomlkit so the owner's
    comments, order and other tables stay; only ``command`` and ``args`` of our table are set."""
    import tomllib

    import tomlkit
    from tomlkit.exceptions import ParseError

    before = read_file(path)
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
    if isinstance(servers, tomlkit.items.InlineTable):  # one line: it cannot hold our table
        raise ConfigError(
            f"{path}: mcp_servers is written inline (mcp_servers = {{ ... }}); write each server as its own "
            "[mcp_servers.NAME] table"
        )
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


def holds_nothing(value: Any) -> bool:
    """Only empty objects and arrays, however nested: what a config keeps once our entry is gone
    from a file setup made."""
    if isinstance(value, dict):
        return all(holds_nothing(v) for v in value.values())
    return isinstance(value, list) and not value


def _gone_when_empty(change: FileChange, client: str) -> FileChange:
    """``change`` deleting its file when what is left holds nothing and no comment."""
    if change.after is None or not change.changed:
        return change
    if holds_nothing(jsonc.load(change.after, comments=COMMENTS[client])) and not re.search(r"//|/\*", change.after):
        return FileChange(change.path, change.before, None, change.what)
    return change


def without_json_entry(path: Path, client: str, section: str) -> FileChange:
    """Our server entry taken out of a JSON config (the file goes when nothing else is left)."""
    before, _ = read_config(path, client)
    try:
        after = jsonc.remove_member(before, (section, SERVER), comments=COMMENTS[client]) if before else before
    except jsonc.JsoncError as error:
        raise ConfigError(f"{path}, line {error.line}: {error.reason}") from None
    return _gone_when_empty(FileChange(str(path), before, after, f"no {SERVER} server entry under {section}"), client)


def without_stop_hook(path: Path) -> FileChange | None:
    """Our Stop hook taken out of Claude Code's settings (the file goes when nothing else is left)."""
    change = stop_hook(path, None)
    if change is None:
        return None
    after = change.after
    for keys in (("hooks", "Stop"), ("hooks",)):  # left empty by our hook's going: they go too
        holder = jsonc.load(after, comments=False)
        for key in keys:
            holder = holder.get(key) if isinstance(holder, dict) else None
        if holder in ([], {}):
            after = jsonc.remove_member(after, keys, comments=False)
    return _gone_when_empty(FileChange(change.path, change.before, after, "no memorybank Stop hook"), "claude-code")


def without_markers(path: Path, text: str | None) -> str | None:
    """The agent file without memorybank's paragraph and its markers (None when nothing else was
    in it: setup made the file); unmatched markers are refused, as ``between_markers`` refuses them."""
    if text is None or (START not in text and END not in text):
        return text
    starts, ends = text.count(START), text.count(END)
    if starts != 1 or ends != 1 or text.index(START) > text.index(END):
        raise ConfigError(
            f"{path}: its memorybank markers do not pair up ({starts} {START}, {ends} {END}); "
            "remove the paragraph by hand"
        )
    newline = "\r\n" if "\r\n" in text else "\n"
    head, rest = text.split(START, 1)
    head, tail = head.rstrip("\r\n"), rest.split(END, 1)[1].lstrip("\r\n")
    if not head.strip() and not tail.strip():
        return None
    if not head:
        return tail
    return head + newline + (newline + tail if tail else "")


def without_codex_entry(path: Path) -> FileChange:
    """``[mcp_servers.memorybank]`` taken out of a Codex ``config.toml``, the owner's comments and
    other tables kept (the file goes when nothing else is left)."""
    import tomlkit
    from tomlkit.exceptions import ParseError

    before = read_file(path)
    what = f"no [mcp_servers.{SERVER}] table"
    if before is None:
        return FileChange(str(path), before, before, what)
    try:
        document = tomlkit.parse(before)
    except ParseError as error:
        reason = re.sub(r" at line \d+ col \d+$", "", str(error))
        raise ConfigError(f"{path}, line {error.line}, column {error.col}: not valid TOML ({reason})") from None
    servers = document.get("mcp_servers")
    if not isinstance(servers, dict) or SERVER not in servers:
        return FileChange(str(path), before, before, what)
    del servers[SERVER]
    if not servers:
        del document["mcp_servers"]
    after = tomlkit.dumps(document)
    if after.endswith("\n\n") and not before.endswith("\n\n"):  # the blank line that led to our table
        after = after.rstrip("\n") + "\n"
    return FileChange(str(path), before, after if after.strip() else None, what)
