"""Typed reads of winners' reports (T11, T12): what players reported from the players'
pages, and which of them the scorekeeper confirmed. Read from their entries from the entry
that paired the round on (nothing projects them)."""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.store.connection import Connection, Statement
from shinpan.store.results import round_entry

__all__ = ["WinnerReport", "winner_report", "winner_reports"]

_SINCE = Statement(
    "SELECT seq, kind, recorded_at, body FROM entries WHERE event_id = :e AND seq > :since "
    "AND kind IN ('winner.reported', 'winner.confirmed') ORDER BY seq"
)
_ONE = Statement(
    "SELECT recorded_at, body FROM entries WHERE event_id = :e AND seq = :s AND kind = 'winner.reported'"
)
_CONFIRMED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND seq > :s AND kind = 'winner.confirmed'"
)


class WinnerReport(NamedTuple):
    """One winner's report: its entry, round, table, score as on the slip, at time or not,
    when, and whether the scorekeeper confirmed it."""

    seq: int
    round: int
    table: int
    score: str
    at_time: bool
    recorded_at: str
    confirmed: bool


def winner_reports(conn: Connection, event_id: int, round_no: int) -> list[WinnerReport]:
    """The round's winners' reports, in the order they came."""
    since = round_entry(conn, event_id, "round.paired", round_no)
    if since is None:
        return []
    reports: list[tuple[int, str, dict[str, object]]] = []
    confirmed: set[int] = set()
    for seq, kind, at, raw in _SINCE.all(conn, {"e": event_id, "since": since}):
        body = json.loads(raw)
        if kind == "winner.confirmed":
            confirmed.add(int(body["report"]))
        elif body.get("round") == round_no:
            reports.append((int(seq), str(at), body))
    return [
        WinnerReport(
            seq, round_no, int(str(b["table"])), str(b["score"]), bool(b.get("at_time")), at, seq in confirmed
        )
        for seq, at, b in reports
    ]


def winner_report(conn: Connection, event_id: int, seq: int) -> WinnerReport | None:
    """The winner's report of entry ``seq`` (None: no such report)."""
    row = _ONE.first(conn, {"e": event_id, "s": seq})
    if row is None:
        return None
    at, raw = row
    b = json.loads(raw)
    done = any(json.loads(c)["report"] == seq for c in _CONFIRMED.scalars(conn, {"e": event_id, "s": seq}))
    return WinnerReport(
        seq, int(b["round"]), int(b["table"]), str(b["score"]), bool(b.get("at_time")), str(at), done
    )
