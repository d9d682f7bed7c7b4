"""Serving stdio while the SDK loads: the handshake and the first ``tools/list`` answered at once.

Importing the ``mcp`` SDK costs most of a second of CPU (its package ``__init__`` loads the client
side, and ``mcp_types`` builds about 500 pydantic models for two protocol eras), and a client waits
for all of it before its first ``tools/list``. The answers to ``initialize`` (``server/discover``
in the 2026-07-28 era) and to that first listing depend only on this package, the SDK, the surface
state, the inbox-exits mode, the bank's root and the protocol version the client asks for. So the
SDK's own answers are kept in the user's cache directory (``listings``) under a key made of all of those but the
root (which the stored text names by a placeholder, so one project's answers serve the next), and
replayed while the SDK loads on another thread. The first start after an install or an upgrade,
with nothing kept yet, replays the answers the package ships for its default surface
(``shipped.py``) when the installed SDK is the one they were recorded with.

The SDK then serves through its own stdio transport (``run_stdio_async``), whose fd 0 and fd 1 are
pipes from and to this front door: every line the client sends is forwarded to it, in order, the
handshake included, and its replies to the requests already answered here are dropped after being
compared with what was sent (a difference rewrites the cache, and a changed listing is announced
with ``notifications/tools/list_changed``). Anything other than the handshake and an unpaged first
``tools/list`` waits for the SDK, so a cached answer never stands in for a call. With no answer
kept (a first start, a new version) this is the plain path with a pump in between.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

from memorybank.mcp_server.listings import listing_file, load, shipped_answers, store
from memorybank.mcp_server.wire import TOO_LARGE, TooLarge, bounded_lines

HANDSHAKE = ("initialize", "notifications/initialized", "server/discover", "tools/list")
"""The messages answered here: the 2025 era's handshake, the 2026-07-28 era's discovery, the first
listing."""
PROTOCOL_META = "io.modelcontextprotocol/protocolVersion"


class FrontDoor:
    """The pumps between the client's stdio and the SDK's (see the module docstring)."""

    def __init__(
        self,
        wire_out: BinaryIO,
        cache_path: Path | None,
        root: Path,
        shipped: Callable[[], dict[str, Any]] | None = None,
    ) -> None:
        self.wire_out = wire_out
        self.cache_path = cache_path
        self.root = root
        self.cached = load(cache_path, root) or (shipped() if shipped else {})
        """The user's kept answers; with none yet, the package's shipped ones (``shipped.py``)."""
        self.learned: dict[str, Any] = {}
        self.write_lock = threading.Lock()
        self.pending: dict[Any, str] = {}
        """Handshake requests forwarded to the SDK: id to cache key (``method protocol``)."""
        self.answered: dict[Any, Any] = {}
        """Handshake requests already answered from the cache: id to the result sent."""
        self.protocol: str | None = None
        self.handshake = True
        self.bank: Any = None
        """Set once the server is built; indexed after the handshake (``warm``)."""
        self.warmed = False
        self.outstanding: set[Any] = set()
        """Ids of the client's requests not yet answered by the SDK: at the end of input the SDK's
        stdin stays open until every one is (its transport would drop them otherwise)."""
        self.settled = threading.Condition()
        self.broken: str | None = None
        """Why the SDK's side stopped, once it has: every request is answered with it."""
        self.end = f"\0memorybank front door {os.getpid()} {id(self)} done\n".encode()
        """Written after the SDK's last line: its transport never closes its copy of fd 1."""

    def fail(self, error: BaseException) -> None:
        """The SDK's side stopped (its code failed to load, or it crashed): say why on stderr at
        once, answer every request still waiting, and from now on answer each new one with the
        same error instead of forwarding it where nothing will reply."""
        import traceback

        traceback.print_exception(error, file=sys.stderr)
        sys.stderr.flush()
        self.broken = (
            f"The memorybank server stopped: {type(error).__name__}: {error}. Restart it; stderr has the traceback."
        )
        with self.settled:
            waiting, self.outstanding = set(self.outstanding), set()
            self.settled.notify_all()
        for ident in sorted(waiting, key=str):
            self.refuse(ident)

    def refuse(self, ident: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32603, "message": self.broken}})

    def send(self, message: dict[str, Any]) -> None:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self.write_lock:
            self.wire_out.write(line.encode("utf-8"))
            self.wire_out.flush()

    def answer(self, message: Any) -> None:
        """Answer a handshake message from the cache when it can; called for every client line
        before it is forwarded."""
        if not self.handshake:
            return
        method = message.get("method") if isinstance(message, dict) else None
        if method not in HANDSHAKE:
            self.handshake = False  # from here on only the SDK answers
            return
        ident = message.get("id")
        params = message.get("params") or {}
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        protocol = meta.get(PROTOCOL_META)  # the 2026-07-28 era names its version on every request
        if method == "initialize":
            self.protocol = str(params.get("protocolVersion"))
        elif method == "server/discover":
            self.protocol = str(protocol)
        elif method == "tools/list":
            self.handshake = False  # one listing: a later one may follow a change of state
            if params.get("cursor") or self.protocol is None or (protocol and str(protocol) != self.protocol):
                return
        else:
            return
        if ident is None:
            return
        key = f"{method} {self.protocol}"
        self.pending[ident] = key
        result = self.cached.get(key)
        if result is not None:
            self.answered[ident] = result
            self.send({"jsonrpc": "2.0", "id": ident, "result": result})

    def sent(self, message: Any) -> None:
        """Note a client request forwarded to the SDK, so the end of input waits for its answer."""
        if isinstance(message, dict) and "method" in message and message.get("id") is not None:
            with self.settled:
                self.outstanding.add(message["id"])

    def _answered(self, line: bytes) -> None:
        if not self.outstanding or b'"id"' not in line:
            return
        try:
            message = json.loads(line)
        except ValueError:
            return
        if isinstance(message, dict) and "method" not in message and ("result" in message or "error" in message):
            with self.settled:
                self.outstanding.discard(message.get("id"))
                self.settled.notify_all()

    def drain(self, sdk: threading.Thread, seconds: float = 120.0) -> None:
        """Wait until the SDK has answered every request forwarded to it (or has stopped)."""
        with self.settled:
            self.settled.wait_for(lambda: not self.outstanding or not sdk.is_alive(), timeout=seconds)

    def relay(self, sdk_out: Iterable[bytes]) -> None:
        """Copy the SDK's lines to the client, dropping its replies to what the cache answered."""
        for line in sdk_out:
            if line == self.end:
                break
            self._answered(line)
            if not (self.pending and self._settle(line)):
                with self.write_lock:
                    self.wire_out.write(line)
                    self.wire_out.flush()
            if not self.warmed and not self.pending and not self.handshake and self.bank is not None:
                self.warmed = True
                threading.Thread(target=warm, args=(self.bank,), name="warm", daemon=True).start()
        self.save()

    def save(self) -> None:
        """Write what was learned (once the handshake is over, and at the end)."""
        if self.learned:
            self.cached = {k: v for k, v in {**self.cached, **self.learned}.items() if v is not None}
            self.learned = {}
            store(self.cache_path, self.cached, self.root)

    def _settle(self, line: bytes) -> bool:
        """Learn the SDK's answer to a handshake request; True when the client already has it."""
        try:
            message = json.loads(line)
        except ValueError:
            return False
        ident = message.get("id") if isinstance(message, dict) else None
        key = self.pending.pop(ident, None) if ident is not None else None
        if key is None:
            return False
        given = self.answered.get(ident)
        result = message.get("result")
        if result != given:
            self.learned[key] = result  # None (an error) removes the key when saved
            if given is not None and key.startswith("tools/list"):
                # The client holds a stale listing: tell it to list again.
                self.send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        if not self.pending and not self.handshake:
            self.save()
        return given is not None


def _swap_stdio() -> tuple[BinaryIO, BinaryIO, BinaryIO, BinaryIO]:
    """Move the client's wire to private descriptors and put a pipe on fd 0 and one on fd 1, so the
    SDK's own stdio transport (which claims fd 0 and 1) talks to the front door. Returns the wire
    (in, out), the end feeding the SDK's fd 0, and the end reading its fd 1."""
    wire_in = os.fdopen(os.dup(0), "rb")  # buffered: a raw read of a 5 MB line took 2.6 s, a byte at a time
    wire_out = os.fdopen(os.dup(1), "wb")
    to_sdk_read, to_sdk_write = os.pipe()
    from_sdk_read, from_sdk_write = os.pipe()
    for pipe_end, fd in ((to_sdk_read, 0), (from_sdk_write, 1)):
        os.dup2(pipe_end, fd)
        os.close(pipe_end)
    return wire_in, wire_out, os.fdopen(to_sdk_write, "wb"), os.fdopen(from_sdk_read, "rb")


def serve_stdio(root: Path, *, off_paths: Iterable[str] = (), inbox_exits: str = "owner", subset: str = "full") -> None:
    """``memorybank mcp`` over stdio, answering the handshake while the SDK loads."""
    from memorybank.mcp_server import surface

    off = list(off_paths)
    state = surface.decide(root, off)
    wire_in, wire_out, to_sdk, from_sdk = _swap_stdio()
    path = listing_file(state, inbox_exits, subset)
    shipped = functools.partial(shipped_answers, state, inbox_exits, subset, root) if path else None
    door = FrontDoor(wire_out, path, root, shipped)
    failure: list[BaseException] = []

    def run_sdk() -> None:
        try:
            import anyio
            from memorybank.mcp_server.server import build_server

            server = build_server(root, off_paths=off, inbox_exits=inbox_exits, state=state, subset=subset)
            door.bank = server.bank
            anyio.run(server.run_stdio_async)
        except BaseException as error:  # re-raised after the pumps stop
            failure.append(error)
            if not isinstance(error, (KeyboardInterrupt, SystemExit)):
                door.fail(error)

    sdk = threading.Thread(target=run_sdk, name="mcp-sdk", daemon=True)
    sdk.start()
    relay = threading.Thread(target=door.relay, args=(from_sdk,), name="relay", daemon=True)
    relay.start()
    with to_sdk:
        for line in bounded_lines(wire_in):
            if isinstance(line, TooLarge):  # past MESSAGE_BYTES: skipped as it streamed in, never held whole
                door.handshake = False
                door.send({"jsonrpc": "2.0", "id": line.ident, "error": {"code": -32600, "message": TOO_LARGE}})
                continue
            if not line.strip():
                continue
            try:
                message = json.loads(line)
                unfit = unfit_for_sdk(message)
            except (ValueError, RecursionError):
                message, unfit = None, "each line must be one JSON-RPC message"
            if unfit is not None:
                # Answered here as JSON-RPC says, and never handed to the SDK, whose parser would
                # drop the line without a word (or, nested deep enough, stop the process).
                door.handshake = False
                ident = message.get("id") if isinstance(message, dict) else None
                door.send(
                    {"jsonrpc": "2.0", "id": ident, "error": {"code": -32700, "message": f"Parse error: {unfit}."}}
                )
                continue
            if door.broken is not None:
                if isinstance(message, dict) and "method" in message and message.get("id") is not None:
                    door.refuse(message["id"])
                continue
            door.answer(message)
            door.sent(message)
            try:
                to_sdk.write(line)
                to_sdk.flush()
            except (BrokenPipeError, ValueError):
                break
        # End of input: every request the client sent is answered before the SDK sees the end.
        door.drain(sdk)
    sdk.join()
    with contextlib.suppress(OSError):
        os.write(1, door.end)  # fd 1 is the SDK's pipe again once its transport let go
        os.dup2(2, 1)
    relay.join(timeout=5)
    if failure and not isinstance(failure[0], (KeyboardInterrupt, SystemExit)):
        raise SystemExit(1)  # its traceback is on stderr already


MAX_DEPTH = 64
"""The deepest nesting of arrays and objects a message may have (no tool's arguments come close)."""


def unfit_for_sdk(message: Any) -> str | None:
    """Why a parsed line cannot go on to the SDK, or None: nesting deeper than ``MAX_DEPTH``, or a
    string holding a lone UTF-16 surrogate (JSON allows the escape; Unicode has no such character)."""
    stack = [(message, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "a string holds a lone UTF-16 surrogate, which is not a character"
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return f"the message nests arrays and objects deeper than {MAX_DEPTH} levels"
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                stack.append((item, depth + 1))
                if isinstance(key, str):
                    stack.append((key, depth))
    return None


def warm(bank: Any) -> None:
    """Index the bank off the critical path, so the first tool call finds it loaded, and build what a
    route reads, so the first ``bank_route`` finds that ready too."""
    with contextlib.suppress(Exception):
        bank.refresh()
        len(bank)
        from memorybank.core.warm import warm as build_routing

        build_routing(bank)
