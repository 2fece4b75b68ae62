"""Live views cross processes: a ruling recorded through one app process reaches a page
watching another (PostgreSQL LISTEN/NOTIFY; SQLite by looking at the ledger's head).

Two ``shinpan serve`` processes share one database; a judge signed in on one is signed in
on both (the session key lives in the database).
"""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from conftest import SHINPAN, Backend, make_event
from shinpan.services import accounts, recording
from shinpan.services.recording import RecordInput
from shinpan.store.db import CHANNEL, Database, Growth
from shinpan.store.ledger import read_entries


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _server(url: str) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [str(SHINPAN), "serve", "--db", url, "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/login", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError(f"server did not start: {proc.stderr.read() if proc.stderr else ''}")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _sign_in(base: str, name: str, password: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=base, timeout=10, follow_redirects=False)
    page = client.get("/login").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "the sign-in form carries a CSRF token"
    response = client.post(
        "/login", data={"name": name, "password": password, "csrf_token": token[1], "next": "/"}
    )
    assert response.status_code == 303, response.text
    # a sign-in renews the token
    renewed = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").text)
    assert renewed
    return client, renewed[1]


def test_a_ruling_recorded_on_one_process_reaches_a_page_on_another(backend: Backend) -> None:
    db = Database(backend.url)
    try:
        event = make_event(db, players=4)
        fj = accounts.add_user(db, "FJ", "secret-pin")  # the floor judge's seat goes to this account
        accounts.join(db, accounts.claim_code(db, event.id, "FJ"), "", "", user=fj)
        with _server(backend.url) as a, _server(backend.url) as b:
            watcher, _ = _sign_in(a, "FJ", "secret-pin")
            recorder, token = _sign_in(b, "FJ", "secret-pin")
            seen: list[str] = []
            ready = threading.Event()

            def watch() -> None:
                with watcher.stream("GET", f"/api/events/{event.id}/stream", timeout=20) as stream:
                    for line in stream.iter_lines():
                        if line.startswith("event: ready"):
                            ready.set()
                        if line.startswith("event: changed"):
                            seen.append(line)
                            return

            thread = threading.Thread(target=watch, daemon=True)
            thread.start()
            assert ready.wait(15), "the stream on process A opened"
            started = time.monotonic()
            response = recorder.post(
                f"/api/events/{event.id}/rulings",
                json={
                    "command_id": uuid.uuid4().hex,
                    "player": event.players[0],
                    "infraction": "ingame.slow-play",
                },
                headers={"X-CSRF-Token": token},
            )
            assert response.status_code == 201, response.text
            thread.join(15)
            assert seen, "process A's stream told its page about the ruling recorded on process B"
            assert time.monotonic() - started < 10
    finally:
        db.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_postgres_notifications_reach_other_processes_at_once(backend: Backend) -> None:
    """On PostgreSQL the news travels by NOTIFY, not by waiting for a poll, from whatever
    command committed (here one run as the command line runs it); it carries the event's
    newest entry and what the commit appended (:meth:`Growth.notice`)."""
    import psycopg

    db = Database(backend.url)
    try:
        event = make_event(db, players=2)
        got: list[str] = []
        dsn = db.target.conninfo
        with db.read() as conn:
            channel = CHANNEL.scalar(conn)
        with psycopg.connect(dsn, autocommit=True) as listener:
            listener.execute(f'LISTEN "{channel}"')
            recording.record(
                db, event.id, RecordInput(event.players[0], "ingame.slow-play"), now=event.clock.now
            )
            for note in listener.notifies(timeout=5):
                got.append(note.payload)
                break
        with db.read() as conn:
            entries = list(read_entries(conn, event.id))
        head = max(e.seq for e in entries)
        assert len(got) == 1 and got[0].startswith(f"{event.id}:{head}:"), got
        event_id, told_head, growth = Growth.of_notice(got[0])  # what the commit appended, told
        assert (event_id, told_head) == (event.id, head) and growth is not None
        assert (
            growth.kinds == {e.kind for e in entries if e.seq >= growth.first}
            and "ruling.recorded" in growth.kinds
        )
    finally:
        db.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_two_schemas_of_one_database_never_hear_each_others_events(
    backend: Backend, other_backend: Backend
) -> None:
    """Two shinpan schemas in one PostgreSQL database each have event 1: a process serving
    one must not take the other's ledger growing for its own (it would then miss its own)."""
    import psycopg

    ours, theirs = Database(backend.url), Database(other_backend.url)
    try:
        with ours.read() as a, theirs.read() as b:
            assert CHANNEL.scalar(a) != CHANNEL.scalar(b)
            channel = CHANNEL.scalar(a)
        mine, other = make_event(ours, players=2), make_event(theirs, players=2)
        assert mine.id == other.id
        with psycopg.connect(ours.target.conninfo, autocommit=True) as listener:
            listener.execute(f'LISTEN "{channel}"')
            recording.record(
                theirs, other.id, RecordInput(other.players[0], "ingame.slow-play"), now=other.clock.now
            )
            assert [n.payload for n in listener.notifies(timeout=1)] == []
            recording.record(
                ours, mine.id, RecordInput(mine.players[0], "ingame.slow-play"), now=mine.clock.now
            )
            heard = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert heard and heard[0].startswith(f"{mine.id}:")
    finally:
        ours.close()
        theirs.close()


def test_a_stream_tells_changes_heard_together_once_and_beats_while_nothing_happens(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rulings recorded while a page is busy reach it as one change (the newest entry,
    the panels either touched); with nothing to tell, one timer beats for every stream."""
    import asyncio

    from shinpan.web import live as live_views

    monkeypatch.setattr(live_views, "HEARTBEAT_SECONDS", 0.2)
    db = Database(backend.url)
    try:
        event = make_event(db, players=4)

        def record(player: str) -> None:
            recording.record(db, event.id, RecordInput(player, "ingame.slow-play"), now=event.clock.now)

        async def watch() -> list[str]:
            views = live_views.Live(db)
            await views.start()
            try:
                pages = [views.stream(event.id) for _ in range(3)]
                told = [await anext(page) for page in pages]
                await asyncio.to_thread(record, event.players[0])
                await asyncio.to_thread(record, event.players[1])
                await asyncio.sleep(0.1)  # both heard before any page reads on
                told += [await asyncio.wait_for(anext(page), 5) for page in pages]
                told += [await asyncio.wait_for(anext(page), 5) for page in pages]
                for page in pages:
                    await page.aclose()
                assert not any(w.streams for w in views.watches.values()), "closed pages are forgotten"
                return told
            finally:
                await views.stop()

        told = asyncio.run(watch())
        with db.read() as conn:
            head = max(e.seq for e in read_entries(conn, event.id))
        assert all(t.startswith("event: ready\ndata: ") for t in told[:3])
        assert told[3:6] == [f"event: changed\ndata: {head}\ndata: queue deadlines feed dq\n\n"] * 3
        assert told[6:] == [": heartbeat\n\n"] * 3
    finally:
        db.close()


def test_an_answer_on_its_way_goes_out_before_the_pages_are_told(backend: Backend) -> None:
    """A ruling's commit is heard in the thread that recorded it, which then answers the
    judge: the 150 pages of a big event are told a moment later, not ahead of that answer."""
    import asyncio

    from shinpan.store.notices import Change
    from shinpan.web import live as live_views

    db = Database(backend.url)
    try:
        event = make_event(db, players=2)

        async def watch() -> tuple[bool, str]:
            views = live_views.Live(db)
            await views.start()
            try:
                page = views.stream(event.id)
                head = int((await anext(page)).split("data: ")[1])
                loop = asyncio.get_running_loop()
                answered = loop.create_future()

                def told() -> bool:
                    return any(not q.empty() for w in views.watches.values() for q in w.streams)

                def recorded_and_answered() -> None:  # as the recording thread does, in this order
                    views._heard(Change(event.id, head, head + 1, frozenset({"ruling.recorded"})))
                    loop.call_soon_threadsafe(lambda: answered.set_result(told()))

                await asyncio.to_thread(recorded_and_answered)
                told_before_answer = await answered
                changed = await asyncio.wait_for(anext(page), 5)
                await page.aclose()
                return told_before_answer, changed
            finally:
                await views.stop()

        told_before_answer, changed = asyncio.run(watch())
        assert not told_before_answer
        assert changed.startswith("event: changed\ndata: ")
    finally:
        db.close()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_another_process_hears_what_changed_without_asking_the_database(backend: Backend) -> None:
    """A process following an event learns from the notice itself which kinds of entry
    another process's commit appended: a big event's rulings cost the other workers no
    read each."""
    import asyncio

    from shinpan.store.notices import Change, listen, watch_of

    writer, hearer = Database(backend.url), Database(backend.url)  # two processes' stores
    try:
        event = make_event(writer, players=2)
        with hearer.read() as conn:
            before = max(e.seq for e in read_entries(conn, event.id))
        watch = watch_of(hearer)
        watch.follow(event.id, before)
        heard: list[Change] = []
        watch.subscribers.append(heard.append)

        def no_reads() -> None:
            raise AssertionError("the hearer asked the database")

        async def run() -> None:
            ready = asyncio.Event()
            listening = asyncio.create_task(listen(hearer, ready))
            await asyncio.wait_for(ready.wait(), 10)
            hearer.read = no_reads  # type: ignore[method-assign,assignment]
            await asyncio.to_thread(
                recording.record,
                writer,
                event.id,
                RecordInput(event.players[0], "ingame.slow-play"),
                now=event.clock.now,
            )
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.05)
            listening.cancel()

        asyncio.run(run())
        assert len(heard) == 1 and heard[0].after == before
        assert heard[0].kinds is not None and "ruling.recorded" in heard[0].kinds
    finally:
        writer.close()
        hearer.close()
