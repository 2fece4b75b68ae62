"""The standings rules of issue 10, each as a small event.

Read ``won(1, "A", "B", "A B A")`` as "in round 1, A beat B two duels to one";
``drew(2, "A", "C")`` as "A and C drew, reported without duels"; ``penalty(3, "A", "B", "B")``
as "B won a duel, then a match-loss penalty gave A the match". ``of(event, "A")`` is A's line.
"""

from __future__ import annotations

from fractions import Fraction as F

from shinpan.tournament import Entrant, Played, PlayerState, Standing, standings


def duels(text: str) -> tuple[str | None, ...]:
    return tuple(None if d == "=" else d for d in text.split())


def won(round_no: int, winner: str, loser: str, duel_text: str = "") -> Played:
    return Played(round_no, winner, loser, "a", duels(duel_text))


def drew(round_no: int, a: str, b: str, duel_text: str = "") -> Played:
    return Played(round_no, a, b, "draw", duels(duel_text))


def penalty(round_no: int, winner: str, loser: str, duel_text: str = "") -> Played:
    """``loser`` lost the match by a match-loss penalty (or by leaving, D22)."""
    return Played(round_no, winner, loser, "a", duels(duel_text), by_penalty=True)


def bye(round_no: int, player: str) -> Played:
    return Played(round_no, player, None, "a")


def unfinished(round_no: int, a: str, b: str, duel_text: str = "") -> Played:
    return Played(round_no, a, b, None, duels(duel_text))


def event(*matches: Played, players: str = "", **status: PlayerState) -> list[Standing]:
    names = players.split() or sorted({p for m in matches for p in (m.a, m.b) if p is not None})
    return standings([Entrant(p, status.get(p, PlayerState.active)) for p in names], matches)


def of(lines: list[Standing], player: str) -> Standing:
    return next(line for line in lines if line.player == player)


def record(line: Standing) -> tuple[int, int, int, int]:
    return (line.points, line.wins, line.losses, line.draws)


# --- match points


def test_a_win_is_three_points_a_draw_one_a_loss_none() -> None:
    lines = event(
        won(1, "A", "B", "A A"), drew(1, "C", "D", "C D"), won(2, "A", "C", "A A"), won(2, "D", "B", "D D")
    )
    assert record(of(lines, "A")) == (6, 2, 0, 0)
    assert record(of(lines, "C")) == (1, 0, 1, 1)
    assert record(of(lines, "D")) == (4, 1, 0, 1)
    assert record(of(lines, "B")) == (0, 0, 2, 0)


def test_a_bye_is_a_match_won_two_duels_to_none() -> None:
    line = of(event(bye(1, "A")), "A")
    assert record(line) == (3, 1, 0, 0)
    assert (line.mwp, line.gw) == (1, 1)


def test_a_bye_is_no_opponent() -> None:
    lines = event(bye(1, "A"), won(2, "A", "B", "A A"), won(1, "B", "C", "B B"), players="A B C")
    assert of(lines, "A").omw == of(lines, "B").mwp == F(1, 2)
    assert of(lines, "A").ogw == of(lines, "B").gw == F(1, 2)


def test_a_player_without_opponents_has_omw_and_ogw_zero() -> None:
    line = of(event(bye(1, "A")), "A")
    assert (line.omw, line.ogw) == (0, 0)


# --- duels: how game points are counted


def test_a_duel_won_is_three_game_points_drawn_one_lost_none() -> None:
    lines = event(won(1, "A", "B", "A = B A"))
    assert of(lines, "A").gw == F(3 + 1 + 0 + 3, 3 * 4)
    assert of(lines, "B").gw == max(F(1, 3), F(0 + 1 + 3 + 0, 3 * 4))


def test_a_match_lost_by_penalty_counts_two_nil_whatever_the_duels_were() -> None:
    lines = event(penalty(1, "A", "B", "B"), won(2, "B", "C", "B C B"), won(2, "A", "D", "A D A"))
    assert record(of(lines, "A")) == (6, 2, 0, 0)
    assert of(lines, "A").gw == F(6 + 6, 3 * (2 + 3))
    assert of(lines, "B").gw == F(0 + 6, 3 * (2 + 3))


def test_a_match_reported_without_duels_counts_two_nil() -> None:
    lines = event(won(1, "A", "B"), won(2, "B", "C", "B C B"))
    assert of(lines, "A").gw == 1
    assert of(lines, "B").gw == F(0 + 6, 3 * (2 + 3))


def test_a_draw_reported_without_duels_counts_one_all() -> None:
    lines = event(drew(1, "A", "B"), won(2, "A", "C", "A A"))
    assert of(lines, "A").gw == F(3 + 6, 3 * (2 + 2))
    assert of(lines, "B").gw == F(1, 2)


def test_a_duel_lost_by_penalty_is_a_duel_played() -> None:
    # A duel loss penalty is recorded as the duel's winner, like any other duel.
    lines = event(won(1, "A", "B", "A B A"), won(2, "A", "C", "A A"))
    assert of(lines, "A").gw == F(6 + 6, 3 * (3 + 2))


# --- the one-third floors


def test_match_win_percentage_is_never_below_one_third() -> None:
    lines = event(won(1, "A", "B", "A A"), won(2, "A", "B", "A A"), won(3, "C", "B", "C C"))
    assert of(lines, "B").mwp == F(1, 3)
    assert of(lines, "A").omw == F(1, 3)


def test_game_win_percentage_is_never_below_one_third() -> None:
    lines = event(won(1, "A", "B", "A A"), won(2, "A", "C", "A C A"))
    assert of(lines, "B").gw == F(1, 3)
    assert of(lines, "A").ogw == (F(1, 3) + F(1, 3)) / 2


def test_a_floor_only_lifts_a_low_percentage() -> None:
    lines = event(drew(1, "A", "B", "="), won(2, "A", "C", "A A"), won(3, "A", "D", "A D A"))
    assert of(lines, "A").mwp == F(7, 9)
    assert of(lines, "B").mwp == F(1, 3)  # one draw: 1/3, the floor itself


def test_opponents_percentages_are_a_mean_over_matches() -> None:
    lines = event(
        won(1, "A", "B", "A A"), won(2, "A", "C", "A A"), won(2, "B", "D", "B B"), drew(1, "C", "D")
    )
    a = of(lines, "A")
    assert a.omw == (of(lines, "B").mwp + of(lines, "C").mwp) / 2
    assert a.ogw == (of(lines, "B").gw + of(lines, "C").gw) / 2


def test_the_tiebreakers_are_exact_fractions() -> None:
    line = of(event(won(1, "A", "B", "A B A"), drew(2, "A", "C", "A C =")), "A")
    assert isinstance(line.gw, F) and line.gw == F(6 + 3 + 1, 3 * 6)
    assert line.mwp == F(4, 6)


# --- ranks


def test_points_come_first_then_omw_gw_ogw() -> None:
    lines = event(
        won(1, "A", "B", "A A"),
        won(1, "C", "D", "C D C"),
        won(2, "B", "D", "B B"),
        won(2, "C", "A", "C C"),
    )
    assert [(line.rank, line.player, line.points) for line in lines] == [
        (1, "C", 6),
        (2, "A", 3),
        (3, "B", 3),
        (4, "D", 0),
    ]
    assert of(lines, "A").omw > of(lines, "B").omw


def test_equal_omw_is_decided_by_gw_then_ogw() -> None:
    lines = event(won(1, "A", "B", "A A"), won(1, "C", "D", "C D C"), players="D C B A")
    a, c, b, d = (of(lines, p) for p in "ACBD")
    assert (a.points, a.omw) == (c.points, c.omw) and a.gw > c.gw
    assert (b.points, b.omw, b.gw) == (d.points, d.omw, d.gw) and b.ogw > d.ogw
    assert [line.player for line in lines] == ["A", "C", "B", "D"]


def test_players_equal_on_all_four_share_a_rank() -> None:
    lines = event(
        won(1, "1", "2", "1 1"),
        won(1, "3", "4", "3 3"),
        won(1, "5", "6", "5 6 5"),
        players="1 2 3 4 5 6",
    )
    assert [(line.rank, line.player) for line in lines] == [
        (1, "1"),
        (1, "3"),
        (3, "5"),
        (4, "2"),
        (4, "4"),
        (6, "6"),
    ]


def test_players_on_a_shared_rank_are_listed_by_participant_number() -> None:
    lines = event(bye(1, "10"), bye(1, "9"), bye(1, "A"))
    assert [(line.rank, line.player) for line in lines] == [(1, "9"), (1, "10"), (1, "A")]


def test_a_match_not_finished_counts_for_nothing() -> None:
    lines = event(won(1, "A", "B", "A A"), unfinished(2, "A", "B", "B"))
    assert record(of(lines, "A")) == (3, 1, 0, 0)
    assert of(lines, "A").gw == 1


# --- statuses


def test_dropped_withdrawn_and_ejected_players_stay_ranked_with_their_results() -> None:
    lines = event(
        won(1, "A", "B", "A A"),
        won(1, "C", "D", "C C"),
        penalty(2, "B", "C"),
        won(2, "A", "D", "A A"),
        C=PlayerState.ejected,
        B=PlayerState.dropped,
        D=PlayerState.withdrawn,
    )
    assert [(line.rank, line.player, line.points, line.status) for line in lines] == [
        (1, "A", 6, PlayerState.active),
        (2, "B", 3, PlayerState.dropped),
        (3, "C", 3, PlayerState.ejected),
        (4, "D", 0, PlayerState.withdrawn),
    ]


def test_a_disqualified_player_is_shown_after_the_ranked_ones_without_a_rank() -> None:
    lines = event(won(1, "A", "B", "A A"), won(1, "C", "D", "C C"), C=PlayerState.disqualified)
    assert [(line.rank, line.player) for line in lines] == [(1, "A"), (2, "B"), (2, "D"), (None, "C")]
    assert record(of(lines, "C")) == (3, 1, 0, 0)


def test_a_disqualified_player_still_counts_in_the_opponents_tiebreakers() -> None:
    lines = event(
        won(1, "C", "A", "C C"), won(2, "A", "B", "A A"), won(2, "C", "D", "C C"), C=PlayerState.disqualified
    )
    assert of(lines, "A").omw == (of(lines, "C").mwp + of(lines, "B").mwp) / 2 == (1 + F(1, 3)) / 2


def test_disqualified_during_a_match_loses_it_two_nil() -> None:
    lines = event(penalty(1, "A", "B", "B"), B=PlayerState.disqualified)
    assert record(of(lines, "B")) == (0, 0, 1, 0)
    assert of(lines, "B").gw == F(1, 3)
    assert [(line.rank, line.player) for line in lines] == [(1, "A"), (None, "B")]
