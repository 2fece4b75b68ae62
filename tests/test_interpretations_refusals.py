"""What the engine refuses to decide, and what it tells the judge: the field at fault and
why, word for word (D8, D11, D13, D16, D18, D19 of guideline/CATALOG.md). A judge at the desk
reads these sentences (translated where a screen shows them) and corrects the record by them,
so a refusal that names another field or says something else is a changed rule.

Read `refused(rec("A", SLOW, intentional="yes"))` as "the message when a judge records slow
play against A and answers the question 'intentional?' with something other than yes or no".
"""

from __future__ import annotations

from typing import Any

import pytest

from shinpan.engine import RecordError, ScenarioError, replay
from shinpan.engine.facts import check_deviation_changes
from support import BOOK, play, rec

SLOW = "ingame.slow-play"
MIXED = "deck.lost-or-mixed-cards"
RECORDING = "deck.decklist-recording"
ADVICE = "players.advice"


def refused(*events: str | dict[str, Any]) -> str:
    """What replaying these events says when it refuses them."""
    with pytest.raises(ScenarioError) as caught:
        play(*events)
    return str(caught.value)


def refused_players(*players: str) -> str:
    """What replaying an event of these participants says when it refuses the list."""
    with pytest.raises(ScenarioError) as caught:
        replay(BOOK, {"players": list(players), "events": []})
    return str(caught.value)


# --- The facts: only the questions the infraction asks, each answered in its kind


def test_a_fact_the_infraction_does_not_ask_is_refused_naming_those_it_asks() -> None:
    assert refused(rec("A", SLOW, mixed_into="B")) == (
        "event 0: facts.mixed_into: this infraction does not take this fact (it takes: intentional)"
    )
    assert refused(rec("A", "draft.standard", mixed_into="B")) == (
        "event 0: facts.mixed_into: this infraction does not take this fact (it takes: kind, same_as_previous)"
    )


def test_a_fact_for_an_infraction_that_asks_nothing_is_refused_saying_it_takes_none() -> None:
    assert refused(rec("A", "ingame.cards-off-table", intentional=True)) == (
        "event 0: facts.intentional: this infraction does not take this fact (it takes: none)"
    )


def test_d13_a_yes_or_no_question_takes_true_or_false_only() -> None:
    assert refused(rec("A", SLOW, intentional="yes")) == "event 0: facts.intentional: must be true or false"


@pytest.mark.parametrize("name", ["  ", 5], ids=["blank", "a number"])
def test_d8_a_fact_that_names_someone_takes_a_name(name: object) -> None:
    assert refused(rec("A", MIXED, mixed_into=name)) == "event 0: facts.mixed_into: must be a non-empty name"


def test_d18_a_fact_that_names_someone_holds_no_invisible_character() -> None:
    assert refused(rec("A", MIXED, mixed_into="B\u200b")) == (
        "event 0: facts.mixed_into: an id cannot hold invisible characters (U+200B); type it again without them"
    )


def test_d5_a_kind_the_infraction_does_not_list_is_refused_naming_its_kinds() -> None:
    assert refused(rec("A", "draft.standard", kind="singing")) == (
        "event 0: facts.kind: unknown kind 'singing' (kinds: talking, noise, too-fast, too-slow, other)"
    )


# --- D8, D18 Who is named: a participant, not the player the record is against


def test_d8_cards_mixed_into_the_deck_of_someone_not_playing_are_refused() -> None:
    assert refused(rec("A", MIXED, mixed_into="X")) == "event 0: facts.mixed_into: 'X' is not a participant"


def test_d8_advice_blamed_on_the_advisor_alone_needs_the_advisor() -> None:
    assert refused(rec("A", ADVICE, advisor_only=True)) == (
        "event 0: facts.advisor_only: name the advisor (facts.advisor)"
    )


@pytest.mark.parametrize(
    ("event", "says"),
    [
        (rec("A", MIXED, mixed_into="Ａ"), "facts.mixed_into: names the same player as the record"),
        (rec("A", RECORDING, recorded_by=" A"), "facts.recorded_by: names the same player as the record"),
        (
            rec("A", ADVICE, advisor="A"),
            "facts.advisor: the advisor cannot be the player who received the advice",
        ),
    ],
    ids=["mixed_into", "recorded_by", "advisor"],
)
def test_d8_d18_the_other_person_of_a_record_is_not_its_player_in_any_spelling(
    event: dict[str, Any], says: str
) -> None:
    assert refused(event) == f"event 0: {says}"


# --- D4, D11, D16, D19 Penalties: the judge's own only for general.uncategorized; deviations


def test_d19_only_general_uncategorized_takes_the_judge_s_penalties() -> None:
    assert refused(rec("A", SLOW, penalties=["notice"])) == (
        "event 0: penalties: only a violation outside every category takes chosen penalties; use a deviation"
    )


def test_d11_a_deviation_without_a_written_reason_is_refused() -> None:
    assert refused(rec("A", SLOW, deviation=(["notice"], "  "))) == (
        "event 0: deviation.reason: a deviation needs a written reason (D11)"
    )


GUIDELINE_S_OWN = (
    "deviation.penalties: these are the guideline's own penalties: a deviation gives other "
    "penalties (to keep the guideline's, leave the ruling as it is)"
)


@pytest.mark.parametrize(
    "event",
    [
        rec("A", SLOW, deviation=(["warning1"], "x")),
        rec("A", "general.uncategorized", penalties=["warning1"], deviation=(["warning1"], "x")),
    ],
    ids=["ladder", "uncategorized"],
)
def test_d16_a_deviation_to_the_penalties_the_record_gives_anyway_is_refused(event: dict[str, Any]) -> None:
    assert refused(event) == f"event 0: {GUIDELINE_S_OWN}"


def test_d16_a_deviation_that_would_change_nothing_says_which_penalties_it_keeps() -> None:
    with pytest.raises(RecordError) as back_to_itself:
        check_deviation_changes(["warning1"], ["notice"], ["notice"])
    assert str(back_to_itself.value) == (
        "deviation.penalties: the ruling has these penalties already: nothing would change"
    )
    with pytest.raises(RecordError) as guideline_s:
        check_deviation_changes(["warning1"], ["warning1"], ["warning1"])
    assert str(guideline_s.value) == GUIDELINE_S_OWN


@pytest.mark.parametrize(
    "event",
    [
        rec("A", "ingame.disagreement-on-facts", facts_determined=True, deviation=(["notice"], "x")),
        rec("A", ADVICE, advisor="a parent", advisor_only=True, deviation=(["notice"], "x")),
    ],
    ids=["facts-determined", "outside-advisor-alone"],
)
def test_d13_d16_a_record_that_penalises_nobody_cannot_be_deviated(event: dict[str, Any]) -> None:
    assert refused(event) == (
        "event 0: deviation: a record that penalises nobody cannot be deviated; record a violation outside every category"
    )


# --- D18 The participants: ids that can be told apart, each once


@pytest.mark.parametrize(
    ("players", "says"),
    [
        (["A", " "], "a participant id cannot be empty"),
        (["A", "x" * 65], "a participant id has at most 64 characters"),
        (["A", "P\u200b1"], "a participant id cannot hold invisible characters (U+200B)"),
        (["B", "Ｂ"], "participant 'B' and 'Ｂ' are the same participant (D18)"),
        (["B", "C", "B"], "participant 'B' is listed twice"),
    ],
    ids=["empty", "too-long", "invisible", "alike", "twice"],
)
def test_d18_a_list_of_participants_that_cannot_be_is_refused_saying_why(
    players: list[str], says: str
) -> None:
    assert refused_players(*players) == f"scenario: {says}"


def test_d18_an_id_of_exactly_the_longest_length_is_a_participant() -> None:
    longest = "x" * 64
    rulings = replay(BOOK, {"players": [longest], "events": [{"player": longest, "infraction": SLOW}]})
    assert [r["player"] for r in rulings] == [longest]
