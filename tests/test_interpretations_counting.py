"""D1, D2, D5, D8 and D16 of guideline/CATALOG.md: which offence a ruling is, counted by the
pure engine; a record that penalises two players, and corrections that count again.

Read `play(rec("A", MIXED, mixed_into="B"))` as "a judge records that A's cards were mixed
into B's deck", as in tests/test_interpretations.py.
"""

from __future__ import annotations

import pytest

from shinpan.engine import Record, RecordError, ScenarioError, decide, explain, replay
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from support import BOOK, brief, missed, one, play, rec, void

MIXED = "deck.lost-or-mixed-cards"
RECORDING = "deck.decklist-recording"


# --- D8 One record, two players: each is counted in their own history


def test_d8_a_record_that_penalises_two_players_gives_each_their_first_offence() -> None:
    rulings = play(rec("A", MIXED, mixed_into="B"))
    assert [(r["player"], r["offense"]) for r in rulings] == [("A", 1), ("B", 1)]


def test_d8_the_second_player_s_count_is_their_own_not_the_recorded_player_s() -> None:
    rulings = play("A: " + MIXED, "A: " + MIXED, rec("A", MIXED, mixed_into="B"))
    assert [(r["player"], r["offense"]) for r in rulings[2:]] == [("A", 3), ("B", 1)]
    rulings = play("B: " + RECORDING, rec("A", RECORDING, recorded_by="B"))
    assert [brief(r)[1:4] for r in rulings[1:]] == [("A", RECORDING, 1), ("B", RECORDING, 2)]


def test_d8_advice_from_another_participant_penalises_both_and_advisor_only_the_advisor() -> None:
    both = play(rec("A", "players.advice", advisor="B"))
    assert [(r["player"], r["offense"]) for r in both] == [("A", 1), ("B", 1)]
    advisor = play(rec("A", "players.advice", advisor="B", advisor_only=True))
    assert [(r["player"], r["offense"]) for r in advisor] == [("B", 1)]


def test_d8_an_outside_advisor_removes_the_advisor_from_the_venue_and_still_counts_the_player() -> None:
    rulings = play(rec("A", "players.advice", advisor="a parent"))
    assert [(r["player"], r["offense"], r["effects"]) for r in rulings] == [("A", 1, ["venue_removal"])]


# --- D1, D7 What counts: live offences of the same rule, not the follow-ups of deadlines


def test_d1_a_follow_up_of_a_missed_deadline_does_not_raise_the_next_offence() -> None:
    rulings = play("A: pregame.tardiness", missed(0), "A: pregame.tardiness")
    assert [(r["event"], r["offense"], r["follow_up"]) for r in rulings] == [
        (0, 1, False),
        (1, 1, True),
        (2, 2, False),
    ]


def test_d1_a_record_that_gives_no_offence_is_not_counted() -> None:
    rulings = play(
        rec("A", "ingame.disagreement-on-facts", facts_determined=True),
        "A: ingame.disagreement-on-facts",
    )
    assert [(r["offense"], r["penalties"]) for r in rulings] == [(None, []), (1, ["warning1"])]


# --- D2 Past the last step: the last step again, the offence still counted


def test_d2_every_offence_past_the_last_step_gives_the_last_step() -> None:
    rulings = play(*["A: ingame.cards-off-table"] * 5)
    steps = [(r["offense"], r["penalties"]) for r in rulings]
    assert steps[2:] == [(3, steps[2][1]), (4, steps[2][1]), (5, steps[2][1])]
    assert "past the last step" in rulings[4]["explanation"]
    assert "past the last step" not in rulings[2]["explanation"]


# --- D5 Draft: counted per draft, the same kind as before in that draft


def test_d5_each_draft_has_its_own_count() -> None:
    rulings = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D2", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
    )
    assert [r["offense"] for r in rulings] == [1, 1, 2]


def test_d5_the_same_kind_as_before_in_the_draft_adds_the_step_s_extra() -> None:
    same = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="talking"),
    )
    other = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise"),
    )
    assert len(same[1]["penalties"]) > len(other[1]["penalties"])
    assert other[1]["penalties"] == same[1]["penalties"][: len(other[1]["penalties"])]


def test_d5_the_judge_s_yes_or_no_overrides_the_kind() -> None:
    said_no = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="talking", same_as_previous=False),
    )
    said_yes = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="noise", same_as_previous=True),
    )
    by_kind = play(
        rec("A", "draft.standard", draft="D1", kind="talking"),
        rec("A", "draft.standard", draft="D1", kind="talking"),
    )
    assert said_yes[1]["penalties"] == by_kind[1]["penalties"] != said_no[1]["penalties"]


# --- D16 Corrections: as if never recorded, or recorded with the head judge's penalties

SLOW, SHUFFLE, EXTRA, INSUFFICIENT, OFF_TABLE = (
    "ingame.slow-play",
    "pregame.shuffle-cut",
    "ingame.extra-cards-drawn",
    "pregame.insufficient-shuffle",
    "ingame.cards-off-table",
)
UNRELATED = "general.unrelated-warnings"
EXCLUSION = "draft.exclusion"


def live(rulings: list[dict[str, object]], rule: str) -> list[tuple[object, object]]:
    return [(r["event"], r["offense"]) for r in rulings if r["rule"] == rule and not r["voided"]]


def test_d16_offence_numbers_already_given_never_change_after_a_void() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SLOW}", f"A: {SLOW}", void(0))
    assert [(r["offense"], r["voided"]) for r in rulings] == [(1, True), (2, False), (3, False)]


def test_d16_voiding_the_warning_that_completed_three_ids_voids_its_additional_ruling() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", void(2))
    assert live(rulings, UNRELATED) == []
    assert one(rulings, rule=UNRELATED)["voided"] is True


def test_d16_voiding_a_warning_of_another_player_leaves_the_additional_ruling() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"B: {SLOW}", void(3))
    assert live(rulings, UNRELATED) == [(2, 1)]


def test_d16_a_void_that_leaves_three_ids_keeps_the_additional_ruling() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {SLOW}", void(3))
    assert live(rulings, UNRELATED) == [(2, 1)]


def test_d16_a_void_adds_the_ruling_the_corrected_history_calls_for_with_the_next_offence() -> None:
    # the fourth id fires the second additional ruling; voiding the third id's record voids
    # the first one and the fourth id now completes the set with the next offence number
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {INSUFFICIENT}", void(2))
    assert live(rulings, UNRELATED) == [(3, 2)]


def test_d16_deviating_a_warning_to_a_notice_takes_away_the_additional_ruling() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", rec("A", EXTRA, deviation=(["notice"], "a first event")))
    assert live(rulings, UNRELATED) == []


def test_d16_a_deviation_keeps_the_offence_and_counts_for_the_next_ruling() -> None:
    rulings = play(rec("A", SLOW, deviation=(["notice"], "first day")), f"A: {SLOW}")
    assert [(r["offense"], r["penalties"]) for r in rulings] == [
        (1, ["notice"]),
        (2, ["warning1", "duel_loss"]),
    ]


def test_d16_a_void_of_a_draft_exclusion_s_cause_voids_the_exclusion() -> None:
    rulings = play(
        rec("A", "draft.standard", deviation=(["draft_warning", "draft_exclusion"], "again")), void(0)
    )
    assert live(rulings, EXCLUSION) == []
    assert all(r["voided"] for r in rulings)


def test_d16_a_void_lets_the_next_exclusion_be_the_first_again() -> None:
    rulings = play(
        rec("A", "draft.excessive", draft="D1"),
        rec("A", "draft.excessive", draft="D1"),
        void(1),
        rec("A", "draft.excessive", draft="D2"),
    )
    assert live(rulings, EXCLUSION) == [(3, 1)]


def test_d16_two_draft_exclusions_in_one_deviation_give_two_exclusion_rulings() -> None:
    rulings = play(
        rec("A", "draft.standard", deviation=(["draft_exclusion", "draft_exclusion"], "twice over"))
    )
    assert live(rulings, EXCLUSION) == [(0, 1), (0, 2)]


# --- D13 Facts determined: no penalty, no offence, still a ruling of the record


def test_d13_a_disagreement_whose_facts_were_determined_is_a_ruling_with_no_offence() -> None:
    record = Record("A", "ingame.disagreement-on-facts", {"facts_determined": True}, draft="D2")
    (made,) = decide(BOOK, record, {}, {"A"}, ref="event 3", first_number=5)
    assert (made.player, made.rule, made.offense, made.penalties) == (
        "A",
        "ingame.disagreement-on-facts",
        None,
        (),
    )
    assert (made.draft, made.ref, made.number) == ("D2", "event 3", 5)
    assert made.explanation.reasons == ("facts_determined",)
    assert made.explanation.source == BOOK.infractions["ingame.disagreement-on-facts"].source


# --- A scenario that cannot be replayed says which event and why, as written


def test_a_refused_record_names_its_event_its_field_and_keeps_what_was_written() -> None:
    with pytest.raises(ScenarioError) as caught:
        play(rec("A", "no.{such}"))
    assert str(caught.value) == "event 0: infraction: unknown infraction 'no.{such}'"
    assert (caught.value.index, caught.value.message) == (0, "infraction: unknown infraction 'no.{such}'")


def test_a_scenario_that_is_not_one_is_refused_as_a_whole() -> None:
    with pytest.raises(ScenarioError) as caught:
        replay(BOOK, [])
    assert str(caught.value) == "scenario: a scenario must be a JSON object with 'players' and 'events'"
    assert caught.value.index is None


def test_a_record_the_engine_cannot_decide_names_the_field_and_fills_in_the_words() -> None:
    with pytest.raises(RecordError) as caught:
        decide(BOOK, Record("Z", "ingame.slow-play"), {}, {"A"})
    assert caught.value.field == "player"
    assert str(caught.value) == "player: 'Z' is not a participant"
    assert caught.value.message == "'Z' is not a participant"


# --- D5 The explanation says why the extra penalty came, or did not


def second_draft_offence(**facts: object) -> str:
    first = decide(BOOK, Record("A", "draft.standard", {"kind": "talking"}, draft="D1"), {}, {"A"})[0]
    again = decide(
        BOOK, Record("A", "draft.standard", {"kind": "talking", **facts}, draft="D1"), {"A": [first]}, {"A"}
    )
    return explain(BOOK, again[0], "ja")


HEAD = "標準のドラフトの違反の2回目です。このドラフトで、これまでに同じ違反が1回記録されています。"
LINE = "(ガイドラインの記載は「2)ドラ警→前と同一ならドラ除外」)。"


def test_d5_the_judge_s_yes_is_told_as_the_judge_s_call() -> None:
    assert second_draft_offence(same_as_previous=True) == (
        HEAD + "ジャッジが前回と同じ違反だと判断したため、ドラフトよりの除外が加わります。"
        "罰則はドラフト警告とドラフトよりの除外です" + LINE
    )


def test_d5_the_judge_s_no_is_told_as_the_judge_s_call() -> None:
    assert second_draft_offence(same_as_previous=False) == (
        HEAD + "ジャッジが前回と同じ違反ではないと判断したため、ドラフトよりの除外は加わりません。"
        "罰則はドラフト警告です" + LINE
    )


def test_d5_the_same_kind_is_told_as_the_kind() -> None:
    assert second_draft_offence() == (
        HEAD + "前回と同じ種類の違反のため、ドラフトよりの除外が加わります。"
        "罰則はドラフト警告とドラフトよりの除外です" + LINE
    )


def test_d1_a_second_offence_in_the_main_event_is_told_without_the_draft() -> None:
    rulings = decide(BOOK, Record("A", "ingame.slow-play"), {}, {"A"}, ref="event 0")
    again = decide(BOOK, Record("A", "ingame.slow-play"), {"A": list(rulings)}, {"A"})
    assert explain(BOOK, again[0], "ja").startswith(
        "ひどく遅いプレイの2回目の違反です。これまでに同じ違反が1回記録されています(シナリオのイベント 0)。"
    )


def test_d16_a_void_carries_the_additional_ruling_the_corrected_history_now_calls_for() -> None:
    # the third id came with event 2; voided, the same id again at event 3 completes the set
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {EXTRA}", void(2))
    added = one(rulings, event=4, rule=UNRELATED)
    assert (added["player"], added["offense"], added["penalties"], added["voided"]) == (
        "A", 1, ["warning1", "duel_loss"], False,
    )  # fmt: skip
    assert live(rulings, UNRELATED) == [(4, 1)]


# --- The English explanation, as the desk shows it second


def test_d13_intent_established_is_explained_as_cheating_recorded_from_the_infraction() -> None:
    (ruling,) = play(rec("A", EXTRA, intentional=True))
    assert ruling["explanation"] == (
        "1st offence of Cheating (severe.cheating); intent was established, so it is recorded as cheating (D13); "
        "this item gives the same penalty every time (D2); recorded as Drawing extra cards; "
        "penalty: Triple Warning + Disqualification; guideline: 「警3+失」."
    )


def test_d1_a_second_offence_is_explained_with_the_earlier_one_it_counted() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SLOW}")
    assert rulings[1]["explanation"] == (
        "2nd offence of Slow play (ingame.slow-play); earlier offences counted: event 0; "
        "penalty: Single Warning + Duel loss; guideline: 「2)警1+デ敗」."
    )


def test_d11_a_deviation_is_explained_with_the_guideline_s_penalty_and_the_reason() -> None:
    (ruling,) = play(rec("A", SLOW, deviation=(["notice"], "first event")))
    assert ruling["explanation"] == (
        "1st offence of Slow play (ingame.slow-play); the head judge deviated from the guideline; "
        "guideline gives Single Warning; reason: first event; penalty: Notice; guideline: 「1)警1」."
    )


def test_d3_the_additional_ruling_is_explained_with_the_unrelated_warnings_it_counted() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}")
    assert one(rulings, rule=UNRELATED)["explanation"] == (
        "1st offence of Additional penalty for three or more unrelated single warnings (general.unrelated-warnings); "
        "additional penalty: three or more unrelated single warnings (D3); unrelated warnings: Slow play, "
        "Shuffle or cut procedure error, Drawing extra cards; penalty: Single Warning + Duel loss; "
        "guideline: 「●関連しない3つ以上の警1をうけた場合の追加罰則  警1+デ敗」."
    )


# --- D16 Corrections that are refused, saying why


def test_d16_a_second_void_of_the_same_record_is_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        play(f"A: {SLOW}", void(0), void(0))
    assert str(caught.value) == "event 2: event 0 is already voided"
    with pytest.raises(ScenarioError) as follow_up:
        play("A: pregame.tardiness", missed(0), void(0), void(1))
    assert str(follow_up.value) == "event 3: event 1 is already voided"


def test_d16_a_void_of_a_void_is_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        play(f"A: {SLOW}", void(0), void(1))
    assert str(caught.value) == "event 2: 'void' points at event 1, which is itself a void"
    assert caught.value.index == 2


# --- D4, D19 The judge's own penalty, and the records refused around it


@pytest.mark.parametrize(
    ("event", "says"),
    [
        (
            rec("A", "general.uncategorized"),
            "event 0: penalties: a violation outside every category needs the penalties the judge chose (D4)",
        ),
        (
            rec("A", "general.uncategorized", penalties=["warning1"], facts_determined=True),
            "event 0: facts: a violation outside every category takes no facts",
        ),
        (
            rec("A", UNRELATED),
            "event 0: infraction: this ruling is applied by shinpan itself (D3), not recorded",
        ),
        (
            rec("A", "general.uncategorized", penalties=["bogus"]),
            "event 0: penalties[0]: unknown penalty component 'bogus'",
        ),
    ],
)
def test_d4_d19_records_refused_around_the_judge_s_own_penalty_say_why(
    event: dict[str, object], says: str
) -> None:
    with pytest.raises(ScenarioError) as caught:
        play(event)
    assert str(caught.value) == says


def test_d4_the_judge_s_own_penalty_counts_toward_nothing_and_says_so() -> None:
    book = Rulebook(default_guideline())
    record = Record("A", "general.uncategorized", penalties=("warning1", "duel_loss"), draft="D3")
    (made,) = decide(book, record, {}, {"A"}, ref="event 0")
    assert (made.offense, made.penalties, made.draft, made.ref, made.discretion) == (
        None, ("warning1", "duel_loss"), "D3", "event 0", True,
    )  # fmt: skip
    assert made.explanation.source == book.uncategorized.source
    assert explain(book, made, "en") == (
        "Violations outside any category (general.uncategorized); outside every category: the judge chooses "
        "the penalty; it counts toward nothing (D4); penalty: Single Warning + Duel loss; "
        "guideline: 「●特定のカテゴリに入らない違反.  適切なペナルティ,累積しない.」."
    )


def test_d7_a_remedy_with_a_deadline_is_explained_with_its_penalty_remedy_and_deadline() -> None:
    book = Rulebook(default_guideline())
    (made,) = decide(book, Record("A", "players.no-life-record"), {}, {"A"})
    assert explain(book, made, "en") == (
        "1st offence of No means of recording life totals (players.no-life-record); this item gives the same "
        "penalty every time (D2); penalty: Caution; guideline: 「注+2分内にライフ記録道具の準備」; remedy: Prepare "
        "a tool for recording life totals within 2 minutes; deadline: within 2 minutes (Prepare a tool for "
        "recording life totals within 2 minutes.)."
    )


# --- D7, D16 A missed deadline that cannot be: refused, saying why


@pytest.mark.parametrize(
    ("events", "says"),
    [
        (
            [f"A: {SLOW}", void(0), missed(1)],
            "event 2: 'missed' points at event 1, which records no infraction",
        ),
        (
            ["A: pregame.tardiness", void(0), missed(0)],
            "event 2: 'missed' points at event 0, which was voided",
        ),
        ([f"A: {SLOW}", missed(0)], "event 1: event 0 has no remedy deadline left to miss"),
        (
            ["A: pregame.tardiness", missed(0), missed(0), missed(0)],
            "event 3: event 0 has no remedy deadline left to miss",
        ),
        ([missed(5)], "event 0: 'missed' points at event 5, which is not an earlier event"),
        ([{"missed": "x"}], "event 0: 'missed' must be the index of an earlier event"),
        ([void(0)], "event 0: 'void' points at event 0, which is not an earlier event"),
    ],
)
def test_d7_d16_a_missed_deadline_or_void_that_cannot_be_is_refused_saying_why(
    events: list[str | dict[str, object]], says: str
) -> None:
    with pytest.raises(ScenarioError) as caught:
        play(*events)
    assert str(caught.value) == says
