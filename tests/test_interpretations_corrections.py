"""D10, D14 and D16–D22 of guideline/CATALOG.md: corrections, waiting for the head judge,
participants, facts, the additional rulings' count, the clock, leaving during a match.

The scenarios read as in ``test_interpretations.py``; what the ledger does to matches and
players is asked of the services, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest

from conftest import EventSetup
from shinpan.engine import ScenarioError
from shinpan.engine.clock import ClockError, Moment, due_state, given_at, parse_given_at
from shinpan.engine.event_rules import (
    Status,
    disqualifies,
    ends_match,
    needs_investigation,
    next_duel,
    status_codes_now,
)
from shinpan.errors import Conflict, Forbidden, InvalidInput
from shinpan.guideline.terms import When
from shinpan.services import corrections, deadlines, events, queries, rounds
from support import brief, missed, of, one, play, rec, void

UNRELATED = "general.unrelated-warnings"
EXCLUSION = "draft.exclusion"
SLOW, SHUFFLE, EXTRA, INSUFFICIENT = (
    "ingame.slow-play",
    "pregame.shuffle-cut",
    "ingame.extra-cards-drawn",
    "pregame.insufficient-shuffle",
)


def live(rulings: list[dict[str, Any]], rule: str) -> list[tuple[Any, ...]]:
    return [(r["event"], r["offense"]) for r in of(rulings, rule=rule, voided=False)]


# --- D10 Applying losses: the next duel is the first one not decided yet


def test_d10_the_next_duel_is_the_first_free_number() -> None:
    assert next_duel(set()) == 1
    assert next_duel({1, 2}) == 3
    assert next_duel({2}) == 1  # duel 1's penalty loss was voided: its number is free again


def test_d10_a_reported_duel_after_a_voided_penalty_duel_keeps_both(ev: EventSetup) -> None:
    late = ev.record("P001", "pregame.tardiness").rulings[0]["number"]  # P002 wins duel 1
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, winner="P002")  # duel 2
    corrections.void(ev.db, ev.id, late, "the player was there")
    events.report_result(ev.db, ev.id, 1, 1, winner="P001")  # the next duel: 1, not 2 again
    duels = {d["duel"]: d["winner"] for d in queries.round_matches(ev.db, ev.id, 1)["matches"][0]["duels"]}
    assert duels == {1: "P001", 2: "P002"}


# --- D14 Ejection and disqualification


def test_d14_a_voided_disqualification_disqualifies_nobody() -> None:
    assert disqualifies(["warning3", "disqualification"], voided=False)
    assert not disqualifies(["warning3", "disqualification"], voided=True)
    assert not disqualifies(["warning2", "ejection"], voided=False)


def test_d14_a_deviated_disqualification_still_needs_its_report() -> None:
    assert needs_investigation(["warning2", "ejection"], ["warning3", "disqualification"])
    assert not needs_investigation(["warning1"], ["warning1"])


# --- D16 Corrections: as if the voided record had never been made, the additional rulings again


def test_d16_voiding_a_warning_voids_the_unrelated_warnings_ruling_it_made_possible() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {INSUFFICIENT}", void(0))
    assert one(rulings, event=2, rule=UNRELATED)["voided"] is True  # only two ids before it now
    assert live(rulings, UNRELATED) == [(3, 2)]  # the fourth is the third now; its number stays


def test_d16_a_void_can_add_the_unrelated_warnings_ruling_the_corrected_history_now_supports() -> None:
    # The third id came with event 2; voided, the same id comes again with event 3, which
    # now makes the set three: the void carries the new additional ruling.
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {EXTRA}", void(2))
    assert one(rulings, event=2, rule=UNRELATED)["voided"] is True
    assert live(rulings, UNRELATED) == [(4, 1)]


def test_d16_a_third_warning_deviated_to_a_notice_fires_nothing_and_the_next_one_fires_once() -> None:
    rulings = play(
        f"A: {SLOW}",
        f"A: {SHUFFLE}",
        rec("A", EXTRA, deviation=(["notice"], "a first event")),
        f"A: {INSUFFICIENT}",
        f"A: {SLOW}",
    )
    assert live(rulings, UNRELATED) == [(3, 1)]


def test_d16_a_notice_raised_to_a_warning_fires_the_additional_ruling() -> None:
    rulings = play(
        f"A: {SLOW}", f"A: {SHUFFLE}", rec("A", "ingame.cards-off-table", deviation=(["warning1"], "hid"))
    )
    assert live(rulings, UNRELATED) == [(2, 1)]


def test_d16_deviations_add_and_take_away_the_draft_exclusion() -> None:
    added = play(
        rec("A", "draft.standard", deviation=(["draft_warning", "draft_exclusion"], "again and again"))
    )
    assert live(added, EXCLUSION) == [(0, 1)]
    taken = play(
        rec("A", "draft.excessive", draft="D1"),
        rec("A", "draft.excessive", draft="D1", deviation=(["warning1"], "misunderstood")),
        rec("A", "draft.excessive", draft="D2"),
    )
    assert live(taken, EXCLUSION) == [(2, 1)]  # the next exclusion is the player's first


def test_d16_a_void_takes_the_follow_ups_of_its_deadlines() -> None:
    rulings = play("A: pregame.tardiness", missed(0), void(0))
    assert [(r["event"], r["follow_up"], r["voided"]) for r in rulings] == [(0, False, True), (1, True, True)]


@pytest.mark.parametrize(
    "events",
    [
        ["A: pregame.tardiness", void(0), missed(0)],
        [f"A: {SLOW}", void(0), void(0)],
        [f"A: {SLOW}", void(0), void(1)],
        [rec("A", "ingame.disagreement-on-facts", facts_determined=True, deviation=(["notice"], "x"))],
        [rec("A", "players.advice", advisor="a parent", advisor_only=True, deviation=(["notice"], "x"))],
    ],
    ids=["missed-after-void", "void-twice", "void-of-a-void", "deviate-facts-determined", "deviate-outsider"],
)
def test_d16_corrections_that_are_refused(events: list[Any]) -> None:
    with pytest.raises(ScenarioError):
        play(*events)


def test_d16_the_ledger_voids_and_adds_as_replay_does(ev: EventSetup) -> None:
    numbers = [ev.record("P001", rule).rulings for rule in (SLOW, SHUFFLE, EXTRA)]
    third, unrelated = (r["number"] for r in numbers[2])
    corrections.deviate(ev.db, ev.id, third, ["notice"], "a first event")
    assert queries.get_ruling(ev.db, ev.id, unrelated)["state"] == "voided"
    corrections.deviate(ev.db, ev.id, third, ["warning1"], "on second thought")
    again = [
        r for r in queries.rulings_feed(ev.db, ev.id) if r["rule"] == UNRELATED and r["state"] != "voided"
    ]
    assert [(r["player"], r["offense"], r["penalties"]) for r in again] == [
        ("P001", 1, ["warning1", "duel_loss"])
    ]


# --- D17 Waiting for the head judge: losses at once, ejection and disqualification on confirmation


def test_d17_what_changes_a_status_while_waiting() -> None:
    assert status_codes_now(["warning3", "disqualification"], pending=True) == ["warning3"]
    assert status_codes_now(["withdrawn"], pending=True) == ["withdrawn"]
    assert status_codes_now(["warning2", "ejection"], pending=False) == ["warning2", "ejection"]


def test_d17_a_disqualification_waits_for_the_head_judge(ev: EventSetup) -> None:
    dq = ev.record("P003", "severe.cheating").rulings[0]["number"]
    assert queries.player_history(ev.db, ev.id, "P003")["player"]["status"] == "active"
    ev.record("P001", "pregame.tardiness")  # its duel loss lands at once, while waiting too
    assert queries.round_matches(ev.db, ev.id, 1)["matches"][0]["duels"][0]["winner"] == "P002"
    corrections.confirm(ev.db, ev.id, [dq])
    assert queries.player_history(ev.db, ev.id, "P003")["player"]["status"] == "disqualified"


# --- D18 Participants, compared after NFKC


def test_d18_ids_written_otherwise_are_the_same_participants() -> None:
    rulings = play(
        rec("Ａ", "deck.lost-or-mixed-cards", mixed_into=" B "),
        rec("A\u3000", "players.advice", advisor="Ｂ"),
    )
    assert {r["player"] for r in rulings} == {"A", "B"}
    assert brief(one(rulings, event=1, player="B")) == (1, "B", "players.advice", 1, ["warning1"])


@pytest.mark.parametrize(
    ("players", "event"),
    [
        (("A", "Ａ"), "A: ingame.slow-play"),
        (("A" * 65,), "A: ingame.slow-play"),
        (("A",), rec("A", "deck.decklist-recording", recorded_by="Ａ")),
        (("A", "B"), rec("A", "deck.lost-or-mixed-cards", mixed_into=" A")),
    ],
    ids=["alike", "too-long", "recorded-by-self", "mixed-into-self"],
)
def test_d18_refused(players: tuple[str, ...], event: Any) -> None:
    with pytest.raises(ScenarioError):
        play(event, players=players)


def test_d18_an_outside_advisor_alone_to_blame_leaves_only_the_removal() -> None:
    rulings = play(rec("A", "players.advice", advisor="a parent", advisor_only=True))
    assert [(r["offense"], r["penalties"], r["effects"]) for r in rulings] == [(None, [], ["venue_removal"])]


def test_d18_the_ledger_finds_a_player_written_in_full_width(ev: EventSetup) -> None:
    saved = ev.record("Ｐ００１", "deck.lost-or-mixed-cards", facts={"mixed_into": " P002"})
    assert [r["player"] for r in saved.rulings] == ["P001", "P002"]


# --- D19 Facts


@pytest.mark.parametrize(
    "event",
    [
        rec("A", "general.uncategorized", penalties=[]),
        rec("A", SLOW, penalties=["notice"]),
        {"player": "A", "infraction": SLOW, "facts": {"kind": "talking"}},
    ],
    ids=["uncategorized-without-components", "penalties-on-a-listed-infraction", "fact-not-asked"],
)
def test_d19_refused(event: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError):
        play(event)


def test_d19_kind_other_or_no_kind_is_never_the_same_as_before() -> None:
    rulings = play(
        rec("A", "draft.standard", kind="other"),
        rec("A", "draft.standard", kind="other"),
        rec("A", "draft.standard", draft="D2"),
        rec("A", "draft.standard", draft="D2"),
        rec("A", "draft.standard", draft="D3"),
        rec("A", "draft.standard", draft="D3", same_as_previous=True),
    )
    assert live(rulings, EXCLUSION) == [(5, 1)]


def test_d19_uncategorized_triggers_neither_d3_nor_d6() -> None:
    rulings = play(
        f"A: {SLOW}",
        f"A: {SHUFFLE}",
        rec("A", "general.uncategorized", penalties=["warning1", "draft_exclusion"]),
    )
    assert of(rulings, rule=UNRELATED) == [] and of(rulings, rule=EXCLUSION) == []


# --- D20 Counting the additional rulings


def test_d20_unrelated_warnings_are_counted_and_do_not_feed_themselves() -> None:
    rulings = play(
        f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {INSUFFICIENT}", "A: players.wrong-opponent"
    )
    assert live(rulings, UNRELATED) == [(2, 1), (3, 2), (4, 3)]


def test_d20_slow_plays_extension_comes_with_the_first_offence_only() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SLOW}")
    assert [r["effects"] for r in rulings] == [["time_extension"], []]


# --- D21 Deadlines on the event's clock


def test_d21_a_ruling_may_be_given_up_to_12_hours_back_never_ahead(ev: EventSetup) -> None:
    now = ev.clock.now
    assert given_at(now - timedelta(hours=11, minutes=59), now) == now - timedelta(hours=11, minutes=59)
    assert given_at(now + timedelta(seconds=30), now) == now  # a phone's clock a little ahead
    for wrong in (now - timedelta(hours=12, minutes=1), now + timedelta(hours=1)):
        with pytest.raises(ClockError):
            given_at(wrong, now)
    with pytest.raises(ClockError):
        parse_given_at("2026-12-05T10:15:00")  # no offset
    with pytest.raises(InvalidInput, match="12 hours"):
        ev.record("P001", SLOW, given_at=(now - timedelta(hours=13)).isoformat())


def test_d21_a_timed_deadline_runs_from_the_time_at_the_table(ev: EventSetup) -> None:
    given = ev.clock.now - timedelta(minutes=4)  # recorded later than it was given
    late = ev.record("P001", "pregame.tardiness", given_at=given.isoformat()).rulings[0]["number"]
    with pytest.raises(Conflict, match="not due yet"):
        deadlines.mark_missed(ev.db, ev.id, late, 0, now=ev.clock.now)
    (made,) = deadlines.mark_missed(ev.db, ev.id, late, 0, now=ev.clock.advance(minutes=6))
    assert made["penalties"] == ["duel_loss"]


def test_d21_only_the_head_judge_ends_an_end_of_match_deadline_sooner(ev: EventSetup) -> None:
    late = ev.record("P001", "pregame.tardiness", given_at=(ev.clock.now - timedelta(minutes=20)).isoformat())
    number = late.rulings[0]["number"]
    with pytest.raises(Forbidden):  # the match is still being played: not due yet
        deadlines.mark_missed(ev.db, ev.id, number, 1, judge="FJ", now=ev.clock.now)
    (made,) = deadlines.mark_missed(ev.db, ev.id, number, 1, now=ev.clock.now)  # the head judge
    assert made["effects"] == ["withdrawn"]
    deadlines.mark_missed(ev.db, ev.id, number, 0, judge="FJ", now=ev.clock.now)  # the 10 minutes: due


def test_d21_due_states() -> None:
    now = parse_given_at("2026-12-05T10:00:00+09:00")
    assert due_state(When.minutes, "given", Moment(at=now), now).due
    assert not due_state(When.minutes, "given", Moment(at=now + timedelta(seconds=1)), now).due
    assert due_state(When.end_of_match, "", Moment(), now).head_judge_may_end_sooner


# --- D22 Leaving during a match ends it as a loss


def test_d22_leaving_the_event_ends_the_match() -> None:
    assert ends_match(Status.withdrawn) and ends_match(Status.ejected) and ends_match(Status.disqualified)
    assert not ends_match(Status.active)


def test_d22_a_confirmed_ejection_during_the_match_loses_it_and_a_void_gives_it_back(ev: EventSetup) -> None:
    ev.record("P004", "severe.unsporting-conduct")
    ejected = ev.record("P004", "severe.unsporting-conduct").rulings[0]["number"]  # warning2 + ejection

    def table2() -> dict[str, Any]:
        return dict(queries.round_matches(ev.db, ev.id, 1)["matches"][1])

    assert table2()["result"] is None  # D17: still playing while the ejection waits
    corrections.confirm(ev.db, ev.id, [ejected])
    assert table2()["result"] == "a"  # P003 wins the match P004 left
    assert queries.player_history(ev.db, ev.id, "P004")["player"]["status"] == "ejected"
    corrections.void(ev.db, ev.id, ejected, "appeal")
    assert table2()["result"] is None
    assert queries.player_history(ev.db, ev.id, "P004")["player"]["status"] == "active"


def test_d22_a_withdrawal_from_a_missed_end_of_match_ends_the_match(ev: EventSetup) -> None:
    number = ev.record(
        "P001", "pregame.tardiness", given_at=(ev.clock.now - timedelta(minutes=20)).isoformat()
    )
    n = number.rulings[0]["number"]
    deadlines.mark_missed(ev.db, ev.id, n, 0, now=ev.clock.now)  # P002 has won two duels: match over
    assert queries.round_matches(ev.db, ev.id, 1)["matches"][0]["result"] == "b"
    ev.record("P003", "pregame.tardiness", given_at=(ev.clock.now - timedelta(minutes=20)).isoformat())
    third = next(r for r in queries.rulings_feed(ev.db, ev.id) if r["player"] == "P003")["number"]
    deadlines.mark_missed(ev.db, ev.id, third, 1, now=ev.clock.now)  # withdrawn while playing
    assert queries.player_history(ev.db, ev.id, "P003")["player"]["status"] == "withdrawn"
    assert queries.round_matches(ev.db, ev.id, 1)["matches"][1]["result"] == "b"


def test_d10_two_next_duel_reports_at_once_keep_both(ev: EventSetup) -> None:
    """The next duel's number is chosen inside the write transaction: two scorekeepers
    reporting the same table at the same instant get duels 1 and 2, never one twice."""
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)

    def report(winner: str) -> None:
        try:
            barrier.wait(10)
            events.report_result(ev.db, ev.id, 1, 1, winner=winner)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=report, args=(w,)) for w in ("P001", "P002")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    duels = queries.round_matches(ev.db, ev.id, 1)["matches"][0]["duels"]
    assert sorted((d["duel"], d["winner"]) for d in duels) in (
        [(1, "P001"), (2, "P002")],
        [(1, "P002"), (2, "P001")],
    )
