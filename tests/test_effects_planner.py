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
