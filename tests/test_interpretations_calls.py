"""T14 of tournament/RULES.md, judge calls: who may raise, claim, escalate and resolve a
call, and the time the table gets back (claim to resolution, less one minute, rounded up)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shinpan.tournament.calls import (
    CallRefused,
    CallState,
    Outcome,
    by_waiting,
    extension_minutes,
    over_threshold,
    percentile,
    why_no_claim,
    why_no_escalate,
    why_no_raise,
    why_no_resolve,
)

OPEN, CLAIMED, ESCALATED, RESOLVED = CallState


# --- the table gets the time back: claim to resolution, less one minute, rounded up, never below 0


@pytest.mark.parametrize(
    ("seconds", "minutes"),
    [(0, 0), (1, 0), (59, 0), (60, 0), (61, 1), (90, 1), (119, 1), (120, 1), (121, 2), (180, 2), (181, 3)],
)
def test_t14_the_extension_is_the_call_less_one_minute_rounded_up(seconds: int, minutes: int) -> None:
    assert extension_minutes(timedelta(seconds=seconds)) == minutes


def test_t14_a_microsecond_past_the_minute_is_a_minute_more() -> None:
    assert extension_minutes(timedelta(seconds=60, microseconds=1)) == 1
    assert extension_minutes(timedelta(seconds=120, microseconds=1)) == 2


def test_t14_the_extension_is_never_below_zero() -> None:
    assert extension_minutes(timedelta(seconds=-30)) == 0


def test_t14_a_long_call_gives_its_whole_minutes_less_one() -> None:
    assert extension_minutes(timedelta(minutes=7)) == 6
    assert extension_minutes(timedelta(minutes=7, seconds=1)) == 7


# --- raised for a table of the round; a player raises at most one open call per table


def test_t14_a_call_for_a_table_not_in_the_round_is_refused() -> None:
    assert why_no_raise(table_in_round=False, open_at_table=False, by_player=True) is CallRefused.not_in_round
    assert (
        why_no_raise(table_in_round=False, open_at_table=False, by_player=False) is CallRefused.not_in_round
    )


def test_t14_a_player_raises_one_open_call_per_table() -> None:
    assert why_no_raise(table_in_round=True, open_at_table=False, by_player=True) is None
    assert why_no_raise(table_in_round=True, open_at_table=True, by_player=True) is CallRefused.already_open


def test_t14_a_judge_may_raise_another_call_for_a_table() -> None:
    assert why_no_raise(table_in_round=True, open_at_table=True, by_player=False) is None


# --- claimed once; escalated once; resolved once, by a judge who holds it


def test_t14_only_an_open_call_is_claimed() -> None:
    assert why_no_claim(OPEN) is None
    assert why_no_claim(CLAIMED) is CallRefused.already_claimed
    assert why_no_claim(ESCALATED) is CallRefused.already_claimed
    assert why_no_claim(RESOLVED) is CallRefused.resolved


def test_t14_a_call_goes_to_the_head_judge_once_and_not_after_it_is_resolved() -> None:
    assert why_no_escalate(OPEN) is None
    assert why_no_escalate(CLAIMED) is None
    assert why_no_escalate(ESCALATED) is CallRefused.escalated
    assert why_no_escalate(RESOLVED) is CallRefused.resolved


def test_t14_a_call_nobody_claimed_is_not_resolved() -> None:
    assert why_no_resolve(OPEN, Outcome.none, []) is CallRefused.not_claimed


def test_t14_a_call_is_resolved_once() -> None:
    assert why_no_resolve(CLAIMED, Outcome.none, []) is None
    assert why_no_resolve(ESCALATED, Outcome.appeal, []) is None
    assert why_no_resolve(RESOLVED, Outcome.none, []) is CallRefused.resolved


def test_t14_a_call_resolved_with_a_ruling_cites_one() -> None:
    assert why_no_resolve(CLAIMED, Outcome.ruling, []) is CallRefused.cites_none
    assert why_no_resolve(CLAIMED, Outcome.ruling, [4]) is None
    assert why_no_resolve(CLAIMED, Outcome.ruling, [4, 5]) is None


def test_t14_only_a_call_resolved_with_a_ruling_cites_rulings() -> None:
    assert why_no_resolve(CLAIMED, Outcome.none, [4]) is CallRefused.cites_without_ruling
    assert why_no_resolve(CLAIMED, Outcome.appeal, [4]) is CallRefused.cites_without_ruling


# --- the judges' queue: longest waiting first, those over the threshold marked


def test_t14_the_queue_puts_the_longest_waiting_call_first() -> None:
    raised = [
        (12, "2026-01-01T10:05:00.000000Z"),
        (9, "2026-01-01T10:01:00.000000Z"),
        (13, "2026-01-01T10:05:00.000000Z"),
    ]
    assert by_waiting(raised) == [9, 12, 13]
    # by the moment raised, not by the call's number; at the same moment, the number first
    later_numbered = [(13, "2026-01-01T10:05:00.000000Z"), (12, "2026-01-01T10:05:00.000000Z")]
    assert by_waiting([*later_numbered, (20, "2026-01-01T09:59:00.000000Z")]) == [20, 12, 13]


def test_t14_a_call_waiting_past_the_threshold_is_marked() -> None:
    five = timedelta(minutes=5)
    assert not over_threshold(timedelta(minutes=5), five)
    assert over_threshold(timedelta(minutes=5, seconds=1), five)


def test_t14_reports_give_the_median_and_the_90th_percentile() -> None:
    assert percentile([], 50) is None
    assert percentile([30.0], 90) == 30.0
    waits = [float(s) for s in range(10, 110, 10)]  # 10 … 100
    assert percentile(waits, 50) == 50.0
    assert percentile(waits, 90) == 90.0
    assert percentile([1.0, 2.0, 3.0], 50) == 2.0
    hundred_and_one = [float(s) for s in range(1, 102)]  # the median of 101 waits is the 51st
    assert percentile(hundred_and_one, 50) == 51.0
    assert percentile(hundred_and_one, 90) == 91.0
