"""T7 and D10 together: in best of one (1本先取) the first duel decides the match, so a duel
loss ends it as a match loss does; a match at time is still what the event says (T8); in a
playoff (T10) a penalty eliminates as it would in the Swiss. On SQLite and PostgreSQL, the
projections equal a rebuild from the ledger after each case.

Read `bo1(new_event)` as "an event of eight players that plays best of one, round 1 paired
P001–P002 at table 1, P003–P004 at table 2, …".
"""

from __future__ import annotations

from typing import Any

from conftest import HEAD_JUDGE, EventSetup
from shinpan.services import corrections, events, formats, playoff, rounds
from shinpan.services.results import Wanted, report_result
from shinpan.store.rounds import round_matches
from shinpan.store.snapshots import match_at
from test_ledger_services import consistent, match, only, winners

PAIRS = [("P001", "P002"), ("P003", "P004"), ("P005", "P006"), ("P007", "P008")]


def bo1(new_event: Any, time_out: str | None = None) -> EventSetup:
    ev: EventSetup = new_event(pair=False)
    formats.set_format(ev.db, ev.id, match_format="bo1", time_out=time_out, actor=HEAD_JUDGE)
    ev.pair(1, PAIRS)
    return ev


# --- D10 in best of one: the first duel decides


def test_t7_d10_in_best_of_one_a_duel_loss_ends_the_match(new_event: Any) -> None:
    ev = bo1(new_event)
    saved = only(ev.record("P001", "pregame.tardiness"))
    assert saved["penalties"] == ["warning1", "duel_loss"]
    assert winners(ev, 1) == {1: "P002"}
    assert (match(ev, 1)["result"], match(ev, 1)["result_ruling"]) == ("b", None)  # over, as a match loss
    consistent(ev.db)


def test_t7_d10_in_best_of_one_the_next_duel_loss_waits_for_the_next_match(new_event: Any) -> None:
    ev = bo1(new_event)
    ev.record("P001", "pregame.tardiness")
    second = ev.record("P002", "pregame.tardiness")  # the match is over: no second duel
    assert winners(ev, 1) == {1: "P002"} and match(ev, 1)["result"] == "b"
    assert [e["kind"] for e in second.effects] == ["loss.carried"]
    consistent(ev.db)


def test_t7_in_best_of_three_the_same_duel_loss_leaves_the_match_going_on(ev: EventSetup) -> None:
    ev.record("P001", "pregame.tardiness")
    assert winners(ev, 1) == {1: "P002"} and match(ev, 1)["result"] is None
    consistent(ev.db)


def test_t7_d10_in_best_of_one_the_scorekeepers_first_duel_ends_the_match(new_event: Any) -> None:
    ev = bo1(new_event)
    rounds.start_round(ev.db, ev.id)
    events.report_result(ev.db, ev.id, 1, 2, duel=1, winner="P004")
    assert match(ev, 2)["result"] == "b"
    consistent(ev.db)


def test_t7_a_round_s_matches_read_together_play_to_the_event_s_format_as_each_read_alone(
    new_event: Any,
) -> None:
    ev = bo1(new_event)
    rounds.start_round(ev.db, ev.id)
    report_result(ev.db, ev.id, 1, 1, Wanted(score="0-0-1", at_time=True))  # one drawn duel
    ev.record("P003", "pregame.tardiness")  # table 2: its one duel lost, the match over
    with ev.db.read() as conn:
        together = round_matches(conn, ev.id, 1)
        alone = [match_at(conn, ev.id, 1, m.table) for m in together]
    assert together == alone
    assert [m.duels_to_win for m in together] == [1, 1, 1, 1]  # best of one: one duel wins
    assert together[0].drawn and together[1].decided_by_duels() == "b"
    consistent(ev.db)


# --- T8 a match at time in best of one


def test_t8_in_best_of_one_a_match_at_time_is_a_loss_for_both_when_the_event_says(new_event: Any) -> None:
    ev = bo1(new_event, time_out="both-lose")
    rounds.start_round(ev.db, ev.id)
    done = report_result(ev.db, ev.id, 1, 1, Wanted(score="0-0-1", at_time=True))
    assert done["result"] == "both_lose"
    consistent(ev.db)


def test_t8_in_best_of_one_a_match_at_time_with_a_drawn_duel_is_a_draw_by_duels(new_event: Any) -> None:
    ev = bo1(new_event)
    rounds.start_round(ev.db, ev.id)
    done = report_result(ev.db, ev.id, 1, 1, Wanted(score="0-0-1", at_time=True))
    assert done["result"] == "draw"
    consistent(ev.db)


# --- T10 a penalty in a best-of-one playoff


def _to_the_semi_finals(new_event: Any) -> tuple[EventSetup, list[dict[str, Any]]]:
    ev = bo1(new_event)
    rounds.start_round(ev.db, ev.id)
    for table in range(1, 5):
        events.report_result(ev.db, ev.id, 1, table, result="a")
    events.end_round(ev.db, ev.id, 1)
    started = playoff.start_playoff(ev.db, ev.id, 4, actor=HEAD_JUDGE)
    rounds.start_round(ev.db, ev.id)
    return ev, started.pairings


def test_t10_d10_a_match_loss_in_a_best_of_one_semi_final_eliminates_the_player(new_event: Any) -> None:
    ev, semi = _to_the_semi_finals(new_event)
    first = semi[0]
    ev.record(first["a"], "ingame.slow-play")
    ev.record(first["a"], "ingame.slow-play")  # a duel loss: in best of one, the match
    m = match(ev, 1, round_no=2)
    assert m["result"] == "b"
    consistent(ev.db)


def test_t10_d10_a_duel_loss_in_a_best_of_one_semi_final_sends_the_opponent_to_the_final(
    new_event: Any,
) -> None:
    ev, semi = _to_the_semi_finals(new_event)
    for pairing in semi:
        ev.record(pairing["b"], "pregame.tardiness")  # each seat b loses its only duel
    events.end_round(ev.db, ev.id, 2)
    final = playoff.pair_playoff_round(ev.db, ev.id, actor=HEAD_JUDGE)
    assert [(p["a"], p["b"]) for p in final.pairings] == [(semi[0]["a"], semi[1]["a"])]
    consistent(ev.db)


def test_d16_voiding_the_duel_loss_that_ended_a_best_of_one_match_opens_it_again(new_event: Any) -> None:
    ev = bo1(new_event)
    saved = only(ev.record("P003", "pregame.tardiness"))
    assert match(ev, 2)["result"] == "b"
    corrections.void(ev.db, ev.id, int(saved["number"]), "別の選手だった", judge=HEAD_JUDGE)
    assert winners(ev, 2) == {} and match(ev, 2)["result"] is None
    consistent(ev.db)
