"""What the entries of rulings, their deadlines, statements and appeals mean for their tables;
registered with :func:`shinpan.store.projector.handles` (imported by the projector itself), as
the judge calls' are in :mod:`shinpan.store.projector_calls`."""

from __future__ import annotations

from typing import Any

from shinpan import entries
from shinpan.engine.event_rules import DeadlineState, RulingState
from shinpan.store import projector_calls
from shinpan.store.connection import Connection, Statement
from shinpan.store.entry import Entry
from shinpan.store.projector import _j, handles

# -- rulings ----------------------------------------------------------------------------

_RULING_COLUMNS = (
    "event_id", "number", "entry_seq", "player", "rule", "offense", "penalties", "guideline_penalties",
    "effects", "follow_up", "needs_head_judge", "state", "deviation_reason", "draft", "scope", "kind",
    "trigger", "recorded_as", "round", "table_no", "judge", "recorded_at", "source", "explanation_ja",
    "explanation_en", "cause", "given_at",
)  # fmt: skip
_DEADLINE_COLUMNS = (
    "event_id", "ruling", "position", "player", "due_kind", "minutes", "due_at", "round", "table_no",
    "remedy_ja", "remedy_en", "on_miss", "state", "closed_at",
)  # fmt: skip


def _inserting(table: str, columns: tuple[str, ...], tail: str = "") -> Statement:
    names, values = ", ".join(f'"{c}"' for c in columns), ", ".join(f":{c}" for c in columns)
    return Statement(f"INSERT INTO {table} ({names}) VALUES ({values}) {tail}")


_INSERT_RULINGS = _inserting("rulings", _RULING_COLUMNS)
_INSERT_DEADLINES = _inserting("deadlines", _DEADLINE_COLUMNS)
_INSERT_DRAFT = _inserting("drafts", ("event_id", "name", "round"), "ON CONFLICT (event_id, name) DO NOTHING")


_SET_STATE = Statement("UPDATE rulings SET state = :state WHERE event_id = :e AND number IN (:ns)")
_DEVIATE = Statement(
    "UPDATE rulings SET penalties = :penalties, deviation_reason = :reason, needs_head_judge = :needs, "
    f"state = '{RulingState.confirmed}', explanation_ja = :ja, explanation_en = :en WHERE event_id = :e AND number = :n"
)
_DEVIATE_EFFECTS = Statement("UPDATE rulings SET effects = :effects WHERE event_id = :e AND number = :n")
_CANCEL_DEADLINES = Statement(
    f"UPDATE deadlines SET state = '{DeadlineState.cancelled}', closed_at = :at "
    f"WHERE event_id = :e AND ruling IN (:ns) AND state = '{DeadlineState.pending}'"
)
_CLOSE_DEADLINE = Statement(
    "UPDATE deadlines SET state = :state, closed_at = :at WHERE event_id = :e AND ruling = :ruling AND position = :position"
)
_INSERT_STATEMENT = Statement(
    "INSERT INTO statements (event_id, entry_seq, ruling, author, author_role, text) "
    "VALUES (:e, :seq, :ruling, :author, :author_role, :text)"
)
_INSERT_APPEAL = Statement(
    'INSERT INTO appeals (event_id, entry_seq, ruling, "by", reason) VALUES (:e, :seq, :ruling, :by, :reason)'
)
_DECIDE_APPEAL = Statement(
    "UPDATE appeals SET outcome = :outcome, decision_reason = :reason WHERE event_id = :e AND entry_seq = :appeal"
)


@handles(entries.RulingsRecorded)
def _ruling_recorded(conn: Connection, e: Entry, b: entries.RulingsRecorded) -> None:
    """The entry's rulings, their deadlines and drafts: one batch per table."""
    rows: list[dict[str, Any]] = []
    dues: list[dict[str, Any]] = []
    drafted: dict[str, dict[str, Any]] = {}
    for r in b.rulings:
        rows.append(
            {
                "event_id": e.event_id,
                "number": r.number,
                "entry_seq": e.seq,
                "player": r.player,
                "rule": r.rule,
                "offense": r.offense,
                "penalties": _j(list(r.penalties)),
                "guideline_penalties": _j(list(r.guideline_penalties)),
                "effects": _j(list(r.effects)),
                "follow_up": r.follow_up,
                "needs_head_judge": r.needs_head_judge,
                "state": (RulingState.pending if r.needs_head_judge else RulingState.recorded).value,
                "deviation_reason": r.deviation_reason,
                "draft": r.draft,
                "scope": r.scope,
                "kind": r.kind,
                "trigger": r.trigger,
                "recorded_as": r.recorded_as,
                "round": b.round,
                "table_no": b.table,
                "judge": e.actor,
                "recorded_at": e.recorded_at,
                "source": r.source,
                "explanation_ja": r.explanation_ja,
                "explanation_en": r.explanation_en,
                "cause": r.cause,
                "given_at": b.given_at or e.recorded_at,
            }
        )
        if r.draft:
            drafted.setdefault(r.draft, {"event_id": e.event_id, "name": r.draft, "round": b.round})
        dues += [
            {
                "event_id": e.event_id,
                "ruling": r.number,
                "position": d.position,
                "player": r.player,
                "due_kind": d.due_kind,
                "minutes": d.minutes,
                "due_at": d.due_at,
                "round": d.round,
                "table_no": d.table,
                "remedy_ja": d.remedy_ja,
                "remedy_en": d.remedy_en,
                "on_miss": _j(d.on_miss.body()),
                "state": DeadlineState.pending.value,
                "closed_at": None,
            }
            for d in r.dues
        ]
    _INSERT_DRAFT.run_many(conn, drafted.values())
    _INSERT_DEADLINES.run_many(conn, dues)
    _INSERT_RULINGS.run_many(conn, rows)
    missed = b.follow_up_of
    if missed:
        _close_deadline(conn, e, missed.ruling, missed.position, DeadlineState.missed)
    projector_calls.cite_call(conn, e, b)  # T14: a ruling recorded from a call


@handles(entries.RulingsConfirmed)
def _ruling_confirmed(conn: Connection, e: Entry, b: entries.RulingsConfirmed) -> None:
    _SET_STATE.run(conn, {"e": e.event_id, "ns": list(b.rulings), "state": RulingState.confirmed.value})


@handles(entries.RulingDeviated)
def _ruling_deviated(conn: Connection, e: Entry, b: entries.RulingDeviated) -> None:
    _DEVIATE.run(
        conn,
        {
            "e": e.event_id,
            "n": b.ruling,
            "penalties": _j(list(b.penalties)),
            "reason": b.reason,
            "needs": b.needs_head_judge,
            "ja": b.explanation_ja,
            "en": b.explanation_en,
        },
    )
    if b.effects is not None:
        _DEVIATE_EFFECTS.run(conn, {"e": e.event_id, "n": b.ruling, "effects": _j(list(b.effects))})


@handles(entries.RulingsVoided)
def _ruling_voided(conn: Connection, e: Entry, b: entries.RulingsVoided) -> None:
    numbers = list(b.rulings)
    _SET_STATE.run(conn, {"e": e.event_id, "ns": numbers, "state": RulingState.voided.value})
    _CANCEL_DEADLINES.run(conn, {"e": e.event_id, "ns": numbers, "at": e.recorded_at})


def _close_deadline(conn: Connection, e: Entry, ruling: int, position: int, state: DeadlineState) -> None:
    _CLOSE_DEADLINE.run(
        conn,
        {"e": e.event_id, "ruling": ruling, "position": position, "state": state.value, "at": e.recorded_at},
    )


@handles(entries.DeadlineDone)
def _deadline_done(conn: Connection, e: Entry, b: entries.DeadlineDone) -> None:
    _close_deadline(conn, e, b.ruling, b.position, DeadlineState.done)


@handles(entries.StatementTaken)
def _statement(conn: Connection, e: Entry, b: entries.StatementTaken) -> None:
    """The statement's row is its entry's body (the statement names its values by the body's keys)."""
    _INSERT_STATEMENT.run(conn, {"e": e.event_id, "seq": e.seq, **b.body()})


@handles(entries.AppealFiled)
def _appeal_filed(conn: Connection, e: Entry, b: entries.AppealFiled) -> None:
    """The appeal's row is its entry's body, as for a statement."""
    _INSERT_APPEAL.run(conn, {"e": e.event_id, "seq": e.seq, **b.body()})


@handles(entries.AppealDecided)
def _appeal_decided(conn: Connection, e: Entry, b: entries.AppealDecided) -> None:
    _DECIDE_APPEAL.run(conn, {"e": e.event_id, "appeal": b.appeal, "outcome": b.outcome, "reason": b.reason})
