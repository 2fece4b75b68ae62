"""Typed reads of the remedies with deadlines (D7, D9, D21): every one of an event, one
by its ruling and position, the positions still pending, those due when a round's matches
or the round end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shinpan.engine.event_rules import DeadlineState
from shinpan.store.connection import Connection, Statement

__all__ = ["RemedyDue", "due_at_end", "pending_positions", "remedies", "remedy"]


@dataclass(frozen=True)
class RemedyDue:
    """A remedy with its deadline, as the ledger keeps it, with the rule of its ruling."""

    ruling: int
    position: int
    player: str
    rule: str
    due_kind: str  # minutes | end_of_match | end_of_round | before_next_match
    minutes: int | None
    due_at: str | None  # a timed deadline's moment
    round: int | None
    table: int | None
    remedy_ja: str
    remedy_en: str
    miss_penalties: tuple[str, ...]  # what missing it gives (D7)
    miss_effects: tuple[str, ...]
    state: DeadlineState


_COLUMNS = (
    "SELECT d.ruling, d.position, d.player, r.rule, d.due_kind, d.minutes, d.due_at, d.round, "
    "d.table_no, d.remedy_ja, d.remedy_en, d.on_miss, d.state FROM deadlines d "
    "JOIN rulings r ON r.event_id = d.event_id AND r.number = d.ruling WHERE d.event_id = :e"
)
_ORDER = " ORDER BY d.ruling, d.position"
_OF_EVENT = Statement(_COLUMNS + _ORDER)
_OPEN = f" AND d.state = '{DeadlineState.pending}'"
_PENDING = Statement(_COLUMNS + _OPEN + _ORDER)
_ONE = Statement(_COLUMNS + " AND d.ruling = :n AND d.position = :p")
_AT_END = Statement(
    _COLUMNS + _OPEN + " AND d.round = :r AND d.due_kind IN ('end_of_match', 'end_of_round')" + _ORDER
)
_POSITIONS = Statement(
    "SELECT position FROM deadlines WHERE event_id = :e AND ruling = :n AND position >= :p "
    f"AND state = '{DeadlineState.pending}' ORDER BY position"
)


def _remedy(row: tuple[Any, ...]) -> RemedyDue:
    ruling, position, player, rule, due_kind, minutes, due_at, round_no, table, ja, en, on_miss, state = row
    miss = json.loads(on_miss)
    return RemedyDue(
        int(ruling),
        int(position),
        player,
        rule,
        due_kind,
        minutes,
        due_at,
        round_no,
        table,
        ja,
        en,
        tuple(miss["penalties"]),
        tuple(miss["effects"]),
        DeadlineState(state),
    )


def remedies(conn: Connection, event_id: int, *, include_closed: bool = False) -> list[RemedyDue]:
    """The event's pending remedies (``include_closed``: every one), by ruling and position."""
    return [_remedy(d) for d in (_OF_EVENT if include_closed else _PENDING).all(conn, {"e": event_id})]


def remedy(conn: Connection, event_id: int, ruling: int, position: int) -> RemedyDue | None:
    """Deadline ``position`` of ruling ``ruling``, whatever its state."""
    found = _ONE.first(conn, {"e": event_id, "n": ruling, "p": position})
    return _remedy(found) if found is not None else None


def pending_positions(conn: Connection, event_id: int, ruling: int, *, since: int = 0) -> list[int]:
    """The positions of the ruling's deadlines still pending, from ``since`` on, in order."""
    return [int(p) for p in _POSITIONS.scalars(conn, {"e": event_id, "n": ruling, "p": since})]


def due_at_end(conn: Connection, event_id: int, round_no: int) -> list[RemedyDue]:
    """The pending remedies of round ``round_no`` due when a match or the round ends."""
    return [_remedy(d) for d in _AT_END.all(conn, {"e": event_id, "r": round_no})]
