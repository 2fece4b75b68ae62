"""Typed reads of the rulings as the projection keeps them, for the services, the desk and
the API: one ruling, those a correction names, a player's, the feed (newest first, the
confirmation queue too), and how far the ledger has got. Run on the driver (see
:class:`Statement`), in the caller's transaction.

A ruling comes back with every column (:class:`RulingRow`), its JSON columns (penalties,
effects) read here once into tuples of codes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from shinpan.engine.event_rules import RulingState
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import chunks

__all__ = [
    "NamedRuling",
    "RulingRow",
    "feed",
    "judge_rulings",
    "ledger_head",
    "player_rulings",
    "ruling",
    "rulings_numbered",
]


class RulingRow(NamedTuple):
    """A ruling as it stands (its penalties after any deviation, its state)."""

    number: int
    entry_seq: int
    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]  # the components as they stand
    guideline_penalties: tuple[str, ...]  # what the guideline gave
    effects: tuple[str, ...]
    follow_up: bool
    needs_head_judge: bool
    state: RulingState
    deviation_reason: str | None
    draft: str | None
    scope: str
    kind: str | None
    trigger: str
    recorded_as: str | None
    round: int | None
    table_no: int | None
    judge: str
    recorded_at: str
    source: str
    explanation_ja: str
    explanation_en: str
    cause: int | None
    given_at: str | None


class NamedRuling(NamedTuple):
    """A ruling with its player's name (None: not on the event's roster)."""

    ruling: RulingRow
    player_name: str | None


_COLUMNS = ", ".join(f'r."{c}"' if c == "trigger" else f"r.{c}" for c in RulingRow._fields)


def _ruling(row: Sequence[Any]) -> RulingRow:
    r = list(row[: len(RulingRow._fields)])
    r[5], r[6], r[7] = tuple(json.loads(r[5])), tuple(json.loads(r[6])), tuple(json.loads(r[7]))
    r[8], r[9] = bool(r[8]), bool(r[9])  # SQLite's booleans are 0 and 1
    r[10] = RulingState(r[10])
    return RulingRow(*r)


def _named(row: Sequence[Any]) -> NamedRuling:
    return NamedRuling(_ruling(row), row[len(RulingRow._fields)])


_ONE = Statement(f"SELECT {_COLUMNS} FROM rulings r WHERE r.event_id = :e AND r.number = :n")
_NUMBERED = Statement(f"SELECT {_COLUMNS} FROM rulings r WHERE r.event_id = :e AND r.number IN (:ns)")
# Sorted in Python: with ORDER BY, SQLite (without statistics) walks the primary key through
# every ruling of the event instead of the player's index (see store.history).
_OF_PLAYER = Statement(f"SELECT {_COLUMNS} FROM rulings r WHERE r.event_id = :e AND r.player = :p")
_WITH_NAMES = (
    f"SELECT {_COLUMNS}, p.name FROM rulings r "
    "LEFT JOIN players p ON p.event_id = r.event_id AND p.number = r.player WHERE r.event_id = :e"
)
# The feed with each of its two filters or without: a filter written ``:s IS NULL OR ...``
# would keep PostgreSQL from typing the parameter and both databases from the index.
_FEED = {
    (state, before): Statement(
        _WITH_NAMES
        + (" AND r.state = :s" if state else "")
        + (" AND r.number < :b" if before else "")
        + " ORDER BY r.number DESC LIMIT :n"
    )
    for state in (False, True)
    for before in (False, True)
}
_BY_JUDGE = Statement(
    _WITH_NAMES + " AND r.judge = :j AND r.recorded_at >= :t ORDER BY r.number DESC LIMIT :n"
)
_HEAD = Statement("SELECT MAX(seq) FROM entries WHERE event_id = :e")


def ruling(conn: Connection, event_id: int, number: int) -> RulingRow | None:
    row = _ONE.first(conn, {"e": event_id, "n": number})
    return _ruling(row) if row is not None else None


def rulings_numbered(conn: Connection, event_id: int, numbers: Sequence[int]) -> list[RulingRow]:
    """The rulings of these numbers that the event has (in no particular order)."""
    wanted = sorted(set(numbers))
    return [
        _ruling(row) for chunk in chunks(wanted) for row in _NUMBERED.all(conn, {"e": event_id, "ns": chunk})
    ]


def player_rulings(conn: Connection, event_id: int, player: str) -> list[RulingRow]:
    """Every ruling of the player, voided ones too, in the order they were recorded."""
    rows = [_ruling(r) for r in _OF_PLAYER.all(conn, {"e": event_id, "p": player})]
    return sorted(rows, key=lambda r: r.number)


def feed(
    conn: Connection,
    event_id: int,
    *,
    state: RulingState | None = None,
    limit: int = 100,
    before: int | None = None,
) -> list[NamedRuling]:
    """The newest rulings first, of one state if asked (``pending``: the confirmation
    queue), numbered below ``before`` if given (the next page)."""
    statement = _FEED[(bool(state), bool(before))]
    params: dict[str, Any] = {"e": event_id, "n": limit}
    if state:
        params["s"] = str(state)
    if before:
        params["b"] = before
    return [_named(r) for r in statement.all(conn, params)]


def judge_rulings(
    conn: Connection, event_id: int, judge: str, since: str, *, limit: int = 200
) -> list[NamedRuling]:
    """The rulings ``judge`` recorded at or after ``since`` (a ledger stamp), newest first:
    their additional rulings (D3, D6) and a second subject's (D8) too, all recorded by them."""
    return [_named(r) for r in _BY_JUDGE.all(conn, {"e": event_id, "j": judge, "t": since, "n": limit})]


def ledger_head(conn: Connection, event_id: int) -> int:
    """The number of the event's newest ledger entry (0 before the first)."""
    return int(_HEAD.scalar(conn, {"e": event_id}) or 0)
