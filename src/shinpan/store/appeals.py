"""Typed reads of appeals to the head judge (D11) and of the statements of the people
involved (D14), as the projection keeps them. Run on the driver (see :class:`Statement`),
in the caller's transaction.
"""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = ["AppealHeard", "FiledAppeal", "GivenStatement", "appeals_heard", "filed_appeal", "statements"]


class FiledAppeal(NamedTuple):
    """An appeal: the entry that filed it, the ruling, who and why, and the decision if made."""

    entry_seq: int
    ruling: int
    by: str
    reason: str
    outcome: str | None  # None while open | upheld | overturned | changed
    decision_reason: str | None


class AppealHeard(NamedTuple):
    """An appeal with the ruling appealed against, as the desk lists it."""

    appeal: FiledAppeal
    player: str
    player_name: str | None  # None: not on the event's roster
    rule: str
    penalties: tuple[str, ...]  # as the ruling stands
    state: str  # the ruling's


class GivenStatement(NamedTuple):
    """A statement of someone involved: player, opponent, witness or judge."""

    ruling: int | None
    author: str
    author_role: str
    text: str


_APPEAL_COLUMNS = 'a.entry_seq, a.ruling, a."by", a.reason, a.outcome, a.decision_reason'
_APPEAL = Statement(f"SELECT {_APPEAL_COLUMNS} FROM appeals a WHERE a.event_id = :e AND a.entry_seq = :seq")
_HEARD = Statement(
    f"SELECT {_APPEAL_COLUMNS}, r.player, p.name, r.rule, r.penalties, r.state FROM appeals a "
    "JOIN rulings r ON r.event_id = a.event_id AND r.number = a.ruling "
    "LEFT JOIN players p ON p.event_id = r.event_id AND p.number = r.player "
    "WHERE a.event_id = :e ORDER BY a.entry_seq"
)
_STATEMENTS = Statement(
    "SELECT ruling, author, author_role, text FROM statements WHERE event_id = :e ORDER BY entry_seq"
)


def filed_appeal(conn: Connection, event_id: int, entry_seq: int) -> FiledAppeal | None:
    """The appeal the entry ``entry_seq`` filed (None: no such appeal)."""
    row = _APPEAL.first(conn, {"e": event_id, "seq": entry_seq})
    return FiledAppeal(*row) if row is not None else None


def appeals_heard(conn: Connection, event_id: int) -> list[AppealHeard]:
    """The event's appeals in the order they were filed, each with its ruling."""
    return [
        AppealHeard(FiledAppeal(*r[:6]), r[6], r[7], r[8], tuple(json.loads(r[9])), r[10])
        for r in _HEARD.all(conn, {"e": event_id})
    ]


def statements(conn: Connection, event_id: int) -> list[GivenStatement]:
    """The statements in the order they were given."""
    return [GivenStatement(*r) for r in _STATEMENTS.all(conn, {"e": event_id})]
