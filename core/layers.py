"""Layers: which part of the knowledge a directory holds, and how much it weighs in routing.

The built-in map covers the conventional directories. A bank may declare its own
``Directory | Layer | Weight`` table anywhere in ``dna/``; declared rows overlay the built-in map,
declared weights overlay the default weights, and a row naming a layer that does not exist is kept
aside for validation instead of voiding the table.
"""

from __future__ import annotations

import re

from memorybank.core.model import LAYERS, LayerMap, LayerRow

BUILTIN_LAYERS: dict[str, str] = {
    "dna": "dna",
    **dict.fromkeys(
        ("product", "domain", "engineering", "ops", "system", "services", "research", "strategies"), "knowledge"
    ),
    **dict.fromkeys(("adr", "use-cases", "use_cases", "prd"), "decision"),
    **dict.fromkeys(("features", "epics", "tasks"), "delivery"),
    **dict.fromkeys(("flows", "processes", "prompts"), "flow"),
    "_inbox": "inbox",
}
"""Directory (first path segment) to layer, for banks that declare nothing."""

DEFAULT_WEIGHTS: dict[str, float] = {
    "knowledge": 1.5,
    "decision": 1.2,
    "dna": 1.0,
    "flow": 1.0,
    "other": 1.0,
    "delivery": 0.6,
    "inbox": 0.2,
}
"""Routing multiplier per layer: knowledge first, delivery damped below it."""

_SEPARATOR = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_NUMBER = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)")


def table_cells(line: str) -> list[str]:
    """Cells of a markdown table row: one leading and one trailing pipe dropped, cells trimmed."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return [cell.strip() for cell in text.split("|")]


def is_separator_row(line: str) -> bool:
    return bool(_SEPARATOR.match(line.strip()))


def parse_layer_tables(
    sources: list[tuple[str, str]],
) -> tuple[dict[str, str], dict[str, float], list[LayerRow], list[str]]:
    """Read every ``Directory | Layer [| Weight]`` table in the given ``(path, text)`` documents."""
    by_dir: dict[str, str] = {}
    weights: dict[str, float] = {}
    unknown: list[LayerRow] = []
    contributing: list[str] = []
    for path, text in sources:
        contributed = False
        columns: tuple[int, int, int | None] | None = None
        for line_no, line in enumerate(text.split("\n"), start=1):
            stripped = line.strip()
            if not stripped.startswith("|"):
                columns = None
                continue
            cells = [c.replace("`", "").strip() for c in table_cells(stripped)]
            if columns is None:
                names = [c.lower() for c in cells]
                dir_col = next((i for i, n in enumerate(names) if n in ("directory", "section")), None)
                layer_col = names.index("layer") if "layer" in names else None
                if dir_col is not None and layer_col is not None:
                    weight_col = names.index("weight") if "weight" in names else None
                    columns = (dir_col, layer_col, weight_col)
                continue
            if is_separator_row(stripped):
                continue
            dir_col, layer_col, weight_col = columns
            if max(dir_col, layer_col) >= len(cells):
                continue
            directory = cells[dir_col].strip("/").strip()
            layer = cells[layer_col].lower()
            if not directory or not layer:
                continue
            contributed = True
            if layer not in LAYERS:
                unknown.append(LayerRow(directory=directory, layer=layer, source=path, line=line_no))
                continue
            by_dir[directory] = layer
            if weight_col is not None and weight_col < len(cells):
                number = _NUMBER.match(cells[weight_col])
                if number:
                    value = float(number.group(1))
                    if value >= 0:
                        weights[layer] = value
        if contributed:
            contributing.append(path)
    return by_dir, weights, unknown, contributing


def build_layer_map(dna_sources: list[tuple[str, str]]) -> LayerMap:
    """The effective layer map of a bank from the texts of its ``dna/`` documents."""
    declared, weights, unknown, source = parse_layer_tables(dna_sources)
    by_dir = {**BUILTIN_LAYERS, **declared}
    return LayerMap(
        by_dir=by_dir,
        weights={**DEFAULT_WEIGHTS, **weights},
        declared=declared,
        unknown=tuple(unknown),
        source=tuple(source),
    )


BUILTIN_MAP = LayerMap(by_dir=dict(BUILTIN_LAYERS), weights=dict(DEFAULT_WEIGHTS))
