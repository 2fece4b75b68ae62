"""Typed reads of the rulings, as the ledger's projection keeps them: one ruling, the
rulings behind duels and results, those waiting for the head judge (D17), extra turns
given in a round, and what a void takes with it (the rulings of a record, the follow-ups
of their deadlines, D16).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import bindparam, select

from shinpan.engine.ruling import Trigger
from shinpan.store.connection import Connection
from shinpan.store.schema import rulings

__all__ = [
    "Awaiting",
    "Cause",
    "ExtraTurns",
    "FollowUp",
    "StoredRuling",
    "awaiting_confirmation",
    "causes",
    "extra_turns",
    "live_follow_ups",
    "numbers_of_entry",
    "stored_ruling",
]


@dataclass(frozen=True)
class StoredRuling:
    """A ruling as it was recorded (its penalties as they stand after any deviation)."""

    number: int
    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    draft: str | None
    source: str
    round: int | None
    table: int | None


@dataclass(frozen=True)
class Cause:
    """The ruling behind a duel or a result."""

    ruling: int
    rule: str
    penalties: tuple[str, ...]


@dataclass(frozen=True)
class Awaiting:
    """A ruling waiting for the head judge's confirmation: its player and its components."""

    player: str
    components: tuple[str, ...]


@dataclass(frozen=True)
class ExtraTurns:
    """A ruling whose ``time_extension`` gives the table extra turns after time is called."""

    ruling: int
    player: str
    rule: str


@dataclass(frozen=True)
class FollowUp:
    """A live follow-up ruling of a missed deadline, and the entry that recorded it."""

    number: int
    entry_seq: int


_RULING = select(rulings).where(rulings.c.event_id == bindparam("e"), rulings.c.number == bindparam("n"))
_CAUSES = select(rulings.c.number, rulings.c.rule, rulings.c.penalties).where(
    rulings.c.event_id == bindparam("e"), rulings.c.number.in_(bindparam("n", expanding=True))
)
_PENDING = select(rulings.c.player, rulings.c.penalties, rulings.c.effects).where(
    rulings.c.event_id == bindparam("e"), rulings.c.state == "pending"
)
_EXTRA_TURNS = (
    select(rulings.c.number, rulings.c.player, rulings.c.rule, rulings.c.table_no, rulings.c.effects)
    .where(
        rulings.c.event_id == bindparam("e"),
        rulings.c.round == bindparam("r"),
        rulings.c.state != "voided",
        rulings.c.effects.like('%"time_extension"%'),
    )
    .order_by(rulings.c.number)
)
_OF_ENTRY = select(rulings.c.number).where(
    rulings.c.event_id == bindparam("e"), rulings.c.entry_seq == bindparam("s")
)
_FOLLOW_UPS = select(rulings.c.number, rulings.c.entry_seq).where(
    rulings.c.event_id == bindparam("e"),
    rulings.c.trigger == Trigger.deadline_missed.value,
    rulings.c.cause.in_(bindparam("n", expanding=True)),
    rulings.c.state != "voided",
)


def stored_ruling(conn: Connection, event_id: int, number: int) -> StoredRuling | None:
    """Ruling ``number`` of the event, whatever its state."""
    r = conn.execute(_RULING, {"e": event_id, "n": number}).first()
    if r is None:
        return None
    return StoredRuling(
        int(r.number), r.player, r.rule, r.offense, tuple(json.loads(r.penalties)), r.draft, r.source,
        r.round, r.table_no,
    )  # fmt: skip


def causes(conn: Connection, event_id: int, numbers: Collection[int]) -> dict[int, Cause]:
    """The rulings ``numbers`` by number, as the cause of a duel or a result."""
    if not numbers:
        return {}
    rows = conn.execute(_CAUSES, {"e": event_id, "n": sorted(numbers)})
    return {r.number: Cause(r.number, r.rule, tuple(json.loads(r.penalties))) for r in rows}


def awaiting_confirmation(conn: Connection, event_id: int) -> list[Awaiting]:
    """The rulings waiting for the head judge's confirmation (D11, D17)."""
    return [
        Awaiting(r.player, (*json.loads(r.penalties), *json.loads(r.effects)))
        for r in conn.execute(_PENDING, {"e": event_id})
    ]


def extra_turns(conn: Connection, event_id: int, round_no: int) -> dict[int, list[ExtraTurns]]:
    """The live rulings of round ``round_no`` that give their table extra turns, by table."""
    turns: dict[int, list[ExtraTurns]] = {}
    for x in conn.execute(_EXTRA_TURNS, {"e": event_id, "r": round_no}):
        if x.table_no is not None and "time_extension" in json.loads(x.effects):
            turns.setdefault(x.table_no, []).append(ExtraTurns(x.number, x.player, x.rule))
    return turns


def numbers_of_entry(conn: Connection, event_id: int, entry_seq: int) -> list[int]:
    """The numbers of the rulings entry ``entry_seq`` recorded, in order."""
    return sorted(int(n) for n in conn.execute(_OF_ENTRY, {"e": event_id, "s": entry_seq}).scalars())


def live_follow_ups(conn: Connection, event_id: int, numbers: Collection[int]) -> list[FollowUp]:
    """The live follow-ups of the deadlines of rulings ``numbers`` (D7)."""
    found = conn.execute(_FOLLOW_UPS, {"e": event_id, "n": list(numbers)})
    return [FollowUp(int(f.number), int(f.entry_seq)) for f in found]
