"""Remedies with deadlines (D7, D9, D21): what is due, what is overdue, done or missed.

Deadlines run on the event's clock (D21): a timed one from when its ruling was given at the
table (or from the round's start, where the guideline declares it), and it cannot be marked
missed before it is due; an end-of-match or end-of-round one falls due when that ends, and
the head judge may mark it missed sooner. An end-of-match deadline that the guideline puts
on the table's time (D23, tardiness's in the seed) falls due when the table's time ends,
not when duel or match losses decide the match; a judge marking the player arrived closes
the deadlines that wait for them. What a deadline runs on is what the event's guideline
declares for it (``clock``), never read from an infraction's id.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

from shinpan.engine.clock import (
    Awaits,
    DueState,
    Moment,
    awaits,
    closed_by_arrival,
    due_state,
    table_ends_at,
)
from shinpan.engine.event_rules import Action, DeadlineState, Role, RoundState
from shinpan.errors import Conflict, Forbidden, NotFound
from shinpan.guideline.terms import When
from shinpan.services.context import load_event, parse_stamp, role_of, stamp
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.deadlines import RemedyDue, pending_positions, remedies, remedy
from shinpan.store.rounds import paired_after, result_at, round_of, time_given

if TYPE_CHECKING:  # what appends loads in mark_done and mark_missed: listing reads only
    from shinpan.guideline.rulebook import Rulebook
    from shinpan.services.asked import Judged
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
    clock: str  # what the guideline declares it runs on (D21, D23): given, round_start, …; "" none
    arrival: bool  # a judge marking the player arrived closes it (D23)

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
    clock: str
    arrival: bool


def _clock(book: Rulebook, d: RemedyDue) -> str:
    return book.deadline_clock(d.rule, d.due_kind, d.remedy_ja)


def _table_ends(conn: Connection, event_id: int, round_no: int, table: int) -> tuple[datetime | None, bool]:
    """When the table's time ends (T5: the round's time and that table's extensions; None
    before the round started), and whether the round has been ended."""
    r = round_of(conn, event_id, round_no)
    if r is None:
        return None, False
    ended = r.state is RoundState.ended
    if r.started_at is None or r.minutes is None:
        return None, ended
    extra = sum(t.minutes for t in time_given(conn, event_id, round_no).get(table, []))
    return table_ends_at(parse_stamp(r.started_at), r.minutes, extra), ended


def _moment(conn: Connection, event_id: int, d: RemedyDue, awaited: Awaits) -> Moment:
    """What the record says of the moment the deadline awaits (the core says which, D21)."""
    if awaited is Awaits.time:
        return Moment(at=parse_stamp(d.due_at) if d.due_at else None)
    if d.round is None:
        return Moment()
    if awaited is Awaits.round_end:
        r = round_of(conn, event_id, d.round)
        return Moment(come=bool(r and r.state is RoundState.ended))
    if awaited is Awaits.next_match:
        return Moment(come=paired_after(conn, event_id, d.round))
    if d.table is None:
        return Moment()
    if awaited is Awaits.table_time:  # D23: the table's time, whatever the duels decided
        ends, round_ended = _table_ends(conn, event_id, d.round, d.table)
        return Moment(come=round_ended, at=ends)
    return Moment(come=bool(result_at(conn, event_id, d.round, d.table)))


def _due(conn: Connection, event_id: int, d: RemedyDue, now: datetime, clock: str) -> DueState:
    when = When(d.due_kind)
    return due_state(when, clock, _moment(conn, event_id, d, awaits(when, clock)), now)


def _shown(d: RemedyDue, overdue: bool, left: float | None, clock: str) -> Deadline:
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
        clock,
        closed_by_arrival(clock),
    )


def list_deadlines(
    db: Database, event_id: int, *, now: datetime | None = None, include_closed: bool = False
) -> list[Deadline]:
    """Pending remedies (and, if asked, closed ones), the overdue first."""
    moment = parse_stamp(stamp(now))
    with db.read() as conn:
        book = load_event(conn, event_id).book
        out = []
        for d in remedies(conn, event_id, include_closed=include_closed):
            clock = _clock(book, d)
            due = _due(conn, event_id, d, moment, clock) if d.state is DeadlineState.pending else None
            out.append(_shown(d, due is not None and due.due, due.seconds_left if due else None, clock))
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
    **asked: Unpack[Judged],
) -> None:
    """The remedy was carried out in time: this deadline and the ruling's later ones close."""
    # Late: listing deadlines loads no ledger entries and no recording.
    from shinpan.entries import DeadlineDone  # start-up
    from shinpan.services.asked import by_judge, run_asked  # start-up
    from shinpan.services.commands import no_answer  # start-up

    def act(conn: Connection, ap: Appender) -> None:
        _pending(conn, event_id, ruling, position)
        for pos in pending_positions(conn, event_id, ruling, since=position):
            ap.append(DeadlineDone(ruling, pos))

    run_asked(db, event_id, Action.deadline, {"done": [ruling, position]}, act, no_answer, **by_judge(asked))


def mark_arrived(
    db: Database,
    event_id: int,
    ruling: int,
    position: int | None = None,
    **asked: Unpack[Judged],
) -> None:
    """到着 (D23): the late player has come. Every pending deadline of the ruling (from
    ``position``) that waits for the player, as the guideline declares it, closes as done;
    the duel losses already given stand."""
    from shinpan.entries import DeadlineDone  # start-up
    from shinpan.services.asked import by_judge, run_asked  # start-up
    from shinpan.services.commands import no_answer  # start-up

    def act(conn: Connection, ap: Appender) -> None:
        book = load_event(conn, event_id).book
        if position is not None:
            _pending(conn, event_id, ruling, position)
        waiting = [
            pos
            for pos in pending_positions(conn, event_id, ruling, since=position or 0)
            if (row := remedy(conn, event_id, ruling, pos)) is not None
            and closed_by_arrival(_clock(book, row))
        ]
        if not waiting:
            raise Conflict("ruling {ruling} has no deadline waiting for the player to arrive", ruling=ruling)
        for pos in waiting:
            ap.append(DeadlineDone(ruling, pos))

    run_asked(
        db,
        event_id,
        Action.deadline,
        {"arrived": [ruling, position]},
        act,
        no_answer,
        **by_judge(asked),
    )


def mark_missed(
    db: Database,
    event_id: int,
    ruling: int,
    position: int | None = None,
    *,
    early_confirmed: bool = True,
    **asked: Unpack[Judged],
) -> list[RulingDecided]:
    """The remedy was not done in time: the follow-up ruling (D7), from the next deadline.
    Before an end-of-match or end-of-round deadline falls due, the head judge may end it
    (D21); ``early_confirmed=False`` (a screen that has not asked yet) refuses that."""
    from shinpan.engine import Ruling, follow_up  # start-up
    from shinpan.engine.ruling import Due, Explanation  # start-up
    from shinpan.entries import DeadlineRef, RulingsRecorded  # start-up
    from shinpan.services.asked import by_judge, run_asked  # start-up
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
        state = _due(conn, event_id, d, moment, _clock(event.book, d))
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

    return run_asked(
        db,
        event_id,
        Action.deadline,
        {"missed": [ruling, position]},
        act,
        lambda _c, e: [ruling_decided(r) for r in e.of(RulingsRecorded).rulings],
        **by_judge(asked),
    )
