"""A server with few open files still lets the head judge in.

With the common limit of 1,024 open files, 1,100 silent connections from anyone, or 1,100
live streams of one viewer, used to take every file the server could open: the head judge's
sign-in then failed. A real ``shinpan serve``, its limit set to 1,024 (soft and hard, as
``ulimit -n 1024`` does), on SQLite and on PostgreSQL: under both attacks at once the head
judge signs in and records within a second; the viewer's streams past the cap are refused
429 in Japanese; the server says how many files it got.
"""

from __future__ import annotations

import contextlib
import re
import resource
import select
import socket
import subprocess
import time
import uuid
from collections.abc import AsyncGenerator, Iterator
from pathlib import Path

import httpx
import pytest

from shinpan.web.resources import STREAMS_PER_SESSION, StreamCap, TooManyStreams
from support import VENV_BIN
from web_support import HEAD_JUDGE, VIEWER, build_world, database_url, sign_in

FILES = 1024  # the server's open-file limit, soft and hard
ATTACK = 1100  # silent connections, and streams of one viewer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def few_files() -> None:  # in the server's process, before it starts: ``ulimit -n 1024``
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@contextlib.contextmanager
def enough_files_here(needed: int) -> Iterator[None]:
    """This test's own process holds every attacking socket: its soft limit raised for it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        yield
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"this test needs {needed} open files here (the hard limit is {hard})")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@contextlib.contextmanager
def serving(url: str, home: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    port = free_port()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SHINPAN_CACHE": str(home / "cache")}
    server = subprocess.Popen(
        [str(VENV_BIN / "shinpan"), "serve", "--port", str(port), "--db", url],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=few_files,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/login", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
                time.sleep(0.1)
        yield base, server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)


def connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def readable(conns: list[socket.socket], wait: float = 0.0) -> list[socket.socket]:
    """The connections with something to read, or closed (poll: thousands of descriptors)."""
    poll = select.poll()
    by_fd = {c.fileno(): c for c in conns}
    for fd in by_fd:
        poll.register(fd, select.POLLIN)
    return [by_fd[fd] for fd, _ in poll.poll(int(wait * 1000))]


def answered(conns: list[socket.socket], within: float) -> dict[socket.socket, bytes]:
    """What each connection got (b"" once closed) before ``within`` seconds passed."""
    got: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + within
    pending = list(conns)
    while pending and time.monotonic() < deadline:
        for conn in readable(pending, 0.2):
            try:
                got[conn] = conn.recv(4096)
            except (ConnectionResetError, TimeoutError):
                got[conn] = b""
        pending = [c for c in pending if c not in got]
    return got


def judge_signs_in_and_records(base: str, event: int, player: str) -> float:
    """The head judge signs in and records a ruling on a new connection: how long it took."""
    started = time.monotonic()
    with httpx.Client(base_url=base, timeout=5) as http:
        head = sign_in(http, *HEAD_JUDGE[:2])
        recorded = head.post(
            f"/api/events/{event}/rulings",
            json={"command_id": uuid.uuid4().hex, "player": player, "infraction": "ingame.slow-play"},
        )
    assert recorded.status_code == 201, recorded.text
    return time.monotonic() - started


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_silent_connections_and_one_viewers_streams_leave_the_head_judge_in(
    backend: str, tmp_path: Path
) -> None:
    attackers: list[socket.socket] = []
    with (
        database_url(backend, tmp_path) as url,
        enough_files_here(3 * ATTACK + 512),
    ):
        world = build_world(url, players=8, spare=0)
        event, player = world.event, world.players[0]
        world.close()
        with serving(url, tmp_path) as (base, server):
            try:
                judge_signs_in_and_records(base, event, player)  # the day's first: templates, caches
                calm = min(judge_signs_in_and_records(base, event, player) for _ in range(2))
                # 1,100 connections that never say a word
                silent = [connect(base) for _ in range(ATTACK)]
                attackers += silent
                # 1,100 live streams of one viewer (one session), each on its own connection
                with httpx.Client(base_url=base, timeout=10) as http:
                    sign_in(http, *VIEWER)
                    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
                ask = (
                    f"GET /api/events/{event}/stream HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n".encode()
                )
                streams = []
                for _ in range(ATTACK):
                    conn = connect(base)
                    conn.sendall(ask)
                    streams.append(conn)
                attackers += streams
                got = answered(streams, within=30)
                assert len(got) == ATTACK, "every stream asked for is answered (or closed) at once"
                opened = [c for c, data in got.items() if data.startswith(b"HTTP/1.1 200")]
                refused = [data for data in got.values() if data.startswith(b"HTTP/1.1 429")]
                assert len(opened) == STREAMS_PER_SESSION
                assert refused and "ライブ表示" in refused[0].decode(errors="replace")
                # the rest were closed unanswered: they waited longest when newer ones came
                dropped = [data for data in got.values() if data == b""]
                assert len(opened) + len(refused) + len(dropped) == ATTACK

                # the head judge, from the same address, signs in and records within a second
                took = judge_signs_in_and_records(base, event, player)
                # Within a second; on a machine so busy that the sign-in's password hash alone
                # takes most of one, within twice what it took before the attack.
                assert took < max(1.0, 2 * calm), (
                    f"sign-in and record took {took:.2f} s ({calm:.2f} s before)"
                )

                # the viewer's open streams go on; of the silent ones, a bounded number is kept
                assert not readable(opened) or all(c.recv(4096) for c in readable(opened))
                kept = set(silent) - set(readable(silent))
                assert len(kept) <= 64
            finally:
                for conn in attackers:
                    conn.close()
                server.terminate()
                output = server.communicate(timeout=15)[0]
    said = re.search(r"open files: (\d+)", output)
    assert said and int(said[1]) == FILES, output  # it says what it got (here: no more allowed)


def test_a_stream_past_the_cap_is_refused_and_a_place_comes_back_when_one_ends() -> None:
    import asyncio

    async def run() -> None:
        cap = StreamCap(per_session=2, total=3)

        async def events() -> AsyncGenerator[str, None]:
            yield "ready"
            await asyncio.sleep(3600)

        a1, a2 = cap.take("a"), cap.take("a")
        with pytest.raises(TooManyStreams) as refused:
            cap.take("a")
        assert refused.value.status == 429
        b1 = cap.take("b")
        with pytest.raises(TooManyStreams):
            cap.take("c")  # the server's three places are taken
        first = cap.hold(a1, events())
        assert await anext(first) == "ready"
        await first.aclose()  # the stream ended: its place comes back
        assert cap.open_streams("a") == 1
        cap.take("c")
        del a2  # a place taken for a stream never started comes back when it is dropped
        assert cap.open_streams("a") == 0
        assert b1 is not None

    asyncio.run(run())
