"""Running a command handler: core errors become a message on stderr and an exit code.

0 success; 1 an error or a refusal (which names its reason); 2 a usage error; 3 the operating
system refused (read-only file system, no space left, permission denied: nothing was written);
130 interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable

from memorybank.core.errors import BankError, PathRefused, Refusal, StorageError, UsageError, storage_error


def run_handler(handler: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    try:
        return int(handler(args) or 0)
    except UsageError as exc:
        _error(exc.message)
        return 2
    except StorageError as exc:
        _error(exc.message)
        return 3
    except BrokenPipeError:
        # The reader went away (``memorybank stats | head``): stop quietly, and point stdout at
        # nothing so the interpreter's last flush does not complain either.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a refusal of the OS outside a write (a read, a mkdir): still one line
        _error(storage_error(exc, exc.filename or "the bank", "read" if not exc.filename else "use").message)
        return 3
    except BankError as exc:
        prefix = f"refused ({exc.reason}): " if isinstance(exc, (Refusal, PathRefused)) else ""
        _error(prefix + exc.message)
        return 1
    except KeyboardInterrupt:
        return 130


def _error(message: str) -> None:
    sys.stderr.write(f"memorybank: {message}\n")
