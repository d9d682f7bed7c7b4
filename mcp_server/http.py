"""Streamable HTTP on loopback only, with the Host and Origin headers checked.

A local HTTP server is reachable from any web page the user opens, through DNS rebinding: a page on
``evil.example`` resolving to 127.0.0.1 would otherwise be allowed to drive the bank's write tools.
So the server binds a loopback address only, and answers only requests whose ``Host`` names that
address and port and whose ``Origin``, when a browser sends one, is the same loopback origin.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from memorybank.core.errors import UsageError

if TYPE_CHECKING:
    from memorybank.mcp_server.bank_server import BankServer
    from starlette.applications import Starlette

MCP_PATH = "/mcp"


def parse_address(text: str) -> tuple[str, int]:
    """``127.0.0.1:PORT`` (or ``localhost:PORT``, ``[::1]:PORT``) as a host and a port; refuses any
    address that is not loopback."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep or not port_text.isdigit():
        raise UsageError(f'--http expects HOST:PORT on loopback, e.g. 127.0.0.1:8765, not "{text}".')
    host = host.strip("[]")
    port = int(port_text)
    if not 0 < port < 65536:
        raise UsageError(f"Port {port} is out of range (1-65535).")
    if host != "localhost":
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise UsageError(
                f"Refusing to serve on {host}: the bank's write tools must not be reachable from other machines. "
                "Use 127.0.0.1, localhost or ::1."
            )
    return host, port


def allowed(host: str, port: int) -> tuple[list[str], list[str]]:
    """The Host values and browser origins accepted for a server on ``host:port``."""
    names = {host, "127.0.0.1", "localhost"} if host in ("127.0.0.1", "localhost") else {host}
    hosts, origins = [], []
    for name in sorted(names):
        shown = f"[{name}]" if ":" in name else name
        hosts.append(f"{shown}:{port}")
        origins.append(f"http://{shown}:{port}")
    return hosts, origins


def http_app(server: BankServer, host: str, port: int) -> Starlette:
    """The ASGI app serving ``server`` at ``/mcp`` with DNS-rebinding protection for ``host:port``."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts, origins = allowed(host, port)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
    return server.streamable_http_app(streamable_http_path=MCP_PATH, transport_security=security, host=host)


def serve(server: BankServer, address: str) -> None:
    """Serve until interrupted."""
    import anyio
    import uvicorn

    host, port = parse_address(address)
    config = uvicorn.Config(http_app(server, host, port), host=host, port=port, log_level="warning", lifespan="on")
    anyio.run(uvicorn.Server(config).serve)
