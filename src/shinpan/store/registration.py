"""Typed reads of the event's registration as the players page shows it: every player,
and who is marked absent before round 1. Run on the driver, in the caller's transaction.

Attendance projects into no table: it matters only until round 1 is paired, and the few
entries that mark it are read as they are (the way :mod:`shinpan.store.standings` reads
the pairings' entries)."""

from __future__ import annotations

import json

from shinpan.store.connection import Connection, Statement
from shinpan.store.players import PlayerRecord

__all__ = ["absent", "every_player"]

_EVERY = Statement(
    "SELECT number, name, reading, club, status FROM players WHERE event_id = :e ORDER BY number"
)
_ATTENDANCE = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'player.attendance' ORDER BY seq"
)


def every_player(conn: Connection, event_id: int) -> list[PlayerRecord]:
    """Every player of the event, by id."""
    return [PlayerRecord(*row) for row in _EVERY.all(conn, {"e": event_id})]


def absent(conn: Connection, event_id: int) -> set[str]:
    """The players whose last mark says absent."""
    marked: dict[str, bool] = {}
    for (body,) in _ATTENDANCE.all(conn, {"e": event_id}):
        b = json.loads(body) if isinstance(body, str) else body
        marked[b["player"]] = bool(b["present"])
    return {player for player, present in marked.items() if not present}
