"""Remedies with deadlines (D7, D9, D21): what is due, what is overdue, done or missed.

Deadlines run on the event's clock (D21): a timed one from when its ruling was given at the
table, and it cannot be marked missed before it is due; an end-of-match or end-of-round one
falls due when that ends, and the head judge may mark it missed sooner.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict, cast

from shinpan.engine.clock import due_state
from shinpan.engine.event_rules import DeadlineState, Role, RoundState
from shinpan.errors import Conflict, Forbidden, NotFound
from shinpan.services.context import load_event, parse_stamp, role_of, stamp
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.deadlines import RemedyDue, pending_positions, remedies, remedy
from shinpan.store.rounds import paired_after, result_at, round_of

if TYPE_CHECKING:  # what appends loads in mark_done and mark_missed: listing reads only
    from shinpan.services.shapes import RulingDecided
    from shinpan.store.ledger import Appender


@dataclass(frozen=True)
class Deadline:
    """A pending remedy as the head judge's desk shows it."""

    ruling: int
    position: int
    player: str
    rule: str
    due_kind: str
    due_at: str | None
    round: int | None
    table: int | None
    remedy_ja: str
    remedy_en: str
    on_miss: dict[str, list[str]]  # the effects and penalties missing it brings
    state: DeadlineState
    overdue: bool
    seconds_left: float | None

    def as_json(self) -> DeadlineJson:
        """Its fields by name, in their order (:class:`DeadlineJson` names each)."""
        return cast("DeadlineJson", asdict(self))


class DeadlineJson(TypedDict):
    """A remedy's deadline as the desk and the API give it."""

    ruling: int
    position: int
    player: str
    rule: str
    due_kind: str
    due_at: str | None
    round: int | None
    table: int | None
    remedy_ja: str
    remedy_en: str
    on_miss: dict[str, list[str]]
    state: DeadlineState
    overdue: bool
    seconds_left: float | None


def _overdue(conn: Connection, event_id: int, d: RemedyDue, now: datetime) -> tuple[bool, float | None]:
    if d.due_kind == "minutes" and d.due_at:
        due_at = parse_stamp(d.due_at)
        return due_state(d.due_kind, due_at, now, False).due, (due_at - now).total_seconds()
    if d.due_kind == "end_of_match" and d.round is not None and d.table is not None:
        return bool(result_at(conn, event_id, d.round, d.table)), None
    if d.due_kind == "end_of_round" and d.round is not None:
        r = round_of(conn, event_id, d.round)
        return bool(r and r.state is RoundState.ended), None
    if d.due_kind == "before_next_match" and d.round is not None:
        return paired_after(conn, event_id, d.round), None
    return False, None


def _shown(d: RemedyDue, overdue: bool, left: float | None) -> Deadline:
    on_miss = {"effects": list(d.miss_effects), "penalties": list(d.miss_penalties)}
    return Deadline(
        d.ruling,
        d.position,
        d.player,
        d.rule,
        d.due_kind,
        d.due_at,
        d.round,
        d.table,
        d.remedy_ja,
        d.remedy_en,
        on_miss,
        d.state,
        overdue,
        left,
    )


def list_deadlines(
    db: Database, event_id: int, *, now: datetime | None = None, include_closed: bool = False
) -> list[Deadline]:
    """Pending remedies (and, if asked, closed ones), the overdue first."""
    moment = parse_stamp(stamp(now))
    with db.read() as conn:
        load_event(conn, event_id)
        out = [
            _shown(
                d,
                *(_overdue(conn, event_id, d, moment) if d.state is DeadlineState.pending else (False, None)),
            )
            for d in remedies(conn, event_id, include_closed=include_closed)
        ]
    return sorted(out, key=lambda d: (not d.overdue, d.seconds_left if d.seconds_left is not None else 1e12))


def _pending(conn: Connection, event_id: int, ruling: int, position: int) -> RemedyDue:
    row = remedy(conn, event_id, ruling, position)
    if row is None:
        raise NotFound("ruling {ruling} has no deadline {position}", ruling=ruling, position=position)
    if row.state is not DeadlineState.pending:
        raise Conflict("that deadline is already {state}", state=row.state)
    return row


def mark_done(
    db: Database,
    event_id: int,
    ruling: int,
    position: int = 0,
    *,
    judge: str | None = None,
    command_id: str | None = None,
    now: datetime | None = None,
) -> None:
    """The remedy was carried out in time: this deadline and the ruling's later ones close."""
    # Late: listing deadlines loads no ledger entries and no recording.
    from shinpan.entries import DeadlineDone  # start-up
    from shinpan.services.commands import run_command  # start-up

    def act(conn: Connection, ap: Appender) -> None:
        _pending(conn, event_id, ruling, position)
        for pos in pending_positions(conn, event_id, ruling, since=position):
            ap.append(DeadlineDone(ruling, pos))

    run_command(db, event_id, "deadline", judge, command_id, {"done": [ruling, position]}, act, now)


def mark_missed(
    db: Database,
    event_id: int,
    ruling: int,
    position: int | None = None,
    *,
    judge: str | None = None,
    command_id: str | None = None,
    now: datetime | None = None,
    early_confirmed: bool = True,
) -> list[RulingDecided]:
    """The remedy was not done in time: the follow-up ruling (D7), from the next deadline.
    Before an end-of-match or end-of-round deadline falls due, the head judge may end it
    (D21); ``early_confirmed=False`` (a screen that has not asked yet) refuses that."""
    from shinpan.engine import Ruling, follow_up  # start-up
    from shinpan.engine.ruling import Due, Explanation  # start-up
    from shinpan.entries import DeadlineRef, RulingsRecorded  # start-up
    from shinpan.services.commands import run_command  # start-up
    from shinpan.services.recording import append_rulings, next_number  # start-up
    from shinpan.services.shapes import ruling_decided  # start-up
    from shinpan.store.rulings import stored_ruling  # start-up

    def act(conn: Connection, ap: Appender) -> list[RulingDecided]:
        event = load_event(conn, event_id)
        pos = position
        if pos is None:
            pos = next(iter(pending_positions(conn, event_id, ruling)), None)
            if pos is None:
                raise NotFound("ruling {ruling} has no pending deadline", ruling=ruling)
        d = _pending(conn, event_id, ruling, pos)
        if not (d.miss_penalties or d.miss_effects):
            raise Conflict(
                "missing this deadline brings nothing more: mark it done when the remedy is carried out"
            )
        moment = parse_stamp(ap.now)
        overdue, _left = _overdue(conn, event_id, d, moment)
        state = due_state(d.due_kind, parse_stamp(d.due_at) if d.due_at else None, moment, overdue)
        if not state.due:
            if not state.head_judge_may_end_sooner:
                raise Conflict("this deadline is not due yet (due at {due_at})", due_at=d.due_at)
            if role_of(conn, event_id, ap.actor) is not Role.head_judge:
                raise Forbidden("only the head judge may mark a deadline missed before it is due")
            if not early_confirmed:
                raise Conflict(
                    "this deadline is not due yet: confirm that it is missed now, knowing what follows"
                )
        r = stored_ruling(conn, event_id, ruling)
        if r is None:
            raise NotFound("no ruling {number} in event {event}", number=ruling, event=event_id)
        primary = Ruling(
            player=r.player,
            rule=r.rule,
            offense=r.offense,
            penalties=r.penalties,
            draft=r.draft,
            ref=f"#{r.number}",
            explanation=Explanation(reasons=(), step_source=r.source),
            number=r.number,
        )
        due = Due(
            when=d.due_kind,
            minutes=d.minutes,
            remedy=d.remedy_ja,
            remedy_en=d.remedy_en,
            penalties=d.miss_penalties,
            effects=d.miss_effects,
            has_consequence=bool(d.miss_penalties or d.miss_effects),
        )
        made = follow_up(event.book, primary, due, number=next_number(conn, event_id))
        missed = RulingsRecorded((), follow_up_of=DeadlineRef(ruling, pos))
        return append_rulings(ap, event, [made], missed, r.round, r.table)

    return run_command(
        db,
        event_id,
        "deadline",
        judge,
        command_id,
        {"missed": [ruling, position]},
        act,
        now,
        lambda _c, e: [ruling_decided(r) for r in e.of(RulingsRecorded).rulings],
    )
