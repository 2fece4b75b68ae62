"""Rounds on a clock (D21): start a round, give a table more time, end the round, and the
round's clock as the scorekeeper and the judges read it.

A round's clock is in the ledger: ``round.started`` (its length in minutes; the start is
the entry's time) and ``time.extended`` (minutes a judge gave one table, with the reason).
Each table's time ends at the round's end plus the minutes given to it; the extra turns of
a ruling's ``time_extension`` (slow play) come after that and are shown as the ruling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict, Unpack

from shinpan.engine.clock import MAX_EXTENSION_MINUTES, MAX_ROUND_MINUTES, ROUND_MINUTES, table_ends_at
from shinpan.engine.effects import Match
from shinpan.engine.event_rules import Action, RoundState
from shinpan.entries import RoundStarted, TimeExtended
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused
from shinpan.guideline.model import Meaning
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.commands import no_answer, run_command
from shinpan.services.context import check_reason, load_event, paired_round, parse_stamp, stamp
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.deadlines import RemedyDue, due_at_end
from shinpan.store.events import round_minutes
from shinpan.store.ledger import Appender, Entry
from shinpan.store.rounds import TimeGiven, round_matches, round_of, time_given
from shinpan.store.rulings import ExtraTurns, extra_turns
from shinpan.store.snapshots import match_at


def _minutes(value: int, field: str, highest: int) -> int:
    if not 1 <= value <= highest:
        raise InvalidInput("give between 1 and {highest} minutes", field=field, highest=highest)
    return value


def round_length(conn: Connection, event_id: int) -> int:
    """The event's round length in minutes (its setting, or 50)."""
    return round_minutes(conn, event_id) or ROUND_MINUTES


def start_round(
    db: Database,
    event_id: int,
    *,
    minutes: int | None = None,
    actor: str | None = None,
    command_id: str | None = None,
    now: datetime | None = None,
) -> RoundStartedJson:
    """Start the clock of the round paired last: ``minutes`` long (default: the event's
    round length). Its tardiness deadlines run from now on (D21)."""
    if minutes is not None:
        _minutes(minutes, "minutes", MAX_ROUND_MINUTES)

    def act(conn: Connection, ap: Appender) -> RoundStartedJson:
        event = load_event(conn, event_id)
        if not event.current_round:
            raise Conflict("no round is paired yet: pair round 1 first")
        row = paired_round(conn, event_id, event.current_round)
        if row.state is not RoundState.paired:
            raise Conflict("round {round} has already started", round=row.number)
        length = minutes if minutes is not None else round_length(conn, event_id)
        ap.append(RoundStarted(row.number, length))
        ends = stamp(table_ends_at(parse_stamp(ap.now), length, 0))
        return {"round": row.number, "minutes": length, "started_at": ap.now, "ends_at": ends}

    def replayed(_conn: Connection, entry: Entry) -> RoundStartedJson:
        started = entry.of(RoundStarted)
        ends = table_ends_at(parse_stamp(entry.recorded_at), started.minutes, 0)
        return {
            "round": started.round,
            "minutes": started.minutes,
            "started_at": entry.recorded_at,
            "ends_at": stamp(ends),
        }

    payload = {"start_round": True, "minutes": minutes}
    return run_command(db, event_id, Action.results, actor, command_id, payload, act, now, replayed)


def give_time(
    db: Database,
    event_id: int,
    table: int,
    minutes: int,
    reason: str,
    *,
    round_no: int | None = None,
    **asked: Unpack[Judged],
) -> None:
    """A judge gives one table more time (a judge call, a deck check), with the reason."""
    _minutes(minutes, "minutes", MAX_EXTENSION_MINUTES)
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the table gets more time", field="reason")
    check_reason(reason)

    def act(conn: Connection, ap: Appender) -> None:
        event = load_event(conn, event_id)
        number = round_no or event.current_round
        row = paired_round(conn, event_id, number)
        if row.state is RoundState.ended:
            raise Conflict("round {round} has already ended", round=number)
        m = match_at(conn, event_id, number, table)
        if m is None:
            raise NotFound("no match at table {table} in round {round}", table=table, round=number)
        if m.b is None:
            raise Refused("table {table} is a bye: there is no match to give time to", table=table)
        if m.result is not None:
            raise Conflict("the match at table {table} has already ended", table=table)
        ap.append(TimeExtended(number, table, minutes, reason))

    payload = {"round": round_no, "table": table, "minutes": minutes, "reason": reason}
    run_asked(db, event_id, Action.extend, payload, act, no_answer, **by_judge(asked))


# -- the round's clock, as people read it ------------------------------------------------------


class RoundStartedJson(TypedDict):
    """A round's clock as it was started: its length and when it ends."""

    round: int
    minutes: int
    started_at: str
    ends_at: str


@dataclass(frozen=True)
class DueAtEnd:
    """A remedy's deadline that falls due when this table's match ends."""

    ruling: int
    position: int
    player: str
    remedy_ja: str
    remedy_en: str


@dataclass(frozen=True)
class TableClock:
    table: int
    player_a: str
    player_b: str | None
    result: str | None
    ends_at: str | None  # None: the round's clock has not started
    time_given: list[TimeGiven] = field(default_factory=list)
    extra_turns: list[ExtraTurns] = field(default_factory=list)
    due_at_end: list[DueAtEnd] = field(default_factory=list)

    @property
    def playing(self) -> bool:
        return self.player_b is not None and self.result is None

    @property
    def extra_minutes(self) -> int:
        return sum(t.minutes for t in self.time_given)

    def as_json(self) -> TableClockJson:
        return {
            "table": self.table,
            "player_a": self.player_a,
            "player_b": self.player_b,
            "result": self.result,
            "playing": self.playing,
            "ends_at": self.ends_at,
            "extra_minutes": self.extra_minutes,
            "time_given": [_given(t) for t in self.time_given],
            "extra_turns": [_turns(t) for t in self.extra_turns],
            "due_at_end": [_due_json(d) for d in self.due_at_end],
        }


@dataclass(frozen=True)
class RoundClock:
    round: int
    state: RoundState
    started_at: str | None
    minutes: int | None
    ends_at: str | None
    seconds_left: float | None
    tables: list[TableClock]
    due_at_round_end: list[DueAtEnd] = field(default_factory=list)

    @property
    def still_playing(self) -> list[TableClock]:
        return [t for t in self.tables if t.playing]

    def as_json(self) -> RoundClockJson:
        return {
            "round": self.round or None,
            "state": self.state,
            "started_at": self.started_at,
            "minutes": self.minutes,
            "ends_at": self.ends_at,
            "seconds_left": self.seconds_left,
            "tables": [
                {**t.as_json(), "playing": t.playing and self.state is not RoundState.paired}
                for t in self.tables
            ],
            "still_playing": [t.table for t in self.still_playing],
            "due_at_round_end": [_due_json(d) for d in self.due_at_round_end],
        }


class TimeGivenJson(TypedDict):
    minutes: int
    reason: str
    judge: str
    given_at: str


class ExtraTurnsJson(TypedDict):
    ruling: int
    player: str
    rule: str


class DueAtEndJson(TypedDict):
    ruling: int
    position: int
    player: str
    remedy_ja: str
    remedy_en: str


class TableClockJson(TypedDict):
    """A table's clock: its own end, the time given to it, what falls due when it ends."""

    table: int
    player_a: str
    player_b: str | None
    result: str | None
    playing: bool
    ends_at: str | None
    extra_minutes: int
    time_given: list[TimeGivenJson]
    extra_turns: list[ExtraTurnsJson]
    due_at_end: list[DueAtEndJson]


class RoundClockJson(TypedDict):
    """The round's clock as the API and the pages give it (``round`` None before round 1)."""

    round: int | None
    state: RoundState
    started_at: str | None
    minutes: int | None
    ends_at: str | None
    seconds_left: float | None
    tables: list[TableClockJson]
    still_playing: list[int]
    due_at_round_end: list[DueAtEndJson]


def _given(t: TimeGiven) -> TimeGivenJson:
    return {"minutes": t.minutes, "reason": t.reason, "judge": t.judge, "given_at": t.given_at}


def _turns(t: ExtraTurns) -> ExtraTurnsJson:
    return {"ruling": t.ruling, "player": t.player, "rule": t.rule}


def _due_json(d: DueAtEnd) -> DueAtEndJson:
    return {
        "ruling": d.ruling,
        "position": d.position,
        "player": d.player,
        "remedy_ja": d.remedy_ja,
        "remedy_en": d.remedy_en,
    }


def _due(d: RemedyDue) -> DueAtEnd:
    return DueAtEnd(d.ruling, d.position, d.player, d.remedy_ja, d.remedy_en)


def read_clock(
    conn: Connection, event_id: int, round_no: int, now: datetime, matches: Sequence[Match] | None = None
) -> RoundClock:
    """One round's clock: its time, each table's own end time, what was given to it, and
    what falls due when each match and the round end (``matches``: the round's, already read)."""
    r = round_of(conn, event_id, round_no)
    if r is None:
        return RoundClock(round_no, RoundState.none, None, None, None, None, [])
    started = parse_stamp(r.started_at) if r.started_at else None
    given = time_given(conn, event_id, round_no)
    book = load_event(conn, event_id).book
    turns = extra_turns(conn, event_id, round_no, book.codes_acting_as(Meaning.time_extension))
    at_match_end: dict[int, list[DueAtEnd]] = {}
    at_round_end = []
    for d in due_at_end(conn, event_id, round_no):
        if d.due_kind == "end_of_match" and d.table is not None:
            at_match_end.setdefault(d.table, []).append(_due(d))
        elif d.due_kind == "end_of_round":
            at_round_end.append(_due(d))
    tables = []
    for m in round_matches(conn, event_id, round_no) if matches is None else matches:
        extra = given.get(m.table, [])
        ends = None
        if started is not None and r.minutes is not None and m.b is not None:
            ends = stamp(table_ends_at(started, r.minutes, sum(t.minutes for t in extra)))
        tables.append(
            TableClock(
                m.table,
                m.a,
                m.b,
                m.result,
                ends,
                extra,
                turns.get(m.table, []),
                at_match_end.get(m.table, []),
            )
        )
    ends_at = stamp(table_ends_at(started, r.minutes, 0)) if started and r.minutes is not None else None
    left = (parse_stamp(ends_at) - now).total_seconds() if ends_at and r.state is RoundState.started else None
    return RoundClock(round_no, r.state, r.started_at, r.minutes, ends_at, left, tables, at_round_end)


def round_clock(
    db: Database, event_id: int, round_no: int | None = None, *, now: datetime | None = None
) -> RoundClock:
    """The clock of ``round_no`` (default: the current round)."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        return read_clock(conn, event_id, round_no or event.current_round, parse_stamp(stamp(now)))
