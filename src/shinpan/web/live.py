"""Live views: tell open pages that an event changed, across processes.

Nothing here is called by a route: the store tells what grew once a write has committed,
whichever command made it, on the web or on the command line (:meth:`Database.write`).
On PostgreSQL its ``NOTIFY`` carries the event and its newest entry to every app process,
whose one ``LISTEN`` connection relays it to its own streams; on SQLite the store calls
this process's listener, and one watcher per event with open streams (not one per stream)
looks at the newest entry every second, which covers other processes. Either way each
change is handed to every open stream of the event on the event loop, with no query per stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text

from shinpan.store.db import CHANNEL, Database

HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 1.0
log = logging.getLogger("shinpan.live")
_HEAD = text("SELECT MAX(seq) FROM entries WHERE event_id = :e")


@dataclass
class _Watch:
    """The open streams of one event in this process, and the newest entry they were told."""

    streams: set[asyncio.Queue[int]] = field(default_factory=set)
    head: int = 0
    poller: asyncio.Task[None] | None = None


class Live:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.watches: dict[int, _Watch] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None

    # -- hearing the store (SQLite: called from the thread that committed) -----------

    def _relay_threadsafe(self, event_id: int, head: int) -> None:
        loop = self.loop
        if loop is not None and event_id in self.watches:
            loop.call_soon_threadsafe(self._relay, event_id, head)

    def _relay(self, event_id: int, head: int) -> None:
        """On the event loop: every open stream of the event gets the newest entry number."""
        watch = self.watches.get(event_id)
        if watch is None or head <= watch.head:
            return
        watch.head = head
        for queue in watch.streams:
            queue.put_nowait(head)

    # -- listening ---------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.db.is_postgres:
            self.task = asyncio.create_task(self._listen())
        else:
            self.db.listeners.append(self._relay_threadsafe)

    async def stop(self) -> None:
        if self._relay_threadsafe in self.db.listeners:
            self.db.listeners.remove(self._relay_threadsafe)
        tasks = [self.task] + [w.poller for w in self.watches.values()]
        for task in tasks:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _listen(self) -> None:
        import psycopg

        url = self.db.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        with contextlib.suppress(ValueError):
                            event_id, head = note.payload.split(":")
                            self._relay(int(event_id), int(head))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN lost; retrying")
                await asyncio.sleep(1.0)

    def _head(self, event_id: int) -> int:
        with self.db.engine.connect() as conn:
            value: Any = conn.execute(_HEAD, {"e": event_id}).scalar()
        return int(value or 0)

    async def _poll(self, event_id: int) -> None:
        """SQLite: one look a second at the event's newest entry, for all its streams."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                self._relay(event_id, await asyncio.to_thread(self._head, event_id))
            except Exception:
                log.exception("watching event %s failed", event_id)

    async def _open(self, event_id: int, queue: asyncio.Queue[int]) -> int:
        """Add a stream; the event's newest entry as this stream starts."""
        head = await asyncio.to_thread(self._head, event_id)
        watch = self.watches.get(event_id)
        if watch is None:
            watch = self.watches[event_id] = _Watch(head=head)
            if not self.db.is_postgres:
                watch.poller = asyncio.create_task(self._poll(event_id))
        watch.streams.add(queue)
        self._relay(event_id, head)  # newer than what the others were told: tell them too
        return head

    def _close(self, event_id: int, queue: asyncio.Queue[int]) -> None:
        watch = self.watches.get(event_id)
        if watch is None:
            return
        watch.streams.discard(queue)
        if not watch.streams:
            del self.watches[event_id]
            if watch.poller is not None:
                watch.poller.cancel()

    async def stream(self, event_id: int, *, limit_seconds: float | None = None) -> AsyncIterator[str]:
        """Server-sent events: ``changed`` with the newest entry number, and heartbeats."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            head = await self._open(event_id, queue)
            yield f"event: ready\ndata: {head}\n\n"
            while limit_seconds is None or loop.time() - started < limit_seconds:
                wait = HEARTBEAT_SECONDS
                if limit_seconds is not None:
                    wait = max(0.0, min(wait, limit_seconds - (loop.time() - started)))
                try:
                    newest = await asyncio.wait_for(queue.get(), timeout=wait)
                except TimeoutError:
                    yield ": heartbeat\n\n"
                    continue
                while not queue.empty():  # several changes at once: the newest is enough
                    newest = queue.get_nowait()
                if newest > head:
                    head = newest
                    yield f"event: changed\ndata: {head}\n\n"
        finally:
            self._close(event_id, queue)
