"""D21 of guideline/CATALOG.md on the event's clock, decided by the pure core alone.

Read `given_at(at(-5), NOW)` as "a judge's phone says the ruling was given five minutes ago,
and the server's clock says NOW". NOW is 10:00 in Tokyo on the first day of an event.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from shinpan.engine import Due, Record, decide, explain, follow_up, replay
from shinpan.engine.clock import (
    CLOCK_SKEW,
    MAX_AGE,
    Awaits,
    ClockError,
    DueState,
    Moment,
    awaits,
    closed_by_arrival,
    deadline_runs_from,
    due_state,
    given_at,
    match_over_for_deadline,
    parse_given_at,
    table_ends_at,
)
from shinpan.errors import InvalidInput
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.guideline.terms import When
from support import BOOK, scenario

NOW = parse_given_at("2026-12-05T10:00:00+09:00")


def at(minutes: float) -> datetime:
    """NOW, moved by ``minutes`` (negative: earlier)."""
    return NOW + timedelta(minutes=minutes)


def refused(value: datetime) -> str:
    with pytest.raises(ClockError) as caught:
        given_at(value, NOW)
    return caught.value.kind


# --- D21 A ruling's time at the table: at most twelve hours back, never ahead


def test_d21_a_ruling_without_a_time_at_the_table_was_given_now() -> None:
    assert given_at(None, NOW) == NOW


def test_d21_a_ruling_given_earlier_keeps_the_time_it_was_given() -> None:
    assert given_at(at(-5), NOW) == at(-5)
    assert given_at(NOW - MAX_AGE, NOW) == NOW - MAX_AGE  # twelve hours back, to the second


def test_d21_a_ruling_more_than_twelve_hours_back_is_refused() -> None:
    assert refused(NOW - MAX_AGE - timedelta(seconds=1)) == "too_old"
    assert refused(at(-13 * 60)) == "too_old"


def test_d21_a_phone_a_little_ahead_of_the_server_reads_as_now() -> None:
    assert given_at(at(1), NOW) == NOW
    assert given_at(NOW + CLOCK_SKEW, NOW) == NOW  # two minutes ahead, to the second


def test_d21_a_ruling_given_in_the_future_is_refused() -> None:
    assert refused(NOW + CLOCK_SKEW + timedelta(seconds=1)) == "future"
    assert refused(at(60)) == "future"


def test_d21_a_refused_time_says_why_in_the_judge_s_field() -> None:
    with pytest.raises(InvalidInput) as caught:
        given_at(at(60), NOW)
    assert caught.value.field == "given_at"
    assert "future" in str(caught.value)
    with pytest.raises(InvalidInput, match="12 hours"):
        given_at(at(-13 * 60), NOW)


# --- D21 A time at the table is ISO 8601 with its offset from UTC


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("2026-12-05T10:15:00+09:00", "2026-12-05T01:15:00+00:00"),
        ("2026-12-05T01:15:00Z", "2026-12-05T01:15:00+00:00"),
        ("  2026-12-05T10:15:00+09:00 ", "2026-12-05T01:15:00+00:00"),
    ],
)
def test_d21_a_time_with_its_offset_is_read_as_written(written: str, meant: str) -> None:
    assert parse_given_at(written) == datetime.fromisoformat(meant)


@pytest.mark.parametrize(
    ("written", "kind"),
    [
        ("2026-12-05T10:15:00", "offset"),
        ("tomorrow", "format"),
        ("", "format"),
        ("2026-12-05T01:15:00z", "format"),  # ISO 8601 writes UTC as a capital Z
    ],
)
def test_d21_a_time_without_an_offset_or_not_a_time_is_refused(written: str, kind: str) -> None:
    with pytest.raises(ClockError) as caught:
        parse_given_at(written)
    assert caught.value.kind == kind
    assert caught.value.field == "given_at"


# --- D21 When a deadline falls due, and who may end it sooner


TIMED, MATCH, ROUND, NEXT = When.minutes, When.end_of_match, When.end_of_round, When.before_next_match


def test_d21_a_timed_deadline_falls_due_at_its_time_and_not_before() -> None:
    assert due_state(TIMED, "given", Moment(come=True, at=NOW), at(-1 / 60)).due is False
    assert due_state(TIMED, "given", Moment(at=NOW), NOW).due is True
    assert due_state(TIMED, "round_start", Moment(at=NOW), at(1)).due is True


def test_d21_a_timed_deadline_counts_its_seconds_left_and_past_its_time() -> None:
    assert due_state(TIMED, "given", Moment(at=at(2)), NOW).seconds_left == 120
    assert due_state(TIMED, "given", Moment(at=at(-1)), NOW).seconds_left == -60


def test_d21_nobody_ends_a_timed_deadline_sooner() -> None:
    assert due_state(TIMED, "given", Moment(at=NOW), at(-10)).head_judge_may_end_sooner is False
    assert due_state(TIMED, "given", Moment(), NOW).head_judge_may_end_sooner is False


def test_d21_a_timed_deadline_without_a_time_never_falls_due() -> None:
    assert due_state(TIMED, "given", Moment(come=True), NOW) == DueState(False, False, None)


@pytest.mark.parametrize("kind", [MATCH, ROUND, NEXT])
def test_d21_an_end_of_match_or_round_deadline_falls_due_when_that_ends(kind: When) -> None:
    assert due_state(kind, "", Moment(), NOW).due is False
    assert due_state(kind, "", Moment(come=True), NOW).due is True
    assert due_state(kind, "", Moment(at=NOW), at(60)).due is False  # a time means nothing here


@pytest.mark.parametrize("kind", [MATCH, ROUND, NEXT])
def test_d21_the_head_judge_may_end_an_end_of_match_or_round_deadline_sooner(kind: When) -> None:
    assert due_state(kind, "", Moment(), NOW).head_judge_may_end_sooner is True
    assert due_state(kind, "", Moment(come=True), NOW).head_judge_may_end_sooner is True


def test_d21_d23_what_each_kind_of_deadline_waits_for() -> None:
    assert awaits(TIMED, "given") is Awaits.time and awaits(TIMED, "round_start") is Awaits.time
    assert awaits(MATCH, "match_result") is Awaits.match_result
    assert awaits(MATCH, "") is Awaits.match_result  # the first clock of its kind (none declared)
    assert awaits(MATCH, "table_time") is Awaits.table_time
    assert awaits(ROUND, "") is Awaits.round_end
    assert awaits(NEXT, "") is Awaits.next_match


def test_d23_on_the_table_s_time_the_deadline_counts_down_to_the_table_s_end() -> None:
    running = due_state(MATCH, "table_time", Moment(at=at(5)), NOW)
    assert running == DueState(False, True, 300)
    assert due_state(MATCH, "table_time", Moment(at=at(5)), at(5)) == DueState(True, True, None)
    assert due_state(MATCH, "table_time", Moment(come=True, at=at(5)), NOW) == DueState(True, True, None)
    assert due_state(MATCH, "table_time", Moment(), NOW) == DueState(False, True, None)  # not started


def clock_of(rule: str, when: str = "minutes") -> str:
    """What the shipped guideline declares a deadline of ``rule`` runs on."""
    inf = BOOK.infractions[rule]
    remedies = [*inf.remedies, *(r for step in inf.ladder for r in step.remedies)]
    due = next(r for r in remedies if r.deadline is not None and r.deadline.when == when)
    return BOOK.deadline_clock(rule, when, due.text.ja)


def test_d21_tardiness_counts_its_minutes_from_the_start_of_the_round() -> None:
    assert clock_of("pregame.tardiness") == "round_start"
    assert deadline_runs_from(clock_of("pregame.tardiness"), given=NOW, round_started=at(-3)) == at(-3)


def test_d21_tardiness_before_the_round_started_counts_from_the_ruling() -> None:
    assert deadline_runs_from(clock_of("pregame.tardiness"), given=NOW, round_started=None) == NOW


def test_d21_every_other_deadline_counts_from_the_ruling() -> None:
    assert clock_of("cards.marked-no-pattern") == "given"
    assert deadline_runs_from(clock_of("cards.marked-no-pattern"), given=NOW, round_started=at(-3)) == NOW
    assert deadline_runs_from("given", given=NOW, round_started=at(-3)) == NOW
    assert deadline_runs_from("", given=NOW, round_started=at(-3)) == NOW


# --- The round's clock: a table's time is the round's and the minutes judges gave it


def test_a_table_s_time_is_the_round_s_and_the_minutes_judges_gave_it() -> None:
    assert table_ends_at(NOW, 50, 0) == at(50)
    assert table_ends_at(NOW, 50, 7) == at(57)
    assert table_ends_at(NOW, 40, 3) == at(43)


# --- D21 A deadline the remedy does not state is told in words, with what missing it brings


def test_d21_a_remedy_that_does_not_say_when_is_told_its_deadline_and_what_missing_it_brings() -> None:
    (slow,) = decide(BOOK, Record("A", "ingame.slow-play"), {}, {"A"})
    fix = Due(
        "minutes",
        5,
        "デッキを直してください。",
        "Fix the deck.",
        ("warning1", "match_loss"),
        ("withdrawn",),
        True,
    )
    back = Due("end_of_round", None, "席に戻ってください。", "Return to the table.", (), (), False)
    ja = explain(BOOK, replace(slow, dues=(fix, back)), "ja")
    assert ja.endswith(
        "「デッキを直してください」の期限は5分以内です。"
        "期限を過ぎると、単一警告とマッチの敗北になります。"
        "期限を過ぎると、大会を棄権したものとして扱います。"
        "「席に戻ってください」の期限はラウンドの終了時までです。"
    )
    en = explain(BOOK, replace(slow, dues=(fix, back)), "en")
    assert en.endswith(
        "deadline: within 5 minutes (Fix the deck.); deadline: by the end of the round (Return to the table.)."
    )


def test_d21_a_refused_time_says_why_in_words() -> None:
    with pytest.raises(ClockError) as future:
        given_at(at(60), NOW)
    assert str(future.value) == "lies in the future"
    with pytest.raises(ClockError) as old:
        given_at(at(-13 * 60), NOW)
    assert str(old.value) == "lies more than 12 hours in the past"
    with pytest.raises(ClockError) as offset:
        parse_given_at("2026-12-05T10:15:00")
    assert str(offset.value) == "the time needs its offset from UTC (e.g. +09:00)"
    with pytest.raises(ClockError) as written:
        parse_given_at("tomorrow")
    assert str(written.value) == "not a time in ISO 8601 (e.g. 2026-12-05T10:15:00+09:00)"


# --- D7, D9 A missed deadline's ruling, told as a judge says it


def missed_ruling(rule: str, which: int) -> str:
    (made,) = decide(BOOK, Record("A", rule), {}, {"A"}, ref="event 0", first_number=4)
    return explain(BOOK, follow_up(BOOK, made, made.dues[which], ref="event 1", number=5), "ja")


def test_d9_still_absent_after_ten_minutes_is_told_with_its_remedy_penalty_and_line() -> None:
    assert missed_ruling("pregame.tardiness", 0) == (
        "遅刻の1回目の違反(シナリオのイベント 0)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「10分たっても来ない場合は、さらにデュエル1回の敗北になります」です。"
        "そのため、追加の罰則としてデュエルの敗北を与えます(ガイドラインの記載は「10分後)デ敗」)。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d9_not_there_by_the_end_of_the_match_is_told_as_a_withdrawal() -> None:
    assert missed_ruling("pregame.tardiness", 1) == (
        "遅刻の1回目の違反(シナリオのイベント 0)について、期限までに必要な対応がありませんでした。"
        "対象の処置は「マッチの終了時までに来ない場合は、大会を棄権したものとして扱います」です。"
        "そのため、大会を棄権したものとして扱います"
        "(ガイドラインの記載は「マッチの終了時までにこなかった場合,大会棄権扱い」)。"
        "この裁定は、違反の回数には数えません。"
    )


def test_d7_a_remedy_not_done_in_time_names_the_rule_in_quotes_when_its_name_is_a_phrase() -> None:
    said = missed_ruling("players.no-life-record", 0)
    assert said.startswith(
        "「ライフの合計を記録する方法を用意していない」の1回目の違反(シナリオのイベント 0)について"
    )
    assert "そのため、対戦相手の言い分を採用します(" in said


# --- D9 The deadlines an offence opens, planned from the guideline (a rulebook fresh from
# the file: a rulebook keeps each plan once made, so a fresh one plans it again here)


def fresh_deadlines(rule: str) -> tuple[Due, ...]:
    (made,) = decide(Rulebook(default_guideline()), Record("A", rule), {}, {"A"})
    return made.dues


def test_d9_tardiness_opens_ten_minutes_for_a_duel_loss_and_the_match_for_a_withdrawal() -> None:
    assert fresh_deadlines("pregame.tardiness") == (
        Due(
            "minutes", 10, "10分たっても来ない場合は、さらにデュエル1回の敗北になります。",
            "Still absent 10 minutes after the start: another duel loss.", ("duel_loss",), (), True,
            "round_start",
        ),
        Due(
            "end_of_match", None, "マッチの終了時までに来ない場合は、大会を棄権したものとして扱います。",
            "Not there by the end of the match: treated as withdrawn from the tournament.", (), ("withdrawn",), True,
            "table_time",
        ),
    )  # fmt: skip


def test_d7_marked_cards_not_replaced_in_ten_minutes_lose_the_match() -> None:
    (due,) = fresh_deadlines("cards.marked-no-pattern")
    assert (due.when, due.minutes, due.penalties, due.effects, due.has_consequence) == (
        "minutes", 10, ("match_loss",), (), True,
    )  # fmt: skip


def test_d7_a_remedy_without_a_consequence_opens_a_deadline_that_brings_nothing() -> None:
    (due,) = fresh_deadlines("cards.marked-pattern")
    assert (due.when, due.minutes, due.penalties, due.effects, due.has_consequence) == (
        "before_next_match", None, (), (), False,
    )  # fmt: skip


def test_d3_a_fresh_rulebook_fires_the_unrelated_warnings_at_the_third_id() -> None:
    book = Rulebook(default_guideline())
    rulings = replay(
        book, scenario("A: ingame.slow-play", "A: pregame.shuffle-cut", "A: ingame.extra-cards-drawn")
    )
    assert [(r["event"], r["rule"], r["offense"]) for r in rulings][-1] == (
        2,
        "general.unrelated-warnings",
        1,
    )
    again = replay(Rulebook(default_guideline()), scenario("A: ingame.slow-play", "A: pregame.shuffle-cut"))
    assert "general.unrelated-warnings" not in [r["rule"] for r in again]


# --- D23 The end of the match, for a deadline: the table's time, as the guideline declares it


def test_d23_tardiness_s_end_of_match_deadline_waits_for_the_table_s_time() -> None:
    assert clock_of("pregame.tardiness", "end_of_match") == "table_time"


def test_d23_on_the_table_s_time_a_decided_match_is_not_the_end_of_the_match() -> None:
    # best of one: the tardiness's duel loss decided the match at once; the table plays on
    assert not match_over_for_deadline(
        "table_time", result_in=True, table_ends=at(50), round_ended=False, now=NOW
    )
    assert match_over_for_deadline(
        "table_time", result_in=True, table_ends=at(50), round_ended=False, now=at(50)
    )


def test_d23_extensions_push_the_table_s_time_and_so_the_deadline() -> None:
    started = at(-45)
    plain, extended = table_ends_at(started, 50, 0), table_ends_at(started, 50, 10)
    at_55 = at(10)  # the round's time is over, the table's 10 more minutes are not
    assert match_over_for_deadline(
        "table_time", result_in=True, table_ends=plain, round_ended=False, now=at_55
    )
    assert not match_over_for_deadline(
        "table_time", result_in=True, table_ends=extended, round_ended=False, now=at_55
    )


def test_d23_a_round_ended_ends_every_table_s_time_and_no_started_round_none() -> None:
    assert match_over_for_deadline(
        "table_time", result_in=False, table_ends=at(30), round_ended=True, now=NOW
    )
    assert not match_over_for_deadline(
        "table_time", result_in=True, table_ends=None, round_ended=False, now=NOW
    )


def test_d21_on_the_match_s_result_the_end_of_the_match_is_its_result() -> None:
    assert match_over_for_deadline(
        "match_result", result_in=True, table_ends=at(50), round_ended=False, now=NOW
    )
    assert not match_over_for_deadline(
        "match_result", result_in=False, table_ends=at(-5), round_ended=False, now=NOW
    )


def test_d23_an_arrival_closes_what_waits_for_the_player_and_nothing_else() -> None:
    assert closed_by_arrival(clock_of("pregame.tardiness")) and closed_by_arrival(
        clock_of("pregame.tardiness", "end_of_match")
    )
    assert not closed_by_arrival(clock_of("cards.marked-no-pattern"))
    assert not closed_by_arrival("match_result") and not closed_by_arrival("")
