"""Live views: tell open pages that an event changed, and which of the desk's panels.

Nothing here is called by a route: the store tells what grew once a write has committed,
whichever command made it (:mod:`shinpan.store.notices`). This process's own writes are
heard at once; other processes' through PostgreSQL's ``LISTEN`` (one connection for the
process) or, on SQLite, one look every ``POLL_SECONDS`` at the newest entry of every event
this process follows (one read for all of them, not one per stream). What a change
appended (the kinds of its entries) is told with it (a commit of this process, or another
process's PostgreSQL notice) or read once, and handed to every open stream of the event on
the event loop, with no query per stream. While this runs, the process's caches (the player index,
sessions and roles) trust what they are told instead of asking the database each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from shinpan.store.db import Database
from shinpan.store.feed import ledger_head
from shinpan.store.notices import Change, listen, watch_of

HEARTBEAT_SECONDS = 15.0
POLL_SECONDS = 0.25
RELAY_SECONDS = 0.002  # a change waits this long for the answers about to be sent (see Live._soon)
log = logging.getLogger("shinpan.live")

# The desk's panels, and the kinds of entry that change each (what a change re-sends).
PANELS = ("queue", "appeals", "calls", "deadlines", "feed", "dq")
_CALLS = ("call.raised", "call.claimed", "call.escalated", "call.resolved")
_RULINGS = ("ruling.recorded", "ruling.confirmed", "ruling.deviated", "ruling.voided")
_TOUCHES: dict[str, tuple[str, ...]] = {
    "queue": (*_RULINGS, "event.sealed", "event.reopened"),  # it says whether the event is sealed
    "appeals": (
        "ruling.confirmed",
        "ruling.deviated",
        "ruling.voided",
        "appeal.filed",
        "appeal.decided",
        "call.escalated",  # the desk shows escalated calls beside the appeals (T14)
        "call.resolved",
    ),
    "calls": _CALLS,
    "deadlines": (
        *_RULINGS,
        "deadline.done",
        "round.started",
        "round.ended",
        "time.extended",
        "match.extended",
    ),
    "feed": (*_RULINGS, "players.imported"),
    "dq": (*_RULINGS, "statement", "player.status"),
}


def panels_touched(kinds: frozenset[str] | None) -> list[str]:
    """The desk's panels that entries of these kinds change (None: not known, all of them;
    a player's name corrected shows on every panel)."""
    if kinds is None or "event.created" in kinds or "player.corrected" in kinds:
        return list(PANELS)
    return [panel for panel in PANELS if not kinds.isdisjoint(_TOUCHES[panel])]


@dataclass
class _Watch:
    """The open streams of one event in this process, and the newest entry they were told."""

    streams: set[asyncio.Queue[tuple[int, frozenset[str] | None]]] = field(default_factory=set)
    head: int = 0


class Live:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.ledger = watch_of(db)
        self.watches: dict[int, _Watch] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.waiting: list[tuple[int, int, frozenset[str] | None]] = []  # heard, not yet relayed
        self.sessions = SessionStreams()

    # -- hearing the store (from any thread) ----------------------------------------

    def _heard(self, change: Change) -> None:
        loop = self.loop
        if loop is not None and change.event_id in self.watches:
            loop.call_soon_threadsafe(self._soon, change.event_id, change.head, change.kinds)

    def _soon(self, event_id: int, head: int, kinds: frozenset[str] | None) -> None:
        """On the event loop: the change waits ``RELAY_SECONDS`` for what is about to be
        answered (the judge whose ruling it is hears "recorded" before 150 pages are told
        of it: the answer used to wait behind every page's message), then goes to the
        streams with whatever came meanwhile, in the order heard."""
        self.waiting.append((event_id, head, kinds))
        if len(self.waiting) == 1 and self.loop is not None:
            self.loop.call_later(RELAY_SECONDS, self._relay_waiting)

    def _relay_waiting(self) -> None:
        waiting, self.waiting = self.waiting, []
        for change in waiting:
            self._relay(*change)

    def _relay(self, event_id: int, head: int, kinds: frozenset[str] | None) -> None:
        """On the event loop: every open stream of the event gets the change."""
        watch = self.watches.get(event_id)
        if watch is None or head <= watch.head:
            return
        watch.head = head
        for queue in watch.streams:
            queue.put_nowait((head, kinds))

    # -- listening ---------------------------------------------------------------------

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.ledger.subscribers.append(self._heard)
        self.ledger.session_subscribers.append(self._signed_out)
        self.ledger.relayed = True
        self.tasks.append(asyncio.create_task(self._beat()))
        if self.db.is_postgres:
            ready = asyncio.Event()
            self.tasks.append(asyncio.create_task(listen(self.db, ready)))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), 10)  # nothing missed once serving
        else:
            self.tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        self.ledger.relayed = False
        if self._heard in self.ledger.subscribers:
            self.ledger.subscribers.remove(self._heard)
        if self._signed_out in self.ledger.session_subscribers:
            self.ledger.session_subscribers.remove(self._signed_out)
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()

    async def _poll(self) -> None:
        """SQLite: one look at the followed events' newest entries, for other processes."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                await asyncio.to_thread(self.ledger.catch_up)
            except Exception:
                log.exception("watching the ledger failed")

    def _head(self, event_id: int) -> int:
        with self.db.read() as conn:
            head = ledger_head(conn, event_id)
        self.ledger.follow(event_id, head)
        self.ledger.heard(event_id, head)  # newer than what was followed: tell everyone
        return head

    async def _open(self, event_id: int, queue: asyncio.Queue[tuple[int, frozenset[str] | None]]) -> int:
        """Add a stream; the event's newest entry as this stream starts."""
        head = await asyncio.to_thread(self._head, event_id)
        watch = self.watches.get(event_id)
        if watch is None:
            watch = self.watches[event_id] = _Watch(head=head)
        watch.streams.add(queue)
        return head

    def _close(self, event_id: int, queue: asyncio.Queue[tuple[int, frozenset[str] | None]]) -> None:
        watch = self.watches.get(event_id)
        if watch is None:
            return
        watch.streams.discard(queue)
        if not watch.streams:
            del self.watches[event_id]

    def _signed_out(self, id_hash: str) -> None:
        """A session ended (any thread, any process): its streams end on the event loop."""
        loop = self.loop
        if loop is not None:
            loop.call_soon_threadsafe(self.sessions.end, id_hash)

    async def stream(self, event_id: int, session: str | None = None) -> AsyncIterator[str]:
        """Server-sent events: ``ready`` and ``changed`` with the newest entry number (a
        ``changed`` has a second line: the desk's panels it touched), and heartbeats. The
        stream ends when its ``session`` (the hash of its id) ends."""
        queue: asyncio.Queue[tuple[int, frozenset[str] | None]] = asyncio.Queue()
        try:
            if session is not None and not self.sessions.add(session, queue):
                return
            head = await self._open(event_id, queue)
            yield f"event: ready\ndata: {head}\n\n"
            while True:
                heard = [await queue.get()]
                while not queue.empty():  # several changes at once: one message for them all
                    heard.append(queue.get_nowait())
                if any(newest == _ENDED for newest, _ in heard):
                    return
                news = [(newest, kinds) for newest, kinds in heard if newest > head]
                if not news:
                    if any(newest == _BEAT for newest, _ in heard):
                        yield ": heartbeat\n\n"
                    continue
                head = max(newest for newest, _ in news)
                told = [k for _, k in news]
                kinds = None if None in told else frozenset[str]().union(*(k for k in told if k is not None))
                yield f"event: changed\ndata: {head}\ndata: {_touched_line(kinds)}\n\n"
        finally:
            self._close(event_id, queue)
            if session is not None:
                self.sessions.discard(session, queue)

    async def _beat(self) -> None:
        """One heartbeat for every open stream every HEARTBEAT_SECONDS (one timer for them
        all: a stream waiting on its own timer cost a task per change it was told)."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            for watch in self.watches.values():
                for queue in watch.streams:
                    queue.put_nowait((_BEAT, None))


_BEAT = -1  # a heartbeat in a stream's queue: no entry is numbered below 1
_ENDED = -2  # the stream's session ended: the stream ends
_ENDED_KEPT = 10_000  # sessions that ended lately, remembered for streams opening meanwhile


class SessionStreams:
    """The open streams of each session (on the event loop): a session that ends (signed
    out, replaced by a sign-in, ended from a list of sessions) ends its streams at once. A
    stream checked before the session ended but opening after is ended as it opens."""

    def __init__(self) -> None:
        self.streams: dict[str, set[asyncio.Queue[tuple[int, frozenset[str] | None]]]] = {}
        self.ended: dict[str, None] = {}  # the latest ended, oldest first

    def add(self, session: str, queue: asyncio.Queue[tuple[int, frozenset[str] | None]]) -> bool:
        """Count the stream in its session's (False: the session has ended)."""
        if session in self.ended:
            return False
        self.streams.setdefault(session, set()).add(queue)
        return True

    def discard(self, session: str, queue: asyncio.Queue[tuple[int, frozenset[str] | None]]) -> None:
        mine = self.streams.get(session)
        if mine is not None:
            mine.discard(queue)
            if not mine:
                del self.streams[session]

    def end(self, session: str) -> None:
        self.ended[session] = None
        while len(self.ended) > _ENDED_KEPT:
            del self.ended[next(iter(self.ended))]
        for queue in self.streams.pop(session, ()):
            queue.put_nowait((_ENDED, None))


@functools.lru_cache(maxsize=256)
def _touched_line(kinds: frozenset[str] | None) -> str:
    """The panels line of a change (the same few kinds come again and again)."""
    return " ".join(panels_touched(kinds))
