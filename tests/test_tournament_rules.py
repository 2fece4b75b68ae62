"""T1–T12 of tournament/RULES.md, decided by the pure tournament core: the rules a changed
line would break, told as a scorekeeper would tell them."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from shinpan.errors import Conflict, InvalidInput, Refused
from shinpan.tournament import Entrant, standings
from shinpan.tournament.codes import ALPHABET, code_matches, match_code, normalise_code
from shinpan.tournament.formats import (
    DEFAULT_FORMAT,
    AtTime,
    EventFormat,
    MatchFormat,
    check_format_change,
    parse_format,
)
from shinpan.tournament.playoff import (
    Bout,
    check_result,
    first_round,
    next_round,
    placings,
    qualifiers,
    seed_order,
)
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
    match_result,
    outcome,
    parse_score,
    verdict,
)
from shinpan.tournament.tiebreakers import BOTH_LOSE_CHAIN, Tiebreaker, parse_chain, seeded_places

SECRET = "9b2f6c1e-event-uid"


# --- T7–T9 An event's format, as an organiser writes it, set before round 1


def test_t7_an_event_that_says_nothing_plays_best_of_three_decided_by_duels_at_time() -> None:
    assert parse_format(None, None, None) == DEFAULT_FORMAT
    assert parse_format("", "", "") == EventFormat(MatchFormat.bo3, AtTime.duels)


def test_t7_t8_t9_the_format_is_read_whatever_the_case_and_the_spaces() -> None:
    chosen = parse_format(" BO1 ", " Both-Lose ", "both-lose")
    assert chosen == EventFormat(MatchFormat.bo1, AtTime.both_lose, BOTH_LOSE_CHAIN)
    assert parse_format("bo3", "duels", "gw,omw").chain == (Tiebreaker.gw, Tiebreaker.omw)


@pytest.mark.parametrize(
    ("written", "field", "says"),
    [
        (
            ("bo5", None, None),
            "format",
            "the match format is bo3 (best of three) or bo1 (best of one), not bo5",
        ),
        (
            (None, "sudden-death", None),
            "time_out",
            "a match at time is decided by duels (duels) or a loss for both (both-lose), not sudden-death",
        ),
        (
            (None, None, "omw,,gw"),
            "tiebreakers",
            "write the tiebreakers as keys separated by commas (omw, gw, ogw, oomw, seeded) or a preset's name",
        ),
    ],
)
def test_t7_t8_t9_a_format_that_is_none_of_these_is_refused_saying_what_is(
    written: tuple[str | None, str | None, str | None], field: str, says: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_format(*written)
    assert (caught.value.field, str(caught.value)) == (field, says)


def test_t7_the_format_changes_only_before_round_one_is_paired() -> None:
    check_format_change(0)
    with pytest.raises(Conflict) as caught:
        check_format_change(2)
    assert str(caught.value) == "the format is set before round 1 is paired; round 2 is already paired"
    with pytest.raises(Conflict, match="round 1 is already paired"):
        check_format_change(1)


# --- T10 A playoff match has a winner


@pytest.mark.parametrize("result", ["draw", "both_lose"])
def test_t10_a_playoff_match_is_not_drawn_nor_lost_by_both(result: str) -> None:
    with pytest.raises(Refused) as caught:
        check_result(4, 4, result)
    assert (caught.value.field, str(caught.value)) == (
        "result",
        "a playoff match has a winner: report who won (no draw, no loss for both)",
    )
    with pytest.raises(Refused):
        check_result(4, 5, result)


def test_t10_a_swiss_round_before_the_playoff_may_end_in_a_draw() -> None:
    check_result(4, 3, "draw")
    check_result(None, 9, "both_lose")
    check_result(4, 4, "a")
    check_result(4, 5, "b")


# --- T11 The code on a table's result slip


def test_t11_a_slip_s_code_is_eight_plain_characters_in_two_groups_of_four() -> None:
    code = match_code(SECRET, 1, 1)
    assert re.fullmatch(rf"[{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}", code)
    assert not set(code) & set("0OQ1IL2Z5S8BUV")


def test_t11_a_slip_printed_again_shows_the_same_code_as_every_earlier_print() -> None:
    # printed before an upgrade, a slip must still match after it: the code never changes
    assert match_code(SECRET, 1, 1) == "DA9R-C3YJ"
    assert match_code(SECRET, 3, 12) == "TWYH-D9R6"


def test_t11_each_table_each_round_and_each_event_has_its_own_code() -> None:
    codes = {match_code(SECRET, r, t) for r in range(1, 6) for t in range(1, 21)}
    assert len(codes) == 100
    assert match_code(SECRET, 1, 12) != match_code(SECRET, 11, 2)
    assert match_code("another-event", 1, 1) != match_code(SECRET, 1, 1)


def test_t11_a_code_needs_the_event_s_secret() -> None:
    with pytest.raises(ValueError) as caught:
        match_code("", 1, 1)
    assert str(caught.value) == "a match code needs the event's secret"


def test_t11_a_code_typed_in_lower_case_full_width_or_with_spaces_still_matches() -> None:
    code = match_code(SECRET, 2, 5)
    plain = code.replace("-", "")
    for typed in (
        code,
        code.lower(),
        plain,
        f" {plain[:4]} {plain[4:]} ",
        plain.translate(FULL_WIDTH),
        f"{plain[:4]}ー{plain[4:]}",
    ):
        assert normalise_code(typed) == code
        assert code_matches(SECRET, 2, 5, typed)


def test_t11_another_table_s_code_does_not_match() -> None:
    assert not code_matches(SECRET, 2, 6, match_code(SECRET, 2, 5))
    assert not code_matches(SECRET, 2, 5, match_code(SECRET, 2, 5)[:-1])


def test_t11_what_cannot_be_a_code_comes_back_as_typed_in_capitals() -> None:
    assert normalise_code("abc") == "ABC"
    assert normalise_code("k7rx m4hd9") == "K7RXM4HD9"


FULL_WIDTH = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)})


# --- T7, T11 A table as it stands, and a duel reported in a best-of-one match


def test_t7_in_best_of_one_the_first_duel_won_decides_the_match() -> None:
    playing = Table({})
    assert outcome(playing, DuelReport(1, "b"), MatchFormat.bo1).result == "b"
    assert outcome(playing, DuelReport(1, None), MatchFormat.bo1).result is None
    assert outcome(playing, DuelReport(1, "b")).result is None  # best of three goes on


def test_t11_a_table_with_a_drawn_duel_shows_its_score_with_the_draw() -> None:
    drawn = Table({1: Duel("a"), 2: Duel(None), 3: Duel("b")}, result="draw")
    assert drawn.score() == Score(1, 1, 1)
    assert drawn.shown() == "1-1-1"
    assert Table({}, result="a").shown() == "a"
    assert Table({1: Duel("a")}).shown() is None


def test_d10_a_slip_that_leaves_out_penalty_duels_says_how_many_each_seat_has() -> None:
    by_penalty = Table({1: Duel("b", penalty=True), 2: Duel("b", penalty=True), 3: Duel("a", penalty=True)})
    with pytest.raises(ResultError) as caught:
        outcome(by_penalty, ScoreReport(parse_score("1-1")))
    assert (caught.value.field, str(caught.value)) == (
        "score",
        "1-1 leaves out the duels a penalty decided (1 to seat a, 2 to seat b)",
    )


def test_d10_a_slip_may_hold_exactly_the_duels_penalties_decided() -> None:
    by_penalty = Table({1: Duel("a", penalty=True), 2: Duel("b", penalty=True)})
    done = outcome(by_penalty, ScoreReport(parse_score("1-1-1"), at_time=True))
    assert (done.duels, done.result) == (((3, None),), "draw")
    two_to_a = Table({1: Duel("a", penalty=True), 2: Duel("a", penalty=True)})
    assert outcome(two_to_a, ScoreReport(parse_score("2-0"))).duels == ()


def corrects(
    table: Table, report: DuelReport | MatchReport, replaces: str, reason: str | None = "x"
) -> Verdict:
    """What becomes of a scorekeeper's report that names ``replaces`` as standing (T11)."""
    return verdict(
        table, report, replaces=replaces, replaces_entry=None, standing_entry=3, reason=reason,
        next_round_paired=False, head_judge=True,
    )  # fmt: skip


def test_t11_a_drawn_duel_being_replaced_is_named_draw() -> None:
    playing = Table({1: Duel(None)})
    assert corrects(playing, DuelReport(1, "a"), "draw") is Verdict.correction
    assert corrects(playing, DuelReport(1, "a"), "a") is Verdict.stands


def test_t11_a_score_with_a_drawn_duel_is_named_with_the_draw() -> None:
    drawn = Table({1: Duel("a"), 2: Duel(None), 3: Duel("b")}, result="draw")
    assert corrects(drawn, MatchReport("a"), "1-1-1") is Verdict.correction
    assert corrects(drawn, MatchReport("a"), "1-1") is Verdict.stands


def test_t11_a_correction_without_a_reason_is_refused() -> None:
    assert corrects(Table({}, result="a"), MatchReport("b"), "a", reason=None) is Verdict.reason_missing


# --- T1, T7, T8, T11 What a scorekeeper's report does to a table


def refusal(table: Table, report: DuelReport | MatchReport | ScoreReport) -> tuple[str | None, str]:
    with pytest.raises(ResultError) as caught:
        outcome(table, report)
    return caught.value.field, str(caught.value)


def test_t1_a_result_without_duels_sets_no_duel_and_replaces_only_a_result_that_stood() -> None:
    assert outcome(Table({}), MatchReport("draw")) == Outcome((), False, "draw")
    assert outcome(Table({1: Duel("a")}, result="a"), MatchReport("b")) == Outcome((), True, "b")


def test_t1_a_result_is_a_b_or_draw() -> None:
    assert refusal(Table({}), MatchReport("both")) == ("result", "a match result is a, b or draw")


def test_t7_a_duel_reported_alone_is_that_duel_and_decides_the_match_only_when_it_is_the_second_won() -> None:
    assert outcome(Table({}), DuelReport(1, "a")) == Outcome(((1, "a"),), False, None)
    assert outcome(Table({1: Duel("a")}), DuelReport(2, "a")) == Outcome(((2, "a"),), False, "a")
    assert outcome(Table({1: Duel("a")}), DuelReport(5, None)) == Outcome(((5, None),), False, None)


def test_t7_a_duel_is_numbered_one_to_five_and_won_by_a_seat() -> None:
    assert refusal(Table({}), DuelReport(6, "a")) == ("duel", "a match has duels 1 to 5")
    assert refusal(Table({}), DuelReport(0, "a")) == ("duel", "a match has duels 1 to 5")
    assert refusal(Table({}), DuelReport(1, "c")) == (
        "winner",
        "the winner must be one of the match's players",
    )


def test_d10_a_duel_a_penalty_decided_is_changed_by_its_ruling_not_by_a_report() -> None:
    by_penalty = Table({2: Duel("b", penalty=True)})
    assert refusal(by_penalty, DuelReport(2, "a")) == (
        "duel",
        "duel 2 was decided by a penalty: change the ruling, not the result",
    )


def test_t7_t8_a_slip_is_read_by_the_event_s_format_and_rule_at_time() -> None:
    assert outcome(Table({}), ScoreReport(parse_score("1-0")), MatchFormat.bo1).result == "a"
    assert outcome(
        Table({}), ScoreReport(parse_score("1-0"), at_time=True), rule=AtTime.both_lose
    ) == Outcome(((1, "a"),), True, "both_lose", at_time=True)


def test_d10_a_slip_s_duels_take_the_numbers_the_penalties_left_free() -> None:
    by_penalty = Table({1: Duel("b", penalty=True), 2: Duel("a", penalty=True)})
    done = outcome(by_penalty, ScoreReport(parse_score("1-1-3")))
    assert (done.duels, done.result) == (((3, None), (4, None), (5, None)), "draw")
    five = outcome(Table({}), ScoreReport(parse_score("2-1-2")))
    assert [number for number, _ in five.duels] == [1, 2, 3, 4, 5]
    late = Table({3: Duel("b", penalty=True)})
    assert outcome(late, ScoreReport(parse_score("2-1"))).duels == ((1, "a"), (2, "a"))


# --- T10 Final places: the bracket first, then the Swiss order


def played(bouts: list[Bout], winner_of: dict[int, str] | None = None) -> list[Bout]:
    """Every match of a playoff round won by the better seed, or as ``winner_of`` says by table."""
    return [
        replace(b, winner=(winner_of or {}).get(b.table or 0, b.a.player)) if b.played and b.a and b.b else b
        for b in bouts
    ]


SWISS = ["Hana", "Goro", "Fumi", "Eiji", "Daichi", "Chika", "Ben", "Aki", "Zen"]  # not in alphabetical order


def test_t10_before_the_final_is_decided_everyone_stands_in_swiss_order() -> None:
    quarter = played(first_round(SWISS[:8]))
    semi = played(next_round(quarter, ()))
    final = next_round(semi, ())
    assert [p for _, p in placings(SWISS, [])] == SWISS
    assert [p for _, p in placings(SWISS, [quarter, semi, final])] == SWISS


def test_t10_players_out_in_the_same_round_are_placed_by_their_swiss_order() -> None:
    quarter = played(first_round(SWISS[:8]), {2: "Daichi", 4: "Chika"})  # Eiji and Fumi lose
    semi = played(next_round(quarter, ()))
    final = played(next_round(semi, ()))
    placed = [p for _, p in placings(SWISS, [quarter, semi, final])]
    assert placed[:4] == ["Hana", "Goro", "Daichi", "Chika"]
    assert placed[4:8] == [p for p in SWISS if p in {"Fumi", "Eiji", "Ben", "Aki"}]
    assert placed[-1] == "Zen"
    assert [place for place, _ in placings(SWISS, [quarter, semi, final])] == list(range(1, 10))


def test_t10_the_third_place_match_winner_is_third_even_below_the_loser_in_the_swiss() -> None:
    semi = played(first_round(SWISS[:4]))  # Hana beats Eiji, Goro beats Fumi
    last = played(next_round(semi, (), third_place=True), {2: "Eiji"})
    assert [p for _, p in placings(SWISS, [semi, last])][:4] == ["Hana", "Goro", "Eiji", "Fumi"]


# --- T7 A slip's score: written as duels won by each seat, and a match that can be


@pytest.mark.parametrize(
    ("slip", "says"),
    [
        ("two-one", "write the score as duels won by seat a, by seat b (and drawn): 2-1 or 1-1-1"),
        ("0-0", "a match has 1 to 5 duels"),
        ("2-2-2", "a match has 1 to 5 duels"),
    ],
)
def test_t7_a_slip_that_is_no_score_is_refused_saying_how_to_write_one(slip: str, says: str) -> None:
    with pytest.raises(ResultError) as caught:
        parse_score(slip)
    assert (caught.value.field, str(caught.value)) == ("score", says)


def test_t7_a_score_past_the_duels_that_win_says_when_a_match_ends() -> None:
    with pytest.raises(ResultError) as caught:
        match_result(parse_score("3-0"), at_time=False)
    assert (caught.value.field, str(caught.value)) == (
        "score",
        "3-0 cannot be: a match ends when a player has won 2 duels",
    )
    with pytest.raises(ResultError) as bo1:
        match_result(parse_score("1-1"), at_time=False, fmt=MatchFormat.bo1)
    assert str(bo1.value) == "1-1 cannot be: a match ends when a player has won 1 duels"


def test_t8_a_score_nobody_won_without_time_says_to_add_time() -> None:
    with pytest.raises(ResultError) as caught:
        match_result(parse_score("1-0"), at_time=False)
    assert (caught.value.field, str(caught.value)) == (
        "score",
        "1-0 is a match not finished: add time (the match ran out of time) or give the final score",
    )
    assert match_result(parse_score("1-0"), at_time=True) == "a"
    assert match_result(parse_score("1-1"), at_time=True, rule=AtTime.both_lose) == "both_lose"
    assert match_result(parse_score("2-0"), at_time=True, rule=AtTime.both_lose) == "a"  # won before time


# --- T10 The next playoff round: only once every match is decided, never after the final


def test_t10_the_next_round_waits_for_every_match_and_says_so() -> None:
    quarter = first_round(SWISS[:8])
    half = played(quarter)[:2] + quarter[2:]
    with pytest.raises(InvalidInput) as caught:
        next_round(half, ())
    assert (caught.value.field, str(caught.value)) == (
        "round",
        "every playoff match of the round needs its result first",
    )


def test_t10_there_is_no_round_after_the_final() -> None:
    final = played(next_round(played(first_round(SWISS[:4])), ()))
    with pytest.raises(InvalidInput) as caught:
        next_round(final, ())
    assert (caught.value.field, str(caught.value)) == (
        "round",
        "the playoff is over: the final has been played",
    )


def test_t10_the_third_place_match_is_the_second_match_of_the_last_round() -> None:
    final, third = next_round(played(first_round(SWISS[:4])), (), third_place=True)
    assert (final.slot, final.third_place, third.slot, third.third_place) == (0, False, 1, True)
    assert [seat.player for seat in (third.a, third.b) if seat] == ["Fumi", "Eiji"]


def test_t10_a_semi_final_loser_who_left_gives_the_third_place_to_the_other() -> None:
    semi = played(first_round(SWISS[:4]))  # Eiji and Fumi lose
    _, third = next_round(semi, {"Eiji"}, third_place=True)
    assert (third.third_place, third.winner, [s.player for s in third.left]) == (True, "Fumi", ["Eiji"])
    assert third.table is None and third.b is None


def test_t10_when_both_semi_final_losers_left_nobody_plays_for_third() -> None:
    semi = played(first_round(SWISS[:4]))
    _, third = next_round(semi, {"Eiji", "Fumi"}, third_place=True)
    assert (third.slot, third.third_place, third.a, third.b, third.winner) == (1, True, None, None, None)
    assert sorted(s.player for s in third.left) == ["Eiji", "Fumi"]


# --- T9 The tiebreakers an organiser writes


@pytest.mark.parametrize(
    ("written", "says"),
    [
        ("omw,xyz", "unknown tiebreaker xyz: the keys are omw, gw, ogw, oomw and seeded"),
        ("omw,omw", "tiebreaker omw is named twice"),
    ],
)
def test_t9_a_chain_with_an_unknown_or_repeated_key_is_refused_naming_it(written: str, says: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_chain(written)
    assert (caught.value.field, str(caught.value)) == ("tiebreakers", says)


def test_t10_a_playoff_is_of_four_eight_sixteen_or_thirty_two_players() -> None:
    with pytest.raises(InvalidInput) as caught:
        seed_order(6)
    assert (caught.value.field, str(caught.value)) == ("size", "a playoff has 4, 8, 16 or 32 players, not 6")


def test_t10_a_playoff_needs_as_many_players_still_in_the_event() -> None:
    lines = standings([Entrant(p) for p in ("A", "B", "C")], [])
    with pytest.raises(InvalidInput) as caught:
        qualifiers(lines, 4, seeded_places(7, ["A", "B", "C"]))
    assert (caught.value.field, str(caught.value)) == (
        "size",
        "a playoff of 4 needs 4 players still in the event; 3 are",
    )


def test_t7_a_score_written_with_spaces_is_read() -> None:
    assert parse_score(" 2 - 1 ") == Score(2, 1)
    assert parse_score("1 - 1 - 1") == Score(1, 1, 1)


def test_a_players_code_is_theirs_alone_and_forgives_how_it_is_typed() -> None:
    from shinpan.tournament.codes import player_code, player_code_matches

    code = player_code("secret", "1004")
    assert len(code) == 9 and code[4] == "-"
    assert all(c in ALPHABET for c in code.replace("-", ""))
    assert player_code("secret", "1004") == code
    assert player_code("secret", "1005") != code
    assert player_code("other", "1004") != code
    assert code != match_code("secret", 1, 1004)
    assert player_code_matches("secret", "1004", code.lower().replace("-", " "))
    assert not player_code_matches("secret", "1005", code)
    with pytest.raises(ValueError, match=r"^a player's code needs the event's secret$"):
        player_code("", "1004")
