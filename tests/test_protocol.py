"""A request's head is bounded, in size and in time, on the server ``shinpan serve`` runs
(:mod:`shinpan.web.protocol`): a stranger on the venue's network cannot make it hold
megabytes of headers, nor keep connections open by never finishing a request. Everything
else a judge's phone or a desk does goes on as before: keep-alive, pipelined requests, a
body sent slowly, an answer that takes its time, a live view's stream.

Real sockets to a real uvicorn server on 127.0.0.1 (in a thread, with a short time limit),
and a real ``shinpan serve`` for the size limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.types import Receive, Scope, Send

from shinpan.web import protocol
from support import VENV_BIN

SHORT = 0.6  # HEAD_SECONDS in these tests; a body has BODY_SECONDS = 4 * SHORT


async def little_app(scope: Scope, receive: Receive, send: Send) -> None:
    """``/slow`` answers after twice the head's time, ``/echo`` answers the body's length."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    if scope["path"] == "/slow":
        await asyncio.sleep(2 * SHORT)
    body = str(size).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[int]:
    saved = protocol.HEAD_SECONDS, protocol.BODY_SECONDS
    protocol.HEAD_SECONDS, protocol.BODY_SECONDS = SHORT, 4 * SHORT
    port = free_port()
    config = uvicorn.Config(
        little_app, host="127.0.0.1", port=port, http=protocol.VenueHttp, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert running.started
    yield port
    running.should_exit = True
    thread.join(10)
    protocol.HEAD_SECONDS, protocol.BODY_SECONDS = saved


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def answers(conn: socket.socket, count: int = 1) -> list[bytes]:
    """The status lines of the next ``count`` answers (each body is its digits)."""
    data, found = b"", []
    while len(found) < count:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        while b"\r\n\r\n" in data:
            head, _, rest = data.partition(b"\r\n\r\n")
            length = int(
                next(
                    line.split(b":")[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
            )
            if len(rest) < length:
                break
            found.append(head.split(b"\r\n")[0])
            data = rest[length:]
    return found


def closed(conn: socket.socket) -> bytes:
    """What the server sent before it closed the connection."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := conn.recv(65536):
            data += chunk
    return data


def send_until_answered(conn: socket.socket, piece: bytes, times: int, pause: float) -> bytes:
    """Send ``piece`` up to ``times`` times, ``pause`` apart, until the server answers; then
    what it sent before it closed (sending on would have it reset the connection)."""
    for _ in range(times):
        conn.sendall(piece)
        if select.select([conn], [], [], pause)[0]:
            break
    return closed(conn)


def test_a_head_over_the_limit_is_refused_and_the_server_goes_on(server: int) -> None:
    with connect(server) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        refused = send_until_answered(conn, b"a" * 16384, 64, 0.05)  # 1 MiB, if let
        assert refused.startswith(b"HTTP/1.1 431")
    with connect(server) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Fine: " + b"b" * 30000 + b"\r\n\r\n")
        assert answers(conn) == [b"HTTP/1.1 200 OK"]


def test_a_head_over_the_limit_is_refused_though_it_comes_whole_in_one_read(server: int) -> None:
    head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n"
    with connect(server) as conn:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        conn.sendall(head)  # one send: the server reads it in one piece (or a few)
        assert closed(conn).startswith(b"HTTP/1.1 431")
    many = b"".join(b"X-H%d: %s\r\n" % (n, b"b" * 1000) for n in range(70))  # many headers, same
    with connect(server) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
        assert closed(conn).startswith(b"HTTP/1.1 431")
    with connect(server) as conn:  # a head just under the limit, whole in one read, is answered
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Fine: " + b"c" * 65_000 + b"\r\n\r\n")
        assert answers(conn) == [b"HTTP/1.1 200 OK"]


def test_a_head_that_does_not_come_whole_in_time_is_answered_408_a_silent_connection_closed(
    server: int,
) -> None:
    with connect(server) as silent, connect(server) as dripping:
        dripping.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(SHORT / 2)
        dripping.sendall(b"Host: x\r\n")  # still not whole: the time runs from the connection
        started = time.monotonic()
        assert closed(silent) == b""  # nothing asked, nothing answered (a browser's spare connection)
        assert closed(dripping).startswith(b"HTTP/1.1 408")
        assert time.monotonic() - started < 3 * SHORT


def test_a_body_that_does_not_come_whole_in_its_time_is_answered_408_and_closed(server: int) -> None:
    with connect(server) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answers(conn) == [b"HTTP/1.1 200 OK"]  # answered, then a request whose body drips
        conn.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        started = time.monotonic()
        refused = send_until_answered(conn, b"x", 20, SHORT / 2)  # never whole in the body's time
        assert refused.startswith(b"HTTP/1.1 408")
        assert 4 * SHORT - 0.1 <= time.monotonic() - started < 8 * SHORT  # the event loop may be early


def test_keep_alive_pipelining_slow_bodies_and_slow_answers_go_on(server: int) -> None:
    with connect(server) as conn:
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answers(conn) == [b"HTTP/1.1 200 OK"]
        time.sleep(1.5 * SHORT)  # idle between requests: uvicorn's keep-alive (5 s) decides
        conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 3)  # pipelined
        assert answers(conn, 3) == [b"HTTP/1.1 200 OK"] * 3
        body = b"x" * 300_000  # a body in the same read as the head is no head
        conn.sendall(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 300000\r\n\r\n"
            + body
            + b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        )
        assert answers(conn, 2) == [b"HTTP/1.1 200 OK"] * 2
        conn.sendall(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab")
        time.sleep(2 * SHORT)  # a body sent slowly, within its own time
        conn.sendall(b"cd")
        assert answers(conn) == [b"HTTP/1.1 200 OK"]
        conn.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")  # answered after the head's time
        assert answers(conn) == [b"HTTP/1.1 200 OK"]


def test_shinpan_serve_bounds_a_requests_head(tmp_path: Path) -> None:
    port = free_port()
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "SHINPAN_CACHE": str(tmp_path / "cache")}
    serving = subprocess.Popen(
        [str(VENV_BIN / "shinpan"), "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path}/s.sqlite3"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with connect(port) as conn:
                    conn.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    assert closed(conn).startswith(b"HTTP/1.1 200")
                    break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline and serving.poll() is None, "the server did not start"
                time.sleep(0.1)
        with connect(port) as conn:
            conn.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\nCookie: " + b"c" * (protocol.HEAD_LIMIT + 1000))
            refused = closed(conn)
        assert refused.startswith(b"HTTP/1.1 431") and "ヘッダーが大きすぎます" in refused.decode()
    finally:
        serving.terminate()
        serving.wait(10)
