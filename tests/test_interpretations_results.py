"""T1, T2, T7, T8 and T11 of tournament/RULES.md as small cases: a table's result as the
scorekeeper reports it, what it counts in the standings, and whether it may stand.

Read `outcome(table("a", "b"), ScoreReport(score("2-1")))` as "the slip of a match whose
duels went to seat a then seat b says 2-1". Seats are a and b; players A, B, C, D.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from shinpan.tournament import Entrant, Played, standings
from shinpan.tournament.results import (
    Duel,
    DuelReport,
    MatchReport,
    Outcome,
    ResultError,
    Score,
    ScoreReport,
    Table,
    Verdict,
    match_at_time,
    match_result,
    outcome,
    parse_score,
    verdict,
)


def table(
    *winners: str | None, result: str | None = None, penalty: tuple[int, ...] = (), by_ruling: bool = False
) -> Table:
    """A match as it stands: each duel's winning seat in order (None: drawn)."""
    duels = {n: Duel(w, n in penalty) for n, w in enumerate(winners, start=1)}
    return Table(duels, result, by_ruling)


def score(text: str) -> Score:
    return parse_score(text)


def gw(*matches: Played, player: str = "A") -> Fraction:
    people = sorted({p for m in matches for p in (m.a, m.b) if p})
    return next(s.gw for s in standings([Entrant(p) for p in people], list(matches)) if s.player == player)


def ask(t: Table, report: DuelReport | MatchReport | ScoreReport, **kw: object) -> Verdict:
    given: dict[str, object] = {
        "replaces": None, "replaces_entry": None, "standing_entry": 7, "reason": None,
        "next_round_paired": False, "head_judge": False,
    }  # fmt: skip
    given.update(kw)
    return verdict(t, report, **given)  # type: ignore[arg-type]


# --- T2 A drawn duel: 1 game point each, a duel played by both (T7)


def test_t7_a_drawn_duel_is_one_game_point_each_and_a_duel_played() -> None:
    one_all_drawn = Played(1, "A", "B", "draw", ("A", "B", None))
    assert gw(one_all_drawn) == Fraction(3 + 1, 9)
    assert gw(one_all_drawn, player="B") == Fraction(4, 9)


def test_t7_a_match_won_with_a_drawn_duel_counts_the_draw_for_both() -> None:
    won = Played(1, "A", "B", "a", ("A", None, "A"))
    assert gw(won) == Fraction(3 + 1 + 3, 9)
    assert gw(won, player="B") == Fraction(1, 3)  # 1/9 lifted to the floor


# --- T1 A result without duels counts 2–0 (a draw 1–1); a slip's score counts as written


def test_t1_a_match_reported_without_duels_counts_two_nil_in_gw() -> None:
    assert gw(Played(1, "A", "B", "a")) == 1
    assert gw(Played(1, "A", "B", "draw")) == Fraction(1, 2)


def test_t1_a_slips_two_one_counts_two_one_not_two_nil() -> None:
    done = outcome(table(), ScoreReport(score("2-1")))
    assert done.result == "a" and sorted(w or "" for _, w in done.duels) == ["a", "a", "b"]
    assert gw(Played(1, "A", "B", "a", ("A", "A", "B"))) == Fraction(6, 9)


# --- T7 A finished best-of-three: two duels won decide; a drawn duel decides nothing


@pytest.mark.parametrize(
    ("slip", "result"),
    [
        ("2-0", "a"),
        ("2-1", "a"),
        ("0-2", "b"),
        ("1-2", "b"),
        ("1-1-1", "draw"),
        ("2-0-1", "a"),
        ("0-0-1", "draw"),
    ],
)
def test_t7_a_finished_score_decides_the_match(slip: str, result: str) -> None:
    assert match_result(score(slip), at_time=False) == result


@pytest.mark.parametrize("slip", ["1-0", "1-1", "0-1"])
def test_t7_a_score_where_nobody_won_two_is_a_match_not_finished(slip: str) -> None:
    with pytest.raises(ResultError, match="not finished"):
        match_result(score(slip), at_time=False)


@pytest.mark.parametrize("slip", ["3-0", "2-2", "3-1"])
def test_t7_a_score_past_two_duels_won_cannot_be(slip: str) -> None:
    with pytest.raises(ResultError, match="cannot be"):
        match_result(score(slip), at_time=False)


def test_t7_scores_are_read_as_slips_write_them() -> None:
    assert score("２－１") == Score(2, 1) and score(" 1–1–1 ") == Score(1, 1, 1)
    assert score("2-1-0").shown() == "2-1" and Score(1, 1, 1).shown() == "1-1-1"
    for wrong in ("21", "a-b", "2:1", "", "0-0", "3-2-1"):
        with pytest.raises(ResultError):
            parse_score(wrong)


# --- T8 A match at time, decided by duels (the default rule, in one function)


@pytest.mark.parametrize(
    ("slip", "result"),
    [("1-0", "a"), ("0-1", "b"), ("1-1", "draw"), ("0-0-1", "draw"), ("1-0-2", "a"), ("2-1", "a")],
)
def test_t8_at_time_more_duels_won_wins_and_equal_is_a_draw(slip: str, result: str) -> None:
    assert match_at_time(score(slip)) == result
    assert match_result(score(slip), at_time=True) == result


def test_t8_a_match_at_time_keeps_its_duels_for_gw() -> None:
    done = outcome(table(), ScoreReport(score("1-0"), at_time=True))
    assert done == Outcome(((1, "a"),), True, "a", True)
    assert gw(Played(1, "A", "B", "a", ("A",)), player="B") == Fraction(1, 3)  # 0 of 3, floored


# --- D10 with T7: a penalty's duel is one of the slip's duels; the second duel won decides


def test_d10_a_slip_counts_the_duel_a_penalty_decided() -> None:
    done = outcome(table("b", penalty=(1,)), ScoreReport(score("2-1")))
    assert done.duels == ((2, "a"), (3, "a")) and done.result == "a"  # duel 1 stays B's by the penalty


def test_d10_a_slip_that_leaves_out_a_penalty_duel_is_refused() -> None:
    with pytest.raises(ResultError, match="penalty"):
        outcome(table("b", penalty=(1,)), ScoreReport(score("2-0")))


def test_d10_a_duel_a_penalty_decided_is_not_reported_over() -> None:
    with pytest.raises(ResultError, match="penalty"):
        outcome(table("b", penalty=(1,)), DuelReport(1, "a"))


def test_d10_a_drawn_duel_then_two_won_decides_the_match() -> None:
    assert outcome(table(None, "a"), DuelReport(3, "a")).result == "a"
    assert outcome(table(None), DuelReport(2, "a")).result is None


# --- T11 One result at a time; a correction names what stands and says why


def test_t11_the_first_result_stands() -> None:
    assert ask(table(), ScoreReport(score("2-1"))) is Verdict.first


def test_t11_a_second_result_that_names_nothing_is_refused_with_the_one_that_stands() -> None:
    stands = table("a", "a", result="a")
    assert ask(stands, ScoreReport(score("0-2"))) is Verdict.stands
    assert ask(stands, MatchReport("b")) is Verdict.stands
    assert ask(stands, ScoreReport(score("2-0"))) is Verdict.stands  # the same again, under a new id


def test_t11_a_correction_names_the_result_as_shown_or_its_entry_and_says_why() -> None:
    stands = table("a", "b", "a", result="a")
    assert ask(stands, ScoreReport(score("1-2")), replaces="2-1", reason="読み違い") is Verdict.correction
    assert ask(stands, ScoreReport(score("1-2")), replaces="2-1-0", reason="x") is Verdict.correction
    assert ask(stands, ScoreReport(score("1-2")), replaces_entry=7, reason="x") is Verdict.correction
    assert ask(stands, ScoreReport(score("1-2")), replaces="2-0", reason="x") is Verdict.stands  # stale
    assert ask(stands, ScoreReport(score("1-2")), replaces_entry=6, reason="x") is Verdict.stands  # stale
    assert ask(stands, ScoreReport(score("1-2")), replaces="2-1", reason="  ") is Verdict.reason_missing


def test_t11_a_result_without_duels_is_named_a_b_or_draw() -> None:
    assert ask(table(result="a"), MatchReport("b"), replaces="A", reason="x") is Verdict.correction
    assert ask(table(result="draw"), MatchReport("a"), replaces="a", reason="x") is Verdict.stands


def test_t11_naming_a_result_where_none_stands_is_refused() -> None:
    assert ask(table(), MatchReport("a"), replaces="a", reason="x") is Verdict.nothing_stands


def test_t11_a_duel_already_reported_is_corrected_like_a_result() -> None:
    playing = table("a")
    assert ask(playing, DuelReport(1, "b")) is Verdict.stands
    assert ask(playing, DuelReport(1, "b"), replaces="a", reason="x") is Verdict.correction
    assert ask(playing, DuelReport(2, "b")) is Verdict.first


def test_t11_a_result_a_ruling_decided_is_the_rulings() -> None:
    assert (
        ask(table(result="b", by_ruling=True), MatchReport("a"), replaces="b", reason="x")
        is Verdict.by_ruling
    )


def test_t11_once_the_next_round_is_paired_only_the_head_judge_corrects() -> None:
    stands = table(result="a")
    late = {"replaces": "a", "reason": "x", "next_round_paired": True}
    assert ask(stands, MatchReport("b"), **late) is Verdict.head_judge_only
    assert ask(stands, MatchReport("b"), **late, head_judge=True) is Verdict.correction


def test_t11_a_correction_that_says_the_result_that_stands_changes_nothing() -> None:
    # T11: a correction replaces the result that stands; one saying that very result is
    # unchanged, with or without a reason, a score for a score, a result for a result
    stands = table("a", "b", "a", result="a")
    assert ask(stands, ScoreReport(score("2-1")), replaces="2-1", reason="x") is Verdict.unchanged
    assert ask(stands, ScoreReport(score("2-1")), replaces_entry=7) is Verdict.unchanged
    without_duels = table(result="a")
    assert ask(without_duels, MatchReport("a"), replaces="A", reason="x") is Verdict.unchanged
    assert ask(without_duels, MatchReport("b"), replaces="A") is Verdict.reason_missing
