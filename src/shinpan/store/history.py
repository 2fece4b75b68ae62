"""What recording reads for every ruling: whether a player is in the event, a player's
rulings that count, the next ruling number, where the player is playing. Run on the driver
(see :class:`Statement`). :func:`before_record` reads all of it in one statement: one trip
to the server while the event's lock is held."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = [
    "BeforeRecord",
    "CountedRuling",
    "before_record",
    "is_player",
    "last_ruling_number",
    "live_rulings",
    "round_started_at",
]

_PLAYER = Statement("SELECT 1 FROM players WHERE event_id = :e AND number = :p")
# Sorted in Python, not in SQL: with ORDER BY, SQLite (without statistics) walks the
# primary key through every ruling of the event instead of the player's index.
_LIVE = Statement(
    'SELECT number, rule, offense, penalties, follow_up, draft, kind, "trigger", cause FROM rulings '
    "WHERE event_id = :e AND player = :p AND state <> 'voided'"
)
_LAST_NUMBER = Statement("SELECT MAX(number) FROM rulings WHERE event_id = :e")
_ROUND_STARTED = Statement("SELECT started_at FROM rounds WHERE event_id = :e AND number = :r")
# The reads above, and where the player is playing, in one: each part on its own index, a
# row saying what it is. The player's matches are looked up one side at a time: with OR,
# SQLite (without statistics) walks every match of the event.
_BEFORE_RECORD = Statement(
    "SELECT 'player', number, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM players "
    "WHERE event_id = :e AND number IN (:names) "
    "UNION ALL SELECT 'ruling', player, number, rule, offense, penalties, follow_up, draft, kind, "
    "\"trigger\", cause FROM rulings WHERE event_id = :e AND player IN (:names) AND state <> 'voided' "
    "UNION ALL SELECT 'last', NULL, MAX(number), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL "
    "FROM rulings WHERE event_id = :e "
    "UNION ALL SELECT 'table', NULL, round, NULL, table_no, NULL, NULL, NULL, NULL, NULL, NULL "
    "FROM matches WHERE event_id = :e AND player_a = :p "
    "UNION ALL SELECT 'table', NULL, round, NULL, table_no, NULL, NULL, NULL, NULL, NULL, NULL "
    "FROM matches WHERE event_id = :e AND player_b = :p"
)


class CountedRuling(NamedTuple):
    """A ruling of a player that counts (not voided), as the engine's history needs it."""

    number: int
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    follow_up: bool
    draft: str | None
    kind: str | None
    trigger: str
    cause: int | None


class BeforeRecord(NamedTuple):
    """What recording a ruling for ``player`` reads first, for the names the record uses."""

    players: frozenset[str]  # those of the names that are players of the event
    rulings: dict[str, list[CountedRuling]]  # per player named: the rulings that count, in order
    last_number: int  # the event's highest ruling number (0: none yet)
    playing: tuple[int, int] | None  # the round and table of ``player``'s latest match


def before_record(conn: Connection, event_id: int, player: str, names: Sequence[str]) -> BeforeRecord:
    """:func:`is_player` and :func:`live_rulings` for each of ``names``,
    :func:`last_ruling_number`, and the round and table of ``player``'s match in the latest
    round they were paired in, in one read."""
    players: set[str] = set()
    rulings: dict[str, list[CountedRuling]] = {name: [] for name in names}
    last, tables = 0, []
    for row in _BEFORE_RECORD.all(conn, {"e": event_id, "p": player, "names": list(names)}):
        what = row[0]
        if what == "player":
            players.add(row[1])
        elif what == "ruling":
            rulings[row[1]].append(
                CountedRuling(int(row[2]), row[3], row[4], tuple(json.loads(row[5])), bool(row[6]), *row[7:])
            )
        elif what == "last":
            last = int(row[2] or 0)
        else:
            tables.append((int(row[2]), int(row[4])))
    for counted in rulings.values():
        counted.sort(key=lambda r: r.number)
    return BeforeRecord(frozenset(players), rulings, last, max(tables, default=None))


def is_player(conn: Connection, event_id: int, number: str) -> bool:
    return _PLAYER.run(conn, {"e": event_id, "p": number}).fetchone() is not None


def live_rulings(conn: Connection, event_id: int, player: str) -> list[CountedRuling]:
    """The player's rulings that are not voided, in the order they were recorded."""
    rows = sorted(_LIVE.run(conn, {"e": event_id, "p": player}).fetchall(), key=lambda r: int(r[0]))
    return [CountedRuling(int(r[0]), r[1], r[2], tuple(json.loads(r[3])), bool(r[4]), *r[5:]) for r in rows]


def last_ruling_number(conn: Connection, event_id: int) -> int:
    """The event's highest ruling number (0: none yet)."""
    return int(_LAST_NUMBER.run(conn, {"e": event_id}).fetchone()[0] or 0)


def round_started_at(conn: Connection, event_id: int, round_no: int) -> str | None:
    """When the round's clock was started (D21), if it was."""
    row = _ROUND_STARTED.run(conn, {"e": event_id, "r": round_no}).fetchone()
    return str(row[0]) if row is not None and row[0] is not None else None
