"""The event as the tournament core reads it: the matches played and the players' statuses,
now or as they stood at the end of a round; and the standings made of them.

The rules (points, tiebreakers, ranks) are :func:`shinpan.tournament.standings`'; this
module only reads the ledger's projections (and, for an earlier round, the entries that
changed statuses) and hands them over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, select

from shinpan.errors import NotFound
from shinpan.services.context import load_event
from shinpan.store.db import Database
from shinpan.store.schema import duels, entries, matches, players
from shinpan.tournament import Entrant, Played, PlayerState, Standing, standings


def played(conn: Connection, event_id: int, up_to_round: int | None = None) -> list[Played]:
    """Every match of the event (of rounds up to ``up_to_round``), as results count it: a
    match that a ruling gave to one player (a match loss, or leaving during it, D22) is
    ``by_penalty``; a duel's winner in duel order."""
    query = select(matches).where(matches.c.event_id == event_id)
    duel_query = select(duels).where(duels.c.event_id == event_id)
    if up_to_round is not None:
        query = query.where(matches.c.round <= up_to_round)
        duel_query = duel_query.where(duels.c.round <= up_to_round)
    winners: dict[tuple[int, int], dict[int, str | None]] = {}
    for d in conn.execute(duel_query):
        winners.setdefault((d.round, d.table_no), {})[d.duel] = d.winner
    out = []
    for m in conn.execute(query.order_by(matches.c.round, matches.c.table_no)):
        won = winners.get((m.round, m.table_no), {})
        out.append(
            Played(
                round=m.round,
                a=m.player_a,
                b=m.player_b,
                result=m.result,
                duels=tuple(won[n] for n in sorted(won)),
                by_penalty=m.result_ruling is not None and m.result in ("a", "b") and m.player_b is not None,
            )
        )
    return out


def entrants(conn: Connection, event_id: int) -> list[Entrant]:
    """Every player with their status now (an ejection or disqualification waiting for the
    head judge has changed no status yet, D17)."""
    rows = conn.execute(
        select(players.c.number, players.c.status)
        .where(players.c.event_id == event_id)
        .order_by(players.c.number)
    )
    return [Entrant(r.number, PlayerState(r.status)) for r in rows]


def _paired_seq(conn: Connection, event_id: int, round_no: int) -> int | None:
    """The entry that paired ``round_no``, if it is paired."""
    rows = conn.execute(
        select(entries.c.seq, entries.c.body)
        .where(entries.c.event_id == event_id, entries.c.kind == "round.paired")
        .order_by(entries.c.seq)
    )
    for seq, body in rows:
        if json.loads(body)["round"] == round_no:
            return int(seq)
    return None


def entrants_before(conn: Connection, event_id: int, seq: int) -> list[Entrant]:
    """Every player with the status the entries before ``seq`` gave them."""
    status = {e.player: PlayerState.active for e in entrants(conn, event_id)}
    rows = conn.execute(
        select(entries.c.kind, entries.c.body)
        .where(
            entries.c.event_id == event_id,
            entries.c.seq < seq,
            entries.c.kind.in_(("player.status", "player.dropped")),
        )
        .order_by(entries.c.seq)
    )
    for kind, body in rows:
        b = json.loads(body)
        status[b["player"]] = PlayerState.dropped if kind == "player.dropped" else PlayerState(b["status"])
    return [Entrant(p, s) for p, s in sorted(status.items())]


@dataclass(frozen=True)
class Table:
    """The standings after one round."""

    round: int
    rows: list[Standing]

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "standings": [standing_json(s) for s in self.rows]}


def _ratio(value: Fraction) -> float:
    return round(float(value), 4)


def standing_json(s: Standing) -> dict[str, Any]:
    """One row as the CLI's ``--json`` and the API give it (fractions, 4 decimals)."""
    return {
        "rank": s.rank, "player": s.player, "points": s.points, "wins": s.wins, "losses": s.losses,
        "draws": s.draws, "omw": _ratio(s.omw), "gw": _ratio(s.gw), "ogw": _ratio(s.ogw),
        "status": s.status.value,
    }  # fmt: skip


def read_standings(conn: Connection, event_id: int, round_no: int | None = None) -> Table:
    """The standings after ``round_no`` (default: the current round): its matches and the
    rounds before, with the statuses players had when the next round was paired."""
    current = load_event(conn, event_id).current_round
    number = current if round_no is None else round_no
    if not 0 <= number <= current:
        raise NotFound("round {round} is not paired", round=number)
    following = _paired_seq(conn, event_id, number + 1) if number < current else None
    people = entrants(conn, event_id) if following is None else entrants_before(conn, event_id, following)
    return Table(number, standings(people, played(conn, event_id, number)))


def event_standings(db: Database, event_id: int, round_no: int | None = None) -> Table:
    with db.read() as conn:
        return read_standings(conn, event_id, round_no)
