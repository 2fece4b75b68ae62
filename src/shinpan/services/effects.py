"""What rulings do to the event (D10, D14, D17, D22), written as ledger entries.

A duel loss lands on the player's current duel, or waits for their next match when none is
in progress; a match loss on the current match, or the next one when it has ended; the
opponent wins it. ``match_draw``, ``time_extension``, ``withdrawn``, ejection and
disqualification change the match or the player's status; an ejection or a
disqualification only once the head judge confirms it (D17). Leaving the event while the
match is being played ends it as a loss (D22). Undoing a ruling (void, deviation)
reverses exactly what it did, as new entries.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, select, text, union_all

from shinpan.engine.event_rules import (
    STATUS_CODES,
    Status,
    duel_loss_lands,
    ends_match,
    match_loss_lands,
    next_duel,
    status_codes_now,
    status_of,
)
from shinpan.store.ledger import Appender
from shinpan.store.schema import carried_losses, duels, matches, players, rulings

DUELS_TO_WIN = 2


def current_match(conn: Connection, event_id: int, player: str) -> Row[Any] | None:
    """The player's match in the latest round they were paired in."""
    # One lookup per side, each on its index, the latest round chosen here: with OR and
    # ORDER BY, SQLite (without statistics) walks every match of the event.
    found = conn.execute(_MATCHES_OF, {"e": event_id, "p": player})
    return max(found, key=lambda m: int(m.round), default=None)


# Statements run for every ruling, built once (building one costs more than running it).
_MATCHES_OF = union_all(
    *(select(matches).where(matches.c.event_id == bindparam("e"), side == bindparam("p"))
      for side in (matches.c.player_a, matches.c.player_b))
)  # fmt: skip
_DUELS = select(duels.c.duel, duels.c.winner).where(
    duels.c.event_id == bindparam("e"), duels.c.round == bindparam("r"), duels.c.table_no == bindparam("t")
)
_DROPPED = select(players.c.dropped_round).where(
    players.c.event_id == bindparam("e"), players.c.number == bindparam("p")
)
_STATUS = select(players.c.status).where(
    players.c.event_id == bindparam("e"), players.c.number == bindparam("p")
)


def _opponent(match: Row[Any], player: str) -> str | None:
    other = match.player_b if match.player_a == player else match.player_a
    return str(other) if other is not None else None


def _side(match: Row[Any], player: str) -> str:
    return "a" if match.player_a == player else "b"


def _duel_winners(conn: Connection, m: Row[Any]) -> dict[int, str]:
    rows = conn.execute(_DUELS, {"e": m.event_id, "r": m.round, "t": m.table_no})
    return {r.duel: r.winner for r in rows}


def duel_numbers(conn: Connection, m: Row[Any]) -> set[int]:
    """The duels of the match decided so far."""
    return set(_duel_winners(conn, m))


def _result_from_duels(m: Row[Any], winners: dict[int, str]) -> str | None:
    for player in (m.player_a, m.player_b):
        if player is not None and sum(1 for w in winners.values() if w == player) >= DUELS_TO_WIN:
            return _side(m, player)
    return None


def result_after_duel(conn: Connection, m: Row[Any], duel: int, winner: str) -> str | None:
    """The match's result once ``winner`` takes ``duel``, when the duels decide it."""
    winners = _duel_winners(conn, m)
    winners[duel] = winner
    return _result_from_duels(m, winners)


def _in_progress(m: Row[Any] | None) -> bool:
    return m is not None and m.result is None and m.player_b is not None


def land_duel_loss(ap: Appender, ruling: int, position: int, player: str) -> None:
    """D10: the opponent wins the player's current duel, or the loss waits for the next match."""
    m = current_match(ap.conn, ap.event_id, player)
    if m is None or duel_loss_lands(_in_progress(m)).value == "next":
        _carry(ap, ruling, position, player, "duel_loss")
        return
    opponent = _opponent(m, player)
    winners = _duel_winners(ap.conn, m)
    duel = next_duel(winners)
    winners[duel] = str(opponent)
    body: dict[str, Any] = {
        "round": m.round, "table": m.table_no, "duel": duel, "winner": opponent, "cause_ruling": ruling,
    }  # fmt: skip
    decided = _result_from_duels(m, winners)
    if decided:
        body["match_result"] = decided
    ap.append("duel.result", body)


def land_match_loss(ap: Appender, ruling: int, position: int, player: str) -> None:
    """D10: the opponent wins the current match, or the loss waits for the next one."""
    m = current_match(ap.conn, ap.event_id, player)
    if m is None or match_loss_lands(not _in_progress(m)).value == "next":
        _carry(ap, ruling, position, player, "match_loss")
        return
    _opponent_wins(ap, m, player, ruling)


def _opponent_wins(ap: Appender, m: Row[Any], player: str, ruling: int) -> None:
    """The match goes to the player's opponent, because of ``ruling`` (D10, D22)."""
    result = _side(m, str(_opponent(m, player)))
    ap.append(
        "match.result", {"round": m.round, "table": m.table_no, "result": result, "cause_ruling": ruling}
    )


def _carry(ap: Appender, ruling: int, position: int, player: str, loss: str) -> None:
    body = {"ruling": ruling, "position": position, "player": player, "loss": loss}
    ap.append("loss.carried", body)


def apply_ruling(ap: Appender, ruling: int, player: str, codes: Sequence[str], *, pending: bool) -> None:
    """Everything one ruling's penalties and effects do to matches and the player; a
    ``pending`` ruling (waiting for the head judge) changes no status to ejected or
    disqualified until it is confirmed (D17)."""
    conn = ap.conn
    for position, code in enumerate(codes):
        if code == "duel_loss":
            land_duel_loss(ap, ruling, position, player)
        elif code == "match_loss":
            land_match_loss(ap, ruling, position, player)
        elif code == "match_draw":
            m = current_match(conn, ap.event_id, player)
            if m is not None:
                body = {"round": m.round, "table": m.table_no, "result": "draw", "cause_ruling": ruling}
                ap.append("match.result", body)
        elif code == "time_extension":
            m = current_match(conn, ap.event_id, player)
            if _in_progress(m):
                assert m is not None
                body = {"round": m.round, "table": m.table_no, "delta": 1, "cause_ruling": ruling}
                ap.append("match.extended", body)
    if not STATUS_CODES.isdisjoint(status_codes_now(codes, pending=pending)):
        settle_status(ap, player, ruling)


def settle_status(ap: Appender, player: str, ruling: int | None) -> None:
    """D14, D17: the player's status from their live rulings, as it stands now."""
    _update_status(ap, player, lambda _current: _status_from_rulings(ap.conn, ap.event_id, player), ruling)


_LIVE_CODES = select(rulings.c.number, rulings.c.penalties, rulings.c.effects, rulings.c.state).where(
    rulings.c.event_id == bindparam("e"), rulings.c.player == bindparam("p"), rulings.c.state != "voided"
)


def _status_from_rulings(
    conn: Connection, event_id: int, player: str, leave_out: Collection[int] = frozenset()
) -> Status:
    rows = conn.execute(_LIVE_CODES, {"e": event_id, "p": player}).all()
    dropped = conn.execute(_DROPPED, {"e": event_id, "p": player}).scalar() is not None
    return status_of(
        (
            status_codes_now([*json.loads(r.penalties), *json.loads(r.effects)], pending=r.state == "pending")
            for r in rows
            if r.number not in leave_out
        ),
        dropped=dropped,
    )


def _status(conn: Connection, event_id: int, player: str) -> Status | None:
    row = conn.execute(_STATUS, {"e": event_id, "p": player}).first()
    return Status(row.status) if row else None


def _update_status(ap: Appender, player: str, change: Any, ruling: int | None) -> None:
    current = _status(ap.conn, ap.event_id, player)
    if current is None:
        return
    new = change(current)
    if new == current:
        return
    ap.append("player.status", {"player": player, "status": new.value, "cause_ruling": ruling})
    if ends_match(new) and ruling is not None:  # D22: leaving during the match loses it
        m = current_match(ap.conn, ap.event_id, player)
        if _in_progress(m):
            assert m is not None
            _opponent_wins(ap, m, player, ruling)


def revert_rulings(ap: Appender, numbers: set[int]) -> None:
    """Undo what these rulings did to matches, waiting losses and statuses."""
    conn, event_id = ap.conn, ap.event_id
    since = _since(conn, event_id, numbers)
    for d in conn.execute(
        select(duels).where(duels.c.event_id == event_id, duels.c.cause_ruling.in_(numbers))
    ).all():
        m = conn.execute(
            select(matches).where(
                matches.c.event_id == event_id, matches.c.round == d.round, matches.c.table_no == d.table_no
            )
        ).one()
        winners = _duel_winners(conn, m)
        winners.pop(d.duel, None)
        body: dict[str, Any] = {"round": d.round, "table": d.table_no, "duel": d.duel, "winner": None}
        if m.result_ruling is None and not _reported_by_hand(conn, event_id, d.round, d.table_no, since):
            body["match_result"] = _result_from_duels(m, winners)
        ap.append("duel.result", body)
    for m in conn.execute(
        select(matches).where(matches.c.event_id == event_id, matches.c.result_ruling.in_(numbers))
    ).all():
        result = _result_from_duels(m, _duel_winners(conn, m))
        ap.append(
            "match.result", {"round": m.round, "table": m.table_no, "result": result, "cause_ruling": None}
        )
    for ext in _extensions(conn, event_id, numbers, since):
        body = {
            "round": ext["round"],
            "table": ext["table"],
            "delta": -1,
            "cause_ruling": ext["cause_ruling"],
        }
        ap.append("match.extended", body)
    for c in conn.execute(
        select(carried_losses).where(
            carried_losses.c.event_id == event_id,
            carried_losses.c.ruling.in_(numbers),
            carried_losses.c.state == "waiting",
        )
    ).all():
        ap.append("loss.settled", {"ruling": c.ruling, "position": c.position, "state": "cancelled"})
    affected = conn.execute(
        select(rulings.c.player)
        .where(rulings.c.event_id == event_id, rulings.c.number.in_(numbers))
        .distinct()
    ).scalars()
    for player in list(affected):
        status = _status_from_rulings(conn, event_id, player, leave_out=numbers)
        _update_status(ap, player, lambda _current, s=status: s, None)


def _since(conn: Connection, event_id: int, numbers: set[int]) -> int:
    """The first entry of these rulings: what they did comes after it, so undoing them reads
    the ledger from there on, not the whole event's."""
    first = conn.execute(
        select(func.min(rulings.c.entry_seq)).where(
            rulings.c.event_id == event_id, rulings.c.number.in_(numbers)
        )
    ).scalar()
    return int(first or 0)


def _reported_by_hand(conn: Connection, event_id: int, round_no: int, table: int, since: int) -> bool:
    """Whether the match's result stands as the scorekeeper reported it (a match result with
    no ruling behind it): undoing a penalty duel then leaves that result alone."""
    rows = conn.execute(
        text(
            "SELECT kind, body FROM entries WHERE event_id = :e AND seq >= :since "
            "AND kind IN ('match.result', 'duel.result') ORDER BY seq"
        ),
        {"e": event_id, "since": since},
    )
    by_hand = False
    for kind, body in rows:
        b = json.loads(body)
        if b["round"] != round_no or b["table"] != table:
            continue
        if kind == "match.result":
            by_hand = b.get("result") is not None and b.get("cause_ruling") is None
        elif "match_result" in b:
            by_hand = False
    return by_hand


def _extensions(conn: Connection, event_id: int, numbers: set[int], since: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        text(
            "SELECT body FROM entries WHERE event_id = :e AND seq >= :since AND kind = 'match.extended' "
            "ORDER BY seq"
        ),
        {"e": event_id, "since": since},
    )
    net: dict[tuple[int, int, int], int] = {}
    for (body,) in rows:
        b = json.loads(body)
        if b.get("cause_ruling") in numbers:
            key = (b["round"], b["table"], b["cause_ruling"])
            net[key] = net.get(key, 0) + b["delta"]
    return [{"round": r, "table": t, "cause_ruling": c} for (r, t, c), n in net.items() for _ in range(n)]


def settle_carried(ap: Appender, round_no: int) -> None:
    """At pairing: losses waiting for a player's next match land on it (D10)."""
    conn, event_id = ap.conn, ap.event_id
    waiting = conn.execute(
        select(carried_losses)
        .where(carried_losses.c.event_id == event_id, carried_losses.c.state == "waiting")
        .order_by(carried_losses.c.ruling, carried_losses.c.position)
    ).all()
    for c in waiting:
        m = current_match(conn, event_id, c.player)
        if m is None or m.round != round_no or not _in_progress(m):
            continue
        if c.loss == "duel_loss":
            land_duel_loss(ap, c.ruling, c.position, c.player)
        else:
            land_match_loss(ap, c.ruling, c.position, c.player)
        ap.append("loss.settled", {"ruling": c.ruling, "position": c.position, "state": "applied"})
