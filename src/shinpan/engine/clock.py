"""The event's clock (D21): when a ruling was given, when its deadlines fall due, when a
round and each table's match run out of time.

Pure: the caller passes the moment it calls "now". A ruling carries the time it was given
at the table, which a phone that was offline sends later: at most twelve hours in the
past, never in the future (a phone's clock a little ahead of the server's is read as now).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from shinpan.errors import InvalidInput
from shinpan.guideline.terms import Clock, When

DEFAULT_TIME_ZONE = "Asia/Tokyo"  # an event's clock and every time shown, unless it says otherwise
MAX_AGE = timedelta(hours=12)
CLOCK_SKEW = timedelta(minutes=2)  # a phone's clock this far ahead counts as now


class ClockError(InvalidInput, ValueError):
    """A time that cannot be a ruling's time at the table; ``kind`` says why
    (``format``, ``offset``, ``future``, ``too_old``)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message, field="given_at")
        self.kind = kind


def parse_given_at(value: str) -> datetime:
    """ISO 8601 with an offset (``2026-12-05T10:15:00+09:00``), or ClockError."""
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ClockError("format", "not a time in ISO 8601 (e.g. 2026-12-05T10:15:00+09:00)") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ClockError("offset", "the time needs its offset from UTC (e.g. +09:00)")
    return moment


def given_at(value: datetime | None, now: datetime) -> datetime:
    """D21: the ruling's time at the table: ``value`` if it may be one, else ClockError."""
    if value is None:
        return now
    if value > now + CLOCK_SKEW:
        raise ClockError("future", "lies in the future")
    if value < now - MAX_AGE:
        raise ClockError("too_old", "lies more than 12 hours in the past")
    return min(value, now)


class Awaits(StrEnum):
    """The moment a deadline waits for (D21, D23), as its kind and its clock say."""

    time = "time"  # its own time: minutes from when it counts
    match_result = "match_result"  # its match's result
    table_time = "table_time"  # the end of its table's time, or of its round (D23, T5)
    round_end = "round_end"  # the end of its round
    next_match = "next_match"  # a later round paired: the player's next match


def awaits(when: When, clock: str) -> Awaits:
    """D21, D23: what a deadline of this kind waits for, on the clock its guideline declares
    for it (an end-of-match one on the table's time waits for that, else for the result)."""
    if when is When.minutes:
        return Awaits.time
    if when is When.end_of_match:
        return Awaits.table_time if clock == Clock.table_time else Awaits.match_result
    if when is When.end_of_round:
        return Awaits.round_end
    return Awaits.next_match


@dataclass(frozen=True)
class Moment:
    """What the event's record says of the moment a deadline awaits (:func:`awaits`): whether
    it has come (the result is in, the round was ended, a later round is paired), and when it
    comes where a time says so (a timed deadline's time, the end of the table's time)."""

    come: bool = False
    at: datetime | None = None


@dataclass(frozen=True)
class DueState:
    """Whether a deadline has fallen due, who may end it sooner, and the seconds left to its
    time where it has one (D21)."""

    due: bool
    head_judge_may_end_sooner: bool
    seconds_left: float | None = None


def due_state(when: When, clock: str, moment: Moment, now: datetime) -> DueState:
    """D21: a timed deadline is due at its time and not before (its seconds left counted past
    it); an end-of-match, end-of-round or before-the-next-match deadline when that comes
    (:func:`match_over_for_deadline`), though the head judge may mark one missed sooner."""
    if when is When.minutes:
        at = moment.at
        if at is None:
            return DueState(due=False, head_judge_may_end_sooner=False)
        return DueState(now >= at, head_judge_may_end_sooner=False, seconds_left=(at - now).total_seconds())
    if when is When.end_of_match:
        due = match_over_for_deadline(
            clock, result_in=moment.come, table_ends=moment.at, round_ended=moment.come, now=now
        )
        left = (moment.at - now).total_seconds() if moment.at is not None and not due else None
        return DueState(due, head_judge_may_end_sooner=True, seconds_left=left)
    return DueState(due=moment.come, head_judge_may_end_sooner=True)


def deadline_runs_from(clock: str, given: datetime, round_started: datetime | None) -> datetime:
    """D21: the moment a timed deadline counts from, as the guideline declares it for that
    deadline (``clock``): ``round_start``, from the start of the player's round once it has
    started; otherwise (and before a started round) from when the ruling was given at the table."""
    if clock == "round_start" and round_started is not None:
        return round_started
    return given


# D23: the clocks of the deadlines that wait for the player to come (tardiness's, in the
# seed): a judge marking the player arrived closes them.
ARRIVAL_CLOCKS = frozenset({"round_start", "table_time"})


def closed_by_arrival(clock: str) -> bool:
    """D23: whether a deadline on ``clock`` waits for the player to arrive, so that a judge
    marking the player arrived closes it (as the guideline declares its clock)."""
    return clock in ARRIVAL_CLOCKS


def match_over_for_deadline(
    clock: str, *, result_in: bool, table_ends: datetime | None, round_ended: bool, now: datetime
) -> bool:
    """D21, D23: whether an end-of-match deadline has fallen due. On the table's time
    (``table_time``, D23): once the table's time is over (the round's end plus that table's
    extensions, T5) or the round has been ended, never because duel or match losses decided
    the match. On the match's result (``match_result``): once the result is in."""
    if clock == "table_time":
        return round_ended or (table_ends is not None and now >= table_ends)
    return result_in


ROUND_MINUTES = 50  # a round's length unless the event or the round says otherwise
MAX_ROUND_MINUTES = 24 * 60
MAX_EXTENSION_MINUTES = 120


def table_ends_at(round_started: datetime, round_minutes: int, extra_minutes: int) -> datetime:
    """When a table's time is over: the round's time, and the minutes judges gave that
    table (a judge call, a deck check). Extra turns after time (a ruling's
    ``time_extension``) come after this moment and are not minutes."""
    return round_started + timedelta(minutes=round_minutes + extra_minutes)
