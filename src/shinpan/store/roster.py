"""Typed reads of the event's roster: each player's id, name, reading and status.

A status is read as it is now (an ejection or a disqualification waiting for the head
judge has changed none yet, D17); one statement each, in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import bindparam, select

from shinpan.engine.event_rules import Status
from shinpan.store.connection import Connection
from shinpan.store.schema import players

__all__ = ["PlayerName", "active_players", "names", "status_of", "statuses"]


@dataclass(frozen=True)
class PlayerName:
    """A player's name and its reading (kana; may be empty)."""

    name: str
    reading: str


_STATUSES = select(players.c.number, players.c.status).where(players.c.event_id == bindparam("e"))
_STATUSES_OF = _STATUSES.where(players.c.number.in_(bindparam("n", expanding=True)))
_STATUS = select(players.c.status).where(
    players.c.event_id == bindparam("e"), players.c.number == bindparam("n")
)
_NAMES = select(players.c.number, players.c.name, players.c.reading).where(
    players.c.event_id == bindparam("e")
)
_ACTIVE = select(players.c.number).where(
    players.c.event_id == bindparam("e"), players.c.status == Status.active.value
)


def statuses(conn: Connection, event_id: int, numbers: Collection[str] | None = None) -> dict[str, Status]:
    """Player id -> status: of every player of the event in one query whatever its size (a
    list of numbers in ``IN (...)`` meets the database's limit on bound parameters), or of
    the few ``numbers`` given (those not registered are left out)."""
    if numbers is None:
        rows = conn.execute(_STATUSES, {"e": event_id})
    else:
        rows = conn.execute(_STATUSES_OF, {"e": event_id, "n": list(numbers)})
    return {r.number: Status(r.status) for r in rows}


def status_of(conn: Connection, event_id: int, number: str) -> Status | None:
    """The player's status (None: no such player in the event)."""
    found = conn.execute(_STATUS, {"e": event_id, "n": number}).scalar()
    return Status(found) if found is not None else None


def names(conn: Connection, event_id: int) -> dict[str, PlayerName]:
    """Every player's name and reading, by id."""
    return {r.number: PlayerName(r.name, r.reading) for r in conn.execute(_NAMES, {"e": event_id})}


def active_players(conn: Connection, event_id: int) -> list[str]:
    """The ids of the players still in the event (who may still drop)."""
    return list(conn.execute(_ACTIVE, {"e": event_id}).scalars())
