"""Typed reads of the rounds: a round and its clock, its matches and duels, the time judges
gave its tables, and the questions pairing asks (which tables still play, which already
have a result, is a player still at a table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, or_, select

from shinpan.engine.effects import Match
from shinpan.store.connection import Connection
from shinpan.store.schema import duels, matches, rounds, time_extensions

__all__ = [
    "DuelResult",
    "Round",
    "TimeGiven",
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
    """A paired round: its state (paired | started | ended) and its clock (D21)."""

    number: int
    state: str
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


_ROUND = select(rounds).where(rounds.c.event_id == bindparam("e"), rounds.c.number == bindparam("r"))
_LATER = select(rounds.c.number).where(rounds.c.event_id == bindparam("e"), rounds.c.number > bindparam("r"))
_IN_ROUND = (matches.c.event_id == bindparam("e"), matches.c.round == bindparam("r"))
_MATCHES = select(matches).where(*_IN_ROUND).order_by(matches.c.table_no)
_UNFINISHED = (
    select(matches.c.table_no).where(*_IN_ROUND, matches.c.result.is_(None)).order_by(matches.c.table_no)
)
_RESULT = select(matches.c.result).where(*_IN_ROUND, matches.c.table_no == bindparam("t"))
_DUELS = (
    select(duels)
    .where(duels.c.event_id == bindparam("e"), duels.c.round == bindparam("r"))
    .order_by(duels.c.table_no, duels.c.duel)
)
_GIVEN = (
    select(time_extensions)
    .where(time_extensions.c.event_id == bindparam("e"), time_extensions.c.round == bindparam("r"))
    .order_by(time_extensions.c.entry_seq)
)
_PLAYING = (
    select(matches.c.round, matches.c.table_no)
    .where(
        matches.c.event_id == bindparam("e"),
        or_(matches.c.player_a == bindparam("p"), matches.c.player_b == bindparam("p")),
        matches.c.player_b.is_not(None),
        matches.c.result.is_(None),
    )
    .order_by(matches.c.round.desc())
)


def round_of(conn: Connection, event_id: int, number: int) -> Round | None:
    """Round ``number`` (None: not paired)."""
    r = conn.execute(_ROUND, {"e": event_id, "r": number}).first()
    if r is None:
        return None
    return Round(int(r.number), r.state, r.started_at, r.minutes, r.ended_at, r.seed)


def paired_after(conn: Connection, event_id: int, number: int) -> bool:
    """Whether a round after round ``number`` is paired."""
    return conn.execute(_LATER, {"e": event_id, "r": number}).first() is not None


def round_duels(conn: Connection, event_id: int, number: int) -> list[DuelResult]:
    """Every duel of the round with a row (decided or drawn), by table and duel."""
    return [
        DuelResult(int(d.table_no), int(d.duel), d.winner, d.cause_ruling)
        for d in conn.execute(_DUELS, {"e": event_id, "r": number})
    ]


def round_matches(
    conn: Connection, event_id: int, number: int, duels: Sequence[DuelResult] | None = None
) -> list[Match]:
    """The round's matches by table (a bye has no player b), each with its decided duels
    (``duels``: the round's, already read with :func:`round_duels`)."""
    won: dict[int, dict[int, str]] = {}
    for d in round_duels(conn, event_id, number) if duels is None else duels:
        if d.winner is not None:
            won.setdefault(d.table, {})[d.duel] = d.winner
    return [
        Match(int(m.round), int(m.table_no), m.player_a, m.player_b, m.result, m.result_ruling,
              won.get(int(m.table_no), {}))
        for m in conn.execute(_MATCHES, {"e": event_id, "r": number})
    ]  # fmt: skip


def unfinished_tables(conn: Connection, event_id: int, number: int) -> list[int]:
    """The round's tables with no result yet, in order."""
    return [int(t) for t in conn.execute(_UNFINISHED, {"e": event_id, "r": number}).scalars()]


def result_at(conn: Connection, event_id: int, number: int, table: int) -> str | None:
    """The result at ``table`` in round ``number`` (None: still playing, or no such match)."""
    found = conn.execute(_RESULT, {"e": event_id, "r": number, "t": table}).scalar()
    return str(found) if found is not None else None


def unfinished_match(conn: Connection, event_id: int, player: str) -> tuple[int, int] | None:
    """(round, table) of the player's match still being played (no result), if any."""
    row = conn.execute(_PLAYING, {"e": event_id, "p": player}).first()
    return (int(row.round), int(row.table_no)) if row is not None else None


def time_given(conn: Connection, event_id: int, number: int) -> dict[int, list[TimeGiven]]:
    """The time judges gave the round's tables, by table, in the order it was given."""
    given: dict[int, list[TimeGiven]] = {}
    for t in conn.execute(_GIVEN, {"e": event_id, "r": number}):
        given.setdefault(int(t.table_no), []).append(TimeGiven(t.minutes, t.reason, t.judge, t.given_at))
    return given
