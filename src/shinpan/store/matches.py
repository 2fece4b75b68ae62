"""Typed reads of matches and their duels, as the scorekeeper, a player's history and a
ruling's page see them. Run on the driver (see :class:`Statement`), in the caller's
transaction.
"""

from __future__ import annotations

from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = [
    "DuelWon",
    "MatchRecord",
    "player_duels",
    "player_matches",
    "round_duels",
    "round_matches",
    "seated",
]


class MatchRecord(NamedTuple):
    """A match: its table, its players (``player_b`` None: a bye) and its result."""

    round: int
    table_no: int
    player_a: str
    player_b: str | None
    result: str | None  # a | b | draw | None while playing
    result_ruling: int | None  # the ruling that decided it (a match loss, a draw)
    extensions: int


class DuelWon(NamedTuple):
    """A duel of a match and who won it."""

    round: int
    table_no: int
    duel: int
    winner: str | None


_MATCH_COLUMNS = "m.round, m.table_no, m.player_a, m.player_b, m.result, m.result_ruling, m.extensions"
_ROUND = Statement(
    f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.event_id = :e AND m.round = :r ORDER BY m.table_no"
)
_ROUND_DUELS = Statement("SELECT round, table_no, duel, winner FROM duels WHERE event_id = :e AND round = :r")
# One lookup per side, each on its index: with OR, SQLite (without statistics) walks every
# match of the event (see store.history). Sorted in Python.
_OF_PLAYER = Statement(
    f"SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.event_id = :e AND m.player_a = :p "
    f"UNION ALL SELECT {_MATCH_COLUMNS} FROM matches m WHERE m.event_id = :e AND m.player_b = :p"
)
_DUEL_COLUMNS = "d.round, d.table_no, d.duel, d.winner"
_JOINED = "JOIN duels d ON d.event_id = m.event_id AND d.round = m.round AND d.table_no = m.table_no"
_PLAYER_DUELS = Statement(
    f"SELECT {_DUEL_COLUMNS} FROM matches m {_JOINED} WHERE m.event_id = :e AND m.player_a = :p "
    f"UNION ALL SELECT {_DUEL_COLUMNS} FROM matches m {_JOINED} WHERE m.event_id = :e AND m.player_b = :p"
)
_SEATED = Statement(
    "SELECT player_a, player_b FROM matches WHERE event_id = :e AND round = :r AND table_no = :t"
)


def round_matches(conn: Connection, event_id: int, round_no: int) -> list[MatchRecord]:
    """The round's matches by table."""
    return [MatchRecord(*r) for r in _ROUND.all(conn, {"e": event_id, "r": round_no})]


def round_duels(conn: Connection, event_id: int, round_no: int) -> list[DuelWon]:
    """Every duel reported in the round."""
    return [DuelWon(*r) for r in _ROUND_DUELS.all(conn, {"e": event_id, "r": round_no})]


def player_matches(conn: Connection, event_id: int, player: str) -> list[MatchRecord]:
    """The player's matches, round by round."""
    return sorted(
        (MatchRecord(*r) for r in _OF_PLAYER.all(conn, {"e": event_id, "p": player})), key=lambda m: m.round
    )


def player_duels(conn: Connection, event_id: int, player: str) -> list[DuelWon]:
    """Every duel of the player's matches."""
    return [DuelWon(*r) for r in _PLAYER_DUELS.all(conn, {"e": event_id, "p": player})]


def seated(conn: Connection, event_id: int, round_no: int, table: int) -> tuple[str, str | None] | None:
    """Who sat at the table in the round: seat A and seat B (None: a bye); None: no match."""
    row = _SEATED.first(conn, {"e": event_id, "r": round_no, "t": table})
    return (row[0], row[1]) if row is not None else None
