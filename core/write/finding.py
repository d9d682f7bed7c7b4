"""Where a fragment an edit looks for is: the lines it occurs on, or the passage most like it when
it does not occur, so a refusal says where the caller probably meant."""

from __future__ import annotations

import difflib


def closest_passage(text: str, wanted: str, first_line: int = 1) -> tuple[int, str] | None:
    """The run of lines of ``text`` most like ``wanted`` (as many lines as it has), with its line,
    when one is at least half alike; so a refused edit can say where the agent probably meant."""
    lines = text.split("\n")
    span = max(wanted.count("\n") + 1, 1)
    target = wanted.strip()
    if not target or len(lines) > 20_000:
        return None
    best: tuple[float, int] = (0.0, 0)
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(target[:500])
    for start in range(max(first_line - 1, 0), max(len(lines) - span + 1, 0)):
        passage = "\n".join(lines[start : start + span]).strip()
        if not passage:
            continue
        matcher.set_seq1(passage[:500])
        if matcher.real_quick_ratio() <= best[0] or matcher.quick_ratio() <= best[0]:
            continue
        ratio = matcher.ratio()
        if ratio > best[0]:
            best = (ratio, start)
    if best[0] < 0.5:
        return None
    start = best[1]
    return start + 1, "\n".join(lines[start : start + span]).strip()[:200]


def lines_of(text: str, find: str, start: int, count: int) -> str:
    """The file lines where ``find`` starts, from ``start`` on (the first six)."""
    lines: list[str] = []
    at = text.find(find, start)
    while at >= 0 and len(lines) < 6:
        line = str(text.count("\n", 0, at) + 1)
        if line not in lines:
            lines.append(line)
        at = text.find(find, at + len(find))
    return ", ".join(lines) + (" and more" if at >= 0 else "")
