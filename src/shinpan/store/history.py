"""What recording reads for every ruling: whether a player is in the event, a player's
rulings that count, the next ruling number. Run on the driver (see :class:`Statement`)."""

from __future__ import annotations

from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = [
    "CountedRuling",
    "is_player",
    "last_ruling_number",
    "live_rulings",
    "round_started_at",
    "where_playing",
]

_PLAYER = Statement("SELECT 1 FROM players WHERE event_id = :e AND number = :p")
# Sorted in Python, not in SQL: with ORDER BY, SQLite (without statistics) walks the
# primary key through every ruling of the event instead of the player's index.
_LIVE = Statement(
    'SELECT number, rule, offense, penalties, follow_up, draft, kind, "trigger", cause FROM rulings '
    "WHERE event_id = :e AND player = :p AND state <> 'voided'"
)
# One lookup per side, each on its index: with OR and ORDER BY, SQLite (without
# statistics) walks every match of the event.
_TABLES = Statement(
    "SELECT round, table_no FROM matches WHERE event_id = :e AND player_a = :p "
    "UNION ALL SELECT round, table_no FROM matches WHERE event_id = :e AND player_b = :p"
)
_LAST_NUMBER = Statement("SELECT MAX(number) FROM rulings WHERE event_id = :e")
_ROUND_STARTED = Statement("SELECT started_at FROM rounds WHERE event_id = :e AND number = :r")


class CountedRuling(NamedTuple):
    """A ruling of a player that counts (not voided), as the engine's history needs it."""

    number: int
    rule: str
    offense: int | None
    penalties: str  # JSON
    follow_up: bool
    draft: str | None
    kind: str | None
    trigger: str
    cause: int | None


def is_player(conn: Connection, event_id: int, number: str) -> bool:
    return _PLAYER.run(conn, {"e": event_id, "p": number}).fetchone() is not None


def live_rulings(conn: Connection, event_id: int, player: str) -> list[CountedRuling]:
    """The player's rulings that are not voided, in the order they were recorded."""
    rows = sorted(_LIVE.run(conn, {"e": event_id, "p": player}).fetchall(), key=lambda r: int(r[0]))
    return [CountedRuling(int(r[0]), r[1], r[2], r[3], bool(r[4]), *r[5:]) for r in rows]


def last_ruling_number(conn: Connection, event_id: int) -> int:
    """The event's highest ruling number (0: none yet)."""
    return int(_LAST_NUMBER.run(conn, {"e": event_id}).fetchone()[0] or 0)


def where_playing(conn: Connection, event_id: int, player: str) -> tuple[int, int] | None:
    """The round and table of the player's match in the latest round they were paired in."""
    found = _TABLES.run(conn, {"e": event_id, "p": player}).fetchall()
    return max(((int(r), int(t)) for r, t in found), default=None)


def round_started_at(conn: Connection, event_id: int, round_no: int) -> str | None:
    """When the round's clock was started (D21), if it was."""
    row = _ROUND_STARTED.run(conn, {"e": event_id, "r": round_no}).fetchone()
    return str(row[0]) if row is not None and row[0] is not None else None
