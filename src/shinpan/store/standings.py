"""Typed reads of what standings and pairings are made of (:mod:`shinpan.tournament`): the
matches played with their duels, and the players' statuses, now or as the ledger had them
before a given entry.
"""

from __future__ import annotations

import json

from sqlalchemy import bindparam, select

from shinpan.store.connection import Connection
from shinpan.store.schema import duels, entries, matches, players
from shinpan.tournament import Entrant, Played, PlayerState

__all__ = ["entrants", "entrants_before", "paired_at", "played"]

_MATCHES = select(matches).where(matches.c.event_id == bindparam("e"))
_DUELS = select(duels).where(duels.c.event_id == bindparam("e"))
_ALL = (
    _MATCHES.order_by(matches.c.round, matches.c.table_no),
    _DUELS,
)
_UP_TO = (
    _MATCHES.where(matches.c.round <= bindparam("r")).order_by(matches.c.round, matches.c.table_no),
    _DUELS.where(duels.c.round <= bindparam("r")),
)
_ENTRANTS = (
    select(players.c.number, players.c.status)
    .where(players.c.event_id == bindparam("e"))
    .order_by(players.c.number)
)
_PAIRINGS = (
    select(entries.c.seq, entries.c.body)
    .where(entries.c.event_id == bindparam("e"), entries.c.kind == "round.paired")
    .order_by(entries.c.seq)
)
_STATUS_CHANGES = (
    select(entries.c.kind, entries.c.body)
    .where(
        entries.c.event_id == bindparam("e"),
        entries.c.seq < bindparam("s"),
        entries.c.kind.in_(("player.status", "player.dropped")),
    )
    .order_by(entries.c.seq)
)


def played(conn: Connection, event_id: int, up_to_round: int | None = None) -> list[Played]:
    """Every match of the event (of rounds up to ``up_to_round``), as results count it: a
    match that a ruling gave to one player (a match loss, or leaving during it, D22) is
    ``by_penalty``; a duel's winner in duel order."""
    match_query, duel_query = _ALL if up_to_round is None else _UP_TO
    params = {"e": event_id} if up_to_round is None else {"e": event_id, "r": up_to_round}
    winners: dict[tuple[int, int], dict[int, str | None]] = {}
    for d in conn.execute(duel_query, params):
        winners.setdefault((d.round, d.table_no), {})[d.duel] = d.winner
    out = []
    for m in conn.execute(match_query, params):
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
    head judge has changed no status yet, D17), by id."""
    return [Entrant(r.number, PlayerState(r.status)) for r in conn.execute(_ENTRANTS, {"e": event_id})]


def paired_at(conn: Connection, event_id: int, round_no: int) -> int | None:
    """The entry that paired ``round_no``, if it is paired."""
    for seq, body in conn.execute(_PAIRINGS, {"e": event_id}):
        if json.loads(body)["round"] == round_no:
            return int(seq)
    return None


def entrants_before(conn: Connection, event_id: int, seq: int) -> list[Entrant]:
    """Every player with the status the entries before ``seq`` gave them."""
    status = {e.player: PlayerState.active for e in entrants(conn, event_id)}
    for kind, body in conn.execute(_STATUS_CHANGES, {"e": event_id, "s": seq}):
        b = json.loads(body)
        status[b["player"]] = PlayerState.dropped if kind == "player.dropped" else PlayerState(b["status"])
    return [Entrant(p, s) for p, s in sorted(status.items())]
