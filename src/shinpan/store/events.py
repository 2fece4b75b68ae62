"""Typed reads of the events and their judges' seats: the list of events, a seat, an
event's round length, and what an export or an import asks of the events table.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, func, select

from shinpan.store.connection import Connection
from shinpan.store.schema import entries, events, judges, players, rulings

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


_PLAYERS = select(func.count()).select_from(players).where(players.c.event_id == events.c.event_id)
_RULINGS = select(func.count()).select_from(rulings).where(rulings.c.event_id == events.c.event_id)
_SUMMARIES = select(
    events, _PLAYERS.scalar_subquery().label("np"), _RULINGS.scalar_subquery().label("nr")
).order_by(events.c.event_id)
_LAST_ID = select(func.max(entries.c.event_id))
_SEAT = select(judges).where(judges.c.event_id == bindparam("e"), judges.c.name == bindparam("n"))
_ROUND_MINUTES = select(events.c.round_minutes).where(events.c.event_id == bindparam("e"))
_IDENTITY = select(events.c.uid, events.c.name).where(events.c.event_id == bindparam("e"))
_BY_UID = select(events.c.event_id).where(events.c.uid == bindparam("u"))
_ANY_ENTRY = select(entries.c.event_id).where(entries.c.event_id == bindparam("e")).limit(1)


def next_event_id(conn: Connection) -> int:
    """The id a new event gets: one more than any event's in the ledger."""
    return int(conn.execute(_LAST_ID).scalar() or 0) + 1


def event_summaries(conn: Connection) -> list[EventSummary]:
    """Every event with its number of players and rulings, in the order they were made."""
    return [
        EventSummary(r.event_id, r.name, r.starts_on, r.rel, r.head_judge, r.np, r.nr, r.current_round)
        for r in conn.execute(_SUMMARIES)
    ]


def judge_seat(conn: Connection, event_id: int, name: str) -> Seat | None:
    """The judge's seat called ``name`` at the event, if there is one."""
    row = conn.execute(_SEAT, {"e": event_id, "n": name}).first()
    return Seat(row.name, row.level, row.role, row.account) if row is not None else None


def round_minutes(conn: Connection, event_id: int) -> int | None:
    """The event's round length in minutes, if it set one."""
    value = conn.execute(_ROUND_MINUTES, {"e": event_id}).scalar()
    return int(value) if value else None


def identity(conn: Connection, event_id: int) -> Identity | None:
    """The event's uid and name (None: no such event)."""
    row = conn.execute(_IDENTITY, {"e": event_id}).first()
    return Identity(row.uid, row.name) if row is not None else None


def event_with_uid(conn: Connection, uid: str) -> int | None:
    """The id of the event whose uid is ``uid`` in this database, if it is here."""
    found = conn.execute(_BY_UID, {"u": uid}).scalar()
    return int(found) if found is not None else None


def has_entries(conn: Connection, event_id: int | None) -> bool:
    """Whether the ledger has entries of this event id (None: never)."""
    return event_id is not None and conn.execute(_ANY_ENTRY, {"e": event_id}).first() is not None
