"""HTTP/1.1 as ``shinpan serve`` speaks it: uvicorn's httptools protocol with the limits a
venue's network needs, which uvicorn itself does not set.

- **A request's head (its line and headers) has at most HEAD_LIMIT bytes**, however it comes:
  over many reads, or whole in one. uvicorn keeps whatever head it is sent until it ends:
  one connection could make the server hold megabytes. A longer head is answered 431 and
  the connection closed.
- **A head comes whole within HEAD_SECONDS** of the connection, or of the first byte of
  the request, **and a body within BODY_SECONDS** of its head. uvicorn times out only an
  idle connection after an answer: one that was opened and never sent a whole request (or
  sent it a byte at a time) was kept for ever, and a few thousand of them take every file
  the server may open. Such a connection is answered 408 and closed; only closed if an
  answer to it has begun, or if it sent nothing (a browser may open a connection ahead of
  need). An answer that takes its time and a live view's stream have no such limit; a
  body's size is :class:`shinpan.web.app.BodyLimit`'s.
- **Connections waiting for a request are bounded**: at most WAITING_PER_ADDRESS from one
  address (an IPv6 one by its /64), and a server holds at most
  :func:`shinpan.web.resources.connection_budget` connections in all. Beyond either, the
  connection of that address (or any) that has waited longest for a request is closed
  (answered 503 if it had sent part of one): a thousand silent connections cannot take the
  files the head judge's sign-in needs, and a phone whose idle connection gave way simply
  opens another. When none waits, the new connection is the one refused (503).
"""

from __future__ import annotations

import asyncio
import ipaddress
import weakref
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from shinpan.web.resources import connection_budget

HEAD_LIMIT = 64 * 1024
HEAD_SECONDS = 30.0
BODY_SECONDS = 120.0  # a CSV of a few megabytes over a venue's Wi-Fi comes well within it
WAITING_PER_ADDRESS = 64  # a browser keeps six connections; a venue's NAT, a few dozen phones'

_TOO_LARGE = "リクエストのヘッダーが大きすぎます。 / The request's headers are too large.\n".encode()
_TOO_SLOW = "リクエストが時間内に届きませんでした。 / The request did not arrive in time.\n".encode()
_BUSY = "サーバーが混み合っています。もう一度お試しください。 / The server is busy; try again.\n".encode()


def _answer(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(text)).encode() + b"\r\nconnection: close\r\n\r\n" + text
    )


def _address(client: tuple[str, int] | None) -> str:
    """Whose a connection is, for counting: its address, an IPv6 one by its /64 (what one
    machine may hold)."""
    if client is None:
        return ""
    host = client[0]
    if ":" in host:
        try:
            return str(ipaddress.IPv6Network(f"{host}/64", strict=False))
        except ValueError:
            return host
    return host


class _Doors:
    """The connections of one server, and which of them wait for a request, oldest first."""

    def __init__(self) -> None:
        self.budget = connection_budget()
        self.open = 0
        self.waiting: dict[VenueHttp, None] = {}  # a dict keeps its order: the oldest first
        self.by_address: dict[str, dict[VenueHttp, None]] = {}

    def wait(self, conn: VenueHttp) -> None:
        """``conn`` waits for a request from now (the newest to)."""
        self.rest(conn)
        self.waiting[conn] = None
        self.by_address.setdefault(conn.address, {})[conn] = None

    def rest(self, conn: VenueHttp) -> None:
        """``conn`` no longer waits (a request came, or it closed)."""
        if self.waiting.pop(conn, False) is None:
            mine = self.by_address[conn.address]
            del mine[conn]
            if not mine:
                del self.by_address[conn.address]

    def make_room(self, new: VenueHttp) -> None:
        """Past a bound, the connection that waited longest gives way (see the module)."""
        mine = self.by_address.get(new.address, {})
        if len(mine) > WAITING_PER_ADDRESS:
            next(c for c in mine if c is not new).give_way()
        if self.open > self.budget:
            oldest = next((c for c in self.waiting if c is not new), None)
            (oldest or new).give_way()


_SERVERS: weakref.WeakKeyDictionary[ServerState, _Doors] = weakref.WeakKeyDictionary()


class VenueHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a request bounded: its head in size, its head and
    its body in time, and the connections waiting for one in number (see above)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # the bytes that come are a request's head, not yet whole
        self._head_bytes = 0  # of the head not yet whole, over the reads so far
        self._parsed = 0  # of the head, as the parser tells its parts (whatever the reads)
        self._refused = False  # answered and closed: what is still parsed is dropped
        self._ended = False  # a request ended in the bytes being read
        self._timer: asyncio.TimerHandle | None = None  # for the head or the body to come whole
        self._doors: _Doors | None = None
        self.address = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._time(HEAD_SECONDS)
        doors = _SERVERS.get(self.server_state)
        if doors is None:
            doors = _SERVERS[self.server_state] = _Doors()
        self._doors, self.address = doors, _address(self.client)
        doors.open += 1
        doors.wait(self)
        doors.make_room(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._untime()
        self._leave()
        super().connection_lost(exc)

    def _leave(self) -> None:
        if self._doors is not None:
            self._doors.rest(self)
            self._doors.open -= 1
            self._doors = None

    def give_way(self) -> None:
        """Closed for a newer connection (answered 503 if it had sent part of a request)."""
        self._leave()
        self._close_with(b"503 Service Unavailable", _BUSY)

    def data_received(self, data: bytes) -> None:
        self._ended = False
        super().data_received(data)  # the parser keeps a head that has not ended
        # Bytes that ended a request (a pipelined one may follow in them) are not counted: a
        # head is held to HEAD_LIMIT and one read at most, never refused for the body before it.
        # A head whole in the bytes read was counted by its parts (:meth:`_count`).
        if self._in_head and not self._ended and self.parser is not None and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > HEAD_LIMIT:
                self._close_with(b"431 Request Header Fields Too Large", _TOO_LARGE)
            elif self._timer is None:  # bytes before a request begins: its time runs
                self._time(HEAD_SECONDS)

    def _count(self, size: int) -> bool:
        """A part of the head: False once the head is over HEAD_LIMIT (answered 431)."""
        self._parsed += size
        if self._parsed > HEAD_LIMIT and not self._refused:
            self._close_with(b"431 Request Header Fields Too Large", _TOO_LARGE)
            self._refused = True
        return not self._refused

    def on_message_begin(self) -> None:
        if self._refused:
            return
        super().on_message_begin()
        self._head_bytes = 0
        self._parsed = len(b"GET  HTTP/1.1\r\n\r\n")  # the request line and the end, as near as counts
        if self._timer is None:  # a request's first byte: its head's time starts
            self._time(HEAD_SECONDS)

    def on_url(self, url: bytes) -> None:
        if self._count(len(url)):
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._count(len(name) + len(value) + 4):  # "name: value\r\n"
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._refused:
            return
        self._in_head = False
        if self._doors is not None:
            self._doors.rest(self)  # a request: no longer waiting
        self._time(BODY_SECONDS)  # its body's time (none: the request ends at once)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        self._untime()
        super().on_message_complete()
        # What comes next is another request's head (pipelined, or after the answer); until
        # something comes, uvicorn's keep-alive timer closes a connection left idle.
        self._in_head, self._ended, self._parsed = True, True, 0
        self._maybe_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._maybe_waiting()

    def _maybe_waiting(self) -> None:
        """Once a request is read and answered, the connection waits for the next."""
        if (
            self._doors is not None
            and self._in_head
            and not self.transport.is_closing()
            and (self.cycle is None or self.cycle.response_complete)
        ):
            self._doors.wait(self)

    def _time(self, seconds: float) -> None:
        self._untime()
        self._timer = self.loop.call_later(seconds, self._too_slow)

    def _untime(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        self._close_with(b"408 Request Timeout", _TOO_SLOW)

    def _close_with(self, status: bytes, text: bytes) -> None:
        """Answer ``status`` (unless an answer is already on its way) and close."""
        self._untime()
        if self.transport.is_closing():
            return
        cycle = self.cycle  # the request answered last, or the one whose body is awaited
        if self._in_head:  # nothing sent of it: closed without a word, as an idle connection
            begun = self._head_bytes > 0 or self._parsed > 0
            unanswered = begun and (cycle is None or cycle.response_complete)
        else:
            unanswered = cycle is not None and not cycle.response_started
        if unanswered:
            self.transport.write(_answer(status, text))
        self.transport.close()
