"""Typed reads of an event's players as a page shows them: one player, several by number,
their names. Run on the driver (see :class:`Statement`), in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement
from shinpan.store.db import chunks

__all__ = ["PlayerRecord", "names", "player", "players_numbered"]


class PlayerRecord(NamedTuple):
    """A player of the event: id, name, reading (kana), club, status as it is now."""

    number: str
    name: str
    reading: str
    club: str | None
    status: str


_COLUMNS = "number, name, reading, club, status"
_ONE = Statement(f"SELECT {_COLUMNS} FROM players WHERE event_id = :e AND number = :n")
_NUMBERED = Statement(f"SELECT {_COLUMNS} FROM players WHERE event_id = :e AND number IN (:ns)")
_NAMES = Statement("SELECT number, name FROM players WHERE event_id = :e AND number IN (:ns)")


def player(conn: Connection, event_id: int, number: str) -> PlayerRecord | None:
    row = _ONE.first(conn, {"e": event_id, "n": number})
    return PlayerRecord(*row) if row is not None else None


def players_numbered(conn: Connection, event_id: int, numbers: Collection[str]) -> dict[str, PlayerRecord]:
    """The players of these numbers that the event has, by number."""
    found: dict[str, PlayerRecord] = {}
    for chunk in chunks(sorted(set(numbers))):
        found.update((r[0], PlayerRecord(*r)) for r in _NUMBERED.all(conn, {"e": event_id, "ns": chunk}))
    return found


def names(conn: Connection, event_id: int, numbers: Collection[str]) -> dict[str, str]:
    """The names of the players of these numbers that the event has, by number."""
    found: dict[str, str] = {}
    for chunk in chunks(sorted(set(numbers))):
        found.update((r[0], r[1]) for r in _NAMES.all(conn, {"e": event_id, "ns": chunk}))
    return found
