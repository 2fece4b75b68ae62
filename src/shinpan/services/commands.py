"""Running a command once: the acting judge's role checked, retries made safe.

Every command carries an id chosen by the caller (the CLI makes one; the web app sends
the phone's). The same id with the same content returns the first result and records
nothing new; the same id with different content is refused.

Two doors lead to the ledger: :func:`run_command` (a judge's) and :func:`run_apart` (a
player's, who has no account). Both run the same command under way (:class:`UnderWay`): its
id and fingerprint, its write transaction for the event, the retry, the seal, the appender.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from shinpan.engine.event_rules import Action
from shinpan.errors import Conflict, NotFound
from shinpan.services.closed import IMPORTING, closed
from shinpan.services.context import Event, authorized, holding, stamp
from shinpan.store.chain import fingerprint
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry, Opening, entry_by_command, open_command

T = TypeVar("T")
R = TypeVar("R")

# An import replaying an exported command (:mod:`shinpan.files.reimport`) puts here, on
# the transaction, the fingerprint the export carries: the payload itself is not exported,
# and the replayed entries must be the exported ones hash for hash.
REPLAYED_HASH = "shinpan.replayed_command_hash"
MAX_COMMAND_ID = 100  # characters (the ledger's column)


def new_command_id() -> str:
    return uuid.uuid4().hex


def no_answer(conn: Connection, entry: Entry) -> None:
    """What a command run again answers when its caller reads no answer: nothing."""


@dataclass(frozen=True)
class UnderWay:
    """A command in its write transaction, once the event and an earlier use of its id are
    read (:func:`under_way`): what both doors do alike."""

    conn: Connection
    event: Event
    command_id: str
    digest: str  # the fingerprint of its content (or, in an import, the one the file has)
    opening: Opening

    def carry_out(
        self,
        writer: str,
        now: datetime | None,
        act: Callable[[Connection, Appender], T],
        replayed: Callable[[Connection, Entry], R],
        *,
        when_sealed: bool = False,
    ) -> T | R:
        """``act`` once, written by ``writer``; the same id again answers ``replayed(conn,
        entry)`` of the entry first recorded. A sealed event takes no command
        (:mod:`shinpan.services.closed`) but the one that reopens it (``when_sealed``)."""
        conn, event = self.conn, self.event
        known = self.opening.earlier is not None  # the opening read found the id used
        earlier = entry_by_command(conn, event.id, self.command_id) if known else None
        if earlier is not None:  # a retry (the phone sent it twice): what it recorded, once the same
            if earlier.command_hash != self.digest:
                raise Conflict("command {id} was already used for something else", id=self.command_id)
            return replayed(conn, earlier)
        sealed = self.opening.event["sealed_entry"]
        if sealed is not None and not when_sealed and not conn.info.get(IMPORTING):
            raise closed(conn, event.id, int(sealed), event.time_zone)
        ap = Appender(
            conn,
            event.id,
            writer,
            stamp(now),
            command_id=self.command_id,
            command_hash=self.digest,
            head=self.opening.head,
        )
        with holding(conn, event):
            return act(conn, ap)


@contextmanager
def under_way(
    db: Database,
    event_id: int,
    action: str,
    actor: str | None,
    command_id: str | None,
    payload: Any,
    *,
    before: Callable[[Connection], None] | None = None,
) -> Iterator[UnderWay]:
    """A command's write transaction for the event (:meth:`Database.write`), the event read
    with the role of ``actor`` (default: the head judge), an earlier use of the id and the
    chain's head in one read; ``before`` refuses first (an event that takes no such write)."""
    command_id = command_id or new_command_id()
    if len(command_id) > MAX_COMMAND_ID:
        raise Conflict("a command id has at most 100 characters")
    digest = fingerprint({"action": action, "payload": payload})
    with db.write(event_id) as conn:
        digest = conn.info.pop(REPLAYED_HASH, None) or digest  # an import's, as the file has it
        if before is not None:
            before(conn)
        opening = open_command(conn, event_id, actor, command_id)  # one read
        if opening is None:
            raise NotFound("no event {event}", event=event_id)
        yield UnderWay(conn, Event.of(opening.event), command_id, digest, opening)


def run_command(
    db: Database,
    event_id: int,
    action: Action,
    actor: str | None,
    command_id: str | None,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    now: datetime | None,
    replayed: Callable[[Connection, Entry], R],
    *,
    check: Callable[[Connection, Event, str], None] | None = None,
    when_sealed: bool = False,
) -> T | R:
    """Run ``act`` in one write transaction for the event, once per command id, as the
    acting judge (default: the head judge) once their role allows ``action``; ``check``
    refuses after that (a deviation needs its own role). The same id again answers
    ``replayed(conn, entry)`` of the entry first recorded (:func:`no_answer`: nothing)."""
    with under_way(db, event_id, action, actor, command_id, payload) as cmd:
        name = actor or cmd.event.head_judge
        authorized(event_id, name, cmd.opening.role, action)
        if check is not None:
            check(cmd.conn, cmd.event, name)
        return cmd.carry_out(name, now, act, replayed, when_sealed=when_sealed)


def run_apart(
    db: Database,
    event_id: int,
    writer: str,
    action: str,
    command_id: str | None,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    now: datetime | None,
    replayed: Callable[[Connection, Entry], T],
    *,
    check: Callable[[Connection], None] | None = None,
) -> T:
    """Run a write apart from the judges' door (:func:`run_command`): a player's, who has no
    account (a winner's report, a call, their own drop or decklist), written in the ledger by
    ``writer`` (the players' page), once per command id. ``check`` refuses first (an event
    that takes no such write); the rest is the judges' door's (:class:`UnderWay`)."""
    with under_way(db, event_id, action, None, command_id, payload, before=check) as cmd:
        return cmd.carry_out(writer, now, act, replayed)
