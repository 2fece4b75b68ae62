"""The tournament's rules T7–T10, each as a small event: match formats, a match at time,
tiebreaker chains and the playoff after the Swiss.

Read ``won(1, "A", "B", "A B A")`` as "in round 1, A beat B two duels to one", and
``at_time(1, "A", "B", "A", rule)`` as "time ran out in round 1 with A one duel up".
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shinpan.errors import InvalidInput
from shinpan.tournament import Entrant, Played, PlayerState, Standing, standings
from shinpan.tournament import formats as fmt
from shinpan.tournament.formats import AtTime, MatchFormat
from shinpan.tournament.playoff import (
    SIZES,
    Bout,
    final_decided,
    first_round,
    next_round,
    placings,
    qualifiers,
    seed_order,
    stage_name,
)
from shinpan.tournament.results import match_result, parse_score
from shinpan.tournament.standings import tiebreaker
from shinpan.tournament.tiebreakers import (
    BOTH_LOSE_CHAIN,
    DEFAULT_CHAIN,
    PRESETS,
    Tiebreaker,
    chain_text,
    parse_chain,
    seeded_places,
)
from support import examples


def duels(text: str) -> tuple[str | None, ...]:
    return tuple(None if d == "=" else d for d in text.split())


def won(round_no: int, winner: str, loser: str, duel_text: str = "") -> Played:
    return Played(round_no, winner, loser, "a", duels(duel_text))


def at_time(round_no: int, a: str, b: str, duel_text: str, rule: AtTime) -> Played:
    so_far = duels(duel_text)
    return Played(round_no, a, b, fmt.at_time(rule, *fmt.duels_won(so_far, a, b)), so_far)


def of(lines: list[Standing], player: str) -> Standing:
    return next(line for line in lines if line.player == player)


def event(
    *matches: Played, chain: tuple[Tiebreaker, ...] = DEFAULT_CHAIN, seed: int | None = None
) -> list[Standing]:
    names = sorted({p for m in matches for p in (m.a, m.b) if p is not None})
    return standings([Entrant(p) for p in names], matches, chain, seed)


# --- T7 match formats


def test_best_of_three_is_won_with_the_second_duel_won() -> None:
    assert fmt.decided(MatchFormat.bo3, 1, 1) is None
    assert fmt.decided(MatchFormat.bo3, 2, 1) == "a"
    assert fmt.decided(MatchFormat.bo3, 0, 2) == "b"


def test_best_of_one_is_won_with_the_first_duel_won() -> None:
    assert fmt.decided(MatchFormat.bo1, 0, 0) is None
    assert fmt.decided(MatchFormat.bo1, 1, 0) == "a"
    assert fmt.decided(MatchFormat.bo1, 0, 1) == "b"


def test_a_drawn_duel_decides_nothing() -> None:
    assert fmt.duels_won(duels("A = ="), "A", "B") == (1, 0)
    assert fmt.decided(MatchFormat.bo3, *fmt.duels_won(duels("A = ="), "A", "B")) is None


def test_a_drawn_duel_is_one_game_point_each_and_a_duel_played_by_both() -> None:
    lines = event(won(1, "A", "B", "A = A"))
    assert of(lines, "A").gw == F(7, 9)  # 3 + 1 + 3 of 9
    assert of(lines, "B").gw == F(1, 3)  # 1 of 9, lifted to the floor


def test_a_finished_score_must_reach_the_duels_the_format_needs() -> None:
    assert match_result(parse_score("2-1"), at_time=False, fmt=MatchFormat.bo3) == "a"
    assert match_result(parse_score("1-0-2"), at_time=False, fmt=MatchFormat.bo1) == "a"
    assert match_result(parse_score("0-1"), at_time=False, fmt=MatchFormat.bo1) == "b"
    for score in ("1-0", "3-0", "2-2"):
        with pytest.raises(InvalidInput):
            match_result(parse_score(score), at_time=False, fmt=MatchFormat.bo3)
    with pytest.raises(InvalidInput):
        match_result(parse_score("2-0"), at_time=False, fmt=MatchFormat.bo1)


def test_a_score_at_time_is_decided_by_the_events_rule() -> None:
    assert match_result(parse_score("1-0-1"), at_time=True, fmt=MatchFormat.bo3) == "a"
    assert match_result(parse_score("1-1"), at_time=True, fmt=MatchFormat.bo3) == "draw"
    assert match_result(parse_score("1-0"), at_time=True, rule=AtTime.both_lose) == "both_lose"
    won = match_result(parse_score("1-0"), at_time=True, fmt=MatchFormat.bo1, rule=AtTime.both_lose)
    assert won == "a"  # a match decided before time ran out is won, whatever the rule at time


# --- T8 a match at time


def test_at_time_decided_by_duels_the_player_with_more_duels_won_wins() -> None:
    lines = event(at_time(1, "A", "B", "A", AtTime.duels))
    assert (of(lines, "A").points, of(lines, "B").points) == (3, 0)


def test_at_time_decided_by_duels_equal_duels_are_a_draw() -> None:
    lines = event(at_time(1, "A", "B", "A B", AtTime.duels))
    assert (of(lines, "A").points, of(lines, "B").points) == (1, 1)
    assert of(lines, "A").draws == 1


def test_a_loss_for_both_gives_each_a_match_played_and_lost() -> None:
    lines = event(at_time(1, "A", "B", "A", AtTime.both_lose), won(2, "A", "C"), won(2, "B", "D"))
    a, b = of(lines, "A"), of(lines, "B")
    assert (a.points, a.wins, a.losses, a.draws) == (3, 1, 1, 0)
    assert (b.points, b.wins, b.losses, b.draws) == (3, 1, 1, 0)
    assert a.mwp == F(3, 6)  # one match won of the two played


def test_a_loss_for_both_keeps_the_duels_already_decided_for_gw() -> None:
    lines = event(at_time(1, "A", "B", "A =", AtTime.both_lose))
    assert of(lines, "A").gw == F(4, 6)
    assert of(lines, "B").gw == F(1, 3)  # 1 of 6, lifted to the floor
    assert of(lines, "A").points == of(lines, "B").points == 0


# --- T9 tiebreaker chains


def test_the_default_chain_is_omw_gw_ogw() -> None:
    assert parse_chain("standard") == DEFAULT_CHAIN == (Tiebreaker.omw, Tiebreaker.gw, Tiebreaker.ogw)


def test_the_second_preset_is_omw_oomw_seeded() -> None:
    assert parse_chain("both-lose") == BOTH_LOSE_CHAIN == (Tiebreaker.omw, Tiebreaker.oomw, Tiebreaker.seeded)
    assert set(PRESETS.values()) == {DEFAULT_CHAIN, BOTH_LOSE_CHAIN}


def test_a_chain_is_written_as_keys_in_order() -> None:
    assert parse_chain("gw, omw") == (Tiebreaker.gw, Tiebreaker.omw)
    assert chain_text(parse_chain(" OMW,oomw,seeded ")) == "omw,oomw,seeded"


@pytest.mark.parametrize("text", ["", "omw,,gw", "omw,omw", "mwp", "omw,gw,ogw,extra"])
def test_a_chain_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_chain(text)
    assert refused.value.field == "tiebreakers"


def test_oomw_is_the_mean_of_omw_over_the_opponents() -> None:
    lines = event(won(1, "A", "B"), won(1, "C", "D"), won(2, "A", "C"), won(2, "B", "D"))
    assert of(lines, "A").oomw == (of(lines, "B").omw + of(lines, "C").omw) / 2


def test_the_chain_decides_the_order_after_points() -> None:
    # A and C both 3 points; A's opponent B (0 points) vs C's opponent D (3 points later)
    matches = (won(1, "A", "B", "A B A"), won(1, "C", "D", "C C"), won(2, "D", "B"))
    by_omw = [line.player for line in event(*matches, chain=(Tiebreaker.omw,))]
    by_gw = [line.player for line in event(*matches, chain=(Tiebreaker.gw,))]
    assert by_omw.index("C") < by_omw.index("A")  # D has 3 points, B none
    assert by_gw.index("C") < by_gw.index("A")  # 2–0 over 2–1
    equal_gw = (won(1, "A", "B", "A A"), won(1, "C", "D", "C C"), won(2, "B", "D"))
    assert [line.player for line in event(*equal_gw, chain=(Tiebreaker.gw,))][:2] == ["A", "C"]  # shared rank
    assert [line.rank for line in event(*equal_gw, chain=(Tiebreaker.gw,))][:2] == [1, 1]


def test_seeded_never_ties_and_follows_the_event_seed() -> None:
    matches = (won(1, "A", "B", "A A"), won(1, "C", "D", "C C"))
    lines = event(*matches, chain=(Tiebreaker.gw, Tiebreaker.seeded), seed=7)
    assert sorted(line.rank for line in lines if line.rank) == [1, 2, 3, 4]
    assert lines == event(*matches, chain=(Tiebreaker.gw, Tiebreaker.seeded), seed=7)  # same on every reprint


def test_the_seeded_order_stays_when_a_player_is_added_or_leaves() -> None:
    before = seeded_places(42, ["1", "2", "3", "4"])
    after = seeded_places(42, ["1", "2", "3", "4", "5"])
    assert sorted(before, key=before.__getitem__) == [
        p for p in sorted(after, key=after.__getitem__) if p != "5"
    ]


def test_a_chain_with_seeded_needs_the_seed() -> None:
    """T9: ``seeded`` is an order drawn from the event's seed: without the seed there is no
    order to rank by, and the standings say so rather than rank without it."""
    with pytest.raises(ValueError) as caught:
        event(won(1, "A", "B"), chain=BOTH_LOSE_CHAIN)
    assert str(caught.value) == "the chain names seeded: the event's seed is needed"


def test_a_line_without_its_seeded_place_is_not_ranked_by_seeded() -> None:
    """T9: a line of standings made without the event's seed has no seeded place to rank by."""
    unseeded = event(won(1, "A", "B"))[0]
    with pytest.raises(ValueError) as caught:
        tiebreaker(unseeded, Tiebreaker.seeded)
    assert str(caught.value) == "A has no seeded place: the event's seed is needed"


# --- T10 playoffs


def line(player: str, rank: int | None, status: PlayerState = PlayerState.active) -> Standing:
    zero = F(0)
    return Standing(rank, player, 0, 0, 0, 0, zero, zero, zero, zero, status)


def test_seeds_meet_in_the_standard_order() -> None:
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    bouts = first_round([f"P{n}" for n in range(1, 9)])
    assert [(b.a.seed, b.b.seed) for b in bouts if b.a and b.b] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [b.table for b in bouts] == [1, 2, 3, 4]


def test_a_playoff_has_four_eight_sixteen_or_thirty_two_players() -> None:
    # T10: "a single-elimination playoff of 4, 8, 16 or 32 players"
    assert [len(seed_order(size)) for size in SIZES] == [4, 8, 16, 32]
    for size in (2, 6, 64):
        with pytest.raises(InvalidInput) as refused:
            seed_order(size)
        assert refused.value.field == "size"
        assert str(refused.value) == f"a playoff has 4, 8, 16 or 32 players, not {size}"


def test_players_who_left_do_not_enter_and_the_next_ranked_takes_the_place() -> None:
    lines = [
        line("A", 1),
        line("B", 2, PlayerState.dropped),
        line("C", 3, PlayerState.ejected),
        line("D", 4),
        line("E", 5, PlayerState.withdrawn),
        line("F", 6),
        line("G", 7),
        line("H", None, PlayerState.disqualified),
    ]
    assert qualifiers(lines, 4, {}) == ["A", "D", "F", "G"]


def test_a_playoff_with_fewer_players_than_places_is_refused() -> None:
    lines = [line(p, n) for n, p in enumerate("ABCDEF", start=1)]
    with pytest.raises(InvalidInput) as refused:
        qualifiers(lines, 8, {})
    assert refused.value.params == {"size": 8, "count": 6}
    assert refused.value.field == "size"
    assert str(refused.value) == "a playoff of 8 needs 8 players still in the event; 6 are"
    with pytest.raises(InvalidInput) as no_bracket:
        qualifiers(lines, 6, {})  # six players, but six is no bracket
    assert no_bracket.value.params == {"size": 6}


def test_a_tie_across_the_cut_line_is_broken_by_the_seeded_draw() -> None:
    lines = [line("A", 1), line("B", 2), line("C", 3), line("D", 4), line("E", 4)]
    assert qualifiers(lines, 4, {"D": 2, "E": 1})[-1] == "E"
    assert qualifiers(lines, 4, {"D": 1, "E": 2})[-1] == "D"


def decide(bouts: list[Bout], winner_of: dict[int, str] | None = None) -> list[Bout]:
    """Every playoff match of a round won by the better seed, or as ``winner_of`` says by table."""
    decided = []
    for bout in bouts:
        if bout.played and bout.a and bout.b:
            winner = (winner_of or {}).get(bout.table or 0, bout.a.player)
            bout = replace(bout, winner=winner)
        decided.append(bout)
    return decided


def test_the_top_two_seeds_meet_only_in_the_final() -> None:
    entrants = [f"P{n}" for n in range(1, 9)]
    quarter = decide(first_round(entrants))
    semi = decide(next_round(quarter, ()))
    assert [(b.a.seed, b.b.seed) for b in semi if b.a and b.b] == [(1, 4), (2, 3)]
    final = next_round(semi, ())
    assert [(b.a.seed, b.b.seed) for b in final if b.a and b.b] == [(1, 2)]


def test_the_third_place_match_is_between_the_semi_final_losers() -> None:
    semi = decide(first_round(["A", "B", "C", "D"]))  # A beats D, B beats C
    last = next_round(semi, (), third_place=True)
    assert [(b.a.player, b.b.player, b.third_place) for b in last if b.a and b.b] == [
        ("A", "B", False),
        ("C", "D", True),
    ]


def test_a_player_who_leaves_between_playoff_rounds_sends_the_opponent_on() -> None:
    quarter = decide(first_round([f"P{n}" for n in range(1, 9)]))
    semi = next_round(quarter, {"P1"})  # P1 disqualified after winning the quarter-final
    walkover = semi[0]
    assert walkover.b is None and walkover.a is not None and walkover.a.player == "P4"
    assert walkover.winner == "P4" and [seat.player for seat in walkover.left] == ["P1"]
    assert [b.table for b in semi] == [None, 1]


def test_a_playoff_round_waits_for_every_result() -> None:
    with pytest.raises(InvalidInput):
        next_round(first_round(["A", "B", "C", "D"]), ())


def test_final_placings_follow_the_bracket_then_the_swiss() -> None:
    swiss = [f"P{n}" for n in range(1, 11)]  # two players miss the cut
    quarter = decide(first_round(swiss[:8]), {2: "P5", 4: "P6"})  # P5 beats P4, P6 beats P3
    semi = decide(next_round(quarter, ()), {2: "P6"})  # P1 beats P5, P6 beats P2
    final = decide(next_round(semi, ()), {1: "P6"})
    placed = [player for _, player in placings(swiss, [quarter, semi, final])]
    assert placed == ["P6", "P1", "P2", "P5", "P3", "P4", "P7", "P8", "P9", "P10"]


def test_the_third_place_match_decides_third_and_fourth() -> None:
    swiss = ["A", "B", "C", "D"]
    semi = decide(first_round(swiss))  # A beats D, B beats C
    last = decide(next_round(semi, (), third_place=True), {2: "D"})
    placed = [player for _, player in placings(swiss, [semi, last])]
    assert placed == ["A", "B", "D", "C"]


# --- properties


@st.composite
def playoffs(draw: st.DrawFn) -> tuple[list[str], list[list[Bout]], bool]:
    size = draw(st.sampled_from(SIZES))
    players = [f"P{n}" for n in range(1, size + draw(st.integers(0, 12)) + 1)]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    third = draw(st.booleans())
    rounds = [first_round(players[:size])]
    gone: set[str] = set()
    while True:
        decided = []
        for bout in rounds[-1]:
            if bout.played and bout.a and bout.b:
                bout = replace(bout, winner=rng.choice((bout.a.player, bout.b.player)))
            decided.append(bout)
        rounds[-1] = decided
        if len([b for b in decided if not b.third_place]) == 1:
            return players, rounds, third
        if rng.random() < 0.3:  # someone still in leaves between rounds
            still = [b.winner for b in decided if b.winner and not b.third_place]
            gone.add(rng.choice(still))
        rounds.append(next_round(decided, gone, third_place=third))


@settings(max_examples=examples(200), deadline=None)
@given(st.sampled_from(SIZES), st.randoms(use_true_random=False))
def test_a_bracket_seats_each_entrant_once_and_seeds_sum_to_size_plus_one(
    size: int, rng: random.Random
) -> None:
    entrants = [f"P{n}" for n in rng.sample(range(1000), size)]
    bouts = first_round(entrants)
    seated = [seat for bout in bouts for seat in (bout.a, bout.b) if seat]
    assert sorted(seat.player for seat in seated) == sorted(entrants)
    assert all(b.a and b.b and b.a.seed + b.b.seed == size + 1 for b in bouts)
    assert all(entrants[seat.seed - 1] == seat.player for seat in seated)


@settings(max_examples=examples(200), deadline=None)
@given(playoffs())
def test_placings_are_a_permutation_of_the_event_with_the_winner_first(
    played: tuple[list[str], list[list[Bout]], bool],
) -> None:
    players, rounds, _ = played
    placed = placings(players, rounds)
    assert [place for place, _ in placed] == list(range(1, len(players) + 1))
    assert sorted(player for _, player in placed) == sorted(players)
    final = next(b for b in rounds[-1] if not b.third_place)
    if final.winner:
        assert placed[0][1] == final.winner


@settings(max_examples=examples(200), deadline=None)
@given(playoffs())
def test_nobody_who_left_plays_again(played: tuple[list[str], list[list[Bout]], bool]) -> None:
    _, rounds, _ = played
    left: set[str] = set()
    for bouts in rounds:
        seated = {seat.player for bout in bouts for seat in (bout.a, bout.b) if seat}
        assert not seated & left
        left |= {seat.player for bout in bouts for seat in bout.left}


def test_the_scores_a_slip_can_say_follow_the_match_format() -> None:
    """T7: a best-of-one match ends 1-0 or 0-1; best of three 2-0, 2-1 (either way) or the
    1-1-1 draw; T10: a playoff's match has a winner, so no draw is offered there."""
    assert finished(MatchFormat.bo1) == ("1-0", "0-1")
    assert finished(MatchFormat.bo1, playoff=True) == ("1-0", "0-1")
    assert finished(MatchFormat.bo3) == ("2-0", "2-1", "1-2", "0-2", "1-1-1")
    assert finished(MatchFormat.bo3, playoff=True) == ("2-0", "2-1", "1-2", "0-2")


def finished(match_format: MatchFormat, *, playoff: bool = False) -> tuple[str, ...]:
    """The scorekeeper's buttons: finished matches only, seat a's duels won, most first."""
    offered = fmt.offered_scores(match_format, playoff=playoff, at_time=False)
    assert not any(o.at_time for o in offered)
    return tuple(o.score for o in offered)


def test_t8_the_winner_s_page_offers_each_win_then_the_usual_scores_at_time() -> None:
    """T7, T8: the winner picks from every finished score, seat a's wins then seat b's the
    same way, then a match unfinished at time: 1-0, 0-1 or 1-1 (best of one: one drawn duel)."""
    by_winner = fmt.ScoreOrder.by_winner
    assert fmt.offered_scores(MatchFormat.bo3, order=by_winner) == (
        ("2-0", False), ("2-1", False), ("0-2", False), ("1-2", False), ("1-1-1", False),
        ("1-0", True), ("0-1", True), ("1-1", True),
    )  # fmt: skip
    assert fmt.offered_scores(MatchFormat.bo1, order=by_winner) == (
        ("1-0", False),
        ("0-1", False),
        ("0-0-1", True),
    )
    assert fmt.offered_scores(MatchFormat.bo3) == (
        ("2-0", False), ("2-1", False), ("1-2", False), ("0-2", False), ("1-1-1", False),
        ("1-0", True), ("0-1", True), ("1-1", True),
    )  # fmt: skip


def test_t10_a_playoff_s_winner_picks_only_scores_with_a_winner() -> None:
    """T10: no draw, at the end or at time; a lead at time still decides the match."""
    by_winner = fmt.ScoreOrder.by_winner
    assert fmt.offered_scores(MatchFormat.bo3, playoff=True, order=by_winner) == (
        ("2-0", False), ("2-1", False), ("0-2", False), ("1-2", False), ("1-0", True), ("0-1", True),
    )  # fmt: skip
    assert fmt.offered_scores(MatchFormat.bo1, playoff=True, order=by_winner) == (
        ("1-0", False),
        ("0-1", False),
    )


def test_each_playoff_round_is_named_from_the_bracket_s_size() -> None:
    # T10 (決勝トーナメント): the last round is 決勝, the one before 準決勝, then 準々決勝, ベスト16
    named = {size: [stage_name(size, i) for i in range(size.bit_length() - 1)] for size in SIZES}
    assert named[4] == [("準決勝", "semi-finals"), ("決勝", "final")]
    assert named[8] == [("準々決勝", "quarter-finals"), ("準決勝", "semi-finals"), ("決勝", "final")]
    assert named[16][0] == ("ベスト16", "round of 16")
    assert named[32][:2] == [("ベスト32", "round of 32"), ("ベスト16", "round of 16")]
    assert named[32][2:] == named[8]


def test_the_playoff_is_decided_only_when_its_final_has_a_winner() -> None:
    # T10: "1 the winner, 2 the finalist": placings are shown once the final is won
    semi = decide(first_round(["A", "B", "C", "D"]))
    assert not final_decided(4, [semi])  # the semi-finals won, the final still to play
    last = next_round(semi, (), third_place=True)
    assert not final_decided(4, [semi, last])
    third_won = [replace(b, winner=b.a.player) if b.third_place and b.a else b for b in last]
    assert not final_decided(4, [semi, third_won])  # the third-place match is not the final
    assert final_decided(4, [semi, decide(last)])
    final_won = [replace(b, winner=b.a.player) if not b.third_place and b.a else b for b in last]
    assert final_decided(4, [semi, final_won])  # the third-place match may still be playing
    assert not final_decided(8, [semi, decide(last)])  # a bracket of 8 has three rounds
    quarter = decide(first_round([f"P{n}" for n in range(1, 9)]))
    semis = decide(next_round(quarter, ()))
    assert not final_decided(8, [quarter, semis, next_round(semis, ())])  # the semi-finals won, not the final
    assert final_decided(8, [quarter, semis, decide(next_round(semis, ()))])


def test_placings_wait_for_the_final() -> None:
    # T10 "Final placing": 1 the winner, 2 the finalist…; with the semi-finals won and the
    # final still to play, the Swiss order stands
    swiss = [f"P{n}" for n in range(1, 9)]
    quarter = decide(first_round(swiss))
    semi = decide(next_round(quarter, ()))
    assert [player for _, player in placings(swiss, [quarter, semi])] == swiss


def test_a_semi_finalist_who_left_is_placed_after_the_third_place_winner() -> None:
    # T10: 3–4 the semi-final losers, by the third-place match; P1 left before the semi-final
    swiss = [f"P{n}" for n in range(1, 9)]
    quarter = decide(first_round(swiss))  # P1, P4, P2, P3 win
    semi = decide(next_round(quarter, {"P1"}))  # P4 goes on alone; P2 beats P3
    last = decide(next_round(semi, (), third_place=True))  # P3 third without playing
    placed = [player for _, player in placings(swiss, [quarter, semi, last])]
    assert placed == ["P2", "P4", "P3", "P1", "P5", "P6", "P7", "P8"]


def test_a_match_nobody_came_through_needs_no_result() -> None:
    # T10: both quarter-final winners of one half left; the other half's winner goes on alone
    quarter = decide(first_round([f"P{n}" for n in range(1, 9)]))
    semi = next_round(quarter, {"P1", "P4"})
    assert (semi[0].a, semi[0].b, semi[0].winner) == (None, None, None)
    final = next_round(decide(semi), ())
    assert final[0].a is not None and final[0].a.player == "P2" and final[0].b is None
