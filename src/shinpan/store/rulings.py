"""Typed reads of the rulings, as the ledger's projection keeps them: one ruling, the
rulings behind duels and results, those waiting for the head judge (D17), extra turns
given in a round, and what a void takes with it (the rulings of a record, the follow-ups
of their deadlines, D16).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass

from shinpan.engine.ruling import Trigger
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import chunks

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


_RULING = Statement(
    "SELECT number, player, rule, offense, penalties, draft, source, round, table_no FROM rulings "
    "WHERE event_id = :e AND number = :n"
)
_CAUSES = Statement("SELECT number, rule, penalties FROM rulings WHERE event_id = :e AND number IN (:n)")
_PENDING = Statement(
    "SELECT player, penalties, effects FROM rulings WHERE event_id = :e AND state = 'pending'"
)
_EXTRA_TURNS = Statement(
    "SELECT number, player, rule, table_no, effects FROM rulings WHERE event_id = :e AND round = :r "
    "AND state <> 'voided' AND effects LIKE '%\"time_extension\"%' ORDER BY number"
)
_OF_ENTRY = Statement("SELECT number FROM rulings WHERE event_id = :e AND entry_seq = :s")
_FOLLOW_UPS = Statement(
    'SELECT number, entry_seq FROM rulings WHERE event_id = :e AND "trigger" = :t '
    "AND cause IN (:n) AND state <> 'voided'"
)


def stored_ruling(conn: Connection, event_id: int, number: int) -> StoredRuling | None:
    """Ruling ``number`` of the event, whatever its state."""
    r = _RULING.first(conn, {"e": event_id, "n": number})
    if r is None:
        return None
    n, player, rule, offense, penalties, draft, source, round_no, table = r
    return StoredRuling(
        int(n), player, rule, offense, tuple(json.loads(penalties)), draft, source, round_no, table
    )


def causes(conn: Connection, event_id: int, numbers: Collection[int]) -> dict[int, Cause]:
    """The rulings ``numbers`` by number, as the cause of a duel or a result (a list of any
    length: asked in chunks within the database's limit on bound parameters)."""
    found: dict[int, Cause] = {}
    for chunk in chunks(sorted(numbers)):
        for n, rule, penalties in _CAUSES.all(conn, {"e": event_id, "n": chunk}):
            found[int(n)] = Cause(int(n), rule, tuple(json.loads(penalties)))
    return found


def awaiting_confirmation(conn: Connection, event_id: int) -> list[Awaiting]:
    """The rulings waiting for the head judge's confirmation (D11, D17)."""
    return [
        Awaiting(player, (*json.loads(penalties), *json.loads(effects)))
        for player, penalties, effects in _PENDING.all(conn, {"e": event_id})
    ]


def extra_turns(
    conn: Connection, event_id: int, round_no: int, extending: Collection[str]
) -> dict[int, list[ExtraTurns]]:
    """The live rulings of round ``round_no`` that give their table extra turns, by table:
    those with an effect among ``extending`` (the codes the event's guideline gives it)."""
    turns: dict[int, list[ExtraTurns]] = {}
    for n, player, rule, table, effects in _EXTRA_TURNS.all(conn, {"e": event_id, "r": round_no}):
        if table is not None and not set(extending).isdisjoint(json.loads(effects)):
            turns.setdefault(int(table), []).append(ExtraTurns(int(n), player, rule))
    return turns


def numbers_of_entry(conn: Connection, event_id: int, entry_seq: int) -> list[int]:
    """The numbers of the rulings entry ``entry_seq`` recorded, in order."""
    return sorted(int(n) for n in _OF_ENTRY.scalars(conn, {"e": event_id, "s": entry_seq}))


def live_follow_ups(conn: Connection, event_id: int, numbers: Collection[int]) -> list[FollowUp]:
    """The live follow-ups of the deadlines of rulings ``numbers`` (D7; a list of any length)."""
    out: list[FollowUp] = []
    for chunk in chunks(sorted(numbers)):
        params = {"e": event_id, "t": Trigger.deadline_missed.value, "n": chunk}
        out.extend(FollowUp(int(n), int(seq)) for n, seq in _FOLLOW_UPS.all(conn, params))
    return out
