"""The playoff after the Swiss (T10): start it from the final Swiss standings, pair each
next round, and the final placings.

The bracket is the tournament core's (:mod:`shinpan.tournament.playoff`); the ledger keeps
its entrants in seed order (``playoff.started``) and each of its rounds as any round
(``round.paired``, numbered after the Swiss), so its results, penalties and losses carried
to the next match (D10, D22) go through the same services as the Swiss's. The bracket as it
stands is worked out again from those entries and the results: a player the previous round
sent on who is not seated in the next one left between the rounds.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import TypedDict, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import Pairing, PlayoffStarted, RoundPaired
from shinpan.errors import Conflict
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import load_event
from shinpan.services.effects import settle_carried
from shinpan.services.formats import SEED_LIMIT, read_format
from shinpan.services.swiss import still_open
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry
from shinpan.store.standings import PlayoffRow, entrants, played, playoff
from shinpan.tournament import Played, PlayerState
from shinpan.tournament.playoff import Bout, first_round, next_round, placings, qualifiers
from shinpan.tournament.tiebreakers import seeded_places
from shinpan.views.standings import read_standings


@dataclass(frozen=True)
class PlayoffRound:
    """A playoff round as it was paired: ``b`` and ``table`` null for a player who goes on
    without playing."""

    round: int
    pairings: list[PlayoffPairing]

    def as_json(self) -> PlayoffRoundJson:
        """``{"round": N, "pairings": [{"table": 1, "a": "1004", "b": "1017", "seeds": [1, 8]}, …]}``"""
        return {"round": self.round, "pairings": self.pairings}


@dataclass(frozen=True)
class Bracket:
    """The playoff as it stands: its first round's number and each round's matches."""

    first: int
    third_place: bool
    rounds: list[list[Bout]]

    def as_json(self) -> BracketJson:
        return {
            "first_round": self.first,
            "third_place": self.third_place,
            "rounds": [
                {"round": self.first + i, "matches": [_bout_json(bout) for bout in bouts]}
                for i, bouts in enumerate(self.rounds)
            ],
        }


class PlayoffPairing(TypedDict):
    """A table of a playoff round as it was paired (``b`` and ``table`` None: going on alone)."""

    table: int | None
    a: str | None
    b: str | None
    seeds: list[int]


class PlayoffRoundJson(TypedDict):
    round: int
    pairings: list[PlayoffPairing]


class BoutJson(PlayoffPairing):
    """A match of the bracket: its seats, its winner, whether it is for third place, who left."""

    winner: str | None
    third_place: bool
    left: list[str]


class BracketRoundJson(TypedDict):
    round: int
    matches: list[BoutJson]


class BracketJson(TypedDict):
    """The playoff as it stands: its first round's number and each round's matches."""

    first_round: int
    third_place: bool
    rounds: list[BracketRoundJson]


def _bout_json(bout: Bout) -> BoutJson:
    return {
        "table": bout.table,
        "a": bout.a.player if bout.a else None,
        "b": bout.b.player if bout.b else None,
        "seeds": [seat.seed for seat in (bout.a, bout.b) if seat],
        "winner": bout.winner,
        "third_place": bout.third_place,
        "left": [seat.player for seat in bout.left],
    }


def _pairings(bouts: list[Bout]) -> tuple[tuple[Pairing, ...], list[PlayoffPairing]]:
    """The round's pairings as the ledger keeps them (one going on alone sits at a table
    after the played ones, as a bye does) and as they are shown."""
    played_bouts = [bout for bout in bouts if bout.played]
    alone = [bout for bout in bouts if bout.a is not None and bout.b is None]
    kept = [
        Pairing(bout.table or 0, bout.a.player, bout.b.player) for bout in played_bouts if bout.a and bout.b
    ]
    kept += [Pairing(len(kept) + i, bout.a.player, None) for i, bout in enumerate(alone, start=1) if bout.a]
    shown = [_bout_json(bout) for bout in played_bouts + alone]
    return tuple(kept), [
        {"table": row["table"], "a": row["a"], "b": row["b"], "seeds": row["seeds"]} for row in shown
    ]


def _with_winners(bouts: list[Bout], matches: dict[tuple[str, str | None], Played]) -> list[Bout]:
    decided = []
    for bout in bouts:
        if bout.a and bout.b:
            match = matches.get((bout.a.player, bout.b.player))
            if match is not None and match.result in ("a", "b"):
                bout = replace(bout, winner=bout.a.player if match.result == "a" else bout.b.player)
        decided.append(bout)
    return decided


def read_bracket(conn: Connection, event_id: int, started: PlayoffRow | None = None) -> Bracket | None:
    """The playoff as it stands (None: no playoff): its rounds worked out again from the
    entrants, who was seated in each round and the results."""
    started = started or playoff(conn, event_id)
    if started is None:
        return None
    current = load_event(conn, event_id).current_round
    matches = [m for m in played(conn, event_id) if m.round >= started.round]
    by_round: dict[int, dict[tuple[str, str | None], Played]] = {}
    for m in matches:
        by_round.setdefault(m.round, {})[(m.a, m.b)] = m
    rounds = [_with_winners(first_round(list(started.entrants)), by_round.get(started.round, {}))]
    for number in range(started.round + 1, current + 1):
        seated = {p for m in by_round.get(number, {}).values() for p in (m.a, m.b) if p}
        previous = rounds[-1]
        candidates = {bout.winner for bout in previous if bout.winner} | {
            bout.loser for bout in previous if bout.loser and not bout.third_place
        }
        gone = {p for p in candidates if p not in seated}
        bouts = next_round(previous, gone, third_place=started.third_place)
        rounds.append(_with_winners(bouts, by_round.get(number, {})))
    return Bracket(started.round, started.third_place, rounds)


def start_playoff(
    db: Database,
    event_id: int,
    size: int,
    *,
    third_place: bool = False,
    seed: int | None = None,
    **asked: Unpack[Asked],
) -> PlayoffRound:
    """Start the playoff from the final Swiss standings: the top ``size`` players still in
    the event, seeded by rank (a tie on the cut line broken by the event's seeded draw, or
    by ``seed`` when the event has none: an import's, else one drawn here)."""

    def act(conn: Connection, ap: Appender) -> PlayoffRound:
        if playoff(conn, event_id) is not None:
            raise Conflict("the playoff has already started")
        current = load_event(conn, event_id).current_round
        if current == 0:
            raise Conflict("the playoff starts after the Swiss rounds: no round has been played")
        still_open(conn, event_id, current)
        chosen = read_format(conn, event_id)
        drawn = seed if seed is not None else secrets.randbelow(SEED_LIMIT)
        seed_used = chosen.seed if chosen.seed is not None else drawn
        lines = read_standings(conn, event_id).rows  # the standings now (T6): who is still in
        seeded = seeded_places(seed_used, (line.player for line in lines))
        seeds = qualifiers(lines, size, seeded)
        round_no = current + 1
        kept, shown = _pairings(first_round(seeds))
        ap.append(PlayoffStarted(round_no, size, third_place, tuple(seeds), seed_used))
        ap.append(RoundPaired(round_no, kept, None))
        settle_carried(ap, round_no)
        return PlayoffRound(round_no, shown)

    payload = {"playoff": size, "third_place": third_place}
    return run_asked(db, event_id, Action.results, payload, act, _replayed, **asked)


def pair_playoff_round(db: Database, event_id: int, **asked: Unpack[Asked]) -> PlayoffRound:
    """Pair the playoff's next round once every match of the current one has its result: a
    player who has left since (dropped, withdrawn, ejected, disqualified) sends the opponent on."""

    def act(conn: Connection, ap: Appender) -> PlayoffRound:
        started = playoff(conn, event_id)
        if started is None:
            raise Conflict("no playoff has started: start it first")
        current = load_event(conn, event_id).current_round
        still_open(conn, event_id, current)
        bracket = read_bracket(conn, event_id, started)
        assert bracket is not None
        status = {e.player: e.status for e in entrants(conn, event_id)}
        gone = {player for player, now_status in status.items() if now_status is not PlayerState.active}
        bouts = next_round(bracket.rounds[-1], gone, third_place=started.third_place)
        kept, shown = _pairings(bouts)
        round_no = current + 1
        ap.append(RoundPaired(round_no, kept, None))
        settle_carried(ap, round_no)
        return PlayoffRound(round_no, shown)

    return run_asked(db, event_id, Action.results, {"playoff": "next"}, act, _replayed, **asked)


def _replayed(conn: Connection, entry: Entry) -> PlayoffRound:
    """The playoff round a command paired, read again for its retry."""
    round_no = entry.of(RoundPaired).round
    bracket = read_bracket(conn, entry.event_id)
    assert bracket is not None
    bouts = bracket.rounds[round_no - bracket.first]
    return PlayoffRound(round_no, _pairings(bouts)[1])


def event_bracket(db: Database, event_id: int) -> Bracket | None:
    with db.read() as conn:
        load_event(conn, event_id)
        return read_bracket(conn, event_id)


def final_placings(db: Database, event_id: int) -> list[tuple[int, str]]:
    """Every player's final place: the playoff's by its bracket, then the Swiss order of the
    standings now (T6, T10); without a playoff, that order. A disqualified player has no place."""
    with db.read() as conn:
        started = playoff(conn, event_id)
        table = read_standings(conn, event_id)  # now: the Swiss only, once the playoff began
        order = [line.player for line in table.rows]
        out = {line.player for line in table.rows if line.status is PlayerState.disqualified}
        bracket = read_bracket(conn, event_id, started)
    return placings(order, bracket.rounds if bracket else [], out)
