"""D11, D14, D16, D18 and D22 of guideline/CATALOG.md, about the people at the event: who
may do what, a player who has left, the head judge's deviation in words, and the names and
ids the desk shows. Decided by the pure core alone.
"""

from __future__ import annotations

import importlib

import pytest

from shinpan.engine import Deviation, Record, Ruling, decide, explain
from shinpan.engine.event_rules import (
    Action,
    Role,
    Status,
    ejects,
    history_scope,
    left_as,
    may,
    may_be_paired,
    may_drop,
    may_mark_attendance,
    needs_investigation,
    scope_problems,
    status_of,
)
from shinpan.engine.explain import deviation_text, reason_text
from shinpan.engine.facts import RecordError, check_deviation_changes
from shinpan.engine.hanging import restored_effects
from shinpan.engine.leaving import left_reason, noted_leaving
from shinpan.engine.participants import check_id_characters, check_name, direction_controls
from shinpan.errors import InvalidInput
from shinpan.files.guidelines import default_guideline
from support import BOOK

SLOW = "ingame.slow-play"


def ruling_for(player: str, rule: str = SLOW) -> Ruling:
    (made,) = decide(BOOK, Record(player, rule), {}, {"A", "B"})
    return made


# --- D11 Authority: what each role may do


def test_d11_only_the_head_judge_confirms_and_deviates() -> None:
    for action in (Action.confirm, Action.deviate, Action.void, Action.appeal, Action.manage):
        assert may(Role.head_judge, action)
        assert not may(Role.floor_judge, action)
        assert not may(Role.scorekeeper, action)
        assert not may(Role.viewer, action)


def test_d11_a_floor_judge_records_and_a_scorekeeper_reports_results() -> None:
    assert may(Role.floor_judge, Action.record) and not may(Role.floor_judge, Action.results)
    assert may(Role.scorekeeper, Action.results) and not may(Role.scorekeeper, Action.record)
    assert may(Role.viewer, Action.read) and not may(Role.viewer, Action.record)


def test_d11_what_each_role_may_do_word_for_word() -> None:
    """The head judge does everything; the others what their work needs, and nothing more."""
    doing = {role: sorted(a.value for a in Action if may(role, a)) for role in Role}
    assert doing == {
        Role.head_judge: sorted(a.value for a in Action),
        Role.floor_judge: ["deadline", "deckcheck", "extend", "read", "record", "statement"],
        Role.scorekeeper: ["decklist", "export", "read", "results", "roster"],
        Role.viewer: ["read"],
    }
    assert len(Action) == 19


def test_d11_an_organiser_reads_every_event_s_history_a_judge_those_they_report_at() -> None:
    organiser = history_scope([], organiser=True)
    assert organiser.reads_any and organiser.reads(7)
    seats = history_scope([(1, Role.head_judge), (2, Role.floor_judge), (3, Role.viewer)], organiser=False)
    assert seats.reads_any
    assert seats.reads(1) and not seats.reads(2) and not seats.reads(3)
    assert seats.sees_voided(1) and seats.sees_voided(2) and seats.sees_voided(3)
    assert not seats.sees_voided(4)


def test_d11_a_person_without_a_seat_reads_no_history() -> None:
    nobody = history_scope([], organiser=False)
    assert not nobody.reads_any
    assert not nobody.reads(1)
    assert not nobody.sees_voided(1)
    floor = history_scope([(2, Role.floor_judge)], organiser=False)
    assert not floor.reads_any


# --- D14, D22 A player who has left: no pairing, no drop, the reason on every ruling


def test_d14_only_an_active_player_is_paired_or_drops() -> None:
    assert may_be_paired(Status.active) and may_drop(Status.active)
    for gone in (Status.dropped, Status.withdrawn, Status.ejected, Status.disqualified):
        assert not may_be_paired(gone)
        assert not may_drop(gone)


def test_attendance_is_marked_before_round_one_only() -> None:
    assert may_mark_attendance(0)
    assert not may_mark_attendance(1)


def test_d14_a_voided_disqualification_needs_no_investigation_report() -> None:
    dq = ["warning3", "disqualification"]
    assert needs_investigation(dq, dq, voided=False)
    assert not needs_investigation(dq, dq, voided=True)
    assert not needs_investigation(["warning2"], dq, voided=True)
    assert needs_investigation(["warning2"], dq)  # deviated from a disqualification: still reported


def test_d15_an_event_without_a_head_judge_is_told_the_level_it_needs() -> None:
    assert scope_problems(default_guideline(), 3, None) == [
        "REL 3 under rel3-ja-1998 needs a head judge certified level 2 or above"
    ]


def test_d14_a_confirmed_ejection_ejects_a_voided_one_nobody() -> None:
    assert ejects(["warning2", "ejection"], voided=False)
    assert not ejects(["warning2", "ejection"], voided=True)
    assert not ejects(["warning3", "disqualification"], voided=False)


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (Status.dropped, "left_dropped"),
        (Status.withdrawn, "left_withdrawn"),
        (Status.ejected, "left_ejected"),
        (Status.disqualified, "left_disqualified"),
    ],
)
def test_d22_a_ruling_for_a_player_who_has_left_says_how_they_left(status: Status, reason: str) -> None:
    (noted,) = noted_leaving([ruling_for("A")], {"A": status})
    assert noted.explanation.reasons[-1] == reason
    assert left_reason(noted) == reason
    assert "any match" in reason_text(reason, "en") and "no deadline" in reason_text(reason, "en")


def test_d22_the_rulings_of_a_player_still_playing_say_nothing_of_leaving() -> None:
    a, b = ruling_for("A"), ruling_for("B")
    kept, noted = noted_leaving([a, b], {"B": Status.ejected})
    assert kept == a and left_reason(noted) == "left_ejected"
    assert noted_leaving([a], {"A": Status.active}) == (a,)
    assert left_reason(a) is None


def test_d22_noting_the_leaving_twice_says_it_once() -> None:
    (once,) = noted_leaving([ruling_for("A")], {"A": Status.withdrawn})
    assert noted_leaving([once], {"A": Status.withdrawn}) == (once,)


# --- D11, D16 The head judge's deviation: refused when it changes nothing, told in words


def test_d16_a_deviation_to_the_penalties_the_ruling_has_is_refused() -> None:
    with pytest.raises(RecordError, match="already") as caught:
        check_deviation_changes(["warning1"], ["notice"], ["notice"])
    assert caught.value.field == "deviation.penalties"
    with pytest.raises(RecordError, match="guideline's own penalties"):
        check_deviation_changes(
            ["warning1", "duel_loss"], ["warning1", "duel_loss"], ["duel_loss", "warning1"]
        )


def test_d16_a_deviation_back_to_the_guideline_s_penalties_is_a_change() -> None:
    check_deviation_changes(["warning1"], ["notice"], ["warning1"])
    check_deviation_changes(["warning1"], ["warning1"], ["notice"])


def test_d11_a_deviation_says_what_the_head_judge_gave_what_the_guideline_gives_and_why() -> None:
    en = deviation_text(BOOK, ("notice",), ("warning1", "duel_loss"), "first event", "en")
    assert en == (
        "Head judge's deviation: Notice (the guideline gives Single Warning + Duel loss); "
        "reason: \u201cfirst event\u201d."
    )
    ja = deviation_text(BOOK, ("notice",), ("warning1", "duel_loss"), "初参加", "ja")
    assert ja.startswith("ヘッドジャッジの判断で罰則を")
    assert "理由は「初参加」です。" in ja
    assert ja.index("に変えました") < ja.index("ガイドラインでは")


def test_d11_a_deviation_to_no_penalty_says_so() -> None:
    ja = deviation_text(BOOK, (), ("warning1",), "誤認", "ja")
    assert ja.startswith("ヘッドジャッジの判断で罰則なしにしました(")
    assert "罰則なし" not in ja.split("ガイドラインでは")[1]
    assert "ガイドラインでは罰則なし" in deviation_text(BOOK, ("notice",), (), "誤認", "ja")


def test_d16_a_deviation_names_the_remedies_that_went_with_the_penalties() -> None:
    gone = [("デッキを直します。", "Fix the deck."), ("席に戻ります", "Return to the table")]
    assert deviation_text(BOOK, ("notice",), ("warning1",), "x", "en", gone).endswith(
        "reason: \u201cx\u201d. No longer: Fix the deck. No longer: Return to the table."
    )
    ja = deviation_text(BOOK, ("notice",), ("warning1",), "x", "ja", gone)
    assert ja.endswith(
        "理由は「x」です。その罰則がなくなったため、「デッキを直します」は行いません。"
        "その罰則がなくなったため、「席に戻ります」は行いません。"
    )


def test_d16_a_new_deviation_starts_from_the_step_s_own_effects() -> None:
    assert restored_effects(BOOK, SLOW, 1, ()) == ("time_extension",)
    assert restored_effects(BOOK, SLOW, 1, ("time_extension",)) == ("time_extension",)
    assert restored_effects(BOOK, SLOW, 2, ()) == ()
    assert restored_effects(BOOK, "general.uncategorized", None, ("x",)) == ("x",)
    assert restored_effects(BOOK, SLOW, None, ("y",)) == ("y",)


def test_d11_a_deviated_ruling_is_explained_with_its_reason() -> None:
    (made,) = decide(BOOK, Record("A", SLOW, deviation=Deviation(("notice",), "first event")), {}, {"A"})
    assert "deviat" in explain(BOOK, made, "en")


# --- D18 Names and ids: nothing invisible, nothing that turns the text around


def test_d18_an_id_with_an_invisible_character_is_refused_naming_it() -> None:
    check_id_characters("P002", "player")
    check_id_characters("山田", "player")
    with pytest.raises(InvalidInput) as caught:
        check_id_characters("P0\u200f02\u200b\u200f", "player")
    assert (caught.value.field, str(caught.value)) == (
        "player",
        "an id cannot hold invisible characters (U+200F, U+200B); type it again without them",
    )


def test_d18_a_name_that_turns_the_text_around_is_refused_naming_the_character() -> None:
    check_name("山田 太郎", "name")
    check_name("Yamada", "name")
    with pytest.raises(InvalidInput) as caught:
        check_name("abc\u202edef", "club")
    assert (caught.value.field, str(caught.value)) == (
        "club",
        "a name cannot hold characters that change the direction of text (U+202E); type it again without them",
    )
    assert direction_controls("a\u202eb\u202ec\u2066") == "U+202E, U+2066"
    assert direction_controls("a\u200bb") == ""


def test_d22_the_reason_a_screen_shows_alone_is_japanese_first() -> None:
    assert reason_text("left_dropped") == reason_text("left_dropped", "ja")
    assert reason_text("left_dropped", "ja").startswith(
        "記録の時点で、このプレイヤーはすでにドロップしています。"
    )
    assert reason_text("left_dropped", "en").startswith("the player had already dropped")


# --- D8, D18 Advice from outside the event: the advisor leaves, the player is not penalised


def test_d8_an_outside_advisor_alone_to_blame_leaves_a_ruling_that_only_removes_them() -> None:
    record = Record("A", "players.advice", {"advisor": "a parent", "advisor_only": True}, draft="D1")
    (made,) = decide(BOOK, record, {}, {"A", "B"}, ref="event 4", first_number=9)
    assert (made.player, made.rule, made.offense, made.penalties, made.effects) == (
        "A", "players.advice", None, (), ("venue_removal",),
    )  # fmt: skip
    assert (made.draft, made.ref, made.number) == ("D1", "event 4", 9)
    assert made.explanation.reasons == ("advisor_outsider_only",)
    assert made.explanation.source == BOOK.infractions["players.advice"].source


# --- The engine's names load on first use, once


@pytest.mark.parametrize(("name", "module"), [("follow_up", "decide"), ("ScenarioError", "replay")])
def test_a_name_of_the_engine_loads_from_its_module_on_first_use_and_stays(
    name: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = importlib.import_module("shinpan.engine")
    monkeypatch.delitem(vars(engine), name, raising=False)
    loaded = getattr(importlib.import_module(f"shinpan.engine.{module}"), name)
    assert getattr(engine, name) is loaded
    assert vars(engine)[name] is loaded  # kept: the next use finds it without loading again


def test_a_name_the_engine_does_not_have_is_an_attribute_error_naming_it() -> None:
    engine = importlib.import_module("shinpan.engine")
    with pytest.raises(AttributeError) as caught:
        engine.no_such_rule  # noqa: B018
    assert str(caught.value) == "module 'shinpan.engine' has no attribute 'no_such_rule'"


def test_d14_a_player_who_dropped_stays_dropped_until_a_heavier_status_comes() -> None:
    assert status_of([], dropped=True) is Status.dropped
    assert status_of([["warning1"]], dropped=True) is Status.dropped
    assert status_of([["warning2", "ejection"]], dropped=True) is Status.ejected
    assert status_of([], dropped=False) is Status.active


def test_d14_d22_an_active_player_has_not_left_unless_they_dropped() -> None:
    assert left_as(Status.active) is None
    assert left_as(None) is None
    assert left_as(Status.active, dropped=True) is Status.dropped
    assert left_as(Status.ejected) is Status.ejected
