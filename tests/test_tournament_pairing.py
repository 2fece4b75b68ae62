"""Swiss pairings (issue 10): each rule as a small event, then properties over random events.

Read ``pair(3, "A B C D", won(1, "A", "B"), …)`` as "pair round 3 of A, B, C and D after
these matches"; ``tables(pairings)`` lists each table as "A-B" and the bye as "E-".
"""

from __future__ import annotations

from itertools import pairwise

from shinpan.tournament import Entrant, Pairing, Played, PlayerState, pair_round, recommended_rounds

SEED = 20261205


def won(round_no: int, winner: str, loser: str) -> Played:
    return Played(round_no, winner, loser, "a", (winner, winner))


def drew(round_no: int, a: str, b: str) -> Played:
    return Played(round_no, a, b, "draw", (None,))


def bye(round_no: int, player: str) -> Played:
    return Played(round_no, player, None, "a")


def pair(
    round_no: int, players: str, *history: Played, seed: int = SEED, **status: PlayerState
) -> list[Pairing]:
    entrants = [Entrant(p, status.get(p, PlayerState.active)) for p in players.split()]
    return pair_round(round_no, entrants, history, seed)


def tables(pairings: list[Pairing]) -> list[str]:
    return [f"{p.a}-{p.b or ''}" for p in pairings]


def meetings(pairings: list[Pairing]) -> set[frozenset[str | None]]:
    return {frozenset((p.a, p.b)) for p in pairings}


def seated(pairings: list[Pairing]) -> list[str]:
    return sorted(p for pairing in pairings for p in (pairing.a, pairing.b) if p is not None)


SIXTEEN = " ".join(f"P{n:02}" for n in range(1, 17))


# --- round 1


def test_round_one_is_drawn_at_random_from_the_seed() -> None:
    first = pair(1, SIXTEEN, seed=1)
    assert pair(1, SIXTEEN, seed=1) == first
    assert meetings(pair(1, SIXTEEN, seed=2)) != meetings(first)
    assert seated(first) == SIXTEEN.split()


def test_the_order_the_entrants_are_given_in_does_not_change_the_draw() -> None:
    assert pair(1, SIXTEEN) == pair(1, " ".join(reversed(SIXTEEN.split())))


def test_an_odd_count_gives_one_bye_last_without_a_table() -> None:
    pairings = pair(1, "A B C D E")
    assert [p.table for p in pairings] == [1, 2, None]
    assert pairings[-1].b is None
    assert seated(pairings) == ["A", "B", "C", "D", "E"]


def test_only_active_players_are_paired() -> None:
    pairings = pair(
        2,
        "A B C D E F G H",
        B=PlayerState.dropped,
        D=PlayerState.withdrawn,
        F=PlayerState.ejected,
        H=PlayerState.disqualified,
    )
    assert seated(pairings) == ["A", "C", "E", "G"]


def test_a_single_player_gets_the_bye_and_nobody_gets_nothing() -> None:
    assert tables(pair(1, "A")) == ["A-"]
    assert pair(1, "") == []


# --- later rounds


def test_players_meet_players_on_the_same_points() -> None:
    pairings = pair(2, SIXTEEN, *(won(1, f"P{n:02}", f"P{n + 1:02}") for n in range(1, 17, 2)))
    winners = {f"P{n:02}" for n in range(1, 17, 2)}
    assert all((p.a in winners) == (p.b in winners) for p in pairings)


def test_tables_are_numbered_from_the_top_of_the_standings_the_higher_ranked_first() -> None:
    pairings = pair(3, "A B C D", won(1, "A", "B"), won(1, "C", "D"), won(2, "A", "C"), drew(2, "B", "D"))
    assert tables(pairings) == ["A-D", "C-B"]


def test_no_rematch_while_a_pairing_avoids_it_even_pairing_down() -> None:
    pairings = pair(3, "A B C D", won(1, "A", "B"), won(1, "C", "D"), won(2, "A", "C"), won(2, "B", "D"))
    assert tables(pairings) == ["A-D", "B-C"]


def test_a_rematch_when_no_pairing_avoids_one() -> None:
    assert tables(pair(2, "A B", won(1, "A", "B"))) == ["A-B"]


def test_pairing_down_as_little_as_possible() -> None:
    history = (won(1, "A", "B"), won(1, "C", "D"), drew(1, "E", "F"))
    points = {"A": 3, "C": 3, "E": 1, "F": 1, "B": 0, "D": 0}
    pairings = pair(2, "A B C D E F", *history)
    assert frozenset(("A", "C")) in meetings(pairings)
    assert sorted(abs(points[p.a] - points[p.b or ""]) for p in pairings) == [0, 1, 1]


def test_the_bye_goes_to_the_lowest_ranked_player() -> None:
    history = (Played(1, "A", "B", "a", ("A", "B", "A")), Played(1, "C", "D", "a", ("C", "C")), bye(1, "E"))
    # B and D: no points, the same OMW and GW (the floor); B's opponent won fewer duels: lower OGW
    assert pair(2, "A B C D E", *history)[-1] == Pairing(None, "B", None)


def test_nobody_gets_a_second_bye_while_someone_has_not_had_one_even_the_leader() -> None:
    history = (won(1, "A", "B"), bye(1, "C"), won(2, "A", "C"), bye(2, "B"))
    assert pair(3, "A B C", *history)[-1] == Pairing(None, "A", None)


def test_when_everyone_has_had_a_bye_the_lowest_ranked_takes_another() -> None:
    history = (won(1, "A", "B"), bye(1, "C"), won(2, "A", "C"), bye(2, "B"), won(3, "B", "C"), bye(3, "A"))
    assert pair(4, "A B C", *history)[-1] == Pairing(None, "C", None)


def test_a_player_who_left_is_not_paired_but_their_results_still_rank_the_others() -> None:
    history = (won(1, "A", "B"), won(1, "C", "D"), won(1, "E", "F"))
    pairings = pair(2, "A B C D E F", *history, E=PlayerState.dropped)
    assert "E" not in seated(pairings)
    assert pairings[-1].b is None


def test_a_round_paired_again_ignores_its_own_earlier_pairing() -> None:
    history = (won(1, "A", "B"), won(1, "C", "D"))
    assert pair(2, "A B C D", *history) == pair(2, "A B C D", *history, Played(2, "A", "D", None))


def test_pairing_sees_unfinished_matches_as_met() -> None:
    history = (won(1, "A", "B"), Played(1, "C", "D", None), won(2, "A", "C"), won(2, "B", "D"))
    assert frozenset(("C", "D")) not in meetings(pair(3, "A B C D", *history))


# --- the recommended number of rounds (MTR Appendix E)


def test_recommended_rounds_follow_the_mtr_table() -> None:
    table = {2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 16: 4, 17: 5, 32: 5, 33: 6, 64: 6, 65: 7, 128: 7}
    table |= {129: 8, 226: 8, 227: 9, 409: 9, 410: 10, 2000: 10}
    assert {players: recommended_rounds(players) for players in table} == table
    assert recommended_rounds(1) == recommended_rounds(0) == 0


def test_recommended_rounds_never_fall_as_the_field_grows() -> None:
    rounds = [recommended_rounds(n) for n in range(0, 1000)]
    assert all(a <= b for a, b in pairwise(rounds))
