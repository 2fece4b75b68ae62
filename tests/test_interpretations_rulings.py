"""Each kind of ruling the engine makes, whole: what it says, and where it comes from (D1–D13,
D16, D18 of guideline/CATALOG.md). The ledger stores every field of a ruling and the desk,
the slips and the explanations read them back, so each is compared in full here: the
penalties and what the guideline gives, the draft, the ruling that caused it, the way later
explanations cite it (``ref``), its sources and remedies.

Decisions that depend on a step's plan are made with a fresh ``Rulebook`` (the shared one
keeps each plan once made, see docs/mutation.md).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest
import yaml

from shinpan.engine import Deviation, Explanation, Record, RecordError, Ruling, Trigger, decide, follow_up
from shinpan.engine.facts import normalized
from shinpan.engine.hanging import effects_after_deviation, remedies_after_deviation, restored_effects
from shinpan.files.guidelines import default_guideline, default_guideline_text
from shinpan.guideline import Rulebook
from shinpan.guideline.load import parse_guideline
from support import BOOK, play, rec

SLOW, SHUFFLE, EXTRA = "ingame.slow-play", "pregame.shuffle-cut", "ingame.extra-cards-drawn"
UNRELATED, EXCLUSION, UNCATEGORIZED = "general.unrelated-warnings", "draft.exclusion", "general.uncategorized"
SLOW_REMEDY = (
    ("1回目の警告の後は、ジャッジの判断で、制限時間の終了後に3ターンの延長を行えます。",),
    ("After the 1st warning, the judge may extend the match by 3 turns after time is called.",),
)


def fresh() -> Rulebook:
    return Rulebook(default_guideline())


def source(rule: str, offense: int = 1) -> tuple[str, str]:
    """(the step's source, the item's source) as the guideline writes them."""
    inf = BOOK.infractions[rule]
    return inf.ladder[offense - 1].source, inf.source


def recorded(book: Rulebook, *records: Record) -> list[Ruling]:
    """Player A's rulings, one record after the other, each cited as ``event N``."""
    made: list[Ruling] = []
    for n, record in enumerate(records):
        made += decide(book, record, {"A": made}, {"A", "B"}, ref=f"event {n}")
    return made


def edited_book(edit: Any) -> Rulebook:
    """A rulebook of the shipped guideline as an organiser edited it (the file is checked)."""
    data = yaml.safe_load(default_guideline_text())
    edit(data)
    return Rulebook(parse_guideline(yaml.safe_dump(copy.deepcopy(data), allow_unicode=True)))


# --- D1, D2, D12 A ruling on the ladder


def test_d1_d12_a_first_offence_of_slow_play_in_full() -> None:
    step_source, item_source = source(SLOW)
    assert decide(fresh(), Record("A", SLOW), {}, {"A"}, ref="event 0") == (
        Ruling(
            "A",
            SLOW,
            1,
            ("warning1",),
            effects=("time_extension",),
            needs_head_judge=True,  # a single warning waits for the head judge (D11)
            guideline_penalties=("warning1",),
            discretion=True,  # the time extension is at the judge's discretion (D12)
            explanation=Explanation(
                reasons=("ladder",),
                step_source=step_source,
                source=item_source,
                remedies=SLOW_REMEDY[0],
                remedies_en=SLOW_REMEDY[1],
            ),
            ref="event 0",
            number=1,
        ),
    )


def test_d5_the_same_kind_again_in_the_draft_adds_the_exclusion_and_says_so() -> None:
    book = fresh()
    talking = Record("A", "draft.standard", {"kind": "talking"}, draft="D1")
    second = recorded(book, talking, talking)[1]
    assert (second.offense, second.penalties, second.guideline_penalties) == (
        2,
        ("draft_warning", "draft_exclusion"),
        ("draft_warning", "draft_exclusion"),
    )
    assert (second.needs_head_judge, second.discretion, second.kind, second.draft) == (
        False,
        False,
        "talking",
        "D1",
    )
    assert second.explanation.reasons == ("ladder", "same_as_previous_kind")
    assert second.explanation.same_as_previous is True
    assert second.explanation.counted == ("event 0",)


def test_d5_a_ladder_without_a_same_as_before_step_says_nothing_of_it() -> None:
    (made,) = decide(fresh(), Record("A", SLOW), {}, {"A"})
    assert made.explanation.same_as_previous is None


def test_d13_an_intentional_record_is_decided_as_the_item_it_becomes_saying_so_first() -> None:
    (made,) = decide(fresh(), Record("A", SLOW, {"intentional": True}), {}, {"A"})
    assert (made.rule, made.recorded_as) == ("severe.cheating", SLOW)
    assert made.explanation.reasons == ("intent_established", "ladder", "all_offenses")
    assert made.explanation.source == BOOK.infractions["severe.cheating"].source


# --- D3, D6 The additional rulings shinpan adds itself


def test_d3_the_unrelated_warnings_ruling_in_full() -> None:
    made = recorded(fresh(), Record("A", SLOW), Record("A", SHUFFLE), Record("A", EXTRA, draft="D1"))
    rule = BOOK.unrelated_warnings
    assert made[3] == Ruling(
        "A",
        UNRELATED,
        1,
        ("warning1", "duel_loss"),
        needs_head_judge=True,
        trigger=Trigger.unrelated_warnings,
        guideline_penalties=("warning1", "duel_loss"),
        draft="D1",  # the draft of the record that caused it
        explanation=Explanation(
            reasons=("unrelated_warnings",),
            step_source=rule.source,
            source=rule.source,
            related=(SLOW, SHUFFLE, EXTRA),
        ),
        ref="event 2",  # cited as the record that caused it
        number=4,
        cause=3,
    )


def test_d6_the_draft_exclusion_ruling_in_full() -> None:
    excessive = Record("A", "draft.excessive", draft="D2")
    made = recorded(fresh(), excessive, excessive)
    step_source, item_source = source(EXCLUSION)
    remedy = BOOK.infractions[EXCLUSION].remedies[0].text
    assert made[2] == Ruling(
        "A",
        EXCLUSION,
        1,
        ("warning1",),
        needs_head_judge=True,
        trigger=Trigger.draft_exclusion,
        guideline_penalties=("warning1",),
        draft="D2",
        explanation=Explanation(
            reasons=("draft_exclusion", "ladder"),
            step_source=step_source,
            source=item_source,
            remedies=(remedy.ja,),
            remedies_en=(remedy.en,),
        ),
        ref="event 1",
        number=3,
        cause=2,
    )


def test_d3_d6_every_additional_ruling_a_record_calls_for_is_cited_as_that_record() -> None:
    """The extra cards deviated to a single warning and an exclusion from the draft: the
    third unrelated warning, the exclusion, and the fourth unrelated warning that the
    exclusion's single warning is, each cited as the record."""
    on_purpose = Deviation(("warning1", "draft_exclusion"), "drew on purpose")
    made = recorded(BOOK, Record("A", SLOW), Record("A", SHUFFLE), Record("A", EXTRA, deviation=on_purpose))
    assert [(r.number, r.rule, r.cause, r.ref) for r in made[2:]] == [
        (3, EXTRA, None, "event 2"),
        (4, UNRELATED, 3, "event 2"),
        (5, EXCLUSION, 3, "event 2"),
        (6, UNRELATED, 5, "event 2"),
    ]


def test_d4_d19_a_judge_s_exclusion_from_the_draft_outside_every_category_adds_nothing() -> None:
    made = decide(BOOK, Record("A", UNCATEGORIZED, penalties=("draft_exclusion",)), {}, {"A"})
    assert [(r.rule, r.penalties) for r in made] == [(UNCATEGORIZED, ("draft_exclusion",))]


# --- D4, D11 The judge's own penalty, and the head judge's deviation


def test_d4_an_uncategorized_ruling_in_full() -> None:
    rule = BOOK.uncategorized
    made = decide(
        BOOK, Record("A", UNCATEGORIZED, penalties=("warning1",), draft="D1"), {}, {"A"}, ref="event 0"
    )
    assert made == (
        Ruling(
            "A",
            UNCATEGORIZED,
            None,
            ("warning1",),
            needs_head_judge=True,
            guideline_penalties=("warning1",),
            discretion=True,
            draft="D1",
            explanation=Explanation(reasons=("uncategorized",), step_source=rule.source, source=rule.source),
            ref="event 0",
            number=1,
        ),
    )


def test_d4_d11_the_head_judge_may_deviate_from_the_judge_s_own_penalty() -> None:
    (made,) = play(rec("A", UNCATEGORIZED, penalties=["warning1"], deviation=(["notice"], "a first event")))
    assert (made["penalties"], made["guideline_penalties"], made["deviation_reason"]) == (
        ["notice"],
        ["warning1"],
        "a first event",
    )
    assert made["needs_head_judge"] is False


def test_d11_d16_a_warning_deviated_to_a_notice_takes_the_step_s_own_effect_and_remedy() -> None:
    (made,) = decide(fresh(), Record("A", SLOW, deviation=Deviation(("notice",), "first event")), {}, {"A"})
    assert (made.penalties, made.guideline_penalties, made.effects) == (("notice",), ("warning1",), ())
    assert made.needs_head_judge is False
    assert (made.explanation.remedies, made.explanation.remedies_en) == ((), ())
    assert made.explanation.reasons == ("ladder", "deviation")


def test_d11_d16_a_deviation_that_keeps_one_of_the_step_s_penalties_keeps_its_effect_and_remedy() -> None:
    heavier = Deviation(("warning1", "duel_loss"), "slow on purpose")
    (made,) = decide(fresh(), Record("A", SLOW, deviation=heavier), {}, {"A"})
    assert (made.penalties, made.effects, made.needs_head_judge) == (
        ("warning1", "duel_loss"),
        ("time_extension",),
        True,
    )
    assert (made.explanation.remedies, made.explanation.remedies_en) == SLOW_REMEDY


def test_d16_a_ruling_without_a_step_has_nothing_hanging_on_it() -> None:
    """An additional ruling (its rule is no item of the ladders) and a record that counted
    no offence keep what they have through a deviation."""
    assert effects_after_deviation(BOOK, UNRELATED, 1, ("x",), ("notice",)) == ("x",)
    assert effects_after_deviation(BOOK, SLOW, None, ("time_extension",), ("notice",)) == ("time_extension",)
    assert remedies_after_deviation(BOOK, UNRELATED, 1, ("notice",)) == ()
    assert remedies_after_deviation(BOOK, SLOW, None, ("notice",)) == ()
    assert restored_effects(BOOK, UNRELATED, 1, ()) == ()


# --- D7, D9 A missed deadline


def test_d7_d9_a_missed_deadline_s_ruling_in_full() -> None:
    (late,) = decide(BOOK, Record("A", "pregame.tardiness", draft="D1"), {}, {"A"}, ref="event 0")
    ten_minutes = late.dues[0]
    assert follow_up(BOOK, late, ten_minutes, ref="event 1", number=2) == Ruling(
        "A",
        "pregame.tardiness",
        1,  # the same offence, not counted again
        ("duel_loss",),
        follow_up=True,
        needs_head_judge=True,
        trigger=Trigger.deadline_missed,
        guideline_penalties=("duel_loss",),
        draft="D1",
        explanation=Explanation(
            reasons=("deadline_missed",),
            counted=("event 0",),
            step_source=late.explanation.step_source,
            source=late.explanation.source,
            remedies=(ten_minutes.remedy,),
            remedies_en=(ten_minutes.remedy_en,),
        ),
        ref="event 1",
        number=2,
        cause=1,
    )


def test_d7_a_missed_deadline_of_a_ruling_not_yet_cited_cites_it_as_nothing() -> None:
    (late,) = decide(BOOK, Record("A", "pregame.tardiness"), {}, {"A"})
    assert follow_up(BOOK, late, late.dues[0]).explanation.counted == ("",)


# --- Numbers: the event's rulings in the order they are made


def test_rulings_are_numbered_after_the_highest_number_of_the_players_histories() -> None:
    assert [r.number for r in decide(BOOK, Record("A", SLOW), {}, {"A", "B"})] == [1]
    b_s = recorded(BOOK, Record("A", SLOW), Record("A", SLOW))
    made = decide(BOOK, Record("A", SLOW), {"A": [], "B": b_s}, {"A", "B"})
    assert [r.number for r in made] == [3]
    not_yet_numbered = [replace(r, number=None) for r in decide(BOOK, Record("B", SLOW), {}, {"B"})]
    assert [r.number for r in decide(BOOK, Record("A", SLOW), {"B": not_yet_numbered}, {"A", "B"})] == [1]


# --- D8 Who is penalised: a participant named in the facts is penalised, not removed


@pytest.mark.parametrize(
    "record",
    [
        Record("A", "deck.lost-or-mixed-cards", {"mixed_into": "B"}),
        Record("A", "deck.decklist-recording", {"recorded_by": "B"}),
        Record("A", "deck.decklist-recording", {"recorded_by": "someone else"}),
        Record("A", "players.advice", {"advisor": "B"}),
        Record("A", "players.advice", {"advisor": "B", "advisor_only": True}),
    ],
    ids=["mixed-into", "recorded-by", "recorded-by-outsider", "advisor", "advisor-only"],
)
def test_d8_no_one_leaves_the_venue_unless_an_outside_advisor_gave_the_advice(record: Record) -> None:
    made = decide(BOOK, record, {}, {"A", "B"})
    assert all("venue_removal" not in r.effects for r in made)


def test_d8_a_guideline_without_a_removal_from_the_venue_cannot_decide_an_outside_advisor() -> None:
    def no_removal(data: dict[str, Any]) -> None:
        data["effects"] = [e for e in data["effects"] if e.get("acts_as") != "venue_removal"]

    book = edited_book(no_removal)
    with pytest.raises(RecordError) as caught:
        decide(book, Record("A", "players.advice", {"advisor": "a parent"}), {}, {"A"})
    assert (
        str(caught.value) == "facts.advisor: this guideline has no effect that removes someone from the venue"
    )


# --- D3 A guideline that leaves the threshold out counts three


def test_d3_a_guideline_without_a_threshold_adds_the_ruling_at_the_third_unrelated_warning() -> None:
    def no_threshold(data: dict[str, Any]) -> None:
        for rule in data["general_rules"]:
            rule.pop("threshold", None)

    book = edited_book(no_threshold)
    assert book.unrelated_warnings.threshold is None
    made = recorded(book, Record("A", SLOW), Record("A", SHUFFLE))
    assert [r.rule for r in made] == [SLOW, SHUFFLE]
    made = recorded(book, Record("A", SLOW), Record("A", SHUFFLE), Record("A", EXTRA))
    assert [r.rule for r in made] == [SLOW, SHUFFLE, EXTRA, UNRELATED]


# --- D18 A record names its people in the form every path compares


def test_d18_a_record_against_a_wide_letter_id_is_the_participant_s() -> None:
    (made,) = decide(BOOK, Record("Ａ", SLOW), {}, {"A"})
    assert made.player == "A"


def test_d18_a_record_s_player_and_the_people_its_facts_name_are_normalized() -> None:
    record = Record(" Ａ", "deck.lost-or-mixed-cards", {"mixed_into": "Ｂ ", "kind": "Ｘ"})
    assert normalized(record) == Record("A", "deck.lost-or-mixed-cards", {"mixed_into": "B", "kind": "Ｘ"})
    named = Record("A", "players.advice", {"advisor": " B", "advisor_only": True})
    assert normalized(named) == Record("A", "players.advice", {"advisor": "B", "advisor_only": True})
    player_only = Record("Ａ", SLOW, {"intentional": True})
    assert normalized(player_only) == Record("A", SLOW, {"intentional": True})


def test_d18_a_record_already_in_that_form_is_kept_as_it_is() -> None:
    record = Record("A", "deck.lost-or-mixed-cards", {"mixed_into": "B"})
    assert normalized(record) is record
    no_facts = Record("A", SLOW)
    assert normalized(no_facts) is no_facts


# --- What an organiser's guideline may say, decided as it says


def infraction(data: dict[str, Any], rule: str) -> dict[str, Any]:
    found: dict[str, Any] = next(i for i in data["infractions"] if i["id"] == rule)
    return found


def test_d5_a_penalty_added_when_the_same_as_before_is_confirmed_as_it_needs() -> None:
    """The shipped "same as before" adds an exclusion from the draft; a guideline that adds
    a single warning instead makes the ruling wait for the head judge (D11)."""

    def warned_when_the_same(data: dict[str, Any]) -> None:
        infraction(data, "draft.standard")["ladder"][1]["if_same_as_previous"] = ["warning1"]

    book = edited_book(warned_when_the_same)
    talking = Record("A", "draft.standard", {"kind": "talking"}, draft="D1")
    first, second = recorded(book, talking, talking)
    assert (first.penalties, first.needs_head_judge) == (("draft_warning",), False)
    assert (second.penalties, second.needs_head_judge) == (("draft_warning", "warning1"), True)


def test_d5_a_first_offence_is_never_the_same_as_before() -> None:
    def excluded_when_the_same_at_once(data: dict[str, Any]) -> None:
        infraction(data, "draft.standard")["ladder"][0]["if_same_as_previous"] = ["draft_exclusion"]

    book = edited_book(excluded_when_the_same_at_once)
    (made,) = decide(book, Record("A", "draft.standard", {"kind": "talking"}, draft="D1"), {}, {"A"})
    assert made.penalties == ("draft_warning",)
    assert made.explanation.same_as_previous is False


def test_d7_every_deadline_of_a_step_opens_also_after_a_remedy_without_one() -> None:
    """Slow play's 1st offence has a remedy with no deadline (the time extension); a
    guideline that adds one with a deadline after it opens that deadline."""

    def and_within_two_minutes(data: dict[str, Any]) -> None:
        infraction(data, SLOW)["ladder"][0]["remedies"].append(
            {
                "text": {"ja": "2分以内にプレイを再開します。", "en": "Resume play within 2 minutes."},
                "source": "2分",
                "deadline": {
                    "when": "minutes",
                    "minutes": 2,
                    "text": {"ja": "期限は2分です。", "en": "Within 2 minutes."},
                    "on_miss": {"penalties": ["duel_loss"]},
                    "source": "2分",
                },
            }
        )

    book = edited_book(and_within_two_minutes)
    (made,) = decide(book, Record("A", SLOW), {}, {"A"})
    assert [(d.when, d.minutes, d.remedy_en, d.penalties) for d in made.dues] == [
        ("minutes", 2, "Resume play within 2 minutes.", ("duel_loss",))
    ]


def test_d8_a_person_the_facts_name_is_penalised_only_where_the_item_penalises_them() -> None:
    """A guideline that asks who recorded the deck list for mixed cards as well, without
    making that person a subject of the item, penalises the player alone."""

    def asks_who_recorded(data: dict[str, Any]) -> None:
        infraction(data, "deck.lost-or-mixed-cards")["questions"] = ["mixed_into", "recorded_by"]

    book = edited_book(asks_who_recorded)
    made = decide(book, Record("A", "deck.lost-or-mixed-cards", {"recorded_by": "B"}), {}, {"A", "B"})
    assert [r.player for r in made] == ["A"]
