"""D1–D15 of guideline/CATALOG.md, each as small scenarios: what the judges recorded, the rulings.

Read `play("A: ingame.slow-play", missed(0), void(0))` as "a judge records slow play against A,
the deadline of event 0 passes, event 0 is voided". `brief` turns a ruling into
(event, player, rule, offence, penalties).
"""

from __future__ import annotations

import pytest

from shinpan.engine import Record, ScenarioError, decide, replay
from shinpan.engine.event_rules import (
    Lands,
    Role,
    Status,
    duel_loss_lands,
    match_loss_lands,
    may,
    may_be_paired,
    needs_investigation,
    scope_problems,
    status_after,
    status_of,
)
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from support import BOOK, brief, missed, of, one, play, rec, scenario, shared, void

SLOW = "ingame.slow-play"
UNRELATED = "general.unrelated-warnings"
INTENT_ENTRIES = sorted(i.id for i in BOOK.guideline.infractions if i.intent_becomes)


def offenses(rulings: list[dict[str, object]], rule: str, player: str = "A") -> list[object]:
    return [r["offense"] for r in of(rulings, rule=rule, player=player)]


# --- D1 Counting: per player, per infraction id, within one event; voided rulings count for nothing


def test_d1_each_player_has_their_own_count() -> None:
    rulings = play("A: ingame.slow-play", "B: ingame.slow-play", "A: ingame.slow-play", "B: ingame.slow-play")
    assert [brief(r) for r in rulings] == [
        (0, "A", SLOW, 1, ["warning1"]),
        (1, "B", SLOW, 1, ["warning1"]),
        (2, "A", SLOW, 2, ["warning1", "duel_loss"]),
        (3, "B", SLOW, 2, ["warning1", "duel_loss"]),
    ]


def test_d1_each_infraction_id_has_its_own_count() -> None:
    rulings = play("A: ingame.cards-off-table", "A: ingame.improper-notes", "A: ingame.cards-off-table")
    assert [(r["rule"], r["offense"], r["penalties"]) for r in rulings] == [
        ("ingame.cards-off-table", 1, ["notice"]),
        ("ingame.improper-notes", 1, ["notice"]),
        ("ingame.cards-off-table", 2, ["warning1"]),
    ]


def test_d1_a_voided_ruling_counts_for_nothing() -> None:
    rulings = play("A: ingame.slow-play", "A: ingame.slow-play", void(0), "A: ingame.slow-play")
    assert [(r["event"], r["offense"], r["voided"]) for r in rulings] == [
        (0, 1, True),
        (1, 2, False),
        (3, 2, False),
    ]
    assert one(rulings, event=3)["penalties"] == ["warning1", "duel_loss"]


def test_d1_a_voided_ruling_stays_in_the_list_marked_voided() -> None:
    rulings = play("A: ingame.slow-play", void(0))
    assert len(rulings) == 1
    assert rulings[0]["voided"] is True


def test_d1_other_players_offences_never_count() -> None:
    rulings = play(*(["B: ingame.looking-at-extra-cards"] * 3), "A: ingame.looking-at-extra-cards")
    assert brief(rulings[-1]) == (3, "A", "ingame.looking-at-extra-cards", 1, ["notice"])


# --- D2 Past the last step: the last step repeats; "all" items give one penalty, still counted


def test_d2_the_last_step_applies_to_every_later_offence() -> None:
    rulings = play(*(["A: ingame.slow-play"] * 5))
    assert [(r["offense"], r["penalties"]) for r in rulings] == [
        (1, ["warning1"]),
        (2, ["warning1", "duel_loss"]),
        (3, ["warning2", "match_loss"]),
        (4, ["warning2", "match_loss"]),
        (5, ["warning2", "match_loss"]),
    ]


def test_d2_an_all_item_gives_the_same_penalty_and_counts_offence_numbers() -> None:
    rulings = play(*(["A: deck.illegal-deck"] * 3))
    assert [(r["offense"], r["penalties"]) for r in rulings] == [
        (n, ["warning2", "match_loss"]) for n in (1, 2, 3)
    ]


@pytest.mark.parametrize("rule", [i.id for i in BOOK.guideline.infractions])
def test_d2_every_ladder_climbs_one_step_per_offence_then_repeats(rule: str) -> None:
    inf = BOOK.infractions[rule]
    times = len(inf.ladder) + 2
    rulings = of(play(*([f"A: {rule}"] * times)), rule=rule, player="A")
    assert [r["offense"] for r in rulings] == list(range(1, times + 1))
    for n, ruling in enumerate(rulings, start=1):
        step = inf.ladder[min(n, len(inf.ladder)) - 1]
        assert ruling["penalties"] == step.penalties, f"offence {n}"
        assert set(ruling["effects"]) == {*inf.effects, *step.effects}, f"offence {n}"


# --- D3 Unrelated warnings: the 3rd, 4th… distinct infraction id with a warning1 adds warning1 + duel_loss


def test_d3_the_third_unrelated_warning_adds_warning1_and_duel_loss() -> None:
    rulings = play("A: pregame.shuffle-cut", "A: ingame.slow-play", "A: pregame.first-player-draw")
    extra = one(rulings, rule=UNRELATED)
    assert brief(extra) == (2, "A", UNRELATED, 1, ["warning1", "duel_loss"])
    assert extra["needs_head_judge"] is True


def test_d3_fires_once_for_each_new_id_from_the_third_on() -> None:
    rulings = play(
        "A: pregame.shuffle-cut",
        "A: ingame.slow-play",
        "A: pregame.first-player-draw",
        "A: ingame.extra-cards-drawn",
        "A: pregame.insufficient-shuffle",
    )
    assert [(r["event"], r["offense"]) for r in of(rulings, rule=UNRELATED)] == [(2, 1), (3, 2), (4, 3)]


def test_d3_the_same_id_twice_is_related_and_does_not_fire() -> None:
    rulings = play("A: ingame.slow-play", "A: ingame.slow-play", "A: pregame.shuffle-cut")
    assert not of(rulings, rule=UNRELATED)


def test_d3_a_known_id_again_after_firing_does_not_fire_again() -> None:
    rulings = play(
        "A: pregame.shuffle-cut", "A: ingame.slow-play", "A: pregame.first-player-draw", "A: ingame.slow-play"
    )
    assert [r["event"] for r in of(rulings, rule=UNRELATED)] == [2]


def test_d3_notices_and_cautions_do_not_count() -> None:
    rulings = play(
        "A: ingame.cards-off-table",  # notice
        "A: ingame.improper-notes",  # notice
        "A: pregame.slow-start",  # caution
        "A: pregame.shuffle-cut",  # warning1
        "A: ingame.slow-play",  # warning1
    )
    assert not of(rulings, rule=UNRELATED)


def test_d3_double_and_triple_warnings_do_not_count() -> None:
    rulings = play(
        "A: pregame.shuffle-cut",
        "A: ingame.slow-play",
        "A: deck.illegal-decklist",  # warning2 + match_loss
        "A: deck.illegal-deck",  # warning2 + match_loss
        "A: severe.collusion",  # warning3 + disqualification
    )
    assert not of(rulings, rule=UNRELATED)


def test_d3_a_warning1_reached_by_escalation_counts() -> None:
    rulings = play(
        "A: ingame.looking-at-extra-cards",  # notice
        "A: ingame.looking-at-extra-cards",  # warning1
        "A: ingame.slow-play",
        "A: pregame.shuffle-cut",
    )
    assert [r["event"] for r in of(rulings, rule=UNRELATED)] == [3]


def test_d3_uncategorized_warnings_do_not_count() -> None:
    rulings = play(
        rec("A", "general.uncategorized", penalties=["warning1"]),
        rec("A", "general.uncategorized", penalties=["warning1"]),
        "A: ingame.slow-play",
        "A: pregame.shuffle-cut",
    )
    assert not of(rulings, rule=UNRELATED)


def test_d3_standard_draft_violations_do_not_count() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
        "A: ingame.slow-play",
        "A: pregame.shuffle-cut",
    )
    assert not of(rulings, rule=UNRELATED)


def test_d3_the_additional_warning1_is_not_an_unrelated_warning_itself() -> None:
    rulings = play(
        "A: pregame.shuffle-cut",
        "A: ingame.slow-play",
        "A: pregame.first-player-draw",
        "A: ingame.extra-cards-drawn",
    )
    assert [r["offense"] for r in of(rulings, rule=UNRELATED)] == [1, 2]
    # The engine's own account of the 4th: the four recorded ids, not the additional rule.
    records = [
        "pregame.shuffle-cut",
        "ingame.slow-play",
        "pregame.first-player-draw",
        "ingame.extra-cards-drawn",
    ]
    live: list = []
    for rule in records:
        made = decide(BOOK, Record("A", rule), {"A": live}, {"A"})
        live += made
    related = [r for r in live if r.rule == UNRELATED][-1].explanation.related
    assert list(related) == records


def test_d3_voided_warnings_leave_the_set() -> None:
    rulings = play(
        "A: pregame.shuffle-cut",
        "A: ingame.slow-play",
        void(1),
        "A: pregame.first-player-draw",  # the set is {shuffle-cut, first-player-draw}
        "A: ingame.extra-cards-drawn",  # now three again
    )
    assert [r["event"] for r in of(rulings, rule=UNRELATED)] == [4]


def test_d3_voiding_the_third_warning_voids_its_additional_ruling() -> None:
    rulings = play("A: pregame.shuffle-cut", "A: ingame.slow-play", "A: pregame.first-player-draw", void(2))
    assert one(rulings, rule=UNRELATED)["voided"] is True


def test_d3_counts_per_player() -> None:
    rulings = play("A: pregame.shuffle-cut", "B: ingame.slow-play", "A: pregame.first-player-draw")
    assert not of(rulings, rule=UNRELATED)


def test_d3_a_second_subject_can_reach_three() -> None:
    rulings = play(
        "B: pregame.shuffle-cut",
        "B: ingame.slow-play",
        rec("A", "deck.lost-or-mixed-cards", mixed_into="B"),
    )
    assert brief(one(rulings, rule=UNRELATED)) == (2, "B", UNRELATED, 1, ["warning1", "duel_loss"])


def test_d3_the_warning1_of_an_excluded_drafter_counts() -> None:
    # draft.exclusion is counted per event (D6), not per draft (D5): its warning1 counts.
    rulings = play(
        "A: pregame.shuffle-cut",
        "A: ingame.slow-play",
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="talking"),
    )
    assert [r["rule"] for r in of(rulings, event=3)] == ["draft.standard", "draft.exclusion", UNRELATED]


# --- D4 Uncategorized: the judge picks the components; counts toward no counter and no other rule


def test_d4_the_judge_chooses_and_nothing_is_counted() -> None:
    rulings = play(
        rec("A", "general.uncategorized", penalties=["caution"]),
        rec("A", "general.uncategorized", penalties=["warning1", "duel_loss"]),
        "A: ingame.slow-play",
    )
    assert [brief(r) for r in rulings] == [
        (0, "A", "general.uncategorized", None, ["caution"]),
        (1, "A", "general.uncategorized", None, ["warning1", "duel_loss"]),
        (2, "A", SLOW, 1, ["warning1"]),
    ]
    assert [r["needs_head_judge"] for r in rulings] == [False, True, True]


def test_d4_needs_the_judges_penalties() -> None:
    with pytest.raises(ScenarioError, match="event 0: penalties"):
        play("A: general.uncategorized")


def test_d4_a_chosen_exclusion_from_the_draft_triggers_nothing() -> None:
    # D4 ("counts toward no … other rule") is read as taking precedence over D6 here.
    rulings = play(rec("A", "general.uncategorized", penalties=["draft_exclusion"]))
    assert [r["rule"] for r in rulings] == ["general.uncategorized"]


def test_d4_the_unrelated_warnings_rule_is_not_recorded_by_hand() -> None:
    with pytest.raises(ScenarioError, match="event 0"):
        play(f"A: {UNRELATED}")


# --- D5 Draft: draft.standard counted per player per draft, never with the main event


def test_d5_counted_per_draft() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D2", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
    )
    assert [(r["event"], r["offense"], r["penalties"]) for r in rulings] == [
        (0, 1, ["draft_warning"]),
        (1, 1, ["draft_warning"]),
        (2, 2, ["draft_warning"]),
    ]


def test_d5_without_a_draft_named_it_is_the_events_one_draft() -> None:
    rulings = play(rec("A", "draft.standard", kind="noise"), rec("A", "draft.standard", kind="noise"))
    assert offenses(rulings, "draft.standard") == [1, 2]
    assert offenses(rulings, "draft.exclusion") == [1]


def test_d5_the_same_kind_twice_excludes_from_the_draft() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="too-fast"),
        rec("A", "draft.standard", draft="D1", kind="too-fast"),
    )
    assert one(rulings, event=1, rule="draft.standard")["penalties"] == ["draft_warning", "draft_exclusion"]


def test_d5_another_kind_the_second_time_is_a_draft_warning_only() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
    )
    assert [r["penalties"] for r in rulings] == [["draft_warning"], ["draft_warning"]]


def test_d5_the_previous_one_is_that_of_the_same_draft() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D2", kind="noise"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
    )
    assert one(rulings, event=2)["penalties"] == ["draft_warning"]


def test_d5_without_kinds_it_is_not_the_same() -> None:
    rulings = play(rec("A", "draft.standard", draft="D1"), rec("A", "draft.standard", draft="D1"))
    assert [r["penalties"] for r in rulings] == [["draft_warning"], ["draft_warning"]]


def test_d5_the_judge_says_it_is_the_same_although_the_kinds_differ() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise", same_as_previous=True),
    )
    assert one(rulings, event=1, rule="draft.standard")["penalties"] == ["draft_warning", "draft_exclusion"]
    assert offenses(rulings, "draft.exclusion") == [1]


def test_d5_the_judge_says_it_is_not_the_same_although_the_kinds_match() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="talking", same_as_previous=False),
    )
    assert [r["rule"] for r in rulings] == ["draft.standard", "draft.standard"]
    assert rulings[1]["penalties"] == ["draft_warning"]


def test_d5_the_third_offence_excludes_whatever_the_kinds() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
        rec("A", "draft.standard", draft="D1", kind="too-slow", same_as_previous=False),
        rec("A", "draft.standard", draft="D1", kind="other"),
    )
    assert [(r["offense"], r["penalties"]) for r in of(rulings, rule="draft.standard")] == [
        (1, ["draft_warning"]),
        (2, ["draft_warning"]),
        (3, ["draft_warning", "draft_exclusion"]),
        (4, ["draft_warning", "draft_exclusion"]),
    ]


def test_d5_a_voided_violation_is_not_the_previous_one() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        void(0),
        rec("A", "draft.standard", draft="D1", kind="talking"),
    )
    assert brief(rulings[-1]) == (2, "A", "draft.standard", 1, ["draft_warning"])


def test_d5_never_mixes_with_the_main_event() -> None:
    rulings = play(
        "A: ingame.slow-play",
        "A: ingame.looking-at-extra-cards",
        rec("A", "draft.standard", draft="D1", kind="talking"),
        "A: ingame.slow-play",
    )
    assert brief(one(rulings, rule="draft.standard")) == (2, "A", "draft.standard", 1, ["draft_warning"])
    assert offenses(rulings, SLOW) == [1, 2]
    assert one(rulings, rule="draft.standard")["needs_head_judge"] is False


@pytest.mark.parametrize("kind", ["talking", "noise", "too-fast", "too-slow"])
def test_d5_its_kinds(kind: str) -> None:
    assert BOOK.infractions["draft.standard"].kinds == ["talking", "noise", "too-fast", "too-slow", "other"]
    rulings = play(rec("A", "draft.standard", kind=kind), rec("A", "draft.standard", kind=kind))
    assert offenses(rulings, "draft.exclusion") == [1]


def test_d5_an_unknown_kind_is_an_error() -> None:
    with pytest.raises(ScenarioError, match=r"event 0: facts\.kind"):
        play(rec("A", "draft.standard", kind="singing"))


# --- D6 Draft exclusion: every draft_exclusion triggers draft.exclusion, counted per event


def test_d6_a_second_excessive_violation_excludes_and_triggers_the_exclusion() -> None:
    rulings = play(rec("A", "draft.excessive", draft="D1"), rec("A", "draft.excessive", draft="D1"))
    assert [brief(r) for r in rulings] == [
        (0, "A", "draft.excessive", 1, ["warning1", "duel_loss"]),
        (1, "A", "draft.excessive", 2, ["draft_exclusion"]),
        (1, "A", "draft.exclusion", 1, ["warning1"]),
    ]


def test_d6_exclusions_are_counted_across_drafts() -> None:
    same_kind_twice = [rec("A", "draft.standard", draft=d, kind="noise") for d in ("D1", "D1", "D2", "D2")]
    rulings = play(*same_kind_twice, rec("A", "draft.exclusion", draft="D3"))
    assert [(r["event"], r["offense"], r["penalties"]) for r in of(rulings, rule="draft.exclusion")] == [
        (1, 1, ["warning1"]),
        (3, 2, ["warning1", "match_loss"]),
        (4, 3, ["warning2", "ejection"]),
    ]


def test_d6_a_deviation_to_exclusion_triggers_it_too() -> None:
    rulings = play(
        rec("A", "draft.excessive", draft="D1", deviation=(["draft_exclusion"], "seat manipulation"))
    )
    assert [r["rule"] for r in rulings] == ["draft.excessive", "draft.exclusion"]


def test_d6_voiding_the_violation_voids_the_exclusion() -> None:
    rulings = play(
        rec("A", "draft.excessive"), rec("A", "draft.excessive"), void(1), rec("A", "draft.excessive")
    )
    assert [r["voided"] for r in of(rulings, rule="draft.exclusion")] == [True, False]
    assert offenses(rulings, "draft.exclusion") == [1, 1]


def test_d6_the_exclusion_explains_why() -> None:
    rulings = play(rec("A", "draft.excessive"), rec("A", "draft.excessive"))
    assert "excluded from the draft (D6)" in one(rulings, rule="draft.exclusion")["explanation"]


# --- D7 Remedy not done in time: a follow-up on the same offence, never raising its number


def test_d7_marked_cards_without_a_pattern_cost_nothing_unless_not_replaced() -> None:
    rulings = play("A: cards.marked-no-pattern", missed(0))
    assert [(r["offense"], r["penalties"], r["follow_up"]) for r in rulings] == [
        (1, [], False),
        (1, ["match_loss"], True),
    ]
    assert rulings[1]["needs_head_judge"] is True


def test_d7_a_follow_up_keeps_the_offence_number_and_does_not_raise_it() -> None:
    rulings = play("A: cards.marked-no-pattern", missed(0), "A: cards.marked-no-pattern", missed(2))
    assert [(r["event"], r["offense"], r["follow_up"]) for r in rulings] == [
        (0, 1, False),
        (1, 1, True),
        (2, 2, False),
        (3, 2, True),
    ]


def test_d7_no_life_record_two_minutes_adopts_the_opponents_claim() -> None:
    rulings = play("A: players.no-life-record", missed(0))
    assert [(r["offense"], r["penalties"], r["effects"], r["follow_up"]) for r in rulings] == [
        (1, ["caution"], [], False),
        (1, [], ["opponent_claim_adopted"], True),
    ]
    assert rulings[1]["needs_head_judge"] is False


def test_d7_early_withdrawal_not_back_by_the_end_of_the_round_is_withdrawn() -> None:
    rulings = play("A: ingame.early-withdrawal", missed(0), "A: ingame.early-withdrawal")
    assert [(r["offense"], r["penalties"], r["effects"], r["follow_up"]) for r in rulings] == [
        (1, ["warning2", "match_loss"], [], False),
        (1, [], ["withdrawn"], True),
        (2, ["warning2", "match_loss"], [], False),
    ]


def test_d7_a_deadline_passes_once() -> None:
    with pytest.raises(ScenarioError, match="event 2: event 0 has no remedy deadline left"):
        play("A: players.no-life-record", missed(0), missed(0))


def test_d7_a_remedy_without_a_consequence_cannot_be_missed() -> None:
    with pytest.raises(ScenarioError, match="event 1"):
        play("A: cards.marked-pattern", missed(0))


def test_d7_a_follow_up_on_another_players_record_is_theirs() -> None:
    rulings = play("A: pregame.tardiness", "B: pregame.tardiness", missed(1))
    assert brief(rulings[-1]) == (2, "B", "pregame.tardiness", 1, ["duel_loss"])


def test_d7_voiding_a_follow_up_leaves_the_offence() -> None:
    rulings = play("A: cards.marked-no-pattern", missed(0), void(1))
    assert [(r["follow_up"], r["voided"]) for r in rulings] == [(False, False), (True, True)]


# --- D8 Several subjects: each from their own count


def test_d8_mixed_cards_penalise_both_from_their_own_counts() -> None:
    rulings = play("B: deck.lost-or-mixed-cards", rec("A", "deck.lost-or-mixed-cards", mixed_into="B"))
    assert [brief(r) for r in rulings] == [
        (0, "B", "deck.lost-or-mixed-cards", 1, ["warning1", "duel_loss"]),
        (1, "A", "deck.lost-or-mixed-cards", 1, ["warning1", "duel_loss"]),
        (1, "B", "deck.lost-or-mixed-cards", 2, ["warning2", "match_loss"]),
    ]


def test_d8_mixed_into_a_non_participant_is_an_error() -> None:
    with pytest.raises(ScenarioError, match=r"event 0: facts\.mixed_into"):
        play(rec("A", "deck.lost-or-mixed-cards", mixed_into="Z"))


def test_d8_decklist_recorded_by_another_participant_penalises_both() -> None:
    rulings = play("B: deck.decklist-recording", rec("A", "deck.decklist-recording", recorded_by="B"))
    assert [brief(r) for r in of(rulings, event=1)] == [
        (1, "A", "deck.decklist-recording", 1, ["warning1"]),
        (1, "B", "deck.decklist-recording", 2, ["warning2", "match_loss"]),
    ]


def test_d8_decklist_recorded_by_a_non_participant_penalises_the_player_only() -> None:
    rulings = play(rec("A", "deck.decklist-recording", recorded_by="a friend in the stands"))
    assert [brief(r) for r in rulings] == [(0, "A", "deck.decklist-recording", 1, ["warning1"])]


def test_d8_decklist_recorded_by_the_player_themself_is_refused_d18() -> None:
    # D18: recorded_by may name anyone but the recorded player (leave it out instead)
    with pytest.raises(ScenarioError, match=r"event 0: facts\.recorded_by"):
        play(rec("A", "deck.decklist-recording", recorded_by="A"))
    rulings = play(rec("A", "deck.decklist-recording"))
    assert [brief(r) for r in rulings] == [(0, "A", "deck.decklist-recording", 1, ["warning1"])]


def test_d8_advice_penalises_both_from_their_own_counts() -> None:
    rulings = play("B: players.advice", rec("A", "players.advice", advisor="B"))
    assert [brief(r) for r in of(rulings, event=1)] == [
        (1, "A", "players.advice", 1, ["warning1"]),
        (1, "B", "players.advice", 2, ["warning1", "duel_loss"]),
    ]


def test_d8_the_judge_may_penalise_the_advisor_only() -> None:
    rulings = play(rec("A", "players.advice", advisor="B", advisor_only=True))
    assert [brief(r) for r in rulings] == [(0, "B", "players.advice", 1, ["warning1"])]


def test_d8_a_non_participant_advisor_is_removed_from_the_venue() -> None:
    rulings = play(rec("A", "players.advice", advisor="a spectator"))
    assert [brief(r) for r in rulings] == [(0, "A", "players.advice", 1, ["warning1"])]
    assert rulings[0]["effects"] == ["venue_removal"]


def test_d8_a_non_participant_advisor_alone_to_blame_only_leaves_the_venue() -> None:
    rulings = play(rec("A", "players.advice", advisor="a spectator", advisor_only=True), "A: players.advice")
    assert [(r["offense"], r["penalties"], r["effects"]) for r in rulings] == [
        (None, [], ["venue_removal"]),
        (1, ["warning1"], []),
    ]


def test_d8_advice_needs_an_advisor_other_than_the_player() -> None:
    with pytest.raises(ScenarioError, match=r"event 0: facts\.advisor"):
        play(rec("A", "players.advice", advisor="A"))
    with pytest.raises(ScenarioError, match=r"event 0: facts\.advisor_only"):
        play(rec("A", "players.advice", advisor_only=True))


# --- D9 Tardiness: at once, at 10 minutes, at the end of the match; no escalation


def test_d9_late_at_the_start_then_ten_minutes_then_the_end_of_the_match() -> None:
    rulings = play("A: pregame.tardiness", missed(0), missed(0))
    assert [(r["offense"], r["penalties"], r["effects"], r["follow_up"]) for r in rulings] == [
        (1, ["warning1", "duel_loss"], [], False),
        (1, ["duel_loss"], [], True),
        (1, [], ["withdrawn"], True),
    ]


def test_d9_tardiness_does_not_escalate() -> None:
    rulings = play(*(["A: pregame.tardiness"] * 3))
    assert [(r["offense"], r["penalties"]) for r in rulings] == [
        (n, ["warning1", "duel_loss"]) for n in (1, 2, 3)
    ]


def test_d9_the_ten_minute_loss_does_not_count_as_an_offence() -> None:
    rulings = play("A: pregame.tardiness", missed(0), "A: pregame.tardiness")
    assert offenses(rulings, "pregame.tardiness") == [1, 1, 2]


# --- D10 Applying losses; D14 ejection and disqualification


def test_d10_a_duel_loss_lands_on_the_current_duel_or_the_next() -> None:
    assert duel_loss_lands(duel_in_progress=True) is Lands.current
    assert duel_loss_lands(duel_in_progress=False) is Lands.next


def test_d10_a_match_loss_lands_on_the_current_match_or_the_next() -> None:
    assert match_loss_lands(match_ended=False) is Lands.current
    assert match_loss_lands(match_ended=True) is Lands.next


def test_d14_ejected_disqualified_and_withdrawn_players_are_not_paired() -> None:
    assert status_after(["warning2", "ejection"]) is Status.ejected
    assert status_after(["warning3", "disqualification"]) is Status.disqualified
    assert status_after(["withdrawn"]) is Status.withdrawn
    assert status_after(["warning1", "duel_loss", "match_loss"]) is Status.active
    assert may_be_paired(Status.active)
    for status in (Status.withdrawn, Status.ejected, Status.disqualified):
        assert not may_be_paired(status)


def test_d14_the_heavier_status_wins_in_any_order() -> None:
    assert status_of([["withdrawn"], ["warning3", "disqualification"]]) is Status.disqualified
    assert status_of([["warning3", "disqualification"], ["withdrawn"]]) is Status.disqualified
    assert status_of([["ejection"], ["withdrawn"]]) is Status.ejected
    assert status_after(["withdrawn"], Status.ejected) is Status.ejected
    assert status_of([]) is Status.active


def test_d14_status_from_replayed_rulings() -> None:
    rulings = play(
        "A: pregame.tardiness", missed(0), missed(0), "B: cards.unapproved-proxy", "C: severe.cheating"
    )
    status = {p: status_of([*r["penalties"], *r["effects"]] for r in of(rulings, player=p)) for p in "ABC"}
    assert status == {"A": Status.withdrawn, "B": Status.ejected, "C": Status.disqualified}


def test_d14_disqualification_needs_an_investigation_report() -> None:
    assert needs_investigation(["warning3", "disqualification"])
    assert not needs_investigation(["warning2", "ejection"])


# --- D11 Authority: warning1 and above waits for the head judge; only the head judge deviates


@pytest.mark.parametrize(
    ("items", "needs"),
    [
        (["A: ingame.looking-at-extra-cards"], False),  # notice
        (["A: pregame.slow-start"], False),  # caution
        ([rec("A", "draft.standard", kind="talking")], False),  # draft_warning
        (["A: cards.marked-no-pattern"], False),  # nothing
        (["A: ingame.slow-play"], True),  # warning1
        (["A: deck.illegal-deck"], True),  # warning2
        (["A: severe.collusion"], True),  # warning3
        (["A: pregame.tardiness", missed(0)], True),  # duel_loss alone (the follow-up)
        (["A: cards.marked-no-pattern", missed(0)], True),  # match_loss alone
        (["A: ingame.early-withdrawal", missed(0)], False),  # withdrawn alone: an effect
    ],
)
def test_d11_warning1_and_above_waits_for_the_head_judge(items: list[object], needs: bool) -> None:
    assert play(*items)[-1]["needs_head_judge"] is needs


def test_d11_a_per_event_setting_may_raise_the_threshold() -> None:
    assert BOOK.needs_head_judge(("warning1",))
    assert not BOOK.needs_head_judge(("warning1",), threshold="warning2")
    assert BOOK.needs_head_judge(("duel_loss",), threshold="warning2")
    assert not BOOK.needs_head_judge(("draft_warning", "draft_exclusion"))


def test_d11_a_deviation_replaces_the_penalty_and_the_offence_still_counts() -> None:
    rulings = play(
        rec("A", SLOW, deviation=(["notice"], "clock stopped by the judge")), "A: ingame.slow-play"
    )
    first, second = rulings
    assert (first["offense"], first["penalties"], first["guideline_penalties"]) == (
        1,
        ["notice"],
        ["warning1"],
    )
    assert first["deviation_reason"] == "clock stopped by the judge"
    assert "clock stopped by the judge" in first["explanation"]
    assert (second["offense"], second["penalties"]) == (2, ["warning1", "duel_loss"])


def test_d11_a_deviation_needs_a_written_reason() -> None:
    with pytest.raises(ScenarioError, match=r"event 0: .*reason"):
        play(rec("A", SLOW, deviation=(["notice"], "  ")))
    with pytest.raises(ScenarioError, match="event 0"):
        replay(BOOK, scenario({"player": "A", "infraction": SLOW, "deviation": {"penalties": ["notice"]}}))


def test_d11_a_deviation_uses_the_catalogs_codes() -> None:
    with pytest.raises(ScenarioError, match=r"event 0: deviation.penalties\[0\]"):
        play(rec("A", SLOW, deviation=(["warning4"], "typo")))


def test_d11_only_the_head_judge_confirms_and_deviates() -> None:
    for action in ("confirm", "deviate", "void", "appeal"):
        assert may(Role.head_judge, action)
        for role in (Role.floor_judge, Role.scorekeeper, Role.viewer):
            assert not may(role, action), (role, action)
    assert may(Role.floor_judge, "record")
    assert not may(Role.scorekeeper, "record")
    assert not may(Role.viewer, "record")


# --- D12 Judge's discretion: unsporting conduct 2), time_extension


def ruling_of(*rules: str) -> list:
    live: list = []
    for rule in rules:
        live += decide(BOOK, Record("A", rule), {"A": live}, {"A"})
    return live


def test_d12_the_second_unsporting_conduct_is_the_judges_call() -> None:
    made = ruling_of(*(["severe.unsporting-conduct"] * 3))
    assert [(r.offense, r.penalties, r.discretion) for r in made] == [
        (1, ("warning1",), False),
        (2, ("warning2", "ejection"), True),
        (3, ("warning2", "ejection"), True),
    ]


def test_d12_time_extension_is_the_judges_call() -> None:
    slow = ruling_of(SLOW, SLOW)
    assert [(r.effects, r.discretion) for r in slow] == [(("time_extension",), True), ((), False)]
    assert all(r.discretion for r in ruling_of(*(["pregame.slow-start"] * 3)))


def test_d12_elsewhere_the_guideline_decides() -> None:
    for rule in ("deck.illegal-deck", "severe.disobeying-judge", "players.wrong-opponent"):
        assert not any(r.discretion for r in ruling_of(rule, rule, rule)), rule


# --- D13 Conditions: intent established → cheating; facts determined → no penalty, no offence


def test_d13_the_entries_that_take_intent_are_those_the_catalog_marks() -> None:
    catalog = shared("guideline", "CATALOG.md").read_text(encoding="utf-8")
    marked = sorted(
        line.split("`")[1]
        for line in catalog.splitlines()
        if line.startswith("| `")
        and any(m in line for m in ("intent not certain", "not stalling", "not stacking"))
    )
    assert marked == INTENT_ENTRIES
    assert all(BOOK.infractions[i].intent_becomes == "severe.cheating" for i in INTENT_ENTRIES)


@pytest.mark.parametrize("rule", INTENT_ENTRIES)
def test_d13_intent_established_is_cheating(rule: str) -> None:
    rulings = play(rec("A", rule, intentional=True), f"A: {rule}", rec("A", rule, intentional=True))
    assert [(r["rule"], r["offense"], r["penalties"]) for r in rulings] == [
        ("severe.cheating", 1, ["warning3", "disqualification"]),
        (rule, 1, BOOK.infractions[rule].ladder[0].penalties),
        ("severe.cheating", 2, ["warning3", "disqualification"]),
    ]
    assert rulings[0]["recorded_as"] == rule
    assert "recorded_as" not in rulings[1]


@pytest.mark.parametrize("rule", INTENT_ENTRIES)
def test_d13_intent_not_established_is_the_entry_itself(rule: str) -> None:
    rulings = play(rec("A", rule, intentional=False))
    assert (rulings[0]["rule"], rulings[0]["offense"]) == (rule, 1)


def test_d13_intent_counts_with_cheating_recorded_as_such() -> None:
    rulings = play("A: severe.cheating", rec("A", SLOW, intentional=True))
    assert offenses(rulings, "severe.cheating") == [1, 2]


@pytest.mark.parametrize("rule", ["deck.illegal-deck", "players.wrong-opponent", "severe.cheating"])
def test_d13_intent_on_an_entry_that_does_not_take_it_is_an_error(rule: str) -> None:
    with pytest.raises(ScenarioError, match=r"event 0: facts\.intentional"):
        play(rec("A", rule, intentional=True))


def test_d13_facts_determined_no_penalty_and_no_offence() -> None:
    rulings = play(
        rec("A", "ingame.disagreement-on-facts", facts_determined=True),
        "A: ingame.disagreement-on-facts",
        rec("A", "ingame.disagreement-on-facts", facts_determined=False),
    )
    assert [(r["offense"], r["penalties"], r["needs_head_judge"]) for r in rulings] == [
        (None, [], False),
        (1, ["warning1"], True),
        (2, ["warning1", "duel_loss"], True),
    ]


# --- D15 Scope: REL 3, head judge level 2 or above


def test_d15_the_shipped_guideline_is_for_rel_3_with_a_level_2_head_judge() -> None:
    g = default_guideline()
    assert (g.rel, g.min_head_judge_level) == (3, 2)
    assert scope_problems(g, 3, 2) == []
    assert scope_problems(g, 3, 4) == []


def test_d15_another_rel_or_a_lower_head_judge_is_refused() -> None:
    g = default_guideline()
    assert len(scope_problems(g, 2, 2)) == 1
    assert "REL 3" in scope_problems(g, 2, 2)[0]
    assert len(scope_problems(g, 3, 1)) == 1
    assert "level 1" in scope_problems(g, 3, 1)[0]
    assert len(scope_problems(g, 3, None)) == 1
    assert len(scope_problems(g, 1, None)) == 2


def test_the_default_rulebook_is_the_shipped_guideline() -> None:
    assert Rulebook(default_guideline()).rule_ids() == BOOK.rule_ids()
