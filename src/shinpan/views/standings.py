"""The standings after a round: the matches played and the players' statuses, now or as
they stood at the moment the round was ended (T6, :mod:`shinpan.store.standings`), handed
to the tournament core, whose rules they are (points, tiebreakers, ranks:
:func:`shinpan.tournament.standings`); and the event's format they rank by (T7–T9: chosen
by :mod:`shinpan.services.formats`).

A table says which round it is after and that round's state (T5): ``ended`` (the
standings after round N), ``started`` (round N is being played: the standings so far),
``paired`` (asked for by number: nothing of round N is played yet); ``round`` None while
no round has been played (never "round 0").

A view that names no round shows **the standings now** (T6, ``now``): the results of every
ended round (and of the round being played) with every player's status as it stands now, so
a disqualification confirmed after the last round ended takes the player's rank at once
(T3). The playoff's cut and the final placings (T10) are drawn from them. Asked for by
number, the standings after round N keep the statuses of the moment it ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NotRequired, TypedDict

from shinpan.engine.event_rules import RoundState
from shinpan.errors import NotFound
from shinpan.services.context import load_event
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.results import round_entry
from shinpan.store.rounds import round_of
from shinpan.store.standings import (
    entrants,
    entrants_before,
    event_format,
    paired_at,
    played,
    playoff_round,
)
from shinpan.tournament import Standing, standings
from shinpan.tournament.formats import DEFAULT_FORMAT, AtTime, EventFormat, MatchFormat
from shinpan.tournament.tiebreakers import Tiebreaker, parse_chain


def read_format(conn: Connection, event_id: int) -> EventFormat:
    """The event's format (the defaults when it never chose one)."""
    row = event_format(conn, event_id)
    if row is None:
        return DEFAULT_FORMAT
    return EventFormat(
        MatchFormat(row.match_format), AtTime(row.time_out), parse_chain(row.tiebreakers), row.seed
    )


class FormatJson(TypedDict):
    """An event's format: its matches, what a match at time is, the tiebreakers in order."""

    format: str
    time_out: str
    tiebreakers: list[str]


def format_json(chosen: EventFormat) -> FormatJson:
    """The format as the CLI's ``--json`` and the API give it."""
    return {
        "format": chosen.match_format.value,
        "time_out": chosen.at_time.value,
        "tiebreakers": [key.value for key in chosen.chain],
    }


@dataclass(frozen=True)
class Table:
    """The standings after one round (``round`` None: no round played yet), and its state."""

    round: int | None
    rows: list[Standing]
    state: RoundState = RoundState.ended  # "none" with no round
    format: EventFormat = DEFAULT_FORMAT
    now: bool = False  # the standings now (T6): statuses as they stand now, titled 現在の順位

    @property
    def final(self) -> bool:
        """Whether these are the standings after the round ended (T6)."""
        return self.state is RoundState.ended

    def as_json(self) -> StandingsJson:
        return {
            "round": self.round,
            "state": self.state,
            "now": self.now,
            **format_json(self.format),
            "standings": [standing_json(s, self.format) for s in self.rows],
        }


def _ratio(value: Fraction) -> float:
    return round(float(value), 4)


class StandingJson(TypedDict):
    """One row of the standings (``oomw`` and ``seeded`` when the event's chain names them)."""

    rank: int | None
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    omw: float
    gw: float
    ogw: float
    status: str
    oomw: NotRequired[float]
    seeded: NotRequired[int | None]


class StandingsJson(FormatJson):
    """The standings after a round, with the event's format."""

    round: int | None
    state: RoundState
    now: bool
    standings: list[StandingJson]


def standing_json(s: Standing, chosen: EventFormat = DEFAULT_FORMAT) -> StandingJson:
    """One row as the CLI's ``--json`` and the API give it (fractions, 4 decimals): OMW, GW,
    OGW always, and a value for each other key the event's chain names."""
    row: StandingJson = {
        "rank": s.rank,
        "player": s.player,
        "points": s.points,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
        "omw": _ratio(s.omw),
        "gw": _ratio(s.gw),
        "ogw": _ratio(s.ogw),
        "status": s.status.value,
    }
    if Tiebreaker.oomw in chosen.chain:
        row["oomw"] = _ratio(s.oomw)
    if Tiebreaker.seeded in chosen.chain:
        row["seeded"] = s.seeded
    return row


def chain_cells(s: Standing, chosen: EventFormat = DEFAULT_FORMAT) -> list[tuple[str, str]]:
    """The event's tiebreakers for one row, in the chain's order (T9), as a page shows them:
    (key, value), fractions with 4 decimals, ``seeded`` as its place (a number)."""
    ratios = {Tiebreaker.omw: s.omw, Tiebreaker.gw: s.gw, Tiebreaker.ogw: s.ogw, Tiebreaker.oomw: s.oomw}
    return [
        (key.value, str(s.seeded) if key is Tiebreaker.seeded else f"{_ratio(ratios[key]):.4f}")
        for key in chosen.chain
    ]


def _default_round(conn: Connection, event_id: int, current: int) -> int:
    """The round the standings are after, when none is asked: the current one once it has
    started, else the one before it (a round paired, not started, has nothing played)."""
    row = round_of(conn, event_id, current) if current else None
    return current if row is not None and row.state is not RoundState.paired else max(current - 1, 0)


def read_standings(conn: Connection, event_id: int, round_no: int | None = None) -> Table:
    """The standings after ``round_no``: its matches and the rounds before, with the
    statuses players had at the moment it was ended (T6; a round not ended yet: their
    statuses now). None: the standings now (T6), every status as it stands now, over the
    current round once started, else the one before (the Swiss only, once a playoff began)."""
    current = load_event(conn, event_id).current_round
    now = round_no is None
    number = _default_round(conn, event_id, current) if round_no is None else round_no
    if not 0 <= number <= current:
        raise NotFound("round {round} is not paired", round=number)
    chosen = read_format(conn, event_id)
    first_playoff = playoff_round(conn, event_id)
    if first_playoff is not None and number >= first_playoff:  # the playoff ranks by its bracket (T10)
        number = first_playoff - 1
    if number == 0:
        rows = standings(entrants(conn, event_id), [], chosen.chain, chosen.seed)
        return Table(None, rows, RoundState.none, chosen, now)
    row = round_of(conn, event_id, number)
    state = (
        row.state if row is not None and number == current else RoundState.ended
    )  # an earlier round is over
    if now:
        people = entrants(conn, event_id)
    else:
        moment = round_entry(conn, event_id, "round.ended", number)
        if moment is None and number < current:  # never ended: as when the next round was paired
            moment = paired_at(conn, event_id, number + 1)
        people = entrants(conn, event_id) if moment is None else entrants_before(conn, event_id, moment)
    rows = standings(people, played(conn, event_id, number), chosen.chain, chosen.seed)
    return Table(number, rows, state, chosen, now)


def last_ended(conn: Connection, event_id: int) -> int | None:
    """The last round that has ended (T6, T12): what a printout "after round N" shows by default."""
    current = load_event(conn, event_id).current_round
    row = round_of(conn, event_id, current) if current else None
    number = current if row is not None and row.state is RoundState.ended else current - 1
    return number if number >= 1 else None


def event_standings(db: Database, event_id: int, round_no: int | None = None) -> Table:
    with db.read() as conn:
        return read_standings(conn, event_id, round_no)
