"""The conformance contract of ``shinpan replay``: what a scenario may hold, the refusals of one
that cannot be replayed (word for word: a caller reads them), and the JSON of each ruling.

Read `refused({"players": "A", "events": []})` as "replaying this scenario is refused; what
does the refusal say". Pure: the engine and the shipped guideline alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from shinpan.engine import ScenarioError, replay
from support import BOOK, one, play, rec, scenario, void

SLOW = {"player": "A", "infraction": "ingame.slow-play"}


def refused(given: object) -> tuple[int | None, str]:
    """The event at fault (None: the scenario as a whole) and the refusal's words."""
    with pytest.raises(ScenarioError) as caught:
        replay(BOOK, given)
    return caught.value.index, str(caught.value)


def events(*given: object) -> dict[str, Any]:
    return {"players": ["A", "B", "C"], "events": list(given)}


# --- The scenario as a whole


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (["A"], "scenario: a scenario must be a JSON object with 'players' and 'events'"),
        ({"players": "A", "events": []}, "scenario: 'players' must be a list of participant ids (strings)"),
        ({"players": ["A", 1], "events": []}, "scenario: 'players' must be a list of participant ids (strings)"),
        ({"players": ["A", "B", "A"], "events": []}, "scenario: participant 'A' is listed twice"),
        (
            {"players": ["Ａ", "B", " A "], "events": []},
            "scenario: participant 'Ａ' and ' A ' are the same participant (D18)",
        ),
        ({"players": ["A", ""], "events": []}, "scenario: a participant id cannot be empty"),
        ({"players": ["A", "x" * 65], "events": []}, "scenario: a participant id has at most 64 characters"),
        ({"players": ["A"], "events": {}}, "scenario: 'events' must be a list"),
    ],
    ids=["not an object", "players not a list", "a player not a string", "listed twice", "D18 alike",
         "empty id", "long id", "events not a list"],
)  # fmt: skip
def test_a_scenario_that_cannot_be_replayed_is_refused_as_a_whole_saying_why(
    given: object, says: str
) -> None:
    """D18: participants are listed once each, as ids of 1-64 characters after NFKC; two ids
    that normalize alike are the same participant."""
    assert refused(given) == (None, says)


# --- One event


@pytest.mark.parametrize(
    ("given", "says"),
    [
        (events("A: ingame.slow-play"), "event 0: an event must be a JSON object"),
        (events(SLOW, {"missed": 0, "player": "A"}), "event 1: a 'missed' event takes no other key"),
        (events(SLOW, {"void": 0, "note": "wrong table"}), "event 1: a 'void' event takes no other key"),
        (events({**SLOW, "zzz": 1, "aaa": 2}), "event 0: unknown key 'aaa'"),
        (events({"player": 1, "infraction": "ingame.slow-play"}), "event 0: 'player' and 'infraction' must be strings"),
        (events({"player": "A", "infraction": 2}), "event 0: 'player' and 'infraction' must be strings"),
        (events({**SLOW, "facts": []}), "event 0: 'facts' must be an object"),
        (events({**SLOW, "draft": 3}), "event 0: 'draft' must be a string"),
        (events({**SLOW, "deviation": []}), "event 0: 'deviation' must be {\"penalties\": [...], \"reason\": \"...\"}"),
        (
            events({**SLOW, "deviation": {"penalties": [], "reason": "slip", "by": "HJ"}}),
            "event 0: 'deviation' must be {\"penalties\": [...], \"reason\": \"...\"}",
        ),
        (events({**SLOW, "deviation": {"penalties": ["notice"]}}), "event 0: a deviation needs a written reason (D11)"),
        (
            events({**SLOW, "deviation": {"penalties": "notice", "reason": "slip"}}),
            "event 0: 'deviation.penalties' must be a list of penalty codes",
        ),
        (
            events({**SLOW, "deviation": {"penalties": [1], "reason": "slip"}}),
            "event 0: 'deviation.penalties' must be a list of penalty codes",
        ),
        (
            events({"player": "A", "infraction": "general.uncategorized", "penalties": "warning1"}),
            "event 0: 'penalties' must be a list of penalty codes",
        ),
        (
            events({"player": "A", "infraction": "general.uncategorized", "penalties": [1]}),
            "event 0: 'penalties' must be a list of penalty codes",
        ),
    ],
    ids=["not an object", "missed and more", "void and more", "unknown keys", "player not a string",
         "infraction not a string", "facts not an object", "draft not a string", "deviation not an object",
         "deviation's own keys", "deviation without a reason", "deviation's penalties not a list",
         "deviation's penalty not a code", "penalties not a list", "a penalty not a code"],
)  # fmt: skip
def test_an_event_that_cannot_be_replayed_is_refused_naming_it(given: object, says: str) -> None:
    """D11: a deviation carries a written reason; the first unknown key is named (sorted)."""
    index, said = refused(given)
    assert said == says
    assert index == int(says.split(":")[0].removeprefix("event "))


def test_an_event_may_hold_every_key_of_the_contract_at_once() -> None:
    """D4, D11: the judge's penalties, the head judge's deviation, a draft and facts together."""
    (ruling,) = replay(
        BOOK,
        events(
            {
                "player": "A",
                "infraction": "general.uncategorized",
                "draft": "D1",
                "penalties": ["warning1"],
                "deviation": {"penalties": ["notice"], "reason": "slip"},
                "facts": {},
            }
        ),
    )
    assert (
        ruling["rule"],
        ruling["penalties"],
        ruling["guideline_penalties"],
        ruling["deviation_reason"],
    ) == (
        "general.uncategorized",
        ["notice"],
        ["warning1"],
        "slip",
    )


# --- The JSON of a ruling


def test_a_ruling_s_json_carries_the_guideline_s_line_it_applied() -> None:
    first, second = play("A: ingame.slow-play", "A: ingame.slow-play")
    assert (first["source"], second["source"]) == ("1)警1", "2)警1+デ敗")
    assert first == {
        "event": 0,
        "player": "A",
        "rule": "ingame.slow-play",
        "offense": 1,
        "penalties": ["warning1"],
        "effects": ["time_extension"],
        "follow_up": False,
        "needs_head_judge": True,
        "voided": False,
        "source": "1)警1",
        "explanation": "1st offence of Slow play (ingame.slow-play); penalty: Single Warning; effects: Time "
        "extension; guideline: 「1)警1」; remedy: After the 1st warning, the judge may extend the match by 3 "
        "turns after time is called.",
    }


# --- D16 A void, and the additional rulings worked out again


def test_d16_voiding_a_record_voids_the_unrelated_warnings_ruling_it_supported() -> None:
    """D3, D16: three unrelated warnings add warning1 + duel_loss; voiding the first of them
    leaves two, and the additional ruling is voided with it."""
    rulings = play("A: pregame.shuffle-cut", "A: ingame.slow-play", "A: pregame.first-player-draw", void(0))
    assert [(r["event"], r["rule"], r["voided"]) for r in rulings] == [
        (0, "pregame.shuffle-cut", True),
        (1, "ingame.slow-play", False),
        (2, "pregame.first-player-draw", False),
        (2, "general.unrelated-warnings", True),
    ]


def test_d16_a_void_adds_the_additional_ruling_the_corrected_history_now_supports() -> None:
    """D16: the shuffle error that made the third unrelated warning is voided; its second
    offence (still a single warning) now makes it, so the additional ruling is voided and one
    is added, carrying the correcting event; offence numbers never change."""
    rulings = play(
        "A: ingame.extra-cards-drawn",
        "A: ingame.slow-play",
        "A: pregame.shuffle-cut",
        "A: pregame.shuffle-cut",
        void(2),
        "A: pregame.first-player-draw",
    )
    assert [(r["event"], r["rule"], r["offense"], r["voided"]) for r in rulings] == [
        (0, "ingame.extra-cards-drawn", 1, False),
        (1, "ingame.slow-play", 1, False),
        (2, "pregame.shuffle-cut", 1, True),
        (2, "general.unrelated-warnings", 1, True),
        (3, "pregame.shuffle-cut", 2, False),
        (4, "general.unrelated-warnings", 1, False),
        (5, "pregame.first-player-draw", 1, False),
        (5, "general.unrelated-warnings", 2, False),
    ]
    assert one(rulings, event=4)["penalties"] == ["warning1", "duel_loss"]


def test_replaying_without_explanations_leaves_them_out() -> None:
    (ruling,) = replay(BOOK, scenario(rec("A", "ingame.slow-play")), explanations=False)
    assert "explanation" not in ruling and ruling["source"] == "1)警1"
