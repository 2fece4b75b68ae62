"""Typed reads of what standings and pairings are made of (:mod:`shinpan.tournament`): the
matches played with their duels, and the players' statuses, now or as the ledger had them
before a given entry.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement
from shinpan.tournament import Entrant, Played, PlayerState

__all__ = [
    "FormatRow",
    "PlayoffRow",
    "entrants",
    "entrants_before",
    "event_format",
    "paired_at",
    "played",
    "playoff",
    "playoff_round",
]

_MATCHES = (
    "SELECT round, table_no, player_a, player_b, result, result_ruling FROM matches WHERE event_id = :e"
)
_DUELS = "SELECT round, table_no, duel, winner FROM duels WHERE event_id = :e"
_ALL = (Statement(_MATCHES + " ORDER BY round, table_no"), Statement(_DUELS))
_UP_TO = (
    Statement(_MATCHES + " AND round <= :r ORDER BY round, table_no"),
    Statement(_DUELS + " AND round <= :r"),
)
_ENTRANTS = Statement("SELECT number, status FROM players WHERE event_id = :e ORDER BY number")
_PAIRINGS = Statement(
    "SELECT seq, body FROM entries WHERE event_id = :e AND kind = 'round.paired' ORDER BY seq"
)
_FORMAT = Statement("SELECT match_format, time_out, tiebreakers, format_seed FROM events WHERE event_id = :e")
_PLAYOFF_ROUND = Statement("SELECT playoff_round FROM events WHERE event_id = :e")
_PLAYOFF = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'playoff.started' ORDER BY seq LIMIT 1"
)
_STATUS_CHANGES = Statement(
    "SELECT kind, body FROM entries WHERE event_id = :e AND seq < :s "
    "AND kind IN ('player.status', 'player.dropped') ORDER BY seq"
)


def played(conn: Connection, event_id: int, up_to_round: int | None = None) -> list[Played]:
    """Every match of the event (of rounds up to ``up_to_round``), as results count it: a
    match that a ruling gave to one player (a match loss, or leaving during it, D22) is
    ``by_penalty``; a duel's winner in duel order."""
    match_query, duel_query = _ALL if up_to_round is None else _UP_TO
    params = {"e": event_id} if up_to_round is None else {"e": event_id, "r": up_to_round}
    winners: dict[tuple[int, int], dict[int, str | None]] = {}
    for round_no, table, duel, winner in duel_query.all(conn, params):
        winners.setdefault((int(round_no), int(table)), {})[int(duel)] = winner
    out = []
    for round_no, table, a, b, result, result_ruling in match_query.all(conn, params):
        won = winners.get((int(round_no), int(table)), {})
        out.append(
            Played(
                round=int(round_no),
                a=a,
                b=b,
                result=result,
                duels=tuple(won[n] for n in sorted(won)),
                by_penalty=result_ruling is not None and result in ("a", "b") and b is not None,
            )
        )
    return out


def entrants(conn: Connection, event_id: int) -> list[Entrant]:
    """Every player with their status now (an ejection or disqualification waiting for the
    head judge has changed no status yet, D17), by id."""
    return [Entrant(number, PlayerState(status)) for number, status in _ENTRANTS.all(conn, {"e": event_id})]


def paired_at(conn: Connection, event_id: int, round_no: int) -> int | None:
    """The entry that paired ``round_no``, if it is paired."""
    for seq, body in _PAIRINGS.all(conn, {"e": event_id}):
        if json.loads(body)["round"] == round_no:
            return int(seq)
    return None


def entrants_before(conn: Connection, event_id: int, seq: int) -> list[Entrant]:
    """Every player with the status the entries before ``seq`` gave them."""
    status = {e.player: PlayerState.active for e in entrants(conn, event_id)}
    for kind, body in _STATUS_CHANGES.all(conn, {"e": event_id, "s": seq}):
        b = json.loads(body)
        status[b["player"]] = PlayerState.dropped if kind == "player.dropped" else PlayerState(b["status"])
    return [Entrant(p, s) for p, s in sorted(status.items())]


class FormatRow(NamedTuple):
    """The event's format as its last ``event.format`` entry wrote it."""

    match_format: str
    time_out: str
    tiebreakers: str
    seed: int


def event_format(conn: Connection, event_id: int) -> FormatRow | None:
    """The format the event chose last (None: it never chose one, the defaults hold), as
    its ``event.format`` entries projected it on the event's row."""
    row = _FORMAT.first(conn, {"e": event_id})
    if row is None or row[0] is None:
        return None
    return FormatRow(str(row[0]), str(row[1]), str(row[2]), int(row[3]))


def playoff_round(conn: Connection, event_id: int) -> int | None:
    """The first round of the event's playoff (None: it has not started one)."""
    found = _PLAYOFF_ROUND.scalar(conn, {"e": event_id})
    return int(found) if found is not None else None


class PlayoffRow(NamedTuple):
    """The playoff as its ``playoff.started`` entry wrote it."""

    round: int
    size: int
    third_place: bool
    entrants: tuple[str, ...]
    seed: int


def playoff(conn: Connection, event_id: int) -> PlayoffRow | None:
    """The event's playoff (None: it has not started one, as the event's row says at once)."""
    if playoff_round(conn, event_id) is None:
        return None
    body = _PLAYOFF.scalar(conn, {"e": event_id})
    if body is None:
        return None
    b = json.loads(body)
    return PlayoffRow(
        int(b["round"]), int(b["size"]), bool(b["third_place"]), tuple(b["entrants"]), int(b["seed"])
    )
