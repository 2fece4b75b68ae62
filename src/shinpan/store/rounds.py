"""Typed reads of the rounds: a round and its clock, its matches and duels, the time judges
gave its tables, and the questions pairing asks (which tables still play, which already
have a result, is a player still at a table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shinpan.engine.event_rules import RoundState
from shinpan.store.connection import Connection, Statement

if TYPE_CHECKING:  # loaded by the one read that makes them: the others need none of the engine
    from shinpan.engine.effects import Match

__all__ = [
    "DuelResult",
    "Round",
    "TimeGiven",
    "duels_to_win_in",
    "paired_after",
    "result_at",
    "round_duels",
    "round_matches",
    "round_of",
    "time_given",
    "unfinished_match",
    "unfinished_tables",
]


@dataclass(frozen=True)
class Round:
    """A paired round: its state (paired, started, ended) and its clock (D21)."""

    number: int
    state: RoundState
    started_at: str | None  # when its clock started
    minutes: int | None  # its length, from its start
    ended_at: str | None
    seed: int | None  # a Swiss pairing's seed (None: imported)


@dataclass(frozen=True)
class DuelResult:
    """One duel of a round: its winner (None: drawn) and the ruling whose duel loss decided it."""

    table: int
    duel: int
    winner: str | None
    cause: int | None


@dataclass(frozen=True)
class TimeGiven:
    """Minutes a judge gave a table, and why."""

    minutes: int
    reason: str
    judge: str
    given_at: str


_ROUND = Statement(
    "SELECT number, state, started_at, minutes, ended_at, seed FROM rounds WHERE event_id = :e AND number = :r"
)
_FORMAT = Statement("SELECT match_format FROM events WHERE event_id = :e")
_LATER = Statement("SELECT number FROM rounds WHERE event_id = :e AND number > :r LIMIT 1")
_MATCHES = Statement(
    "SELECT round, table_no, player_a, player_b, result, result_ruling FROM matches "
    "WHERE event_id = :e AND round = :r ORDER BY table_no"
)
_UNFINISHED = Statement(
    "SELECT table_no FROM matches WHERE event_id = :e AND round = :r AND result IS NULL ORDER BY table_no"
)
_RESULT = Statement("SELECT result FROM matches WHERE event_id = :e AND round = :r AND table_no = :t")
_DUELS = Statement(
    "SELECT table_no, duel, winner, cause_ruling FROM duels WHERE event_id = :e AND round = :r "
    "ORDER BY table_no, duel"
)
_GIVEN = Statement(
    "SELECT table_no, minutes, reason, judge, given_at FROM time_extensions "
    "WHERE event_id = :e AND round = :r ORDER BY entry_seq"
)
# One lookup per side, each on its index, the latest round chosen in Python: with OR and
# ORDER BY, SQLite (without statistics) walks every match of the event.
_PLAYING = Statement(
    "SELECT round, table_no, player_b FROM matches WHERE event_id = :e AND player_a = :p AND result IS NULL "
    "UNION ALL SELECT round, table_no, player_b FROM matches WHERE event_id = :e AND player_b = :p "
    "AND result IS NULL"
)  # a bye (no player b) is left out in Python: "player_b IS NOT NULL" sends SQLite to the wrong index


def round_of(conn: Connection, event_id: int, number: int) -> Round | None:
    """Round ``number`` (None: not paired)."""
    r = _ROUND.first(conn, {"e": event_id, "r": number})
    if r is None:
        return None
    number, state, started_at, minutes, ended_at, seed = r
    return Round(int(number), RoundState(state), started_at, minutes, ended_at, seed)


def paired_after(conn: Connection, event_id: int, number: int) -> bool:
    """Whether a round after round ``number`` is paired."""
    return _LATER.first(conn, {"e": event_id, "r": number}) is not None


def round_duels(conn: Connection, event_id: int, number: int) -> list[DuelResult]:
    """Every duel of the round with a row (decided or drawn), by table and duel."""
    return [
        DuelResult(int(table), int(duel), winner, cause)
        for table, duel, winner, cause in _DUELS.all(conn, {"e": event_id, "r": number})
    ]


def duels_to_win_in(conn: Connection, event_id: int) -> int:
    """The duels that win a match in the event's format (T7): two, one in best of one."""
    from shinpan.tournament.formats import MatchFormat, duels_to_win  # start-up

    chosen = _FORMAT.scalar(conn, {"e": event_id})
    return duels_to_win(MatchFormat(chosen or MatchFormat.bo3))


def round_matches(
    conn: Connection, event_id: int, number: int, duels: Sequence[DuelResult] | None = None
) -> list[Match]:
    """The round's matches by table (a bye has no player b), each with its decided and drawn
    duels (``duels``: the round's, already read with :func:`round_duels`) and the duels that
    win it in the event's format."""
    from shinpan.engine.effects import Match  # start-up: the other reads need none of the engine

    won: dict[int, dict[int, str]] = {}
    drawn: dict[int, set[int]] = {}
    for d in round_duels(conn, event_id, number) if duels is None else duels:
        if d.winner is not None:
            won.setdefault(d.table, {})[d.duel] = d.winner
        else:
            drawn.setdefault(d.table, set()).add(d.duel)
    to_win = duels_to_win_in(conn, event_id)
    return [
        Match(
            int(r),
            int(t),
            a,
            b,
            result,
            result_ruling,
            won.get(int(t), {}),
            frozenset(drawn.get(int(t), ())),
            to_win,
        )
        for r, t, a, b, result, result_ruling in _MATCHES.all(conn, {"e": event_id, "r": number})
    ]


def unfinished_tables(conn: Connection, event_id: int, number: int) -> list[int]:
    """The round's tables with no result yet, in order."""
    return [int(t) for t in _UNFINISHED.scalars(conn, {"e": event_id, "r": number})]


def result_at(conn: Connection, event_id: int, number: int, table: int) -> str | None:
    """The result at ``table`` in round ``number`` (None: still playing, or no such match)."""
    found = _RESULT.scalar(conn, {"e": event_id, "r": number, "t": table})
    return str(found) if found is not None else None


def unfinished_match(conn: Connection, event_id: int, player: str) -> tuple[int, int] | None:
    """(round, table) of the player's match still being played (no result), if any."""
    found = _PLAYING.all(conn, {"e": event_id, "p": player})
    return max(((int(r), int(t)) for r, t, b in found if b is not None), default=None)


def time_given(conn: Connection, event_id: int, number: int) -> dict[int, list[TimeGiven]]:
    """The time judges gave the round's tables, by table, in the order it was given."""
    given: dict[int, list[TimeGiven]] = {}
    for table, minutes, reason, judge, given_at in _GIVEN.all(conn, {"e": event_id, "r": number}):
        given.setdefault(int(table), []).append(TimeGiven(minutes, reason, judge, given_at))
    return given
