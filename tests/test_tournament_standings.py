"""The standings rules (points, then the tiebreakers), each as a small event.

Read ``won(1, "A", "B", "A B A")`` as "in round 1, A beat B two duels to one";
``drew(2, "A", "C")`` as "A and C drew, reported without duels"; ``penalty(3, "A", "B", "B")``
as "B won a duel, then a match-loss penalty gave A the match". ``of(event, "A")`` is A's line.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import replace
from fractions import Fraction as F
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shinpan.tournament import Entrant, Played, PlayerState, Standing, standings
from shinpan.tournament.tiebreakers import DEFAULT_CHAIN, Chain, Tiebreaker
from tournament_events import SETTINGS, Event, events, formats


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


def test_each_bye_is_one_more_match_won() -> None:
    """T1: a bye is a match won 2–0 and counts in ``wins``: a player given two byes has won two matches."""
    line = of(event(bye(1, "A"), won(2, "A", "B", "A B A"), bye(3, "A")), "A")
    assert record(line) == (9, 3, 0, 0)


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


def test_a_result_that_is_none_of_the_four_is_refused_saying_what_it_is() -> None:
    """T1, T8: a finished match is won by a, by b, drawn, or lost by both at time; anything
    else is a mistake upstream, refused rather than counted as something."""
    with pytest.raises(ValueError) as caught:
        event(Played(1, "A", "B", "A", ("A", "A")))
    assert str(caught.value) == "result 'A' of A v B is not a, b, draw or both_lose"


def test_a_duel_won_by_someone_who_plays_neither_side_is_refused_naming_them() -> None:
    """T2: game points count each duel for the player who won it, one of the two at the
    table; a duel credited to anyone else is a mistake upstream, refused, not counted."""
    with pytest.raises(ValueError) as caught:
        event(won(1, "A", "B", "A C A"), players="A B C")
    assert str(caught.value) == "duel winner 'C' plays neither side of A v B"


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


# --- the rules computed again, plainly, over random events (tournament_events.py)


def participant_number(player: str) -> tuple[bool, int, str]:
    return (not player.isdigit(), int(player) if player.isdigit() else 0, player)


def expected_standings(
    entrants: list[Entrant], matches: list[Played], chain: Chain = DEFAULT_CHAIN, seed: int | None = None
) -> list[Standing]:
    """The rules (T1–T3, T8, T9), one player at a time, written apart from the module."""
    counted = [m for m in matches if m.b is None or m.result is not None]

    @cache
    def matches_of(player: str) -> list[Played]:
        return [m for m in counted if player in (m.a, m.b)]

    def outcome(match: Played, player: str) -> str:
        if match.b is None or match.result == ("a" if player == match.a else "b"):
            return "win"
        return "draw" if match.result == "draw" else "loss"  # both_lose: a loss for each

    def duels_won_drawn_played(match: Played, player: str) -> tuple[int, int, int]:
        if match.b is None:
            return (2, 0, 2)
        if match.result == "both_lose" and not match.by_penalty:
            return (match.duels.count(player), match.duels.count(None), len(match.duels))
        if match.by_penalty or not match.duels:
            return {"win": (2, 0, 2), "draw": (1, 0, 2), "loss": (0, 0, 2)}[outcome(match, player)]
        return (match.duels.count(player), match.duels.count(None), len(match.duels))

    def match_points(player: str) -> int:
        return sum({"win": 3, "draw": 1, "loss": 0}[outcome(m, player)] for m in matches_of(player))

    @cache
    def mwp(player: str) -> F:
        rounds = len(matches_of(player))
        return max(F(1, 3), F(match_points(player), 3 * rounds)) if rounds else F(0)

    @cache
    def gwp(player: str) -> F:
        counts = [duels_won_drawn_played(m, player) for m in matches_of(player)]
        played = sum(c[2] for c in counts)
        points = sum(3 * c[0] + c[1] for c in counts)
        return max(F(1, 3), F(points, 3 * played)) if played else F(0)

    def opponents(player: str) -> list[str]:
        return [(m.b if m.a == player else m.a) or "" for m in matches_of(player) if m.b is not None]

    def mean(values: list[F]) -> F:
        return sum(values, F(0)) / len(values) if values else F(0)

    @cache
    def omw(player: str) -> F:
        return mean([mwp(o) for o in opponents(player)])

    # the seeded draw, written apart: a sha256 of seed and id, smallest first
    import hashlib

    drawn = sorted(
        {e.player for e in entrants}, key=lambda q: hashlib.sha256(f"{seed}\x00{q}".encode()).digest()
    )
    seeded = {q: i for i, q in enumerate(drawn, start=1)} if seed is not None else {}

    lines = []
    for entrant in entrants:
        p = entrant.player
        outcomes = [outcome(m, p) for m in matches_of(p)]
        lines.append(
            Standing(
                rank=None,
                player=p,
                points=match_points(p),
                wins=outcomes.count("win"),
                losses=outcomes.count("loss"),
                draws=outcomes.count("draw"),
                mwp=mwp(p),
                omw=mean([mwp(o) for o in opponents(p)]),
                gw=gwp(p),
                ogw=mean([gwp(o) for o in opponents(p)]),
                status=entrant.status,
                oomw=mean([omw(o) for o in opponents(p)]),
                seeded=seeded.get(p),
            )
        )

    def key(line: Standing, name: Tiebreaker) -> F:
        if name is Tiebreaker.seeded:
            return F(-(line.seeded or 0))
        return {"omw": line.omw, "gw": line.gw, "ogw": line.ogw, "oomw": line.oomw}[name.value]

    def score(line: Standing) -> tuple[F, ...]:
        return (F(line.points), *(key(line, name) for name in chain))

    scores = {line.player: score(line) for line in lines}  # each player's, worked out once
    ranked = [line for line in lines if line.status is not PlayerState.disqualified]
    # A rank is one more than the number of ranked players with a greater score: counted as
    # those after the last one not greater, in the ranked scores in ascending order.
    ascending = sorted(scores[line.player] for line in ranked)
    ranks = {
        line.player: 1 + len(ascending) - bisect_right(ascending, scores[line.player]) for line in ranked
    }
    in_order = sorted(lines, key=lambda line: participant_number(line.player))
    in_order.sort(
        key=lambda line: scores[line.player], reverse=True
    )  # stable: equal scores stay in participant order
    shown = [line for line in in_order if line.status is PlayerState.disqualified]
    return [replace(line, rank=ranks[line.player]) for line in in_order if line.player in ranks] + shown


@SETTINGS
@given(events())
def test_standings_after_every_round_of_a_random_event_follow_the_rules(event: Event) -> None:
    for entrants, matches in event.ends:
        assert standings(entrants, matches) == expected_standings(entrants, matches)


@SETTINGS
@given(formats())
def test_standings_in_every_format_and_time_rule_follow_the_rules(event: Event) -> None:
    for entrants, matches in event.ends:
        assert standings(entrants, matches) == expected_standings(entrants, matches)


@SETTINGS
@given(formats(), st.permutations(list(Tiebreaker)), st.integers(1, 5))
def test_any_chain_of_tiebreakers_ranks_as_written(event: Event, keys: list[Tiebreaker], length: int) -> None:
    chain = tuple(keys[:length])
    entrants, matches = event.ends[-1]
    assert standings(entrants, matches, chain, event.seed) == expected_standings(
        entrants, matches, chain, event.seed
    )
