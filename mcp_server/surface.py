"""Which surface a session gets (full, ``bank_init`` only, or off), what it says, and what it costs.

The owner also chooses how much of it an agent gets (``memorybank mcp --surface``): **full**, every
tool; **read-only**, the seven reading tools, the resources and the reading prompts; **capture**,
those and ``bank_capture``, which files a note in ``_inbox/`` for the owner to triage. A narrower
surface costs fewer tokens per request, and the tools it leaves out are refused by name.

The state is decided once, at start: **off** when the bank lies under an ``--off`` path (compared
whole segment by whole segment on resolved paths, so ``/a/projectX`` is not under ``/a/project``)
or when a ``.memorybank-off`` file sits beside the bank (in its parent, the project directory);
**full** when the root holds a directory other than ``_inbox`` or a ``.md`` file; **seed**
otherwise, a missing root included. Only a successful ``bank_init`` changes it afterwards, from
seed to full.

The cost of a surface is what a client pays on every request: the instructions, every tool
definition, the prompt and resource listings, counted as characters / 3.5 like the reference.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FULL, SEED, OFF = "full", "seed", "off"
STATES = (FULL, SEED, OFF)
READ_ONLY, CAPTURE = "read-only", "capture"
SUBSETS = (FULL, READ_ONLY, CAPTURE)
"""What ``--surface`` may choose; the state above is decided from the disk within it."""
READING_TOOLS = frozenset(
    {"bank_route", "bank_read", "bank_search", "bank_validate", "bank_graph", "bank_drift", "bank_changed"}
)
CAPTURE_TOOL = "bank_capture"
READING_PROMPTS = frozenset({"session-start", "route-then-read", "check-before-commit"})
OFF_MARKER = ".memorybank-off"
CHARS_PER_TOKEN = 3.5
BUDGET_TOKENS = 4_500
"""What the full surface may cost per request (the reference pays about 7,000)."""


def _resolved(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(Path(path).expanduser().absolute()))


def is_under(path: str | os.PathLike[str], parent: str | os.PathLike[str]) -> bool:
    """True when ``path`` is ``parent`` or lies beneath it, segment by segment."""
    child, base = _resolved(path).parts, _resolved(parent).parts
    return child[: len(base)] == base


def has_bank(root: Path) -> bool:
    """A directory other than ``_inbox`` (hidden ones count) or a ``.md`` file at the root."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return False
    for entry in entries:
        try:
            if entry.is_dir() and entry.name != "_inbox":
                return True
            if entry.name.endswith(".md") and entry.is_file():
                return True
        except OSError:
            continue
    return False


def decide(root: str | os.PathLike[str], off_paths: Iterable[str | os.PathLike[str]] = ()) -> str:
    """The surface state for a bank root, decided once at start."""
    path = _resolved(root)
    if any(is_under(path, off) for off in off_paths):
        return OFF
    if (path.parent / OFF_MARKER).exists():
        return OFF
    return FULL if has_bank(path) else SEED


def offers_tool(state: str, subset: str, name: str) -> bool:
    """Whether a tool is listed and callable in this state on this surface."""
    if state == SEED:
        return subset == FULL and name == "bank_init"
    if state != FULL:
        return False
    if subset == READ_ONLY:
        return name in READING_TOOLS
    if subset == CAPTURE:
        return name in READING_TOOLS or name == CAPTURE_TOOL
    return name != CAPTURE_TOOL


def offers_prompt(subset: str, name: str) -> bool:
    """The prompts that walk an agent through writes are not offered where the writes are not."""
    return subset == FULL or name in READING_PROMPTS


def instructions(state: str, root: Path, inbox_exits: str, subset: str = FULL) -> str:
    """The server instructions for a state: short, because clients that defer tool schemas show
    the model little else, and every request pays for them."""
    if state == SEED and subset != FULL:
        return (
            f"No memory bank at {root} yet, and this server is {subset}: it offers nothing until the owner "
            "creates one (memorybank init)."
        )
    reading = (
        f"The project's memory bank ({root}): governed markdown documents. Read memorybank://index first (a "
        "one-page map of its sections), then bank_route before opening any file, and bank_read by section or "
        "lines. Pass questions as the user asked them, in any language."
    )
    if subset != FULL and state == FULL:
        if subset == CAPTURE:
            return (
                f"{reading} To record something the bank should learn, bank_capture a note into _inbox/; the owner "
                "promotes, folds or discards it. No other writes are offered here."
            )
        return f"{reading} This server is read-only: say what should change instead of changing it."
    if state == OFF:
        return (
            "memorybank is switched off for this project (an --off path or a .memorybank-off file beside the "
            "bank). It offers nothing."
        )
    if state == SEED:
        return (
            f"No memory bank at {root} yet, so only bank_init is offered. Call it only when the user asks for "
            "a memory bank; the other tools appear once it exists."
        )
    exits = "only record a proposal the owner applies" if inbox_exits == "owner" else "move or delete the note"
    return (
        f"{reading} Change documents only through the bank_ tools (their gates keep the bank "
        f"valid); bank_validate before committing. _inbox/ notes belong to the owner: bank_promote, bank_fold "
        f"and bank_discard {exits}."
    )


# -- cost --------------------------------------------------------------------------------------


def chars(payload: Any) -> int:
    """Characters of a payload as it travels: compact JSON, non-ASCII kept as is."""
    if isinstance(payload, str):
        return len(payload)
    return len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")))


def tokens(count: int) -> float:
    return count / CHARS_PER_TOKEN


@dataclass(frozen=True, slots=True)
class CostLine:
    """One part of a surface: the instructions, one tool definition, the prompts or the resources."""

    part: str
    chars: int

    @property
    def tokens(self) -> float:
        return tokens(self.chars)


@dataclass(frozen=True, slots=True)
class SurfaceCost:
    """What one surface state costs per request."""

    state: str
    inbox_exits: str
    lines: list[CostLine] = field(default_factory=list)
    surface: str = FULL
    """The owner's ``--surface`` the state was measured on."""

    @property
    def name(self) -> str:
        """How the table names it: the chosen surface when the bank is there, else the state."""
        return self.surface if self.state == FULL else self.state

    @property
    def chars(self) -> int:
        return sum(line.chars for line in self.lines)

    @property
    def tokens(self) -> float:
        return tokens(self.chars)

    def plain(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "surface": self.surface,
            "inbox_exits": self.inbox_exits,
            "chars": self.chars,
            "tokens": round(self.tokens),
            "budget_tokens": BUDGET_TOKENS if (self.state, self.surface) == (FULL, FULL) else None,
            "parts": [{"part": line.part, "chars": line.chars, "tokens": round(line.tokens)} for line in self.lines],
        }


async def measure(server: Any) -> SurfaceCost:
    """The cost of what ``server`` lists right now (its current state)."""
    lines = [CostLine("instructions", chars(server.instructions or ""))]
    for tool in await server.list_tools():
        lines.append(CostLine(f"tool {tool.name}", chars(_wire(tool))))
    prompts = [_wire(p) for p in await server.list_prompts()]
    if prompts:
        lines.append(CostLine(f"prompts ({len(prompts)})", chars(prompts)))
    resources = [_wire(r) for r in await server.list_resources()]
    if resources:
        lines.append(CostLine(f"resources ({len(resources)})", chars(resources)))
    templates = [_wire(t) for t in await server.list_resource_templates()]
    if templates:
        lines.append(CostLine(f"resource templates ({len(templates)})", chars(templates)))
    return SurfaceCost(server.state, server.inbox_exits, lines, server.subset)


def _wire(model: Any) -> Any:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


@dataclass(frozen=True, slots=True)
class ResourceSize:
    """What reading one resource costs on a given bank."""

    uri: str
    chars: int

    @property
    def tokens(self) -> float:
        return tokens(self.chars)


async def resource_sizes(server: Any) -> list[ResourceSize]:
    """Every listed resource read once, and the largest first page of each template over the
    bank's sections (the map's ``sections``)."""
    sizes = []
    sections: list[str] = []
    for resource in await server.list_resources():
        uri = str(resource.uri)
        text = "".join(str(part.content) for part in await server.read_resource(uri))
        sizes.append(ResourceSize(uri, len(text)))
        if uri == "memorybank://index":
            with contextlib.suppress(ValueError, KeyError, TypeError):
                sections = [s["section"] for s in json.loads(text).get("sections", [])]
    for template in await server.list_resource_templates():
        largest: ResourceSize | None = None
        for section in sections:
            uri = template.uri_template.split("{", 1)[0] + section
            text = "".join(str(part.content) for part in await server.read_resource(uri))
            if largest is None or len(text) > largest.chars:
                largest = ResourceSize(f"{uri} (largest page of {template.uri_template})", len(text))
        if largest is not None:
            sizes.append(largest)
    return sizes
