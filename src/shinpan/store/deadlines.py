"""Typed reads of the remedies with deadlines (D7, D9, D21): every one of an event, one
by its ruling and position, the positions still pending, those due when a round's matches
or the round end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select

from shinpan.store.connection import Connection
from shinpan.store.schema import deadlines, rulings

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
    state: str  # pending | done | missed | cancelled


_OF_EVENT = (
    select(deadlines, rulings.c.rule)
    .join(rulings, (rulings.c.event_id == deadlines.c.event_id) & (rulings.c.number == deadlines.c.ruling))
    .where(deadlines.c.event_id == bindparam("e"))
    .order_by(deadlines.c.ruling, deadlines.c.position)
)
_PENDING = _OF_EVENT.where(deadlines.c.state == "pending")
_ONE = _OF_EVENT.where(deadlines.c.ruling == bindparam("n"), deadlines.c.position == bindparam("p"))
_AT_END = _PENDING.where(
    deadlines.c.round == bindparam("r"), deadlines.c.due_kind.in_(("end_of_match", "end_of_round"))
)
_POSITIONS = (
    select(deadlines.c.position)
    .where(
        deadlines.c.event_id == bindparam("e"),
        deadlines.c.ruling == bindparam("n"),
        deadlines.c.position >= bindparam("p"),
        deadlines.c.state == "pending",
    )
    .order_by(deadlines.c.position)
)


def _remedy(d: Any) -> RemedyDue:
    miss = json.loads(d.on_miss)
    return RemedyDue(
        int(d.ruling), int(d.position), d.player, d.rule, d.due_kind, d.minutes, d.due_at, d.round,
        d.table_no, d.remedy_ja, d.remedy_en, tuple(miss["penalties"]), tuple(miss["effects"]), d.state,
    )  # fmt: skip


def remedies(conn: Connection, event_id: int, *, include_closed: bool = False) -> list[RemedyDue]:
    """The event's pending remedies (``include_closed``: every one), by ruling and position."""
    return [_remedy(d) for d in conn.execute(_OF_EVENT if include_closed else _PENDING, {"e": event_id})]


def remedy(conn: Connection, event_id: int, ruling: int, position: int) -> RemedyDue | None:
    """Deadline ``position`` of ruling ``ruling``, whatever its state."""
    found = conn.execute(_ONE, {"e": event_id, "n": ruling, "p": position}).first()
    return _remedy(found) if found is not None else None


def pending_positions(conn: Connection, event_id: int, ruling: int, *, since: int = 0) -> list[int]:
    """The positions of the ruling's deadlines still pending, from ``since`` on, in order."""
    return [int(p) for p in conn.execute(_POSITIONS, {"e": event_id, "n": ruling, "p": since}).scalars()]


def due_at_end(conn: Connection, event_id: int, round_no: int) -> list[RemedyDue]:
    """The pending remedies of round ``round_no`` due when a match or the round ends."""
    return [_remedy(d) for d in conn.execute(_AT_END, {"e": event_id, "r": round_no})]
