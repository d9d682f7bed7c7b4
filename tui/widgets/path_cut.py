"""How a bank path is shortened to the cells a column or a line gives it.

What tells a path from its neighbours is kept first: its file name whole, then its package folder
(an issue's, a feature's), then its top folder; what is left out is marked with ``…``. A column of
paths is cut as a whole (``cut_apart``), so that no two paths show alike.
"""

from __future__ import annotations

from rich.cells import cell_len


def cut_path(path: str, width: int) -> str:
    """``path`` in at most ``width`` cells: whole when it fits; else what tells it from its siblings
    first: the file name, then its package folder (``issues/0002-…/…/cycle-analysis-2.md``, the
    folders between left out first: see ``_cut_deep``), or, in a shallower path, the start of its
    folder (``…/FT-025-res…/feature.md``), then the start of the path; a file name alone too long
    keeps its start and its end (``ADR-004-…-money.md``).
    A rename (``old → new``) shares the width between its two paths."""
    if cell_len(path) <= width:
        return path
    if " → " in path:
        old, new = path.split(" → ", 1)
        half = max((width - 3) // 2, 1)
        return f"{cut_path(old, half)} → {cut_path(new, width - 3 - half)}"
    parts = path.split("/")
    name = parts[-1]
    tail = "/" + name
    if len(parts) >= 4:
        return _cut_deep(parts[:-1], name, width)
    if len(parts) >= 2:
        folder, before = parts[-2], "/".join(parts[:-2])
        lead = "…/" if before else ""  # the folders above, left out
        room = width - cell_len(tail) - cell_len(folder)
        if before and room - 2 >= 3:
            return f"{_first_cells(before, room - 2)}…/{folder}{tail}"
        if room >= len(lead):
            return f"{lead}{folder}{tail}"
        room = width - cell_len(tail) - len(lead) - 1  # 1: the "…" cutting the folder
        if room >= 4:
            return f"{lead}{_first_cells(folder, room)}…{tail}"
    if cell_len(name) <= width:  # its folders left out: "…/" says so when there is room
        return f"…/{name}" if len(parts) >= 2 and cell_len(name) + 2 <= width else name
    return _cut_name(name, width)


PACKAGE_LEAST = 7
"""The fewest cells a package folder cut beside its top folder keeps (``issues/0002-s…/…``)."""


def _cut_deep(folders: list[str], name: str, width: int) -> str:
    """A path three folders deep or more, in ``width`` cells: the name whole, then its *package*
    folder, the one an issue, a feature or an iteration lives in (the first folder under the top one
    with a digit in its name, ``0002-source-checkpoint`` or ``FT-020-checkout``; else the folder
    under the top one), then the top folder; the folders between go first, those nearest the name
    coming back when there is room. Siblings of other packages (``cycle-analysis-1.md`` of every
    issue) differ in what is kept."""
    at = next((i for i, folder in enumerate(folders[1:], 1) if any(c.isdigit() for c in folder)), 1)
    package, after = folders[at], range(at + 1, len(folders))

    def shown(kept: dict[int, str]) -> str:
        out: list[str] = []
        for i in range(len(folders)):
            if i in kept:
                out.append(kept[i])
            elif not out or out[-1] != "…":
                out.append("…")
        return "/".join([*out, name])

    def piece(room: int) -> str:
        return package if cell_len(package) <= room else _first_cells(package, room - 1) + "…"

    near = [{0: folders[0], at: package, **{i: folders[i] for i in after[len(after) - k :]}} for k in range(len(after))]
    candidates = [shown(kept) for kept in reversed(near)]  # the folders nearest the name, as many as fit
    candidates.append(shown({at: package}))
    room = width - cell_len(folders[0]) - 1 - 3 - cell_len(name)  # "top/" and "/…/" around the package
    if room >= PACKAGE_LEAST:
        candidates.append(shown({0: folders[0], at: piece(room)}))
    room = width - 2 - 3 - cell_len(name)  # "…/" and "/…/"
    if room >= FOLDER_LEAST:
        candidates.append(shown({at: piece(room)}))
    room = width - 2 - 1 - cell_len(name)  # "…/" and "/": the package's "…" stands for the folders after it too
    if room >= FOLDER_LEAST:
        candidates.append(f"…/{piece(room)}/{name}")
    fitting = next((c for c in candidates if cell_len(c) <= width), None)
    if fitting is not None:
        return fitting
    if cell_len(name) + 2 <= width:
        return f"…/{name}"
    return name if cell_len(name) <= width else _cut_name(name, width)


def _cut_name(name: str, width: int) -> str:
    """A file name in ``width`` cells: its start and its end (``ADR-004-…-money.md``)."""
    ahead = max((width - 1) * 3 // 5, 1)
    return f"{_first_cells(name, ahead)}…{_last_cells(name, width - 1 - ahead)}"


FOLDER_LEAST = 5
"""The fewest cells the folder that tells two paths apart keeps (``0020…``, ``…y-v1``)."""


def cut_apart(paths: list[str], width: int) -> list[str]:
    """``cut_path`` for a column of paths: two paths it cuts alike (siblings whose folders differ
    past what it keeps, ``…/payments-r…/spec.md`` twice) are cut again around the first letter
    that tells them apart (``…/…try-v1/spec.md``, ``…/…try-v2/spec.md``)."""
    shown = [cut_path(path, width) for path in paths]
    alike: dict[str, set[str]] = {}
    for path, cut in zip(paths, shown):
        alike.setdefault(cut, set()).add(path)
    return [
        _cut_around(path, sorted(alike[cut] - {path}), width) or cut if len(alike[cut]) > 1 else cut
        for path, cut in zip(paths, shown)
    ]


def _cut_around(path: str, others: list[str], width: int) -> str | None:
    """``path`` in ``width`` cells keeping the folder where it first differs from ``others``, from a
    little before the first letter that differs; None when that does not fit (or only the name
    differs, which ``cut_path`` keeps)."""
    parts = path.split("/")
    split = [other.split("/") for other in others]
    at = min(next((i for i, (a, b) in enumerate(zip(parts, o)) if a != b), min(len(parts), len(o))) for o in split)
    if at >= len(parts) - 1:
        return None
    folder = parts[at]
    differs = min(
        next((i for i, (a, b) in enumerate(zip(folder, o[at])) if a != b), min(len(folder), len(o[at])))
        if at < len(o)
        else 0
        for o in split
    )
    lead = "…/" if at else ""
    middle = "/…" if at < len(parts) - 2 else ""
    name = parts[-1]
    room = width - len(lead) - len(middle) - cell_len(name) - 1
    if room < FOLDER_LEAST:  # the name gives up its middle for the folder that tells the paths apart
        room = FOLDER_LEAST
        if width - len(lead) - len(middle) - 1 - room < 8:
            return None
        name = _cut_name(name, width - len(lead) - len(middle) - 1 - room)
    start = differs - (room - 2) // 2 if cell_len(folder) > room and differs >= room - 1 else 0
    piece = ("…" if start else "") + folder[start:]
    if cell_len(piece) > room:
        piece = _first_cells(piece, room - 1) + "…"
    return f"{lead}{piece}{middle}/{name}"


def _first_cells(text: str, width: int) -> str:
    taken, used = [], 0
    for char in text:
        used += cell_len(char)
        if used > width:
            break
        taken.append(char)
    return "".join(taken)


def _last_cells(text: str, width: int) -> str:
    return _first_cells(text[::-1], width)[::-1]
