"""Typed reads of what the effects planner needs (:mod:`shinpan.engine.effects`).

A player's current match with its duels, their status and live rulings; the losses
waiting for a next match; what a set of rulings did, for undoing them. Each read is a few
indexed statements in the caller's transaction, built once.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from sqlalchemy import Row, bindparam, func, select, text, union_all

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
from shinpan.engine.event_rules import Status
from shinpan.store.connection import Connection
from shinpan.store.schema import carried_losses, duels, matches, players, rulings

__all__ = ["current_match", "match_at", "player_view", "undoing", "waiting_losses"]

# Statements run for every ruling, built once (building one costs more than running it).
# One lookup per side, each on its index, the latest round chosen in Python: with OR and
# ORDER BY, SQLite (without statistics) walks every match of the event.
_MATCHES_OF = union_all(
    *(select(matches).where(matches.c.event_id == bindparam("e"), side == bindparam("p"))
      for side in (matches.c.player_a, matches.c.player_b))
)  # fmt: skip
_DUELS = select(duels.c.duel, duels.c.winner).where(
    duels.c.event_id == bindparam("e"), duels.c.round == bindparam("r"), duels.c.table_no == bindparam("t")
)
_MATCH = select(matches).where(
    matches.c.event_id == bindparam("e"),
    matches.c.round == bindparam("r"),
    matches.c.table_no == bindparam("t"),
)
_STATUS = select(players.c.status, players.c.dropped_round).where(
    players.c.event_id == bindparam("e"), players.c.number == bindparam("p")
)
_LIVE = select(rulings.c.number, rulings.c.penalties, rulings.c.effects, rulings.c.state).where(
    rulings.c.event_id == bindparam("e"), rulings.c.player == bindparam("p"), rulings.c.state != "voided"
)
_WAITING = (
    select(carried_losses)
    .where(carried_losses.c.event_id == bindparam("e"), carried_losses.c.state == "waiting")
    .order_by(carried_losses.c.ruling, carried_losses.c.position)
)


def _match(conn: Connection, row: Row[Any]) -> Match:
    found = conn.execute(_DUELS, {"e": row.event_id, "r": row.round, "t": row.table_no})
    return Match(
        round=int(row.round),
        table=int(row.table_no),
        a=row.player_a,
        b=row.player_b,
        result=row.result,
        result_ruling=row.result_ruling,
        duels={int(d.duel): d.winner for d in found if d.winner is not None},
    )


def current_match(conn: Connection, event_id: int, player: str) -> Match | None:
    """The player's match in the latest round they were paired in, with its duels."""
    found = conn.execute(_MATCHES_OF, {"e": event_id, "p": player})
    row = max(found, key=lambda m: int(m.round), default=None)
    return _match(conn, row) if row is not None else None


def match_at(conn: Connection, event_id: int, round_no: int, table: int) -> Match | None:
    """The match at ``table`` in round ``round_no``, with its duels."""
    row = conn.execute(_MATCH, {"e": event_id, "r": round_no, "t": table}).first()
    return _match(conn, row) if row is not None else None


def _live(
    conn: Connection, event_id: int, player: str, leave_out: Collection[int] = ()
) -> tuple[LiveRuling, ...]:
    rows = conn.execute(_LIVE, {"e": event_id, "p": player})
    return tuple(
        LiveRuling(int(r.number), (*json.loads(r.penalties), *json.loads(r.effects)), r.state == "pending")
        for r in sorted(rows, key=lambda r: int(r.number))
        if r.number not in leave_out
    )


def _status(conn: Connection, event_id: int, player: str) -> tuple[Status | None, bool]:
    """The player's status, and whether they dropped."""
    row = conn.execute(_STATUS, {"e": event_id, "p": player}).first()
    return (Status(row.status), row.dropped_round is not None) if row else (None, False)


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
    return [
        Carried(int(c.ruling), int(c.position), c.player, c.loss)
        for c in conn.execute(_WAITING, {"e": event_id})
    ]


def undoing(conn: Connection, event_id: int, numbers: Collection[int]) -> Undoing:
    """What these rulings did, as the ledger shows it now (for a void or a deviation)."""
    wanted = frozenset(numbers)
    since = _since(conn, event_id, wanted)
    caused = [
        CausedDuel((int(d.round), int(d.table_no)), int(d.duel))
        for d in conn.execute(
            select(duels.c.round, duels.c.table_no, duels.c.duel)
            .where(duels.c.event_id == event_id, duels.c.cause_ruling.in_(wanted))
            .order_by(duels.c.round, duels.c.table_no, duels.c.duel)
        )
    ]
    decided = conn.execute(
        select(matches.c.round, matches.c.table_no).where(
            matches.c.event_id == event_id, matches.c.result_ruling.in_(wanted)
        )
    ).all()
    keys = {c.match for c in caused} | {(int(m.round), int(m.table_no)) for m in decided}
    touched = {key: m for key in sorted(keys) if (m := match_at(conn, event_id, *key)) is not None}
    waiting = conn.execute(
        select(carried_losses)
        .where(
            carried_losses.c.event_id == event_id,
            carried_losses.c.ruling.in_(wanted),
            carried_losses.c.state == "waiting",
        )
        .order_by(carried_losses.c.ruling, carried_losses.c.position)
    ).all()
    concerned = conn.execute(
        select(rulings.c.player)
        .where(rulings.c.event_id == event_id, rulings.c.number.in_(wanted))
        .distinct()
    ).scalars()
    return Undoing(
        numbers=wanted,
        matches=touched,
        duels=tuple(caused),
        by_hand=frozenset(k for k in {c.match for c in caused} if _by_hand(conn, event_id, k, since)),
        extensions=tuple(net_extensions(_extended(conn, event_id, since), wanted)),
        carried=tuple(Carried(int(c.ruling), int(c.position), c.player, c.loss) for c in waiting),
        players=tuple(_without(conn, event_id, p, wanted) for p in sorted(concerned)),
    )


def _since(conn: Connection, event_id: int, numbers: Collection[int]) -> int:
    """The first entry of these rulings: what they did comes after it, so undoing them reads
    the ledger from there on, not the whole event's."""
    first = conn.execute(
        select(func.min(rulings.c.entry_seq)).where(
            rulings.c.event_id == event_id, rulings.c.number.in_(numbers)
        )
    ).scalar()
    return int(first or 0)


_RESULTS_SINCE = text(
    "SELECT kind, body FROM entries WHERE event_id = :e AND seq >= :since "
    "AND kind IN ('match.result', 'duel.result') ORDER BY seq"
)
_EXTENDED_SINCE = text(
    "SELECT body FROM entries WHERE event_id = :e AND seq >= :since AND kind = 'match.extended' ORDER BY seq"
)


def _by_hand(conn: Connection, event_id: int, key: tuple[int, int], since: int) -> bool:
    results = []
    for kind, raw in conn.execute(_RESULTS_SINCE, {"e": event_id, "since": since}):
        b = json.loads(raw)
        if (b["round"], b["table"]) == key:
            by_scorekeeper = b.get("result") is not None and b.get("cause_ruling") is None
            results.append((kind, by_scorekeeper, "match_result" in b))
    return reported_by_hand(results)


def _extended(conn: Connection, event_id: int, since: int) -> list[tuple[int, int, int, int]]:
    rows = conn.execute(_EXTENDED_SINCE, {"e": event_id, "since": since})
    return [
        (b["round"], b["table"], b["delta"], b.get("cause_ruling"))
        for b in (json.loads(raw) for (raw,) in rows)
    ]
