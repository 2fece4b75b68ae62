"""Typed reads of what the effects planner needs (:mod:`shinpan.engine.effects`).

A player's current match with its duels, their status and live rulings; the losses
waiting for a next match; what a set of rulings did, for undoing them. Each read is a few
indexed statements in the caller's transaction, built once.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from shinpan.engine.effects import (
    Carried,
    CausedDuel,
    LiveRuling,
    Match,
    PlayerView,
    Undoing,
    net_extensions,
    reported_by_hand,
)
from shinpan.engine.event_rules import RulingState, Status
from shinpan.store.connection import Connection, Statement
from shinpan.store.rounds import duels_to_win_in

__all__ = ["current_match", "match_at", "player_standing", "player_view", "undoing", "waiting_losses"]

# Statements run for every ruling, prepared once. One lookup per side, each on its index,
# the latest round chosen in Python: with OR and ORDER BY, SQLite (without statistics) walks
# every match of the event.
_MATCH_COLUMNS = "SELECT round, table_no, player_a, player_b, result, result_ruling FROM matches"
_MATCHES_OF = Statement(
    f"{_MATCH_COLUMNS} WHERE event_id = :e AND player_a = :p "
    f"UNION ALL {_MATCH_COLUMNS} WHERE event_id = :e AND player_b = :p"
)
_DUELS = Statement("SELECT duel, winner FROM duels WHERE event_id = :e AND round = :r AND table_no = :t")
_MATCH = Statement(f"{_MATCH_COLUMNS} WHERE event_id = :e AND round = :r AND table_no = :t")
_STATUS = Statement("SELECT status, dropped_round FROM players WHERE event_id = :e AND number = :p")
# Sorted in Python, not in SQL: with ORDER BY, SQLite (without statistics) walks the
# primary key through every ruling of the event instead of the player's index.
_LIVE = Statement(
    "SELECT number, penalties, effects, state FROM rulings WHERE event_id = :e AND player = :p "
    "AND state <> 'voided'"
)
_CARRIED = (
    "SELECT ruling, position, player, loss FROM carried_losses WHERE event_id = :e AND state = 'waiting'"
)
_WAITING = Statement(f"{_CARRIED} ORDER BY ruling, position")


def _match(conn: Connection, event_id: int, row: tuple[Any, ...]) -> Match:
    round_no, table, a, b, result, result_ruling = row
    found = _DUELS.all(conn, {"e": event_id, "r": round_no, "t": table})
    return Match(
        round=int(round_no),
        table=int(table),
        a=a,
        b=b,
        result=result,
        result_ruling=result_ruling,
        duels={int(duel): winner for duel, winner in found if winner is not None},
        drawn=frozenset(int(duel) for duel, winner in found if winner is None),
        duels_to_win=duels_to_win_in(conn, event_id),
    )


def current_match(conn: Connection, event_id: int, player: str) -> Match | None:
    """The player's match in the latest round they were paired in, with its duels."""
    found = _MATCHES_OF.all(conn, {"e": event_id, "p": player})
    row = max(found, key=lambda m: int(m[0]), default=None)
    return _match(conn, event_id, row) if row is not None else None


def match_at(conn: Connection, event_id: int, round_no: int, table: int) -> Match | None:
    """The match at ``table`` in round ``round_no``, with its duels."""
    row = _MATCH.first(conn, {"e": event_id, "r": round_no, "t": table})
    return _match(conn, event_id, row) if row is not None else None


def _live(
    conn: Connection, event_id: int, player: str, leave_out: Collection[int] = ()
) -> tuple[LiveRuling, ...]:
    rows = _LIVE.all(conn, {"e": event_id, "p": player})
    return tuple(
        LiveRuling(int(n), (*json.loads(penalties), *json.loads(effects)), state == RulingState.pending)
        for n, penalties, effects, state in sorted(rows, key=lambda r: int(r[0]))
        if n not in leave_out
    )


def _status(conn: Connection, event_id: int, player: str) -> tuple[Status | None, bool]:
    """The player's status, and whether they dropped."""
    row = _STATUS.first(conn, {"e": event_id, "p": player})
    return (Status(row[0]), row[1] is not None) if row else (None, False)


def player_standing(conn: Connection, event_id: int, player: str) -> tuple[Status | None, bool]:
    """The player's status (None: not a player of the event), and whether they dropped."""
    return _status(conn, event_id, player)


def player_view(
    conn: Connection, event_id: int, player: str, *, match: bool = True, standing: bool = True
) -> PlayerView:
    """The player as the planner needs them: their current match (``match``), their status
    and live rulings (``standing``); what is not asked for is not read."""
    status, dropped = _status(conn, event_id, player) if standing else (None, False)
    return PlayerView(
        player=player,
        status=status,
        match=current_match(conn, event_id, player) if match else None,
        live=_live(conn, event_id, player) if standing else (),
        dropped=dropped,
    )


def _without(conn: Connection, event_id: int, player: str, numbers: Collection[int]) -> PlayerView:
    """The player's standing as if these rulings had never been made (no match: undoing
    never ends one)."""
    status, dropped = _status(conn, event_id, player)
    return PlayerView(player, status, None, _live(conn, event_id, player, leave_out=numbers), dropped)


def waiting_losses(conn: Connection, event_id: int) -> list[Carried]:
    """The losses waiting for their players' next match, in the order they were given."""
    return [_carried(c) for c in _WAITING.all(conn, {"e": event_id})]


def _carried(row: tuple[Any, ...]) -> Carried:
    ruling, position, player, loss = row
    return Carried(int(ruling), int(position), player, loss)


# What a void or a deviation undoes: the rulings of one record and their follow-ups, a
# handful of numbers (an IN list far below the database's limit on bound parameters).
_FIRST_ENTRY = Statement("SELECT min(entry_seq) FROM rulings WHERE event_id = :e AND number IN (:n)")
_CAUSED_DUELS = Statement(
    "SELECT round, table_no, duel FROM duels WHERE event_id = :e AND cause_ruling IN (:n) "
    "ORDER BY round, table_no, duel"
)
_DECIDED = Statement("SELECT round, table_no FROM matches WHERE event_id = :e AND result_ruling IN (:n)")
_CARRIED_BY = Statement(f"{_CARRIED} AND ruling IN (:n) ORDER BY ruling, position")
# Without DISTINCT, which SQLite answers by walking the event's rulings in player order.
_CONCERNED = Statement("SELECT player FROM rulings WHERE event_id = :e AND number IN (:n)")


def undoing(conn: Connection, event_id: int, numbers: Collection[int]) -> Undoing:
    """What these rulings did, as the ledger shows it now (for a void or a deviation)."""
    wanted = frozenset(numbers)
    params = {"e": event_id, "n": sorted(wanted)}
    since = int(_FIRST_ENTRY.scalar(conn, params) or 0)  # what they did comes after it
    caused = [CausedDuel((int(r), int(t)), int(d)) for r, t, d in _CAUSED_DUELS.all(conn, params)]
    decided = [(int(r), int(t)) for r, t in _DECIDED.all(conn, params)]
    keys = {c.match for c in caused} | set(decided)
    touched = {key: m for key in sorted(keys) if (m := match_at(conn, event_id, *key)) is not None}
    return Undoing(
        numbers=wanted,
        matches=touched,
        duels=tuple(caused),
        by_hand=frozenset(k for k in {c.match for c in caused} if _by_hand(conn, event_id, k, since)),
        extensions=tuple(net_extensions(_extended(conn, event_id, since), wanted)),
        carried=tuple(_carried(c) for c in _CARRIED_BY.all(conn, params)),
        players=tuple(
            _without(conn, event_id, p, wanted) for p in sorted(set(_CONCERNED.scalars(conn, params)))
        ),
    )


# Undoing reads the ledger from the rulings' first entry on, not the whole event's.
_RESULTS_SINCE = Statement(
    "SELECT kind, body FROM entries WHERE event_id = :e AND seq >= :since "
    "AND kind IN ('match.result', 'duel.result', 'result.reported') ORDER BY seq"
)
_EXTENDED_SINCE = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND seq >= :since AND kind = 'match.extended' ORDER BY seq"
)


def _by_hand(conn: Connection, event_id: int, key: tuple[int, int], since: int) -> bool:
    results = []
    for kind, raw in _RESULTS_SINCE.all(conn, {"e": event_id, "since": since}):
        b = json.loads(raw)
        if (b["round"], b["table"]) == key and kind == "result.reported":  # the scorekeeper's (T11)
            set_result = b.get("result") is not None
            if b["duels"] and not b["whole"]:  # one duel reported: as a duel that decides
                results.append(("duel.result", False, set_result))
            else:  # a score or a result without duels: by hand
                results.append(("match.result", set_result, False))
        elif (b["round"], b["table"]) == key:
            by_scorekeeper = b.get("result") is not None and b.get("cause_ruling") is None
            results.append((kind, by_scorekeeper, "match_result" in b))
    return reported_by_hand(results)


def _extended(conn: Connection, event_id: int, since: int) -> list[tuple[int, int, int, int]]:
    rows = _EXTENDED_SINCE.scalars(conn, {"e": event_id, "since": since})
    return [(b["round"], b["table"], b["delta"], b.get("cause_ruling")) for b in map(json.loads, rows)]
