"""What changed in an event's ledger, told once to whoever keeps something of it in memory.

The store tells this process's :attr:`Database.listeners` after every commit (any
command, on either database); PostgreSQL's ``NOTIFY`` (payload ``event:head``, or
``session:HASH`` for a sign-out) reaches the other processes through :func:`listen`, and
on SQLite another process's writes are found by :meth:`LedgerWatch.catch_up` (a poll).

:class:`LedgerWatch` (one per database, :func:`watch_of`) turns each "event E's ledger
grew to entry H" into one :class:`Change`: the kinds of the entries since the last it
told, read once for every listener of the process (never once per open page). The live
views, the player index and the role cache subscribe to it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shinpan.store.accounts import SESSION_NOTICE
from shinpan.store.connection import Statement
from shinpan.store.db import CHANNEL, Database, Growth

if TYPE_CHECKING:  # the event loop's library loads in the web app, not for a command
    import asyncio

__all__ = ["Change", "LedgerWatch", "listen", "watch_of"]

log = logging.getLogger("shinpan.notices")
_HEADS = Statement("SELECT event_id, MAX(seq) FROM entries WHERE event_id IN (:es) GROUP BY event_id")
_KINDS = Statement("SELECT seq, kind FROM entries WHERE event_id = :e AND seq > :after AND seq <= :head")


@dataclass(frozen=True)
class Change:
    """Event ``event_id``'s ledger grew from entry ``after`` to ``head``; ``kinds`` are the
    kinds of the entries in between (None: not known, anything may have changed)."""

    event_id: int
    after: int
    head: int
    kinds: frozenset[str] | None


class LedgerWatch:
    """The newest entry this process has seen of each event it follows, and who listens."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.heads: dict[int, int] = {}
        self.subscribers: list[Callable[[Change], None]] = []
        self.session_subscribers: list[Callable[[str], None]] = []
        # True while something relays other processes' changes (the web app's live views):
        # then what this process keeps is current without asking the database each time.
        self.relayed = False
        self._lock = threading.Lock()
        db.listeners.append(self.heard)

    def follow(self, event_id: int, head: int) -> None:
        """Start following an event from ``head`` (what was just read of it)."""
        with self._lock:
            self.heads.setdefault(event_id, head)

    def heard(self, event_id: int, head: int, growth: Growth | None = None) -> None:
        """The event's ledger reached ``head`` (any thread). A commit says what it appended
        (``growth``: this process's, or another's in its PostgreSQL notice); otherwise, if
        the ledger grew, the database is read."""
        with self._lock:
            seen = self.heads.get(event_id)
            if seen is not None and head <= seen:
                return
            kinds: frozenset[str] | None = None
            if seen is not None and growth is not None and growth.first == seen + 1:
                kinds = frozenset(growth.kinds)
            elif seen is not None:
                with self.db.read() as conn:
                    found = _KINDS.all(conn, {"e": event_id, "after": seen, "head": head})
                # Every entry in between, or not known: a notice can arrive before a new
                # snapshot shows its commit (seen on PostgreSQL), and then anything may have changed.
                if len(found) == head - seen:
                    kinds = frozenset(str(kind) for _, kind in found)
            self.heads[event_id] = head
            # Told while the lock is held: subscribers hear the changes in the ledger's order.
            # Told after it, a change read in one thread could overtake the one before it,
            # and a live view that drops what is older than it heard would lose what only
            # that one touched (a desk panel never redrawn).
            self._tell(Change(event_id, seen if seen is not None else 0, head, kinds))

    def grown_since(
        self, event_id: int, after: int, settle: Callable[[int, frozenset[str] | None], None]
    ) -> None:
        """Calls ``settle`` with how far the event's ledger has grown as this process has
        heard (its head, at least ``after``) and the kinds of the entries past ``after`` (None:
        not all known), while no change is told: whoever keeps something read at ``after``
        can catch up with what came while it read, and hears every later change."""
        with self._lock:
            head = self.heads.get(event_id, after)
            kinds: frozenset[str] | None = frozenset()
            if head > after:
                with self.db.read() as conn:
                    found = _KINDS.all(conn, {"e": event_id, "after": after, "head": head})
                kinds = frozenset(str(kind) for _, kind in found) if len(found) == head - after else None
            settle(max(head, after), kinds)

    def _tell(self, change: Change) -> None:
        for subscriber in list(self.subscribers):
            try:
                subscriber(change)
            except Exception:  # one listener must never stop the others (nor the command)
                log.exception("a ledger subscriber failed")

    def signed_out(self, id_hash: str) -> None:
        for subscriber in list(self.session_subscribers):
            try:
                subscriber(id_hash)
            except Exception:
                log.exception("a session subscriber failed")

    def catch_up(self, event_ids: Collection[int] | None = None) -> None:
        """Ask the database how far the followed events (or ``event_ids``) have grown: what
        other processes wrote. One read for all of them."""
        wanted = sorted(self.heads if event_ids is None else event_ids)
        if not wanted:
            return
        with self.db.read() as conn:
            found = {int(e): int(h or 0) for e, h in _HEADS.all(conn, {"es": wanted})}
        for event_id in wanted:
            if event_id in found:
                self.heard(event_id, found[event_id])


def watch_of(db: Database) -> LedgerWatch:
    """The database's one watch in this process."""
    return db.kept.of(LedgerWatch, lambda: LedgerWatch(db))


async def listen(db: Database, ready: asyncio.Event | None = None) -> None:
    """PostgreSQL: one ``LISTEN`` connection for the process, relaying every other
    process's changes and sign-outs to :func:`watch_of`'s subscribers; reconnects if lost."""
    import asyncio  # start-up

    import psycopg  # start-up

    watch = watch_of(db)
    while True:
        try:
            conn = await psycopg.AsyncConnection.connect(db.target.conninfo, autocommit=True)
            async with conn:
                found = await (await conn.execute(CHANNEL.sql)).fetchone()
                assert found is not None
                await conn.execute(f'LISTEN "{found[0]}"')
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    payload = note.payload
                    if payload.startswith(SESSION_NOTICE):
                        watch.signed_out(payload[len(SESSION_NOTICE) :])
                        continue
                    with contextlib.suppress(ValueError, IndexError):
                        event_id, head, growth = Growth.of_notice(payload)
                        await asyncio.to_thread(watch.heard, event_id, head, growth)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("LISTEN lost; retrying")
            await asyncio.sleep(1.0)
