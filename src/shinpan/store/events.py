"""Typed reads of the events and their judges' seats: the list of events, a seat, an
event's round length, and what an export or an import asks of the events table.
Run on the driver (see :class:`Statement`).
"""

from __future__ import annotations

from dataclasses import dataclass

from shinpan.store.connection import Connection, Statement

__all__ = [
    "EventSummary",
    "Identity",
    "Seat",
    "event_summaries",
    "event_with_uid",
    "has_entries",
    "identity",
    "judge_seat",
    "next_event_id",
    "round_minutes",
]


@dataclass(frozen=True)
class EventSummary:
    """An event as the list of events shows it."""

    id: int
    name: str
    starts_on: str | None
    rel: int
    head_judge: str
    players: int
    rulings: int
    current_round: int


@dataclass(frozen=True)
class Seat:
    """A judge's seat at an event; ``account`` None: waiting to be claimed."""

    name: str
    level: int | None
    role: str
    account: str | None


@dataclass(frozen=True)
class Identity:
    """What names an event outside this database: its uid, and its name."""

    uid: str
    name: str


_SUMMARIES = Statement(
    "SELECT ev.event_id, ev.name, ev.starts_on, ev.rel, ev.head_judge, "
    "(SELECT count(*) FROM players p WHERE p.event_id = ev.event_id), "
    "(SELECT count(*) FROM rulings r WHERE r.event_id = ev.event_id), "
    "ev.current_round FROM events ev ORDER BY ev.event_id"
)
_LAST_ID = Statement("SELECT max(event_id) FROM entries")
_SEAT = Statement("SELECT name, level, role, account FROM judges WHERE event_id = :e AND name = :n")
_SEATS = Statement(
    "SELECT name, level, role, account FROM judges WHERE event_id = :e "
    "ORDER BY CASE role WHEN 'head_judge' THEN 0 ELSE 1 END, name"
)
_ROUND_MINUTES = Statement("SELECT round_minutes FROM events WHERE event_id = :e")
_IDENTITY = Statement("SELECT uid, name FROM events WHERE event_id = :e")
_BY_UID = Statement("SELECT event_id FROM events WHERE uid = :u")
_ANY_ENTRY = Statement("SELECT event_id FROM entries WHERE event_id = :e LIMIT 1")


def next_event_id(conn: Connection) -> int:
    """The id a new event gets: one more than any event's in the ledger."""
    return int(_LAST_ID.scalar(conn) or 0) + 1


def event_summaries(conn: Connection) -> list[EventSummary]:
    """Every event with its number of players and rulings, in the order they were made."""
    return [
        EventSummary(int(i), name, starts_on, int(rel), head, int(np), int(nr), int(current))
        for i, name, starts_on, rel, head, np, nr, current in _SUMMARIES.all(conn)
    ]


def judge_seat(conn: Connection, event_id: int, name: str) -> Seat | None:
    """The judge's seat called ``name`` at the event, if there is one."""
    row = _SEAT.first(conn, {"e": event_id, "n": name})
    return Seat(*row) if row is not None else None


def seats(conn: Connection, event_id: int) -> list[Seat]:
    """Every judge's seat at the event, the head judge's first."""
    return [Seat(*row) for row in _SEATS.all(conn, {"e": event_id})]


def round_minutes(conn: Connection, event_id: int) -> int | None:
    """The event's round length in minutes, if it set one."""
    value = _ROUND_MINUTES.scalar(conn, {"e": event_id})
    return int(value) if value else None


def identity(conn: Connection, event_id: int) -> Identity | None:
    """The event's uid and name (None: no such event)."""
    row = _IDENTITY.first(conn, {"e": event_id})
    return Identity(*row) if row is not None else None


def event_with_uid(conn: Connection, uid: str) -> int | None:
    """The id of the event whose uid is ``uid`` in this database, if it is here."""
    found = _BY_UID.scalar(conn, {"u": uid})
    return int(found) if found is not None else None


def has_entries(conn: Connection, event_id: int | None) -> bool:
    """Whether the ledger has entries of this event id (None: never)."""
    return event_id is not None and _ANY_ENTRY.first(conn, {"e": event_id}) is not None
