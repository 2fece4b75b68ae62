"""Typed reads of judge calls (T14), from the calls table the projector keeps."""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = ["CallRow", "call_of", "calls_of", "open_call_at", "table_of"]

_COLUMNS = (
    "number, round, table_no, reason, state, raised_by, raised_at, judge, claimed_at, escalated_by, "
    "escalated_at, resolved_by, resolved_at, outcome, rulings, proposed, minutes, extension_reason"
)
_ONE = Statement(f"SELECT {_COLUMNS} FROM calls WHERE event_id = :e AND number = :n")
_ALL = Statement(f"SELECT {_COLUMNS} FROM calls WHERE event_id = :e ORDER BY number")
_OPEN = Statement(
    f"SELECT {_COLUMNS} FROM calls WHERE event_id = :e AND state <> 'resolved' ORDER BY raised_at, number"
)
_OPEN_AT = Statement(
    "SELECT number FROM calls WHERE event_id = :e AND round = :r AND table_no = :t AND state <> 'resolved' "
    "ORDER BY number LIMIT 1"
)

_TABLE_OF = Statement(
    "SELECT table_no FROM matches WHERE event_id = :e AND round = :r AND player_a = :p "
    "UNION ALL SELECT table_no FROM matches WHERE event_id = :e AND round = :r AND player_b = :p"
)


class CallRow(NamedTuple):
    """One call as it stands: where, why, its moments and who acted, how it ended."""

    number: int
    round: int
    table: int
    reason: str | None
    state: str
    raised_by: str
    raised_at: str
    judge: str | None
    claimed_at: str | None
    escalated_by: str | None
    escalated_at: str | None
    resolved_by: str | None
    resolved_at: str | None
    outcome: str | None
    rulings: tuple[int, ...]
    proposed: int | None
    minutes: int | None
    extension_reason: str | None


def _row(r: tuple[object, ...]) -> CallRow:
    values = list(r)
    values[14] = tuple(json.loads(str(values[14])))
    return CallRow(*values)  # type: ignore[arg-type]


def call_of(conn: Connection, event_id: int, number: int) -> CallRow | None:
    found = _ONE.first(conn, {"e": event_id, "n": number})
    return None if found is None else _row(found)


def calls_of(conn: Connection, event_id: int, *, open_only: bool = False) -> list[CallRow]:
    """The event's calls: every one in the order raised, or the open ones longest waiting first."""
    rows = (_OPEN if open_only else _ALL).all(conn, {"e": event_id})
    return [_row(r) for r in rows]


def open_call_at(conn: Connection, event_id: int, round_no: int, table: int) -> int | None:
    """The open call of that table in that round, if one is open."""
    found = _OPEN_AT.scalar(conn, {"e": event_id, "r": round_no, "t": table})
    return None if found is None else int(found)


def table_of(conn: Connection, event_id: int, round_no: int, player: str) -> int | None:
    """The table the player sits at in that round (a bye's too), if they are paired in it."""
    found = _TABLE_OF.scalar(conn, {"e": event_id, "r": round_no, "p": player})
    return None if found is None else int(found)
