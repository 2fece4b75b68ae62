"""What the player index reads of an event, in one read: its current round, every player
with their search key, and the current round's tables. Run on the driver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from shinpan.errors import NotFound
from shinpan.store.connection import Connection, Statement
from shinpan.store.feed import ledger_head

__all__ = ["RosterRead", "RosterRow", "Table", "read_roster", "tables_of"]

_ROUND = Statement("SELECT current_round FROM events WHERE event_id = :e")
_PLAYERS = Statement("SELECT number, name, reading, club, status, search FROM players WHERE event_id = :e")
_TABLES = Statement("SELECT table_no, player_a, player_b FROM matches WHERE event_id = :e AND round = :r")
_TABLES_OF = Statement(
    "SELECT table_no, player_a, player_b FROM matches WHERE event_id = :e AND round = :r "
    "AND (player_a IN (:ns) OR player_b IN (:ns))"
)


class RosterRow(NamedTuple):
    number: str
    name: str
    reading: str
    club: str | None
    status: str
    search: str  # the search key (see store.projector.search_key)


class Table(NamedTuple):
    table: int
    a: str
    b: str | None  # None: a bye


class RosterRead(NamedTuple):
    """An event's players and current pairings as of ledger entry ``head``."""

    head: int
    round: int
    players: list[RosterRow]
    tables: list[Table]


def read_roster(conn: Connection, event_id: int) -> RosterRead:
    """Everything the index keeps of the event, in the caller's (read) transaction."""
    current = _ROUND.first(conn, {"e": event_id})
    if current is None:
        raise NotFound("no event {event}", event=event_id)
    round_no = int(current[0] or 0)
    head = ledger_head(conn, event_id)
    players = [RosterRow(*r) for r in _PLAYERS.all(conn, {"e": event_id})]
    tables = (
        [Table(int(t), a, b) for t, a, b in _TABLES.all(conn, {"e": event_id, "r": round_no})]
        if round_no
        else []
    )
    return RosterRead(head, round_no, players, tables)


def tables_of(conn: Connection, event_id: int, round_no: int, numbers: Sequence[str]) -> list[Table]:
    """The tables of round ``round_no`` where any of ``numbers`` sits."""
    rows = _TABLES_OF.all(conn, {"e": event_id, "r": round_no, "ns": list(numbers)})
    return [Table(int(t), a, b) for t, a, b in rows]
