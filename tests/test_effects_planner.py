"""D10, D14, D17, D22 and D16's undoing, decided by the pure effects planner.

Read `at_table(duels={1: "B"})` as "A plays B at table 7 of round 2, B has won duel 1";
`plan_ruling(view, 12, ["warning1", "duel_loss"], pending=True)` as "ruling 12 gives A a
single warning and a duel loss, and waits for the head judge". What comes back is what the
ledger appends, in order.
"""

from __future__ import annotations

from shinpan.engine.effects import (
    Carried,
    CausedDuel,
    DuelResult,
    LiveRuling,
    LossCarried,
    LossSettled,
    Match,
    MatchExtended,
    MatchResult,
    PlayerView,
    StatusChanged,
    Undoing,
    net_extensions,
    plan_carried,
    plan_confirmation,
    plan_reported_duel,
    plan_ruling,
    plan_undo,
    reported_by_hand,
)
from shinpan.engine.event_rules import Status


def at_table(
    duels: dict[int, str] | None = None, result: str | None = None, ruling: int | None = None
) -> Match:
    return Match(round=2, table=7, a="A", b="B", result=result, result_ruling=ruling, duels=duels or {})


def a_view(match: Match | None, *live: LiveRuling, status: Status = Status.active) -> PlayerView:
    return PlayerView("A", status, match, tuple(live))


# --- D10 Applying losses: the current duel or match, else the next one; the opponent wins it


def test_d10_a_duel_loss_gives_the_opponent_the_current_duel() -> None:
    assert plan_ruling(a_view(at_table()), 12, ["warning1", "duel_loss"], pending=True) == [
        DuelResult(2, 7, 1, "B", cause_ruling=12)
    ]


def test_d10_the_second_duel_won_by_penalty_decides_the_match() -> None:
    assert plan_ruling(a_view(at_table({1: "B"})), 12, ["duel_loss"], pending=False) == [
        DuelResult(2, 7, 2, "B", cause_ruling=12, decides=True, match_result="b")
    ]


def test_d10_a_voided_penalty_duel_leaves_its_number_free_for_the_next_loss() -> None:
    # duel 1 was undone by a void; duel 2 was played: the loss lands on duel 1, not over duel 2
    planned = plan_ruling(a_view(at_table({2: "A"})), 12, ["duel_loss"], pending=False)
    assert planned == [DuelResult(2, 7, 1, "B", cause_ruling=12)]


def test_d10_a_duel_loss_waits_for_the_next_match_when_none_is_being_played() -> None:
    ended = at_table({1: "A", 2: "A"}, result="a")
    assert plan_ruling(a_view(ended), 12, ["warning1", "duel_loss"], pending=True) == [
        LossCarried(12, 1, "A", "duel_loss")
    ]
    assert plan_ruling(a_view(None), 12, ["duel_loss"], pending=False) == [
        LossCarried(12, 0, "A", "duel_loss")
    ]


def test_d10_a_match_loss_gives_the_opponent_the_current_match() -> None:
    assert plan_ruling(a_view(at_table({1: "A"})), 12, ["warning2", "match_loss"], pending=True) == [
        MatchResult(2, 7, "b", 12)
    ]


def test_d10_a_match_loss_after_the_match_ended_waits_for_the_next_one() -> None:
    ended = at_table(result="draw")
    assert plan_ruling(a_view(ended), 12, ["match_loss"], pending=False) == [
        LossCarried(12, 0, "A", "match_loss")
    ]


def test_d10_two_duel_losses_in_one_ruling_take_two_duels_and_the_match() -> None:
    planned = plan_ruling(a_view(at_table()), 12, ["duel_loss", "duel_loss"], pending=False)
    assert planned == [
        DuelResult(2, 7, 1, "B", cause_ruling=12),
        DuelResult(2, 7, 2, "B", cause_ruling=12, decides=True, match_result="b"),
    ]


def test_d10_a_waiting_loss_lands_on_the_next_round_s_match_at_pairing() -> None:
    waiting = Carried(12, 1, "A", "duel_loss")
    next_round = Match(round=3, table=1, a="C", b="A")
    assert plan_carried(a_view(next_round), waiting, 3) == [
        DuelResult(3, 1, 1, "C", cause_ruling=12),
        LossSettled(12, 1, "applied"),
    ]
    # a bye is no match being played: the loss keeps waiting
    assert plan_carried(a_view(Match(round=3, table=9, a="A", b=None, result="a")), waiting, 3) == []


def test_d10_a_scorekeeper_s_second_duel_decides_the_match() -> None:
    assert plan_reported_duel(at_table({1: "B"}), None, "B") == DuelResult(2, 7, 2, "B", None, True, "b")
    assert plan_reported_duel(at_table({1: "B"}, result="b"), 3, "A") == DuelResult(2, 7, 3, "A")


# --- draws and extensions


def test_the_wrong_opponent_s_match_draw_and_slow_play_s_extension_act_on_the_match() -> None:
    assert plan_ruling(a_view(at_table()), 5, ["warning1", "match_draw"], pending=True) == [
        MatchResult(2, 7, "draw", 5)
    ]
    assert plan_ruling(a_view(at_table()), 6, ["warning1", "time_extension"], pending=True) == [
        MatchExtended(2, 7, 1, 6)
    ]
    assert plan_ruling(a_view(at_table(result="a")), 6, ["time_extension"], pending=False) == []


# --- D14, D17 Ejection and disqualification: only once the head judge confirms


def test_d17_a_pending_disqualification_changes_no_status_but_its_losses_land() -> None:
    dq = LiveRuling(20, ("warning3", "disqualification"), pending=True)
    assert plan_ruling(a_view(at_table(), dq), 20, ["warning3", "disqualification"], pending=True) == []


def test_d17_confirming_a_disqualification_disqualifies_and_d22_loses_the_match_being_played() -> None:
    dq = LiveRuling(20, ("warning3", "disqualification"), pending=False)
    assert plan_confirmation(a_view(at_table({1: "A"}), dq), 20, ["warning3", "disqualification"]) == [
        StatusChanged("A", Status.disqualified, 20),
        MatchResult(2, 7, "b", 20),
    ]


def test_d22_leaving_after_the_match_ended_leaves_its_result_alone() -> None:
    ejection = LiveRuling(21, ("warning2", "ejection"), pending=False)
    ended = at_table({1: "A", 2: "A"}, result="a")
    assert plan_confirmation(a_view(ended, ejection), 21, ["warning2", "ejection"]) == [
        StatusChanged("A", Status.ejected, 21)
    ]


def test_d22_withdrawn_takes_effect_at_once_and_ends_the_match_being_played() -> None:
    withdrawn = LiveRuling(22, ("withdrawn",), pending=False)
    assert plan_ruling(a_view(at_table(), withdrawn), 22, ["withdrawn"], pending=False) == [
        StatusChanged("A", Status.withdrawn, 22),
        MatchResult(2, 7, "b", 22),
    ]


def test_d14_the_heavier_status_stays_when_a_lighter_one_is_added() -> None:
    dq = LiveRuling(20, ("disqualification",), pending=False)
    withdrawn = LiveRuling(22, ("withdrawn",), pending=False)
    view = a_view(None, dq, withdrawn, status=Status.disqualified)
    assert plan_ruling(view, 22, ["withdrawn"], pending=False) == []


# --- D16 Undoing: exactly what the rulings did, as new entries


def test_d16_undoing_a_penalty_duel_gives_the_match_back_to_the_duels_played() -> None:
    decided = at_table({1: "B", 2: "B"}, result="b")
    undoing = Undoing(
        numbers=frozenset({12}),
        matches={(2, 7): decided},
        duels=(CausedDuel((2, 7), 2),),
        by_hand=frozenset(),
        extensions=(),
        carried=(),
        players=(),
    )
    assert plan_undo(undoing) == [DuelResult(2, 7, 2, None, None, decides=True, match_result=None)]


def test_d16_undoing_a_penalty_duel_leaves_a_result_the_scorekeeper_reported_by_hand() -> None:
    decided = at_table({1: "B", 2: "B"}, result="b")
    undoing = Undoing(
        numbers=frozenset({12}),
        matches={(2, 7): decided},
        duels=(CausedDuel((2, 7), 2),),
        by_hand=frozenset({(2, 7)}),
        extensions=(),
        carried=(),
        players=(),
    )
    assert plan_undo(undoing) == [DuelResult(2, 7, 2, None)]


def test_d16_undoing_a_match_loss_returns_the_match_to_its_duels() -> None:
    lost = at_table({1: "A"}, result="b", ruling=12)
    undoing = Undoing(
        numbers=frozenset({12}),
        matches={(2, 7): lost},
        duels=(),
        by_hand=frozenset(),
        extensions=(),
        carried=(),
        players=(),
    )
    assert plan_undo(undoing) == [MatchResult(2, 7, None, None)]


def test_d16_undoing_cancels_waiting_losses_extensions_and_the_status_they_gave() -> None:
    undoing = Undoing(
        numbers=frozenset({20}),
        matches={},
        duels=(),
        by_hand=frozenset(),
        extensions=((2, 7, 20, 1),),
        carried=(Carried(20, 1, "A", "match_loss"),),
        players=(PlayerView("A", Status.disqualified, None, ()),),
    )
    assert plan_undo(undoing) == [
        MatchExtended(2, 7, -1, 20),
        LossSettled(20, 1, "cancelled"),
        StatusChanged("A", Status.active, None),
    ]


def test_d16_what_a_match_s_result_entries_say_about_the_scorekeeper() -> None:
    # (kind, a result with no ruling behind it, a duel that set the result)
    assert reported_by_hand([("duel.result", False, True), ("match.result", True, False)])
    assert not reported_by_hand([("match.result", True, False), ("duel.result", False, True)])
    assert not reported_by_hand([("match.result", False, False)])


def test_d16_extensions_count_net_per_ruling() -> None:
    extended = [(2, 7, 1, 6), (2, 7, 1, 8), (2, 7, -1, 6), (2, 7, 1, 6)]
    assert net_extensions(extended, frozenset({6})) == [(2, 7, 6, 1)]
    assert net_extensions(extended, frozenset({9})) == []


# --- D10, D22 within one ruling: each component sees the match as the one before left it


def test_d10_a_duel_loss_after_the_ruling_s_match_loss_waits_for_the_next_match() -> None:
    assert plan_ruling(a_view(at_table()), 12, ["match_loss", "duel_loss"], pending=False) == [
        MatchResult(2, 7, "b", 12),
        LossCarried(12, 1, "A", "duel_loss"),
    ]


def test_d10_a_third_duel_loss_after_the_match_was_decided_waits_for_the_next_match() -> None:
    planned = plan_ruling(a_view(at_table()), 12, ["duel_loss"] * 3, pending=False)
    assert planned[-1] == LossCarried(12, 2, "A", "duel_loss")


def test_d10_a_match_loss_after_the_ruling_s_two_duel_losses_waits_for_the_next_match() -> None:
    planned = plan_ruling(a_view(at_table()), 12, ["duel_loss", "duel_loss", "match_loss"], pending=False)
    assert planned[-1] == LossCarried(12, 2, "A", "match_loss")


def test_a_drawn_match_takes_no_loss_and_no_extension_after_the_draw() -> None:
    assert plan_ruling(
        a_view(at_table()), 5, ["match_draw", "duel_loss", "time_extension"], pending=False
    ) == [
        MatchResult(2, 7, "draw", 5),
        LossCarried(5, 1, "A", "duel_loss"),
    ]


def test_a_draw_needs_a_match_a_player_with_none_draws_nothing() -> None:
    assert plan_ruling(a_view(None), 5, ["match_draw"], pending=False) == []


def test_the_match_loss_a_player_s_opponent_receives_goes_to_the_player_on_side_a() -> None:
    as_b = PlayerView("B", Status.active, at_table())
    assert plan_ruling(as_b, 12, ["match_loss"], pending=False) == [MatchResult(2, 7, "a", 12)]
    assert plan_ruling(as_b, 12, ["duel_loss", "duel_loss"], pending=False)[-1] == DuelResult(
        2, 7, 2, "A", cause_ruling=12, decides=True, match_result="a"
    )


def test_d22_a_disqualification_after_the_ruling_s_match_loss_does_not_lose_the_match_twice() -> None:
    dq = LiveRuling(20, ("match_loss", "disqualification"), pending=False)
    assert plan_ruling(a_view(at_table(), dq), 20, ["match_loss", "disqualification"], pending=False) == [
        MatchResult(2, 7, "b", 20),
        StatusChanged("A", Status.disqualified, 20),
    ]


def test_d22_a_player_who_left_the_event_carries_no_loss_to_a_next_match() -> None:
    gone = PlayerView("A", Status.withdrawn, None)
    assert plan_ruling(gone, 12, ["duel_loss", "match_loss"], pending=False) == []
    dropped = PlayerView("A", Status.active, None, dropped=True)
    assert plan_ruling(dropped, 12, ["match_loss"], pending=False) == []


def test_d17_a_pending_ejection_leaves_the_status_a_confirmed_one_ejects() -> None:
    pending = LiveRuling(21, ("warning2", "ejection"), pending=True)
    assert plan_ruling(a_view(None, pending), 21, ["warning2", "ejection"], pending=True) == []
    confirmed = LiveRuling(21, ("warning2", "ejection"), pending=False)
    assert plan_ruling(a_view(None, confirmed), 21, ["warning2", "ejection"], pending=False) == [
        StatusChanged("A", Status.ejected, 21)
    ]


def test_d17_confirming_a_ruling_without_ejection_or_disqualification_changes_nothing() -> None:
    warned = LiveRuling(8, ("warning1",), pending=False)
    assert plan_confirmation(a_view(at_table(), warned), 8, ["warning1", "duel_loss"]) == []


def test_d14_a_player_not_registered_has_no_status_to_change() -> None:
    dq = LiveRuling(20, ("disqualification",), pending=False)
    assert plan_confirmation(PlayerView("X", None, None, (dq,)), 20, ["disqualification"]) == []


def test_d10_a_waiting_loss_lands_only_on_the_match_of_the_round_being_paired() -> None:
    waiting = Carried(12, 0, "A", "match_loss")
    next_round = Match(round=3, table=1, a="A", b="C")
    assert plan_carried(a_view(next_round), waiting, 4) == []
    assert plan_carried(a_view(None), waiting, 3) == []
    assert plan_carried(a_view(next_round), waiting, 3) == [
        MatchResult(3, 1, "b", 12),
        LossSettled(12, 0, "applied"),
    ]


def test_d10_a_scorekeeper_s_duel_after_the_match_was_decided_decides_nothing() -> None:
    assert plan_reported_duel(at_table({1: "B", 2: "B"}, result="b"), None, "A") == DuelResult(2, 7, 3, "A")
    assert plan_reported_duel(at_table({1: "A"}), 2, "B") == DuelResult(2, 7, 2, "B")


# --- D16 Undoing a void: what stays of the match is what was played


def undo(numbers: set[int], match: Match, *duels: int, by_hand: bool = False) -> list[object]:
    return list(
        plan_undo(
            Undoing(
                numbers=frozenset(numbers), matches={match.key: match},
                duels=tuple(CausedDuel(match.key, d) for d in duels),
                by_hand=frozenset({match.key} if by_hand else ()), extensions=(), carried=(), players=(),
            )
        )
    )  # fmt: skip


def test_d16_undoing_a_penalty_duel_keeps_the_result_the_duels_played_still_give() -> None:
    decided = at_table({1: "B", 2: "B", 3: "B"}, result="b")
    assert undo({12}, decided, 1) == [DuelResult(2, 7, 1, None, None, decides=True, match_result="b")]


def test_d16_undoing_a_duel_and_a_match_loss_together_gives_the_match_to_the_duels_left() -> None:
    # duel 1 by ruling 11's duel loss, duels 2 and 3 played, then ruling 12's match loss
    lost = at_table({1: "B", 2: "A", 3: "B"}, result="b", ruling=12)
    assert undo({11, 12}, lost, 1) == [DuelResult(2, 7, 1, None), MatchResult(2, 7, None, None)]


def test_d16_undoing_a_match_loss_when_the_played_duels_decided_it_gives_that_result() -> None:
    lost = at_table({1: "A", 2: "A"}, result="b", ruling=12)
    assert undo({12}, lost) == [MatchResult(2, 7, "a", None)]


def test_d16_undoing_leaves_a_match_result_another_ruling_gave() -> None:
    lost = at_table({1: "A"}, result="b", ruling=30)
    assert undo({12}, lost) == []


def test_d16_undoing_both_penalty_duels_of_a_match_reopens_it() -> None:
    decided = at_table({1: "B", 2: "B"}, result="b")
    assert undo({12}, decided, 1, 2) == [
        DuelResult(2, 7, 1, None, None, decides=True, match_result=None),
        DuelResult(2, 7, 2, None, None, decides=True, match_result=None),
    ]


def test_d16_undoing_extensions_takes_back_each_one_the_ruling_still_holds() -> None:
    undoing = Undoing(
        numbers=frozenset({6}), matches={}, duels=(), by_hand=frozenset(),
        extensions=((2, 7, 6, 2), (3, 1, 6, 0)), carried=(), players=(),
    )  # fmt: skip
    assert plan_undo(undoing) == [MatchExtended(2, 7, -1, 6), MatchExtended(2, 7, -1, 6)]


def test_d16_undoing_gives_back_the_status_the_rulings_left_live_give() -> None:
    still = LiveRuling(8, ("warning2", "ejection"), pending=False)
    undoing = Undoing(
        numbers=frozenset({20}), matches={}, duels=(), by_hand=frozenset(), extensions=(), carried=(),
        players=(PlayerView("A", Status.disqualified, at_table(), (still,)),),
    )  # fmt: skip
    assert plan_undo(undoing) == [StatusChanged("A", Status.ejected, None)]


def test_d16_a_scorekeeper_s_result_after_a_penalty_duel_stands_until_a_duel_sets_another() -> None:
    assert reported_by_hand([("match.result", True, False)]) is True
    assert reported_by_hand([("match.result", True, False), ("duel.result", False, False)]) is True
    assert reported_by_hand([("match.result", True, False), ("duel.result", False, True)]) is False
    assert reported_by_hand([]) is False


def test_d16_extensions_count_only_the_rulings_undone_per_match() -> None:
    extended = [(2, 7, 1, 6), (2, 8, 1, 6), (2, 7, 1, 6), (2, 7, 1, 9)]
    assert net_extensions(extended, frozenset({6})) == [(2, 7, 6, 2), (2, 8, 6, 1)]
    assert net_extensions([(2, 7, 1, 6), (2, 7, -1, 6)], frozenset({6})) == []


def test_d16_undoing_a_penalty_duel_of_a_match_reported_by_hand_decides_nothing_anew() -> None:
    by_hand = at_table({1: "B", 2: "B", 3: "B"}, result="b")
    assert undo({12}, by_hand, 3, by_hand=True) == [DuelResult(2, 7, 3, None)]


def test_d16_undoing_leaves_a_player_who_dropped_dropped() -> None:
    undoing = Undoing(
        numbers=frozenset({20}), matches={}, duels=(), by_hand=frozenset(), extensions=(), carried=(),
        players=(PlayerView("A", Status.disqualified, None, (), dropped=True),),
    )  # fmt: skip
    assert plan_undo(undoing) == [StatusChanged("A", Status.dropped, None)]


def test_d16_d17_undoing_gives_back_active_while_a_disqualification_still_waits() -> None:
    waiting = LiveRuling(30, ("warning3", "disqualification"), pending=True)
    undoing = Undoing(
        numbers=frozenset({20}), matches={}, duels=(), by_hand=frozenset(), extensions=(), carried=(),
        players=(PlayerView("A", Status.ejected, None, (waiting,)),),
    )  # fmt: skip
    assert plan_undo(undoing) == [StatusChanged("A", Status.active, None)]
