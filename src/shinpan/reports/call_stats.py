"""Judge calls in the statistics (T14): how many calls each round, how long tables waited
for a judge (raised to claimed) and how long judges were there (claimed to resolved), as the
median and the 90th percentile, per judge; and how many calls led to rulings, to appeals,
and went to the head judge."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from shinpan.reports.common import minutes_between
from shinpan.store.calls import CallRow, calls_of
from shinpan.store.connection import Connection
from shinpan.tournament.calls import percentile


@dataclass(frozen=True)
class Spread:
    """Minutes: how many calls were timed, their median and 90th percentile."""

    timed: int
    median_minutes: float | None
    p90_minutes: float | None


@dataclass(frozen=True)
class CallRound:
    round: int
    calls: int


@dataclass(frozen=True)
class JudgeCalls:
    """The calls a judge claimed and how long they were at the tables."""

    judge: str
    claimed: int
    handling: Spread


@dataclass(frozen=True)
class CallStats:
    total: int
    open: int  # not resolved yet
    by_round: tuple[CallRound, ...]
    waiting: Spread  # raised to claimed
    handling: Spread  # claimed to resolved
    judges: tuple[JudgeCalls, ...]
    led_to_rulings: int
    led_to_appeals: int
    escalated: int
    minutes_given: int  # the extensions tables got back


def _spread(minutes: list[float]) -> Spread:
    median, p90 = percentile(minutes, 50), percentile(minutes, 90)
    return Spread(
        len(minutes),
        None if median is None else round(median, 1),
        None if p90 is None else round(p90, 1),
    )


def call_stats(conn: Connection, event_ids: Iterable[int]) -> CallStats:
    """The calls of these events, counted and timed."""
    rows: list[CallRow] = [r for e in event_ids for r in calls_of(conn, e)]
    per_round: Counter[int] = Counter(r.round for r in rows)
    waits = [minutes_between(r.raised_at, r.claimed_at) for r in rows if r.claimed_at]
    handled: dict[str, list[float]] = defaultdict(list)
    claimed: Counter[str] = Counter()
    all_handling: list[float] = []
    for r in rows:
        if r.judge:
            claimed[r.judge] += 1
        start = r.claimed_at or r.escalated_at
        if start and r.resolved_at:
            took = minutes_between(start, r.resolved_at)
            all_handling.append(took)
            handled[r.judge or r.escalated_by or ""].append(took)
    judges = sorted(set(claimed) | set(handled), key=lambda j: (-claimed[j], j))
    return CallStats(
        total=len(rows),
        open=sum(1 for r in rows if r.resolved_at is None),
        by_round=tuple(CallRound(n, per_round[n]) for n in sorted(per_round)),
        waiting=_spread(waits),
        handling=_spread(all_handling),
        judges=tuple(JudgeCalls(j, claimed[j], _spread(handled[j])) for j in judges if j),
        led_to_rulings=sum(1 for r in rows if r.outcome == "ruling"),
        led_to_appeals=sum(1 for r in rows if r.outcome == "appeal"),
        escalated=sum(1 for r in rows if r.escalated_at is not None),
        minutes_given=sum(r.minutes or 0 for r in rows),
    )
