"""The MCP server hosted inside the workbench: streamable HTTP on a loopback socket, served from a
thread of its own so an agent's call never waits for the screen, nor the screen for the call.

The socket is bound before the app starts, so a port already taken is refused with a message
instead of a half-open workbench. The server is the one ``memorybank mcp --http`` serves (same
factory, same Host/Origin checks, owner-gated inbox exits); its ``activity`` hook hands each tool
call to the workbench.
"""

from __future__ import annotations

import asyncio
import errno
import os
import socket
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from memorybank.core.errors import UsageError

if TYPE_CHECKING:
    import uvicorn
    from memorybank.mcp_server.server import Activity

STOP_SECONDS = 5.0


def loopback_address(text: str) -> tuple[str, int]:
    """``PORT`` (on 127.0.0.1) or ``HOST:PORT`` on a loopback address, as a host and a port."""
    from memorybank.mcp_server.http import parse_address

    text = text.strip()
    return parse_address(f"127.0.0.1:{text}" if text.isdigit() else text)


class McpHost:
    """One MCP server over the bank at ``root``, on a socket bound now and served once started."""

    def __init__(self, root: str | os.PathLike[str], host: str, port: int) -> None:
        """Bind ``host:port`` (port 0 picks a free one). Raises ``UsageError`` when it is taken."""
        self.root = Path(root)
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((host, port))
        except OSError as error:
            self.socket.close()
            if error.errno == errno.EADDRINUSE:
                raise UsageError(
                    f"Port {port} on {host} is taken; choose another, e.g. --serve-mcp {port + 1}."
                ) from None
            raise UsageError(f"Cannot serve on {host}:{port}: {error.strerror or error}.") from None
        self.socket.listen(64)
        self.port: int = self.socket.getsockname()[1]
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def bind(cls, root: str | os.PathLike[str], address: str) -> McpHost:
        """Bind the address ``--serve-mcp`` was given (``8765`` or ``127.0.0.1:8765``)."""
        host, port = loopback_address(address)
        return cls(root, host, port)

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/mcp"

    def start(self, activity: Activity) -> None:
        """Serve in a daemon thread; ``activity`` hears of every tool call, from that thread."""
        import uvicorn
        from memorybank.mcp_server.http import http_app
        from memorybank.mcp_server.server import build_server

        server = build_server(self.root, inbox_exits="owner", activity=activity)
        server.bank.supplied_files = False  # any local program can reach the port
        config = uvicorn.Config(
            http_app(server, self.host, self.port),
            log_config=None,
            access_log=False,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="memorybank-mcp", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        assert self._server is not None
        asyncio.run(self._server.serve(sockets=[self.socket]))

    @property
    def started(self) -> bool:
        """Whether the server is accepting (its start-up finished)."""
        return self._server is not None and self._server.started

    def stop(self) -> None:
        """Stop serving and wait for the thread (idempotent)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(STOP_SECONDS)
            self._thread = None
        self.socket.close()
