"""Reading a file that must be a regular file: opened without blocking, so a FIFO, a device or
``/proc`` is refused at once instead of being waited on or read forever. Every read of a path a
caller or a document chose goes through here (``bodyFile``, a file of route checks, the header of a
``derived_from`` target outside the bank)."""

from __future__ import annotations

import os
import stat


class Unreadable(Exception):
    """A file that cannot be read as a regular file: ``reason`` says why, in a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TooLarge(Unreadable):
    """A regular file past the size its reader accepts."""

    def __init__(self, size: int) -> None:
        super().__init__(f"it is {size:,} bytes")
        self.size = size


def read_regular(path: str | os.PathLike[str], limit: int, *, follow_links: bool = True, head: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, opened without blocking: a FIFO or a device is
    refused, never waited on or read forever, and a file past ``limit`` bytes is not read (with
    ``head``, its first ``limit`` bytes are).

    Raises:
        TooLarge: the file holds more than ``limit`` bytes.
        Unreadable: it is not a regular file, or the system refused it (``reason`` says which).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable("it is not a regular file")
        if info.st_size > limit and not head:
            raise TooLarge(info.st_size)
        return os.read(fd, limit if head else limit + 1)
    except OSError as error:
        raise Unreadable(error.strerror or str(error)) from None
    finally:
        os.close(fd)
