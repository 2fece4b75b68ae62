"""The venue wall from the ledger: a round's pairings and the standings, read through the
services and laid out by :mod:`shinpan.reports.wall` (``shinpan report pairings|standings``,
and the print links of the scorekeeper page)."""

from __future__ import annotations

from dataclasses import replace

from shinpan.errors import Conflict
from shinpan.reports.bracket import WallBracket, wall_bracket
from shinpan.reports.wall import (
    WallPairings,
    WallStandings,
    pairing_rows,
    pairings_by_name,
    pairings_by_table,
    standing_rows,
    wall_standings,
)
from shinpan.services.context import load_event, stamp
from shinpan.services.heads import read_heads
from shinpan.services.playoff import final_placings, read_bracket
from shinpan.services.queries import round_matches
from shinpan.store.db import Database
from shinpan.store.roster import names
from shinpan.store.standings import playoff
from shinpan.tournament import Pairing
from shinpan.views.standings import last_ended, read_standings

ORDERS = ("table", "name")


def venue_pairings(
    db: Database, event_id: int, round_no: int | None = None, order: str = "table"
) -> WallPairings:
    """A round's pairings (default: the current round), by table or by name (50-on)."""
    with db.one_view() as conn:  # the pairings and the ledger's head of one moment
        paired = round_matches(db, event_id, round_no)
        event = load_event(conn, event_id)
        people = {n: (p.name, p.reading) for n, p in names(conn, event_id).items()}
        heads = read_heads(conn, [event_id])
    pairings = [
        Pairing(m["table"] if m["player_b"] else None, m["player_a"], m["player_b"])
        for m in paired["matches"]
    ]
    lay_out = pairings_by_name if order == "name" else pairings_by_table
    sheet = lay_out(
        event.name,
        paired["round"],
        pairing_rows(pairings, people),
        generated_at=stamp(),
        time_zone=event.time_zone,
    )
    return replace(sheet, heads=heads)


def venue_standings(db: Database, event_id: int, round_no: int | None = None) -> WallStandings:
    """The standings as they stood at the end of ``round_no`` (default: the last round
    ended), statuses as at that moment (T6); a round not ended has no such standings."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        number = round_no if round_no is not None else last_ended(conn, event_id)
        if number is None:
            raise Conflict("no round has ended yet: there are no standings to print")
        table = read_standings(conn, event_id, number)
        if table.round is None or not table.final:
            raise Conflict("round {round} has not ended: its standings are not final yet", round=number)
        people = {n: (p.name, p.reading) for n, p in names(conn, event_id).items()}
        heads = read_heads(conn, [event_id])
    sheet = wall_standings(
        event.name,
        table.round,
        standing_rows(table.rows, people),
        generated_at=stamp(),
        time_zone=event.time_zone,
        chain=[key.value for key in table.format.chain],
    )
    return replace(sheet, heads=heads)


def venue_bracket(db: Database, event_id: int) -> WallBracket:
    """The playoff's bracket as it stands, with the final placings once the final is decided."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        started = playoff(conn, event_id)
        bracket = read_bracket(conn, event_id, started)
        people = {n: (p.name, p.reading) for n, p in names(conn, event_id).items()}
        heads = read_heads(conn, [event_id])
    rounds = [row["matches"] for row in bracket.as_json()["rounds"]] if bracket else []
    placed = final_placings(db, event_id) if bracket else []
    sheet = wall_bracket(
        event.name,
        started.size if started else 0,
        started.round if started else 0,
        rounds,
        placed,
        people,
        generated_at=stamp(),
        time_zone=event.time_zone,
    )
    return replace(sheet, heads=heads)
