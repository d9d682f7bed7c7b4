"""Running a command handler: core errors become a message on stderr and an exit code.

0 success; 1 an error or a refusal (which names its reason), or output that could not be written;
2 a usage error (a malformed argument, a ref naming no commit, a scope outside the bank, a root
that names no bank); 3 the operating system refused (read-only file system, no space left, permission
denied: nothing was written); 130 interrupted. A command asked for JSON (``--json``, ``--format
json``) also prints the error as JSON on standard output, ``{"error": {"kind", "message", "reason"?}}``,
so a script reading its output reads the failure too.

A reader that goes away early (``memorybank validate | head``) ends the output quietly, but not the
verdict: a handler that knows its exit code before it prints sets ``args.verdict``, and that is the
exit code still.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from memorybank.core.errors import (
    BankError,
    BankNotFound,
    PathRefused,
    Refusal,
    StorageError,
    UsageError,
    storage_error,
)
from memorybank.tui.cli.output import error, escape_unencodable, in_cli_words


class OutputFailed(Exception):
    """Standard output refused what the command printed (a full disk, a closed descriptor)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))


class _Stdout:
    """Standard output whose failures are told apart from the bank's: an ``OSError`` raised while
    printing becomes ``OutputFailed`` (a broken pipe stays itself, the reader having gone away)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._call(self._stream.write, text)

    def flush(self) -> None:
        self._call(self._stream.flush)

    @staticmethod
    def _call(action: Callable[..., Any], *args: Any) -> Any:
        try:
            return action(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputFailed(exc) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run_handler(handler: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    stream = sys.stdout
    guarded = stream is not None and getattr(args, "command", None) not in (None, "tui", "demo")
    escape_unencodable(stream)
    if guarded:
        sys.stdout = _Stdout(stream)  # type: ignore[assignment]
    try:
        code = int(handler(args) or 0)
        if sys.stdout is not None:
            sys.stdout.flush()  # a failure to deliver the output is this command's, not the exit's
        return code
    except (UsageError, BankNotFound) as exc:  # a malformed argument, or a root that names no bank
        _failed(args, "usage", exc.message)
        return 2
    except StorageError as exc:
        _failed(args, "storage", exc.message)
        return 3
    except BrokenPipeError:
        # The reader went away (``memorybank stats | head``): stop quietly, and point stdout at
        # nothing so the interpreter's last flush does not complain either.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        return int(getattr(args, "verdict", 0))
    except OutputFailed as exc:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        error(f"could not write the output to standard output ({exc}); what the command did is done.")
        return 1
    except OSError as exc:  # a refusal of the OS outside a write (a read, a mkdir): still one line
        _failed(
            args,
            "storage",
            storage_error(exc, exc.filename or "the bank", "read" if not exc.filename else "use").message,
        )
        return 3
    except BankError as exc:
        if isinstance(exc, (Refusal, PathRefused)):
            _failed(args, "refused", exc.message, reason=exc.reason)
        else:
            _failed(args, "error", exc.message)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if guarded:
            sys.stdout = stream


def _failed(args: argparse.Namespace, kind: str, message: str, *, reason: str | None = None) -> None:
    """The error on stderr (a refusal names its ``reason``), and as JSON on stdout too when the
    command was asked for JSON."""
    error(f"refused ({reason}): {message}" if reason else message)
    if getattr(args, "json", False) is True or getattr(args, "format", None) == "json":
        failure = {"kind": kind, "message": in_cli_words(message), **({"reason": reason} if reason else {})}
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.write(json.dumps({"error": failure}, ensure_ascii=False) + "\n")
            sys.stdout.flush()
