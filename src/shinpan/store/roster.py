"""Typed reads of the event's roster: each player's id, name, reading and status.

A status is read as it is now (an ejection or a disqualification waiting for the head
judge has changed none yet, D17); one statement each, in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from shinpan.engine.event_rules import Status
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import chunks

__all__ = ["PlayerName", "active_players", "names", "status_of", "statuses"]


@dataclass(frozen=True)
class PlayerName:
    """A player's name and its reading (kana; may be empty)."""

    name: str
    reading: str


_STATUSES = Statement("SELECT number, status FROM players WHERE event_id = :e")
_STATUSES_OF = Statement("SELECT number, status FROM players WHERE event_id = :e AND number IN (:n)")
_STATUS = Statement("SELECT status FROM players WHERE event_id = :e AND number = :n")
_NAMES = Statement("SELECT number, name, reading FROM players WHERE event_id = :e")
_ACTIVE = Statement("SELECT number FROM players WHERE event_id = :e AND status = :s")


def statuses(conn: Connection, event_id: int, numbers: Collection[str] | None = None) -> dict[str, Status]:
    """Player id -> status: of every player of the event in one query whatever its size, or
    of the ``numbers`` given (those not registered are left out), asked in chunks so that a
    long list stays within the database's limit on bound parameters."""
    if numbers is None:
        return {number: Status(status) for number, status in _STATUSES.all(conn, {"e": event_id})}
    found: dict[str, Status] = {}
    for chunk in chunks(sorted(set(numbers))):
        found.update(
            (number, Status(status)) for number, status in _STATUSES_OF.all(conn, {"e": event_id, "n": chunk})
        )
    return found


def status_of(conn: Connection, event_id: int, number: str) -> Status | None:
    """The player's status (None: no such player in the event)."""
    found = _STATUS.scalar(conn, {"e": event_id, "n": number})
    return Status(found) if found is not None else None


def names(conn: Connection, event_id: int) -> dict[str, PlayerName]:
    """Every player's name and reading, by id."""
    return {number: PlayerName(name, reading) for number, name, reading in _NAMES.all(conn, {"e": event_id})}


def active_players(conn: Connection, event_id: int) -> list[str]:
    """The ids of the players still in the event (who may still drop)."""
    return [str(n) for n in _ACTIVE.scalars(conn, {"e": event_id, "s": Status.active.value})]
