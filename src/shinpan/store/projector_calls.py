"""What the entries of judge calls (T14) mean for their table; registered with
:func:`shinpan.store.projector.handles` (imported by the projector itself), as the decklists'
are in :mod:`shinpan.store.projector_decks`."""

from __future__ import annotations

import json

from shinpan import entries
from shinpan.store.connection import Connection, Statement
from shinpan.store.entry import Entry
from shinpan.store.projector import _j, handles

_INSERT_CALL = Statement(
    "INSERT INTO calls (event_id, number, round, table_no, reason, state, raised_by, raised_at, rulings) "
    "VALUES (:e, :n, :round, :table, :reason, 'open', :by, :at, '[]')"
)
_CLAIM_CALL = Statement(
    "UPDATE calls SET state = 'claimed', judge = :by, claimed_at = :at WHERE event_id = :e AND number = :n"
)
_ESCALATE_CALL = Statement(
    "UPDATE calls SET state = 'escalated', escalated_by = :by, escalated_at = :at "
    "WHERE event_id = :e AND number = :n"
)
_RESOLVE_CALL = Statement(
    "UPDATE calls SET state = 'resolved', resolved_by = :by, resolved_at = :at, outcome = :outcome, "
    "rulings = :rulings, proposed = :proposed, minutes = :minutes, extension_reason = :reason "
    "WHERE event_id = :e AND number = :n"
)
_CALL_RULINGS = Statement("SELECT rulings FROM calls WHERE event_id = :e AND number = :n")
_CITE_RULINGS = Statement("UPDATE calls SET rulings = :rulings WHERE event_id = :e AND number = :n")


@handles(entries.CallRaised)
def _call_raised(conn: Connection, e: Entry, b: entries.CallRaised) -> None:
    _INSERT_CALL.run(
        conn,
        {
            "e": e.event_id,
            "n": e.seq,
            "round": b.round,
            "table": b.table,
            "reason": b.reason,
            "by": e.actor,
            "at": e.recorded_at,
        },
    )


@handles(entries.CallClaimed)
def _call_claimed(conn: Connection, e: Entry, b: entries.CallClaimed) -> None:
    _CLAIM_CALL.run(conn, {"e": e.event_id, "n": b.call, "by": e.actor, "at": e.recorded_at})


@handles(entries.CallEscalated)
def _call_escalated(conn: Connection, e: Entry, b: entries.CallEscalated) -> None:
    _ESCALATE_CALL.run(conn, {"e": e.event_id, "n": b.call, "by": e.actor, "at": e.recorded_at})


@handles(entries.CallResolved)
def _call_resolved(conn: Connection, e: Entry, b: entries.CallResolved) -> None:
    """The call's end; the rulings it cites join those recorded from it."""
    cited = _cited(conn, e.event_id, b.call, b.rulings)
    _RESOLVE_CALL.run(
        conn,
        {
            "e": e.event_id,
            "n": b.call,
            "by": e.actor,
            "at": e.recorded_at,
            "outcome": b.outcome,
            "rulings": _j(cited),
            "proposed": b.proposed,
            "minutes": b.minutes,
            "reason": b.reason,
        },
    )


def _cited(conn: Connection, event_id: int, call: int, more: tuple[int, ...]) -> list[int]:
    found = _CALL_RULINGS.scalar(conn, {"e": event_id, "n": call})
    held: list[int] = json.loads(found) if found else []
    return sorted({*held, *more})


def cite_call(conn: Connection, e: Entry, b: entries.RulingsRecorded) -> None:
    """T14: rulings recorded from a call (``ruling.recorded`` whose record names it)."""
    call = b.record.call if b.record is not None else None
    if call is not None:
        numbers = _cited(conn, e.event_id, call, tuple(r.number for r in b.rulings))
        _CITE_RULINGS.run(conn, {"e": e.event_id, "n": call, "rulings": _j(numbers)})
