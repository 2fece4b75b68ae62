"""Running a command once: the acting judge's role checked, retries made safe.

Every command carries an id chosen by the caller (the CLI makes one; the web app sends
the phone's). The same id with the same content returns the first result and records
nothing new; the same id with different content is refused.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypedDict, TypeVar, overload

from shinpan.engine.event_rules import Action
from shinpan.errors import Conflict, NotFound
from shinpan.services.closed import IMPORTING, check_open, closed
from shinpan.services.context import Event, authorized, holding, stamp
from shinpan.store.chain import fingerprint
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry, entry_by_command, open_command

T = TypeVar("T")

# An import replaying an exported command (:mod:`shinpan.files.reimport`) puts here, on
# the transaction, the fingerprint the export carries: the payload itself is not exported,
# and the replayed entries must be the exported ones hash for hash.
REPLAYED_HASH = "shinpan.replayed_command_hash"


def new_command_id() -> str:
    return uuid.uuid4().hex


class Replayed(TypedDict):
    """What a command run again answers when it names no reading of its first result: the
    ledger position of the entry it recorded the first time."""

    replayed: bool
    seq: int


@overload
def run_command(
    db: Database,
    event_id: int,
    action: Action,
    actor: str | None,
    command_id: str | None,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    now: datetime | None = None,
    replayed: None = None,
    *,
    check: Callable[[Connection, Event, str], None] | None = None,
    when_sealed: bool = False,
) -> T | Replayed: ...


@overload
def run_command(
    db: Database,
    event_id: int,
    action: Action,
    actor: str | None,
    command_id: str | None,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    now: datetime | None,
    replayed: Callable[[Connection, Entry], T],
    *,
    check: Callable[[Connection, Event, str], None] | None = None,
    when_sealed: bool = False,
) -> T: ...


def run_command(
    db: Database,
    event_id: int,
    action: Action,
    actor: str | None,
    command_id: str | None,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    now: datetime | None = None,
    replayed: Callable[[Connection, Entry], T] | None = None,
    *,
    check: Callable[[Connection, Event, str], None] | None = None,
    when_sealed: bool = False,
) -> T | Replayed:
    """Run ``act`` in one write transaction for the event, once per command id; the same id
    again answers ``replayed(conn, entry)`` of the entry first recorded (or, without it,
    :class:`Replayed`). A sealed event takes no command (:mod:`shinpan.services.closed`)
    but the one that reopens it (``when_sealed``)."""
    command_id = command_id or new_command_id()
    if len(command_id) > 100:
        raise Conflict("a command id has at most 100 characters")
    digest = fingerprint({"action": action, "payload": payload})
    with db.write(event_id) as conn:
        digest = conn.info.pop(REPLAYED_HASH, None) or digest
        opening = open_command(conn, event_id, actor, command_id)  # one read
        if opening is None:
            raise NotFound("no event {event}", event=event_id)
        event = Event.of(opening.event)
        name = actor or event.head_judge
        authorized(event_id, name, opening.role, action)
        if check is not None:
            check(conn, event, name)
        found = entry_by_command(conn, event_id, command_id) if opening.earlier is not None else None
        earlier = retry_of(found, command_id, digest)
        if earlier is not None:
            if replayed is None:
                return Replayed(replayed=True, seq=earlier.seq)
            return replayed(conn, earlier)
        sealed = opening.event["sealed_entry"]
        if sealed is not None and not when_sealed and not conn.info.get(IMPORTING):
            raise closed(conn, event_id, int(sealed), event.time_zone)
        ap = Appender(
            conn, event_id, name, stamp(now), command_id=command_id, command_hash=digest, head=opening.head
        )
        with holding(conn, event):
            return act(conn, ap)


def retry_of(earlier: Entry | None, command_id: str, digest: str) -> Entry | None:
    """The entry this command recorded the first time, when it is sent again (a phone's
    retry), else None; the same id with other content is refused."""
    if earlier is not None and earlier.command_hash != digest:
        raise Conflict("command {id} was already used for something else", id=command_id)
    return earlier


def written_apart(conn: Connection, event_id: int, command_id: str, digest: str) -> Entry | None:
    """For a write apart from :func:`run_command` (:func:`run_apart`: a player's, who has no
    account): the entry a retry of this command recorded, else None once the event is open
    to it (a sealed one refuses, as the write door does)."""
    earlier = retry_of(entry_by_command(conn, event_id, command_id), command_id, digest)
    if earlier is None:
        check_open(conn, event_id)
    return earlier


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
    that takes no such write); the same id again answers ``replayed(conn, entry)`` of the
    entry first recorded; a sealed event refuses (:func:`written_apart`)."""
    command_id = command_id or new_command_id()
    digest = fingerprint({"action": action, "payload": payload})
    with db.write(event_id) as conn:
        digest = conn.info.pop(REPLAYED_HASH, None) or digest  # an import's, as the file has it
        if check is not None:
            check(conn)
        earlier = written_apart(conn, event_id, command_id, digest)
        if earlier is not None:  # a retry (the phone sent it twice): what it recorded
            return replayed(conn, earlier)
        ap = Appender(conn, event_id, writer, stamp(now), command_id=command_id, command_hash=digest)
        return act(conn, ap)
