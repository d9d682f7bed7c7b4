"""The product's one clock: every timestamp and date it writes comes from here.

Tests, the demo and the screenshots pin it so that what they build is the same on any day; a
person can pin it too, with ``MEMORYBANK_NOW`` (an ISO 8601 moment), to reproduce what a write
would have stamped at another time.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterator
from contextlib import contextmanager

ENVIRONMENT = "MEMORYBANK_NOW"

_pinned: list[_dt.datetime] = []


def _aware(moment: _dt.datetime) -> _dt.datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=_dt.UTC)


def now() -> _dt.datetime:
    """The current moment in UTC: the innermost pin, else ``MEMORYBANK_NOW``, else the system clock."""
    if _pinned:
        return _pinned[-1]
    given = os.environ.get(ENVIRONMENT, "").strip()
    if given:
        try:
            return _aware(_dt.datetime.fromisoformat(given.replace("Z", "+00:00"))).astimezone(_dt.UTC)
        except ValueError:
            pass
    return _dt.datetime.now(_dt.UTC)


def timestamp() -> float:
    """``now()`` as seconds since the epoch."""
    return now().timestamp()


def today() -> str:
    """Today's UTC date, ``YYYY-MM-DD``."""
    return now().date().isoformat()


def stamp() -> str:
    """``now()`` to the second, as written into frontmatter and records: ``2026-05-12T10:00:00Z``."""
    return now().replace(microsecond=0).isoformat().replace("+00:00", "Z")


@contextmanager
def pinned(moment: _dt.datetime | str) -> Iterator[_dt.datetime]:
    """Stop the clock at ``moment`` (a datetime, or an ISO 8601 string) for the block."""
    if isinstance(moment, str):
        moment = _dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    moment = _aware(moment).astimezone(_dt.UTC)
    _pinned.append(moment)
    try:
        yield moment
    finally:
        _pinned.pop()
