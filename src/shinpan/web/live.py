"""Live views: tell open pages that an event changed, across processes.

After a command commits, the web layer calls :meth:`Live.publish`. Pages in this process
hear it at once; on PostgreSQL a ``NOTIFY`` reaches every other app process, which relays
it to its own pages (``LISTEN``). SQLite has no notifications: each stream also looks at
the event's newest ledger entry every second, which also covers other processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import text

from shinpan.store.db import Database

CHANNEL = "shinpan_events"
HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 1.0
log = logging.getLogger("shinpan.live")


class Live:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.listeners: dict[int, set[asyncio.Queue[int]]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None

    # -- publishing (called from request threads, after commit) ----------------------

    def publish(self, event_id: int) -> None:
        if self.db.is_postgres:
            try:
                with self.db.engine.connect() as conn:
                    conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": str(event_id)})
                    conn.commit()
                return  # our own LISTEN relays it here too
            except Exception:  # a failed notification must never fail the command
                log.exception("NOTIFY failed")
        self._relay(event_id)

    def _relay(self, event_id: int) -> None:
        loop = self.loop
        if loop is None:
            return
        for q in list(self.listeners.get(event_id, ())):
            loop.call_soon_threadsafe(q.put_nowait, event_id)

    # -- listening ---------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.db.is_postgres:
            self.task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.task:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

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
                            self._relay(int(note.payload))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN lost; retrying")
                await asyncio.sleep(1.0)

    def _head(self, event_id: int) -> int:
        with self.db.engine.connect() as conn:
            value: Any = conn.execute(
                text("SELECT MAX(seq) FROM entries WHERE event_id = :e"), {"e": event_id}
            ).scalar()
        return int(value or 0)

    async def stream(self, event_id: int, *, limit_seconds: float | None = None) -> AsyncIterator[str]:
        """Server-sent events: ``changed`` with the newest entry number, and heartbeats."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        self.listeners[event_id].add(queue)
        started = asyncio.get_running_loop().time()
        try:
            head = await asyncio.to_thread(self._head, event_id)
            yield f"event: ready\ndata: {head}\n\n"
            quiet = 0.0
            while limit_seconds is None or asyncio.get_running_loop().time() - started < limit_seconds:
                wait = POLL_SECONDS if not self.db.is_postgres else HEARTBEAT_SECONDS
                try:
                    await asyncio.wait_for(queue.get(), timeout=wait)
                except TimeoutError:
                    quiet += wait
                newest = await asyncio.to_thread(self._head, event_id)
                if newest != head:
                    head = newest
                    quiet = 0.0
                    yield f"event: changed\ndata: {head}\n\n"
                elif quiet >= HEARTBEAT_SECONDS:
                    quiet = 0.0
                    yield ": heartbeat\n\n"
        finally:
            self.listeners[event_id].discard(queue)
