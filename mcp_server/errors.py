"""Core errors as messages the model can act on.

On mcp 2.3.0 only a ``ToolError`` reaches the model with its text; any other exception arrives as
"Error executing tool". Every core failure (a refusal, a path leaving the bank, a missing section,
a git ref naming nothing) is a ``BankError`` carrying a sentence written for a person, so it is
translated here, once, with its words unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from memorybank.core.errors import BankError, Refusal


def message_of(error: BankError) -> str:
    """The sentence the model reads; a refusal names its reason so a retry can key on it."""
    if isinstance(error, Refusal):
        return f"Refused ({error.reason}): {error.message}"
    return error.message


@contextmanager
def tool_errors() -> Iterator[None]:
    """Raise every ``BankError`` inside the block as a ``ToolError`` with the core's message, and an
    ``OSError`` (a root that is a file, a disk that is full) with the system's."""
    try:
        yield
    except BankError as error:
        raise ToolError(message_of(error)) from error
    except OSError as error:
        raise ToolError(f"The file system refused: {error}") from error


@contextmanager
def resource_errors() -> Iterator[None]:
    """The same for resources, whose anticipated failures are ``ResourceError``."""
    try:
        yield
    except BankError as error:
        raise ResourceError(message_of(error)) from error
