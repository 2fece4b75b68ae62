"""Typed reads of a table's results as the ledger has them (T11): every entry that set a
duel or the result of one match, and the entries that paired and ended a round (T6).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shinpan.store.connection import Connection, Statement

__all__ = ["ResultEntry", "round_entry", "table_results"]

_KINDS = "('result.reported', 'match.result', 'duel.result')"
# From the entry that paired the round on: an index range on (event_id, seq), not the ledger.
_SINCE = Statement(
    "SELECT seq, kind, actor, recorded_at, body FROM entries WHERE event_id = :e AND seq > :since "
    f"AND kind IN {_KINDS} ORDER BY seq"
)
_ROUND_ENTRIES = Statement("SELECT seq, body FROM entries WHERE event_id = :e AND kind = :k ORDER BY seq")


@dataclass(frozen=True)
class ResultEntry:
    """One entry that set a duel or the result of a match: its number, who, when, what."""

    seq: int
    kind: str
    actor: str
    recorded_at: str
    body: dict[str, Any]


def round_entry(conn: Connection, event_id: int, kind: str, round_no: int) -> int | None:
    """The first entry of ``kind`` (``round.paired``, ``round.ended``) for round ``round_no``."""
    for seq, body in _ROUND_ENTRIES.all(conn, {"e": event_id, "k": kind}):
        if json.loads(body).get("round") == round_no:
            return int(seq)
    return None


def table_results(conn: Connection, event_id: int, round_no: int, table: int) -> list[ResultEntry]:
    """Every entry that set a duel or the result of the match at ``table`` in ``round_no``, in order."""
    since = round_entry(conn, event_id, "round.paired", round_no) or 0
    out = []
    for seq, kind, actor, at, raw in _SINCE.all(conn, {"e": event_id, "since": since}):
        body = json.loads(raw)
        if body.get("round") == round_no and body.get("table") == table:
            out.append(ResultEntry(int(seq), kind, actor, at, body))
    return out
