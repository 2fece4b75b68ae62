"""The standings after a round: the matches played and the players' statuses, now or as
they stood when the next round was paired (:mod:`shinpan.store.standings`), handed to the
tournament core, whose rules they are (points, tiebreakers, ranks:
:func:`shinpan.tournament.standings`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from shinpan.errors import NotFound
from shinpan.services.context import load_event
from shinpan.services.formats import format_json, read_format
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.standings import entrants, entrants_before, paired_at, played, playoff
from shinpan.tournament import Standing, standings
from shinpan.tournament.formats import DEFAULT_FORMAT, EventFormat
from shinpan.tournament.tiebreakers import Tiebreaker


@dataclass(frozen=True)
class Table:
    """The standings after one round."""

    round: int
    rows: list[Standing]
    format: EventFormat = DEFAULT_FORMAT

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            **format_json(self.format),
            "standings": [standing_json(s, self.format) for s in self.rows],
        }


def _ratio(value: Fraction) -> float:
    return round(float(value), 4)


def standing_json(s: Standing, chosen: EventFormat = DEFAULT_FORMAT) -> dict[str, Any]:
    """One row as the CLI's ``--json`` and the API give it (fractions, 4 decimals): OMW, GW,
    OGW always, and a value for each other key the event's chain names."""
    row: dict[str, Any] = {
        "rank": s.rank, "player": s.player, "points": s.points, "wins": s.wins, "losses": s.losses,
        "draws": s.draws, "omw": _ratio(s.omw), "gw": _ratio(s.gw), "ogw": _ratio(s.ogw),
        "status": s.status.value,
    }  # fmt: skip
    if Tiebreaker.oomw in chosen.chain:
        row["oomw"] = _ratio(s.oomw)
    if Tiebreaker.seeded in chosen.chain:
        row["seeded"] = s.seeded
    return row


def read_standings(conn: Connection, event_id: int, round_no: int | None = None) -> Table:
    """The standings after ``round_no`` (default: the current round): its matches and the
    rounds before, with the statuses players had when the next round was paired."""
    current = load_event(conn, event_id).current_round
    number = current if round_no is None else round_no
    if not 0 <= number <= current:
        raise NotFound("round {round} is not paired", round=number)
    started = playoff(conn, event_id)
    if started is not None and number >= started.round:  # the playoff ranks by its bracket (T10)
        number = started.round - 1
    following = paired_at(conn, event_id, number + 1) if number < current else None
    people = entrants(conn, event_id) if following is None else entrants_before(conn, event_id, following)
    chosen = read_format(conn, event_id)
    return Table(number, standings(people, played(conn, event_id, number), chosen.chain, chosen.seed), chosen)


def event_standings(db: Database, event_id: int, round_no: int | None = None) -> Table:
    with db.read() as conn:
        return read_standings(conn, event_id, round_no)
