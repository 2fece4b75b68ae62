"""HTTP/1.1 as ``shinpan serve`` speaks it: uvicorn's httptools protocol with two limits a
venue's network needs, which uvicorn itself does not set.

- **A request's head (its line and headers) has at most HEAD_LIMIT bytes.** uvicorn keeps
  whatever head it is sent until it ends: one connection could make the server hold
  megabytes. A longer head is answered 431 and the connection closed.
- **A head comes whole within HEAD_SECONDS** of the connection, or of the first byte of
  the request, **and a body within BODY_SECONDS** of its head. uvicorn times out only an
  idle connection after an answer: one that was opened and never sent a whole request (or
  sent it a byte at a time) was kept for ever, and a few thousand of them take every file
  the server may open. Such a connection is answered 408 and closed; only closed if an
  answer to it has begun, or if it sent nothing (a browser may open a connection ahead of
  need). An answer that takes its time and a live view's stream have no such limit; a
  body's size is :class:`shinpan.web.app.BodyLimit`'s.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_LIMIT = 64 * 1024
HEAD_SECONDS = 30.0
BODY_SECONDS = 120.0  # a CSV of a few megabytes over a venue's Wi-Fi comes well within it

_TOO_LARGE = "リクエストのヘッダーが大きすぎます。 / The request's headers are too large.\n".encode()
_TOO_SLOW = "リクエストが時間内に届きませんでした。 / The request did not arrive in time.\n".encode()


def _answer(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(text)).encode() + b"\r\nconnection: close\r\n\r\n" + text
    )


class VenueHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a request bounded: its head in size, its head and
    its body in time (see above)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True  # the bytes that come are a request's head, not yet whole
        self._head_bytes = 0
        self._ended = False  # a request ended in the bytes being read
        self._timer: asyncio.TimerHandle | None = None  # for the head or the body to come whole

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._time(HEAD_SECONDS)

    def connection_lost(self, exc: Exception | None) -> None:
        self._untime()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._ended = False
        super().data_received(data)  # the parser keeps a head that has not ended
        # Bytes that ended a request (a pipelined one may follow in them) are not counted: a
        # head is held to HEAD_LIMIT and one read at most, never refused for the body before it.
        if self._in_head and not self._ended and self.parser is not None and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > HEAD_LIMIT:
                self._close_with(b"431 Request Header Fields Too Large", _TOO_LARGE)
            elif self._timer is None:  # bytes before a request begins: its time runs
                self._time(HEAD_SECONDS)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        if self._timer is None:  # a request's first byte: its head's time starts
            self._time(HEAD_SECONDS)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._time(BODY_SECONDS)  # its body's time (none: the request ends at once)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._untime()
        super().on_message_complete()
        # What comes next is another request's head (pipelined, or after the answer); until
        # something comes, uvicorn's keep-alive timer closes a connection left idle.
        self._in_head, self._ended = True, True

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
            unanswered = self._head_bytes > 0 and (cycle is None or cycle.response_complete)
        else:
            unanswered = cycle is not None and not cycle.response_started
        if unanswered:
            self.transport.write(_answer(status, text))
        self.transport.close()
