"""Swiss pairings: each rule as a small event, then properties over random events.

Read ``pair(3, "A B C D", won(1, "A", "B"), …)`` as "pair round 3 of A, B, C and D after
these matches"; ``tables(pairings)`` lists each table as "A-B" and the bye as "E-".
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, pairwise

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shinpan.tournament import (
    Entrant,
    Pairing,
    Played,
    PlayerState,
    pair_round,
    recommended_rounds,
    standings,
)
from tournament_events import SETTINGS, Event, PairedRound, events, play

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


def test_when_the_lowest_ranked_player_s_bye_would_force_a_rematch_the_next_lowest_takes_it() -> None:
    """T4: no rematch unless no pairing avoids one; then the bye to the lowest-ranked. A beat
    B; C lost to D, who then lost to E (both left): C ranks below B on OMW. C's bye would
    have A and B meet again, so the bye goes to the next lowest, B, and A meets C."""
    history = (won(1, "A", "B"), won(1, "D", "C"), won(2, "E", "D"))
    pairings = pair(3, "A B C D E", *history, D=PlayerState.dropped, E=PlayerState.dropped)
    assert tables(pairings) == ["A-C", "B-"]


def test_nobody_gets_a_second_bye_while_someone_has_not_had_one_even_the_leader() -> None:
    history = (won(1, "A", "B"), bye(1, "C"), won(2, "A", "C"), bye(2, "B"))
    assert pair(3, "A B C", *history)[-1] == Pairing(None, "A", None)


def test_when_everyone_has_had_a_bye_the_lowest_ranked_takes_another() -> None:
    history = (won(1, "A", "B"), bye(1, "C"), won(2, "A", "C"), bye(2, "B"), won(3, "B", "C"), bye(3, "A"))
    assert pair(4, "A B C", *history)[-1] == Pairing(None, "C", None)


@pytest.mark.parametrize("seed", range(6))
def test_the_bye_goes_to_the_lowest_ranked_also_when_everyone_is_on_the_same_points(seed: int) -> None:
    """T4: the bye to the lowest-ranked player who has not had one. Five players on 2 points
    after two rounds of draws, A to D having met two of the others: E's draws had no duel
    won, so E stands last on GW and takes the bye, whatever the seed."""
    one_duel_each = (("A", "B", 1), ("C", "D", 1), ("A", "C", 2), ("B", "D", 2))
    history = [Played(r, a, b, "draw", (a, b)) for a, b, r in one_duel_each]
    history += [Played(1, "E", "F", "draw", (None,)), Played(2, "E", "G", "draw", (None,))]
    left = {"F": PlayerState.dropped, "G": PlayerState.dropped}
    pairings = pair(3, "A B C D E F G", *history, seed=seed, **left)
    assert pairings[-1] == Pairing(None, "E", None)
    assert meetings(pairings[:-1]) == {frozenset("AD"), frozenset("BC")}


@pytest.mark.parametrize("seed", range(6))
def test_among_pairings_equal_on_every_rule_the_order_drawn_from_the_seed_decides(seed: int) -> None:
    """T4: among equals, the order drawn from the seed decides. Six players drew their first
    round with the neighbour the seed drew them beside; all on the same points, they meet
    the nearest in that order they have not met: seats 1–3, 2–5 and 4–6, or as near."""
    order = drawn_order(list("ABCDEF"), seed)
    history = [drew(1, order[n], order[n + 1]) for n in (0, 2, 4)]
    pairings = pair(2, "A B C D E F", *history, seed=seed)
    seat = {p: n for n, p in enumerate(order, start=1)}
    assert not meetings(pairings) & {frozenset((m.a, m.b)) for m in history}
    assert sum(abs(seat[p.a] - seat[p.b or ""]) for p in pairings) == 2 + 3 + 2


def test_a_player_who_left_is_not_paired_but_their_results_still_rank_the_others() -> None:
    history = (won(1, "A", "B"), won(1, "C", "D"), won(1, "E", "F"))
    pairings = pair(2, "A B C D E F", *history, E=PlayerState.dropped)
    assert "E" not in seated(pairings)
    assert pairings[-1].b is None


def test_a_round_paired_again_ignores_its_own_earlier_pairing() -> None:
    history = (won(1, "A", "B"), won(1, "C", "D"))
    first = pair(2, "A B C D", *history)
    assert pair(2, "A B C D", *history, Played(2, "A", "D", None)) == first
    again = [Played(2, p.a, p.b, None) for p in first]  # its own tables, not yet played
    assert pair(2, "A B C D", *history, *again) == first


def test_the_leader_sits_at_table_one_whatever_their_name() -> None:
    """T4: tables are numbered from the top of the standings, not by the players' names."""
    pairings = pair(2, "A B C D", won(1, "D", "C"), drew(1, "A", "B"))
    assert [p.table for p in pairings if "D" in (p.a, p.b)] == [1]
    assert pairings[0].a == "D"


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


# --- properties over random events (tournament_events.py)


def fewest_rematches(players: list[str], met: set[frozenset[str]], takers: set[str]) -> int:
    """The fewest rematches any complete pairing of ``players`` has, the bye (if any) to one of
    ``takers``: the pairings counted one by one for a few players; for more, none when every
    player may meet at least half of the others (Dirac: the players not met hold a Hamiltonian
    cycle, so a pairing without rematches), else from the largest matching of tables that are no rematch."""
    if len(players) <= 10:
        return min(rematches for rematches, _, _ in every_pairing(players, met, takers, {}))
    odd = len(players) % 2
    for taker in sorted(takers) if odd else [None]:
        rest = [p for p in players if p != taker]
        if all(len(rest) - 1 - sum(frozenset((p, q)) in met for q in rest) >= len(rest) / 2 for p in rest):
            return 0
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((p, q) for p, q in combinations(players, 2) if frozenset((p, q)) not in met)
    graph.add_edges_from((p, "bye") for p in takers if odd)
    return (len(players) + odd) // 2 - len(nx.max_weight_matching(graph, maxcardinality=True))


def every_pairing(
    players: list[str], met: set[frozenset[str]], takers: set[str], points: dict[str, int]
) -> Iterator[tuple[int, str | None, int]]:
    """(rematches, the bye, the sum of squared point differences) of every complete pairing."""
    if len(players) % 2:
        for taker in takers:
            for rematches, _, squares in every_pairing(
                [p for p in players if p != taker], met, takers, points
            ):
                yield rematches, taker, squares
        return
    if not players:
        yield 0, None, 0
        return
    first, rest = players[0], players[1:]
    for other in rest:
        left = [p for p in rest if p != other]
        for rematches, _, squares in every_pairing(left, met, takers, points):
            square = (points.get(first, 0) - points.get(other, 0)) ** 2
            yield rematches + (frozenset((first, other)) in met), None, squares + square


def check(paired: PairedRound) -> None:
    active = [e.player for e in paired.entrants if e.status is PlayerState.active]
    pairings = paired.pairings
    assert seated(pairings) == sorted(active), "each active player exactly once, nobody else"
    byes = [p.a for p in pairings if p.b is None]
    assert len(byes) == len(active) % 2
    assert [p.table for p in pairings] == [*range(1, len(active) // 2 + 1), *[None] * len(byes)]
    had_bye = {m.a for m in paired.before if m.b is None}
    takers = {p for p in active if p not in had_bye} or set(active)
    assert set(byes) <= takers, "no second bye while someone has not had one"
    met = {frozenset((m.a, m.b)) for m in paired.before if m.b is not None}
    rematches = sum(frozenset((p.a, p.b)) in met for p in pairings)
    assert rematches == fewest_rematches(active, met, takers)
    if len(active) <= 10:
        lines = standings(paired.entrants, paired.before)
        key = {line.player: (-line.points, -line.omw, -line.gw, -line.ogw) for line in lines}
        points = {line.player: line.points for line in lines}

        def lower_takers(bye: str | None) -> int:
            return 0 if bye is None else sum(key[t] > key[bye] for t in takers)

        best = min(
            (rematches, lower_takers(bye), squares)
            for rematches, bye, squares in every_pairing(active, met, takers, points)
        )
        squares = sum((points[p.a] - points[p.b]) ** 2 for p in pairings if p.b is not None)
        assert (rematches, lower_takers(byes[0] if byes else None), squares) == best


@SETTINGS
@given(events())
def test_every_pairing_of_a_random_event_keeps_the_rules(event: Event) -> None:
    for paired in event.rounds:
        check(paired)


def test_a_repair_that_spans_the_whole_line_ends() -> None:
    # here a repair widens to the whole line and still pairs down more than neighbours would
    for paired in play(61, 9, 2).rounds:
        check(paired)


@SETTINGS
@given(events(smallest=3, largest=11), st.integers(4, 12))
def test_small_events_played_long_keep_the_rules_when_rematches_are_forced(event: Event, more: int) -> None:
    for paired in event.rounds:
        check(paired)
    last = event.rounds[-1]
    history = event.matches
    for round_no in range(last.round_no + 1, last.round_no + 1 + more):
        entrants = event.entrants
        pairings = pair_round(round_no, entrants, history, round_no)
        check(PairedRound(round_no, entrants, list(history), round_no, pairings))
        history = [*history, *(Played(round_no, p.a, p.b, "a", ()) for p in pairings)]


@pytest.mark.parametrize("players", range(3, 11))
def test_small_events_played_past_every_new_opponent_keep_the_rules(players: int) -> None:
    """T4, each round checked against every possible pairing: small fixed events played for
    more rounds than a player has opponents, so that the rematches, the bye and pairing down
    pull against each other, and the rule above always wins."""
    for seed in range(3):
        for paired in play(players, players + 2, seed).rounds:
            check(paired)


@SETTINGS
@given(events(largest=60), st.integers(0, 2**32 - 1))
def test_the_same_event_and_seed_give_the_same_pairing(event: Event, seed: int) -> None:
    paired = event.rounds[-1]
    entrants = list(reversed(paired.entrants))
    history = list(reversed(paired.before))
    assert pair_round(paired.round_no, entrants, history, seed) == pair_round(
        paired.round_no, paired.entrants, paired.before, seed
    )


# --- a field too big for one matching of every table: repaired stretch by stretch


def pair_beside_dropped(round_no: int, active: list[str], history: list[Played]) -> list[Pairing]:
    """Pair ``active``; everyone else in ``history`` (beaten, to give the others points) has dropped."""
    others = sorted({p for m in history for p in (m.a, m.b) if p and p not in active})
    entrants = [Entrant(p) for p in active] + [Entrant(p, PlayerState.dropped) for p in others]
    return pair_round(round_no, entrants, history, SEED)


@pytest.mark.parametrize("players", [48, 50])
def test_in_a_big_field_the_leader_meets_the_one_player_not_met_yet_even_from_the_bottom(
    players: int,
) -> None:
    """T4: no rematch unless no pairing avoids one. Forty-eight players (the most paired by
    one matching of every table) or fifty: the leader has beaten all but one, who has no
    points, at the bottom of the line; far apart as they stand, they meet."""
    others = [f"P{n:02}" for n in range(1, players - 1)]
    history = [won(n, "X", p) for n, p in enumerate(others, start=1)]
    history += [won(n, p, f"D{n:02}") for n, p in enumerate(others, start=1)]  # 3 points each
    pairings = pair_beside_dropped(49, ["X", "Y", *others], history)
    assert frozenset(("X", "Y")) in meetings(pairings)
    assert not meetings(pairings) & {frozenset((m.a, m.b)) for m in history}


def test_in_a_big_field_the_bye_moves_up_rather_than_leave_the_leader_a_rematch() -> None:
    """T4: no rematch unless no pairing avoids one, before the bye to the lowest-ranked.
    Fifty-one players: the leader has had a bye and beaten all but Y, who has no points;
    Y's bye would leave the leader nobody but players met already, so Y meets the leader
    and the bye goes up to a player on 3 points."""
    others = [f"P{n:02}" for n in range(1, 50)]
    history = [won(n, "X", p) for n, p in enumerate(others, start=1)] + [bye(50, "X")]
    history += [won(n, p, f"D{n:02}") for n, p in enumerate(others, start=1)]  # 3 points each
    pairings = pair_beside_dropped(51, ["X", "Y", *others], history)
    assert frozenset(("X", "Y")) in meetings(pairings)
    assert not meetings(pairings) & {frozenset((m.a, m.b)) for m in history}
    assert pairings[-1].b is None and pairings[-1].a in others


def test_in_a_big_field_the_leader_never_takes_the_bye_from_a_lower_ranked_player() -> None:
    """T4: the bye to the lowest-ranked player who has not had one. Fifty-one players, none
    has had a bye; the leader has beaten all but Y, who has no points. Y's bye would leave
    the leader only rematches, so Y meets the leader; the bye goes to a player on 3 points,
    never to the leader, however far apart the leader and Y stand in the line."""
    others = [f"P{n:02}" for n in range(1, 50)]
    history = [won(n, "X", p) for n, p in enumerate(others, start=1)]
    history += [won(n, p, f"D{n:02}") for n, p in enumerate(others, start=1)]  # 3 points each
    pairings = pair_beside_dropped(51, ["X", "Y", *others], history)
    assert frozenset(("X", "Y")) in meetings(pairings)
    assert not meetings(pairings) & {frozenset((m.a, m.b)) for m in history}
    assert pairings[-1].b is None and pairings[-1].a in others


def drawn_order(players: list[str], seed: int = SEED) -> list[str]:
    """The order the seed draws ``players`` in, as round 1 seats them table by table: the
    order the line keeps among players on the same points."""
    return [p for table in pair(1, " ".join(players), seed=seed) for p in (table.a, table.b) if p]


def test_in_a_big_field_a_rematch_is_avoided_on_the_same_points_rather_than_by_pairing_down() -> None:
    """T4: no rematch, and as little pairing down as possible. Sixty players, forty on 6
    points and twenty on 3; two on 6 points have met each other and the four beside them in
    the line. Pairing them down would avoid the rematch; players on 6 points further up,
    not met yet, avoid it without pairing anyone down."""
    order = drawn_order([f"P{n:02}" for n in range(1, 61)])
    top, low = order[:40], order[40:]
    history = [won(r, p, f"D{p}-{r}") for p in top for r in (1, 2)] + [won(1, p, f"D{p}-1") for p in low]
    met = [(top[38], top[39])] + [(top[n], other) for n in (38, 39) for other in top[34:38]]
    history += [Played(3, a, b, None) for a, b in met]
    pairings = pair_beside_dropped(4, order, history)
    assert not meetings(pairings) & {frozenset(pair) for pair in met}
    assert all((p.a in top) == (p.b in top) for p in pairings), "nobody on 6 points is paired down"
