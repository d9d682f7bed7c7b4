"""Full garbage collections while nobody types.

A full collection walks every object the collector tracks. After the first index the workbench
freezes what it built (``gc.freeze()``), but what it makes later (a 2,000-line document opened, the
router's caches, a palette's list) grows the heap again, and on 5,000 documents a full collection
then took 40-100 ms, inside whichever key happened to trigger it (the jump palette's worst key went
from 47 ms to 88-129 ms in the runs it landed in). Python keeps collecting the young generations
on its own schedule (they hold what was just made, and are cheap); the oldest is collected here
instead, as often as Python would have, but only once no key or click has come for
``QUIET_SECONDS``.
"""

from __future__ import annotations

import gc
import time

QUIET_SECONDS = 1.5
"""No input for this long is a pause in the work: a full collection then delays nobody."""
CHECK_SECONDS = 0.5
"""How often a pause is looked for."""
DUE = 10
"""Collections of the middle generation after which a full one is due: Python's own default."""
NEVER = 1 << 30
"""The full collection's threshold while this collector runs it: Python never reaches it."""


class QuietCollector:
    """Takes the full collection off Python's schedule and runs it in the pauses between inputs."""

    def __init__(self) -> None:
        self.last_input = time.monotonic()
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, NEVER)

    def stop(self) -> None:
        """Python's schedule back, as it was."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def saw_input(self) -> None:
        self.last_input = time.monotonic()

    def collect_if_quiet(self) -> bool:
        """Run the full collection when it is due and nobody has typed for a while."""
        if self._thresholds is None or gc.get_count()[2] < DUE:
            return False
        if time.monotonic() - self.last_input < QUIET_SECONDS:
            return False
        gc.collect()
        return True
