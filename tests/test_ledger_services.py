"""The services over the ledger: events, recording, retries, effects (D10, D14), voids,
deviations, deadlines (D7, D9) — on SQLite and on PostgreSQL.

Every test ends by checking that the projections are what the entries give
(:func:`consistent`): the ledger is the truth, the tables only follow it.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from conftest import HEAD_JUDGE, T0, EventSetup
from shinpan.engine.event_rules import Role
from shinpan.errors import Conflict, Forbidden, InvalidInput, NotFound, Refused
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.services import corrections, deadlines, events, integrity, queries, recording, results, rounds
from shinpan.services.context import stamp
from shinpan.services.shapes import RulingDecided
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.integrity import snapshot
from shinpan.store.ledger import read_entries
from shinpan.tournament.rounds import OpenTable
from shinpan.views.events import list_events

# -- helpers --------------------------------------------------------------------------------


def consistent(db: Database) -> None:
    """The chain holds and every projection equals a rebuild from the entries."""
    assert integrity.rebuild(db, check_only=True) == []
    result = integrity.verify(db)
    assert result.ok, (result.breaks, result.differences)


def match(ev: EventSetup, table: int, round_no: int = 1) -> dict[str, Any]:
    found = [m for m in queries.round_matches(ev.db, ev.id, round_no)["matches"] if m["table"] == table]
    assert len(found) == 1
    return found[0]


def winners(ev: EventSetup, table: int, round_no: int = 1) -> dict[int, str]:
    return {d["duel"]: d["winner"] for d in match(ev, table, round_no)["duels"]}


def status(ev: EventSetup, player: str) -> str:
    return str(queries.player_history(ev.db, ev.id, player)["player"]["status"])


def carried(ev: EventSetup) -> list[tuple[str, str, str]]:
    with ev.db.read() as conn:
        rows = Statement(
            "SELECT player, loss, state FROM carried_losses WHERE event_id = :e ORDER BY ruling, position"
        ).all(conn, {"e": ev.id})
        return [tuple(r) for r in rows]


def entry_count(ev: EventSetup) -> int:
    with ev.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries WHERE event_id = :e").scalar(conn, {"e": ev.id}))


def counter(ev: EventSetup, player: str, rule: str) -> int:
    """The player's offences of ``rule`` as the engine counts them from their history."""
    with ev.db.read() as conn:
        history = recording.live_history(conn, ev.id, player)
    return sum(1 for r in history if r.rule == rule and r.offense is not None and not r.follow_up)


def ruling(ev: EventSetup, number: int) -> dict[str, Any]:
    return queries.get_ruling(ev.db, ev.id, number)


def only(saved: recording.Recorded) -> dict[str, Any]:
    assert len(saved.rulings) == 1, saved.rulings
    return saved.rulings[0]


# -- events and the model (D15) ---------------------------------------------------------


def test_an_rel3_event_needs_a_head_judge_of_level_2_or_more(db: Database) -> None:
    for level in (None, 1):
        with pytest.raises(Refused) as raised:
            events.create_event(db, name="地区大会", head_judge="HJ", head_judge_level=level, now=T0)
        assert "needs" in str(raised.value) and "level 2" in str(raised.value)
        assert raised.value.field == "head_judge_level"
    with pytest.raises(Refused, match="REL 3"):
        events.create_event(db, name="地区大会", head_judge="HJ", head_judge_level=3, rel=2, now=T0)
    assert list_events(db) == []  # nothing was created
    first = events.create_event(db, name="地区大会", head_judge="HJ", head_judge_level=2, now=T0)
    second = events.create_event(db, name="二日目", head_judge="HJ", head_judge_level=3, now=T0)
    assert (first, second) == (1, 2)
    listed = list_events(db)
    assert [(e.id, e.name, e.rel, e.head_judge) for e in listed] == [
        (1, "地区大会", 3, "HJ"),
        (2, "二日目", 3, "HJ"),
    ]
    consistent(db)


def test_an_event_needs_a_name_a_head_judge_and_real_dates(db: Database) -> None:
    with pytest.raises(InvalidInput, match="name"):
        events.create_event(db, name="  ", head_judge="HJ", head_judge_level=2)
    with pytest.raises(InvalidInput, match="head judge"):
        events.create_event(db, name="E", head_judge=" ", head_judge_level=2)
    with pytest.raises(InvalidInput, match="not a date"):
        events.create_event(db, name="E", head_judge="HJ", head_judge_level=2, starts_on="2024-13-01")
    with pytest.raises(InvalidInput, match="raised, not lowered"):
        events.create_event(
            db, name="E", head_judge="HJ", head_judge_level=2, confirmation_threshold="caution"
        )
    assert list_events(db) == []


def test_the_event_counts_its_players_and_rulings(ev: EventSetup) -> None:
    ev.record("P001", "ingame.slow-play")
    (summary,) = list_events(ev.db)
    assert (summary.players, summary.rulings, summary.current_round) == (8, 1, 1)


def test_players_are_imported_once_and_all_or_nothing(ev: EventSetup) -> None:
    rows = [PlayerRow("P100", "新人", "しんじん", None), PlayerRow("P001", "重複", "", None)]
    with pytest.raises(Conflict, match="P001"):
        events.import_players(ev.db, ev.id, rows)
    with pytest.raises(NotFound):
        queries.player_history(ev.db, ev.id, "P100")
    assert events.import_players(ev.db, ev.id, rows[:1]) == 1
    assert queries.player_history(ev.db, ev.id, "P100")["player"]["name"] == "新人"
    consistent(ev.db)


def test_pairings_name_registered_players_and_each_round_once(ev: EventSetup) -> None:
    with pytest.raises(InvalidInput, match=r"not registered.*X999"):
        events.import_pairings(ev.db, ev.id, 2, [PairingRow(1, "P001", "X999")])
    with pytest.raises(Conflict, match="already paired"):
        events.import_pairings(ev.db, ev.id, 1, [PairingRow(1, "P001", "P003")])
    with pytest.raises(InvalidInput, match="from 1"):
        events.import_pairings(ev.db, ev.id, 0, [PairingRow(1, "P001", "P003")])
    assert (
        events.import_pairings(ev.db, ev.id, 2, [PairingRow(1, "P001", "P003"), PairingRow(2, "P002", None)])
        == 2
    )
    bye = match(ev, 2, round_no=2)
    assert (bye["player_b"], bye["result"]) == (None, "a")  # a bye is won at once
    consistent(ev.db)


def test_only_the_judges_of_the_event_act_and_only_as_their_role_allows(ev: EventSetup) -> None:
    events.add_judge(ev.db, ev.id, name="SK", level=None, role=Role.scorekeeper)
    with pytest.raises(NotFound, match="not a judge"):
        ev.record("P001", "ingame.slow-play", judge="stranger")
    with pytest.raises(Forbidden, match="SK"):
        ev.record("P001", "ingame.slow-play", judge="SK")
    number = only(ev.record("P001", "ingame.extra-cards-drawn"))["number"]
    for act in (
        lambda: corrections.confirm(ev.db, ev.id, [number], judge="FJ"),
        lambda: corrections.void(ev.db, ev.id, number, "mistake", judge="FJ"),
        lambda: corrections.deviate(ev.db, ev.id, number, ["caution"], "why", judge="FJ"),
        lambda: events.add_judge(ev.db, ev.id, name="X", level=1, role=Role.floor_judge, actor="FJ"),
    ):
        with pytest.raises(Forbidden):
            act()
    with pytest.raises(InvalidInput, match="one head judge"):
        events.add_judge(ev.db, ev.id, name="X", level=3, role=Role.head_judge)
    consistent(ev.db)


# -- recording ------------------------------------------------------------------------------


def test_offences_are_counted_per_player_and_rule(ev: EventSetup) -> None:
    first = only(ev.record("P001", "ingame.slow-play"))
    second = only(ev.record("P001", "ingame.slow-play"))
    other_player = only(ev.record("P002", "ingame.slow-play"))
    other_rule = only(ev.record("P001", "ingame.extra-cards-drawn"))
    assert [(r["number"], r["offense"]) for r in (first, second, other_player, other_rule)] == [
        (1, 1),
        (2, 2),
        (3, 1),
        (4, 1),
    ]
    assert first["penalties"] == ["warning1"] and first["effects"] == ["time_extension"]
    assert second["penalties"] == ["warning1", "duel_loss"]
    assert counter(ev, "P001", "ingame.slow-play") == 2
    saved = ruling(ev, 1)
    assert (saved["judge"], saved["recorded_at"], saved["round"], saved["table"]) == ("FJ", stamp(T0), 1, 1)
    assert saved["state"] == "pending" and saved["needs_head_judge"]  # warnings wait for the head judge
    assert saved["explanation_en"].startswith("1st offence of Slow play")  # the decision in words
    assert "1回目" in saved["explanation_ja"] and saved["source"] == "1)警1"
    consistent(ev.db)


def test_a_record_answers_its_rulings_as_the_ledger_wrote_them(ev: EventSetup) -> None:
    saved = ev.record("P001", "pregame.tardiness")  # with two deadlines
    with ev.db.read() as conn:
        (entry,) = [e for e in read_entries(conn, ev.id) if e.seq == saved.entry]
    written = json.loads(entry.stored)["rulings"]
    assert saved.rulings == written  # key for key, in the ledger's order
    assert [list(r) for r in saved.rulings] == [list(RulingDecided.__annotations__)]
    assert len(saved.rulings[0]["dues"]) == 2


def test_unknown_players_and_infractions_are_refused_and_nothing_is_written(ev: EventSetup) -> None:
    before = entry_count(ev)
    with pytest.raises(NotFound, match="no player X9"):
        ev.record("X9", "ingame.slow-play")
    with pytest.raises(InvalidInput):
        ev.record("P001", "ingame.no-such-thing")
    with pytest.raises(NotFound, match="no event 99"):
        recording.record(ev.db, 99, recording.RecordInput(player="P001", infraction="ingame.slow-play"))
    assert entry_count(ev) == before


def test_a_retry_with_the_same_command_id_returns_the_first_result(ev: EventSetup) -> None:
    first = ev.record("P001", "ingame.extra-cards-drawn", command_id="phone-7:1")
    before = entry_count(ev)
    again = ev.record("P001", "ingame.extra-cards-drawn", command_id="phone-7:1")
    assert again.replayed and not first.replayed
    assert again.entry == first.entry
    assert again.rulings == first.rulings
    assert again.effects == first.effects
    assert entry_count(ev) == before
    assert counter(ev, "P001", "ingame.extra-cards-drawn") == 1
    consistent(ev.db)


def test_a_retry_replays_the_effects_too(ev: EventSetup) -> None:
    ev.record("P001", "pregame.tardiness", command_id="c1")
    first = ev.record("P001", "pregame.tardiness", command_id="c2")
    later = ev.record("P003", "ingame.slow-play", command_id="c3")  # entries after c2's
    again = ev.record("P001", "pregame.tardiness", command_id="c2")
    assert again.replayed and again.entry == first.entry
    assert again.effects == first.effects
    assert [e["kind"] for e in again.effects] == ["duel.result"]
    assert later.entry > first.entry
    assert winners(ev, 1) == {1: "P002", 2: "P002"}  # not a third duel


def test_the_same_command_id_with_other_content_is_a_conflict(ev: EventSetup) -> None:
    ev.record("P001", "ingame.extra-cards-drawn", command_id="phone-7:2")
    before = entry_count(ev)
    with pytest.raises(Conflict, match="phone-7:2"):
        ev.record("P002", "ingame.extra-cards-drawn", command_id="phone-7:2")
    with pytest.raises(Conflict):
        corrections.void(ev.db, ev.id, 1, "other command", command_id="phone-7:2")
    assert entry_count(ev) == before
    with pytest.raises(Conflict, match="100 characters"):
        ev.record("P001", "ingame.slow-play", command_id="x" * 101)


def test_retried_voids_confirmations_and_deviations_do_nothing_twice(ev: EventSetup) -> None:
    a = only(ev.record("P001", "ingame.extra-cards-drawn"))["number"]
    b = only(ev.record("P002", "ingame.extra-cards-drawn"))["number"]
    assert corrections.confirm(ev.db, ev.id, [a], command_id="k1") == [a]
    assert corrections.confirm(ev.db, ev.id, [a], command_id="k1") == [a]
    assert corrections.void(ev.db, ev.id, b, "wrong player", command_id="k2") == [b]
    assert corrections.void(ev.db, ev.id, b, "wrong player", command_id="k2") == [b]
    body = corrections.deviate(ev.db, ev.id, a, ["caution"], "first event", command_id="k3")
    before = entry_count(ev)
    assert corrections.deviate(ev.db, ev.id, a, ["caution"], "first event", command_id="k3") == body
    assert entry_count(ev) == before
    with pytest.raises(Conflict, match="already voided"):
        corrections.void(ev.db, ev.id, b, "again")
    consistent(ev.db)


def test_the_head_judge_confirms_what_waits_for_it(ev: EventSetup) -> None:
    n = only(ev.record("P001", "ingame.extra-cards-drawn"))["number"]
    assert [r["number"] for r in queries.rulings_feed(ev.db, ev.id, state="pending")] == [n]
    assert corrections.confirm(ev.db, ev.id, [n]) == [n]
    assert ruling(ev, n)["state"] == "confirmed"
    assert queries.rulings_feed(ev.db, ev.id, state="pending") == []
    with pytest.raises(Conflict, match="not waiting"):
        corrections.confirm(ev.db, ev.id, [n])
    with pytest.raises(NotFound, match="no ruling 42"):
        corrections.confirm(ev.db, ev.id, [42])
    consistent(ev.db)


# -- effects (D10, D14) -------------------------------------------------------------------


def test_a_duel_loss_lands_on_the_current_duel_and_two_win_the_match(ev: EventSetup) -> None:
    saved = only(ev.record("P001", "pregame.tardiness"))
    assert saved["penalties"] == ["warning1", "duel_loss"]
    assert winners(ev, 1) == {1: "P002"}
    assert match(ev, 1)["result"] is None
    ev.record("P002", "pregame.tardiness")  # the other player: duel 2 to P001
    assert winners(ev, 1) == {1: "P002", 2: "P001"}
    ev.record("P001", "pregame.tardiness")
    assert winners(ev, 1) == {1: "P002", 2: "P001", 3: "P002"}
    assert match(ev, 1)["result"] == "b"
    assert match(ev, 2)["duels"] == []  # nobody else's match
    consistent(ev.db)


def test_two_duel_losses_give_the_opponent_the_match(ev: EventSetup) -> None:
    ev.record("P003", "pregame.tardiness")
    ev.record("P003", "pregame.tardiness")
    m = match(ev, 2)
    assert winners(ev, 2) == {1: "P004", 2: "P004"}
    assert (m["result"], m["result_ruling"]) == ("b", None)
    consistent(ev.db)


def test_a_duel_loss_waits_for_the_next_match_when_none_is_in_progress(new_event: Any) -> None:
    ev: EventSetup = new_event(players=4, pair=False)
    saved = ev.record("P001", "pregame.tardiness")
    assert [e["kind"] for e in saved.effects] == ["loss.carried"]
    assert carried(ev) == [("P001", "duel_loss", "waiting")]
    ev.pair(1, [("P003", "P001"), ("P002", "P004")])
    assert winners(ev, 1) == {1: "P003"}
    assert carried(ev) == [("P001", "duel_loss", "applied")]
    assert winners(ev, 2) == {}
    consistent(ev.db)


def test_after_a_match_ends_a_duel_loss_goes_to_the_next_round(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, result="a")
    ev.record("P001", "pregame.tardiness")
    assert winners(ev, 1) == {} and match(ev, 1)["result"] == "a"
    assert carried(ev) == [("P001", "duel_loss", "waiting")]
    events.end_round(ev.db, ev.id, 1, open_tables=dict.fromkeys((2, 3, 4), OpenTable.draw))
    ev.pair(2, [("P001", "P003"), ("P002", "P004"), ("P005", "P006"), ("P007", "P008")])
    assert winners(ev, 1, round_no=2) == {1: "P003"}
    assert carried(ev) == [("P001", "duel_loss", "applied")]
    consistent(ev.db)


def test_a_scorekeepers_second_duel_win_ends_the_match(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, duel=1, winner="P001")
    assert match(ev, 1)["result"] is None
    events.report_result(ev.db, ev.id, 1, 1, duel=2, winner="P001")
    assert (match(ev, 1)["result"], match(ev, 1)["result_ruling"]) == ("a", None)
    ev.record("P002", "pregame.tardiness")  # the match is over: the loss waits, no third duel
    assert winners(ev, 1) == {1: "P001", 2: "P001"}
    assert carried(ev) == [("P002", "duel_loss", "waiting")]
    with pytest.raises(InvalidInput, match="one of the match's players"):
        events.report_result(ev.db, ev.id, 1, 1, duel=3, winner="P003")
    consistent(ev.db)


def test_a_match_loss_lands_on_the_current_match(ev: EventSetup) -> None:
    ev.record("P001", "ingame.slow-play")
    ev.record("P001", "ingame.slow-play")
    third = only(ev.record("P001", "ingame.slow-play"))
    assert third["offense"] == 3 and "match_loss" in third["penalties"]
    m = match(ev, 1)
    assert (m["result"], m["result_ruling"]) == ("b", third["number"])
    consistent(ev.db)


def test_a_match_loss_after_the_match_ended_lands_on_the_next_one(ev: EventSetup) -> None:
    ev.record("P002", "ingame.slow-play")
    ev.record("P002", "ingame.slow-play")  # duel 1 to P001
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, duel=2, winner="P001")
    assert match(ev, 1)["result"] == "a"
    third = only(ev.record("P002", "ingame.slow-play"))
    assert match(ev, 1)["result"] == "a"  # the ended match is not touched
    assert carried(ev) == [("P002", "match_loss", "waiting")]
    ev.pair(2, [("P004", "P002"), ("P001", "P003"), ("P005", "P006"), ("P007", "P008")])
    m = match(ev, 1, round_no=2)
    assert (m["result"], m["result_ruling"]) == ("a", third["number"])  # P004 wins it
    assert carried(ev) == [("P002", "match_loss", "applied")]
    consistent(ev.db)


def test_playing_the_wrong_opponent_makes_the_match_a_draw(ev: EventSetup) -> None:
    saved = only(ev.record("P003", "players.wrong-opponent"))
    assert saved["effects"] == ["match_draw"]
    m = match(ev, 2)
    assert (m["result"], m["result_ruling"]) == ("draw", saved["number"])
    consistent(ev.db)


def test_first_slow_play_extends_the_match(ev: EventSetup) -> None:
    ev.record("P005", "ingame.slow-play")
    assert match(ev, 3)["extensions"] == 1
    ev.record("P006", "ingame.slow-play")
    assert match(ev, 3)["extensions"] == 2
    consistent(ev.db)


def test_ejection_and_disqualification_change_status_and_refuse_later_pairings(ev: EventSetup) -> None:
    ev.record("P003", "players.wrong-opponent")
    ejected = only(ev.record("P003", "players.wrong-opponent"))
    assert "ejection" in ejected["penalties"]
    cheated = only(ev.record("P001", "severe.cheating"))
    assert "disqualification" in cheated["penalties"]
    # D17: both wait for the head judge; until then the players are still in the event
    assert (status(ev, "P003"), status(ev, "P001")) == ("active", "active")
    corrections.confirm(ev.db, ev.id, [ejected["number"], cheated["number"]], now=ev.clock.now)
    assert (status(ev, "P003"), status(ev, "P001"), status(ev, "P002")) == (
        "ejected",
        "disqualified",
        "active",
    )
    with pytest.raises(Refused, match=r"disqualified, and cannot be paired: P001, P003$"):
        ev.pair(2, [("P001", "P002"), ("P003", "P004")])
    ev.pair(2, [("P002", "P004"), ("P005", "P006"), ("P007", "P008")])
    consistent(ev.db)


# -- voids and deviations --------------------------------------------------------------------


def test_voiding_a_duel_loss_gives_the_duel_back(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    before = entry_count(ev)
    assert corrections.void(ev.db, ev.id, n, "wrong table") == [n]
    assert winners(ev, 1) == {}
    assert ruling(ev, n)["state"] == "voided"
    assert entry_count(ev) > before  # reversed by new entries, nothing deleted
    assert deadlines.list_deadlines(ev.db, ev.id, now=T0) == []  # its deadlines are cancelled
    consistent(ev.db)


def test_voiding_the_deciding_duel_loss_reopens_the_match(ev: EventSetup) -> None:
    ev.record("P001", "pregame.tardiness")
    second = only(ev.record("P001", "pregame.tardiness"))["number"]
    assert match(ev, 1)["result"] == "b"
    corrections.void(ev.db, ev.id, second, "the player was there")
    assert (winners(ev, 1), match(ev, 1)["result"]) == ({1: "P002"}, None)
    with ev.db.read() as conn:
        ended = Statement("SELECT ended_at FROM matches WHERE event_id = :e AND table_no = 1").scalar(
            conn, {"e": ev.id}
        )
    assert ended is None
    consistent(ev.db)


def test_voiding_a_duel_loss_keeps_the_result_the_scorekeeper_reported(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]  # P002 wins duel 1
    rounds.start_round(ev.db, ev.id)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, result="a", now=ev.clock.now)  # the result slip: A won
    corrections.void(ev.db, ev.id, n, "the player was on time")
    assert winners(ev, 1) == {}
    assert match(ev, 1)["result"] == "a"  # the reported result stands
    consistent(ev.db)


def test_voiding_a_match_loss_or_draw_recomputes_the_result_from_the_duels(ev: EventSetup) -> None:
    ev.record("P001", "ingame.slow-play")
    ev.record("P001", "ingame.slow-play")
    third = only(ev.record("P001", "ingame.slow-play"))["number"]
    draw = only(ev.record("P003", "players.wrong-opponent"))["number"]
    corrections.void(ev.db, ev.id, third, "misheard")
    corrections.void(ev.db, ev.id, draw, "they had the right table")
    assert (match(ev, 1)["result"], match(ev, 1)["result_ruling"]) == (None, None)
    assert winners(ev, 1) == {1: "P002"}  # the second offence's duel loss stands
    assert match(ev, 2)["result"] is None
    consistent(ev.db)


def test_voiding_an_extension_takes_it_back(ev: EventSetup) -> None:
    n = only(ev.record("P005", "ingame.slow-play"))["number"]
    corrections.void(ev.db, ev.id, n, "no")
    assert match(ev, 3)["extensions"] == 0
    consistent(ev.db)


def test_an_extension_goes_with_the_warning_it_hangs_on_and_with_a_void(ev: EventSetup) -> None:
    n = only(ev.record("P005", "ingame.slow-play"))["number"]
    ev.record("P006", "ingame.slow-play")  # another extension of the same match, later
    corrections.deviate(ev.db, ev.id, n, ["warning1", "duel_loss"], "on purpose")
    assert match(ev, 3)["extensions"] == 2  # the warning stays: the extension after it too
    corrections.deviate(ev.db, ev.id, n, ["caution"], "a first-time player")
    assert match(ev, 3)["extensions"] == 1  # "after the 1st warning": gone with the warning (D16)
    corrections.void(ev.db, ev.id, n, "the clock was wrong")
    assert match(ev, 3)["extensions"] == 1  # P006's stays
    consistent(ev.db)


def test_voiding_a_disqualification_makes_the_player_active_again(ev: EventSetup) -> None:
    n = only(ev.record("P001", "severe.cheating"))["number"]
    corrections.confirm(ev.db, ev.id, [n], now=ev.clock.now)
    assert status(ev, "P001") == "disqualified"
    assert match(ev, 1)["result"] == "b"  # D22: disqualified during the match, which is lost
    corrections.void(ev.db, ev.id, n, "the appeal succeeded")
    assert status(ev, "P001") == "active"
    ev.pair(2, [("P001", "P002")])  # may be paired again
    consistent(ev.db)


def test_voiding_a_waiting_loss_cancels_it(new_event: Any) -> None:
    ev: EventSetup = new_event(players=4, pair=False)
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    corrections.void(ev.db, ev.id, n, "entered for the wrong player")
    assert carried(ev) == [("P001", "duel_loss", "cancelled")]
    ev.pair(1, [("P001", "P002"), ("P003", "P004")])
    assert winners(ev, 1) == {}
    consistent(ev.db)


def test_a_voided_ruling_no_longer_counts(ev: EventSetup) -> None:
    n = only(ev.record("P001", "ingame.slow-play"))["number"]
    corrections.void(ev.db, ev.id, n, "not slow")
    assert counter(ev, "P001", "ingame.slow-play") == 0
    again = only(ev.record("P001", "ingame.slow-play"))
    assert again["offense"] == 1 and again["effects"] == ["time_extension"]
    assert [r["state"] for r in queries.player_history(ev.db, ev.id, "P001")["rulings"]] == [
        "voided",
        "pending",
    ]
    consistent(ev.db)


def test_a_deviation_replaces_the_penalty_and_undoes_its_effects(ev: EventSetup) -> None:
    ev.record("P001", "ingame.extra-cards-drawn")
    second = only(ev.record("P001", "ingame.extra-cards-drawn"))
    assert second["penalties"] == ["warning1", "duel_loss"]
    assert winners(ev, 1) == {1: "P002"}
    body = corrections.deviate(ev.db, ev.id, second["number"], ["notice"], "a new player, a busy table")
    assert body["penalties"] == ["notice"]
    assert winners(ev, 1) == {}
    saved = ruling(ev, second["number"])
    assert saved["penalties"] == ["notice"]
    assert saved["guideline_penalties"] == ["warning1", "duel_loss"]
    assert saved["deviation_reason"] == "a new player, a busy table"
    assert saved["state"] == "confirmed"
    assert "a new player" in saved["explanation_en"]
    consistent(ev.db)


def test_a_deviation_can_add_an_effect_and_deviating_again_replaces_it(ev: EventSetup) -> None:
    n = only(ev.record("P001", "ingame.extra-cards-drawn"))["number"]
    corrections.deviate(ev.db, ev.id, n, ["warning1", "duel_loss"], "hid the card on purpose")
    assert winners(ev, 1) == {1: "P002"}
    corrections.deviate(ev.db, ev.id, n, ["warning2", "disqualification"], "it was cheating")
    assert winners(ev, 1) == {}
    assert status(ev, "P001") == "disqualified"
    corrections.deviate(ev.db, ev.id, n, ["warning1"], "appeal: back to the guideline")
    assert status(ev, "P001") == "active"
    consistent(ev.db)


def test_a_deviation_needs_a_reason_and_real_penalties(ev: EventSetup) -> None:
    n = only(ev.record("P001", "ingame.extra-cards-drawn"))["number"]
    with pytest.raises(InvalidInput, match="reason"):
        corrections.deviate(ev.db, ev.id, n, ["caution"], "  ")
    with pytest.raises(InvalidInput, match="unknown penalty"):
        corrections.deviate(ev.db, ev.id, n, ["flogging"], "why not")
    with pytest.raises(InvalidInput, match="reason"):
        corrections.void(ev.db, ev.id, n, "")
    corrections.void(ev.db, ev.id, n, "gone")
    with pytest.raises(Conflict, match="voided"):
        corrections.deviate(ev.db, ev.id, n, ["caution"], "too late")
    consistent(ev.db)


# -- deadlines (D7, D9) ---------------------------------------------------------------------------


def test_tardiness_opens_two_deadlines(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    found = sorted(deadlines.list_deadlines(ev.db, ev.id, now=T0), key=lambda d: d.position)
    assert [(d.ruling, d.position, d.due_kind, d.state, d.player) for d in found] == [
        (n, 0, "minutes", "pending", "P001"),
        (n, 1, "end_of_match", "pending", "P001"),
    ]
    assert found[0].due_at == stamp(T0 + timedelta(minutes=10))
    assert found[0].on_miss == {"penalties": ["duel_loss"], "effects": []}
    assert found[1].on_miss == {"penalties": [], "effects": ["withdrawn"]}
    assert (found[1].round, found[1].table) == (1, 1)
    consistent(ev.db)


def test_a_deadline_is_given_by_the_names_its_shape_gives(ev: EventSetup) -> None:
    only(ev.record("P001", "pregame.tardiness"))
    found = deadlines.list_deadlines(ev.db, ev.id, now=T0)
    given = [d.as_json() for d in found]
    assert [list(d) for d in given] == [list(deadlines.DeadlineJson.__annotations__)] * 2
    assert [(d["on_miss"], d["state"]) for d in given] == [(d.on_miss, "pending") for d in found]


def test_a_minutes_deadline_is_overdue_once_now_passes_it(ev: EventSetup) -> None:
    ev.record("P001", "pregame.tardiness")

    def minutes_deadline(minutes: float) -> deadlines.Deadline:
        now = T0 + timedelta(minutes=minutes)
        (d,) = [d for d in deadlines.list_deadlines(ev.db, ev.id, now=now) if d.due_kind == "minutes"]
        return d

    assert (minutes_deadline(9).overdue, minutes_deadline(9).seconds_left) == (False, 60.0)
    assert minutes_deadline(10).overdue
    late = minutes_deadline(11)
    assert late.overdue and late.seconds_left == -60.0
    listed = deadlines.list_deadlines(ev.db, ev.id, now=T0 + timedelta(minutes=11))
    assert listed[0].due_kind == "minutes"  # the overdue first


def test_an_end_of_match_deadline_is_overdue_once_the_tables_time_ends_not_at_its_result(
    ev: EventSetup,
) -> None:
    """D23: the match decided by a result is not the end of the match for the deadline; the
    table's time running out is."""
    ev.record("P001", "pregame.tardiness")

    def end_of_match(minutes: float) -> deadlines.Deadline:
        now = T0 + timedelta(minutes=minutes)
        found = deadlines.list_deadlines(ev.db, ev.id, now=now)
        (d,) = [d for d in found if d.due_kind == "end_of_match"]
        return d

    assert not end_of_match(0).overdue
    rounds.start_round(ev.db, ev.id, minutes=50, now=T0)  # results once the round runs (T5)
    events.report_result(ev.db, ev.id, 1, 1, result="b")
    assert not end_of_match(1).overdue and not end_of_match(49).overdue
    assert end_of_match(51).overdue


def test_a_deadline_met_is_closed(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    deadlines.mark_done(ev.db, ev.id, n, 0, judge="FJ", now=T0 + timedelta(minutes=4))
    assert deadlines.list_deadlines(ev.db, ev.id, now=T0) == []  # the player came: both close
    closed = deadlines.list_deadlines(ev.db, ev.id, now=T0, include_closed=True)
    assert {(d.position, d.state) for d in closed} == {(0, "done"), (1, "done")}
    with pytest.raises(Conflict, match="already done"):
        deadlines.mark_done(ev.db, ev.id, n, 0)
    with pytest.raises(NotFound):
        deadlines.mark_done(ev.db, ev.id, n, 7)
    consistent(ev.db)


def test_a_missed_deadline_records_the_follow_up_and_applies_it(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    assert winners(ev, 1) == {1: "P002"}
    (follow,) = deadlines.mark_missed(ev.db, ev.id, n, judge="FJ", now=T0 + timedelta(minutes=10))
    assert follow["follow_up"] is True
    assert (follow["rule"], follow["offense"], follow["player"]) == ("pregame.tardiness", 1, "P001")
    assert follow["penalties"] == ["duel_loss"] and follow["trigger"] == "deadline_missed"
    assert winners(ev, 1) == {1: "P002", 2: "P002"}
    assert match(ev, 1)["result"] == "b"
    assert counter(ev, "P001", "pregame.tardiness") == 1  # a follow-up is not another offence
    (pending,) = deadlines.list_deadlines(ev.db, ev.id, now=T0)
    assert (pending.position, pending.due_kind) == (1, "end_of_match")
    with pytest.raises(Forbidden, match="before it is due"):  # D23: due when the table's time ends
        deadlines.mark_missed(ev.db, ev.id, n, judge="FJ")
    (withdrawn,) = deadlines.mark_missed(ev.db, ev.id, n)  # the head judge marks it missed sooner
    assert withdrawn["effects"] == ["withdrawn"] and withdrawn["offense"] == 1 and withdrawn["follow_up"]
    assert status(ev, "P001") == "withdrawn"
    assert deadlines.list_deadlines(ev.db, ev.id, now=T0) == []
    with pytest.raises(NotFound, match="no pending deadline"):
        deadlines.mark_missed(ev.db, ev.id, n)
    with pytest.raises(Refused, match="withdrawn"):
        ev.pair(2, [("P001", "P003")])
    consistent(ev.db)


def test_voiding_a_missed_deadlines_follow_up_reverses_it(ev: EventSetup) -> None:
    n = only(ev.record("P001", "pregame.tardiness"))["number"]
    deadlines.mark_missed(ev.db, ev.id, n, 0)
    (withdrawn,) = deadlines.mark_missed(ev.db, ev.id, n, 1)
    corrections.void(ev.db, ev.id, withdrawn["number"], "the player was at the wrong table")
    assert status(ev, "P001") == "active"
    consistent(ev.db)


def test_a_deadline_and_a_round_keep_their_state_in_the_words_the_json_has_always_said(
    ev: EventSetup,
) -> None:
    def kept(table: str, key: str) -> list[tuple[Any, ...]]:
        with ev.db.read() as conn:
            query = f"SELECT {key}, state FROM {table} WHERE event_id = :e ORDER BY {key}"
            return [tuple(row) for row in Statement(query).all(conn, {"e": ev.id})]

    late = only(ev.record("P001", "pregame.tardiness"))["number"]
    voided = only(ev.record("P003", "pregame.tardiness"))["number"]
    assert kept("rounds", "number") == [(1, "paired")]
    assert json.dumps(rounds.round_clock(ev.db, ev.id).as_json()["state"]) == '"paired"'
    deadlines.mark_missed(ev.db, ev.id, late, 0)
    corrections.void(ev.db, ev.id, voided, "the player was at the wrong table")
    rounds.start_round(ev.db, ev.id)
    assert kept("rounds", "number") == [(1, "started")]
    deadlines.mark_done(ev.db, ev.id, late, 1)
    for m in queries.round_matches(ev.db, ev.id, 1)["matches"]:
        if m["result"] is None:  # table 1's came with the missed deadline's second duel loss
            events.report_result(ev.db, ev.id, 1, m["table"], result="a")
    events.end_round(ev.db, ev.id, 1)
    assert kept("rounds", "number") == [(1, "ended")]
    assert kept("deadlines", "ruling, position") == [
        (late, 0, "missed"), (late, 1, "done"), (voided, 0, "cancelled"), (voided, 1, "cancelled"),
    ]  # fmt: skip
    listed = [d.as_json() for d in deadlines.list_deadlines(ev.db, ev.id, include_closed=True)]
    assert sorted(json.dumps(d["state"]) for d in listed) == [
        '"cancelled"',
        '"cancelled"',
        '"done"',
        '"missed"',
    ]
    assert json.dumps(rounds.round_clock(ev.db, ev.id).as_json()["state"]) == '"ended"'
    consistent(ev.db)


# -- the projections are the entries ------------------------------------------------------------


def test_after_a_rich_event_the_tables_equal_a_rebuild_from_the_entries(ev: EventSetup) -> None:
    db, eid = ev.db, ev.id
    ev.record("P001", "pregame.tardiness")
    ev.record("P002", "ingame.slow-play")
    ev.record("P003", "players.wrong-opponent")
    ev.record("P005", "ingame.extra-cards-drawn", command_id="retry-me")
    ev.record("P005", "ingame.extra-cards-drawn", command_id="retry-me")
    ev.record("P005", "ingame.slow-play")
    ev.record("P005", "players.wrong-opponent")  # three unrelated single warnings (D3)
    n = only(ev.record("P007", "ingame.extra-cards-drawn"))["number"]
    ev.record("P007", "ingame.extra-cards-drawn")
    corrections.deviate(db, eid, n, ["caution"], "first-timer")
    tardy = only(ev.record("P008", "pregame.tardiness"))["number"]
    deadlines.mark_missed(db, eid, tardy, 0)
    deadlines.mark_done(db, eid, tardy, 1)
    late = only(ev.record("P004", "pregame.tardiness"))["number"]
    corrections.void(db, eid, late, "it was P003's watch")
    rounds.start_round(db, eid)  # results once the round runs (T5)
    # The penalties decided table 4 (2-1); the slip says otherwise: a correction (T11).
    results.report_result(db, eid, 1, 4, results.Wanted(match="b", replaces="2-1", reason="the slip"))
    ev.record("P007", "ingame.slow-play")
    ev.record("P007", "ingame.slow-play")  # duel loss after the match ended: waits
    ev.record("P006", "severe.cheating")
    pending = [r["number"] for r in queries.rulings_feed(db, eid, state="pending")]
    corrections.confirm(db, eid, pending[:3])
    events.end_round(db, eid, 1, open_tables={1: OpenTable.draw})
    ev.clock.advance(minutes=50)
    ev.pair(2, [("P007", "P001"), ("P002", "P003"), ("P004", "P005"), ("P008", None)])
    ev.record("P004", "pregame.tardiness")
    with db.read() as conn:
        count = {
            t: Statement(f"SELECT count(*) FROM {t} WHERE event_id = :e").scalar(conn, {"e": eid})
            for t in ("rulings", "duels", "matches")
        }
        assert count["rulings"] >= 15
        assert count["duels"] >= 4
        assert count["matches"] == 8
    assert winners(ev, 1, round_no=2) == {1: "P001"}  # P007's waiting duel loss landed
    assert any(
        r["rule"] == "general.unrelated-warnings" for r in queries.player_history(db, eid, "P005")["rulings"]
    )
    assert integrity.rebuild(db, check_only=True) == []
    result = integrity.verify(db)
    assert result.ok and result.events == 1 and result.entries == entry_count(ev)
    # a full rebuild changes nothing either
    with db.read() as conn:
        before = snapshot(conn, eid)
    assert integrity.rebuild(db) == []
    with db.read() as conn:
        assert snapshot(conn, eid) == before


def test_events_do_not_see_each_other(new_event: Any) -> None:
    one: EventSetup = new_event(players=4)
    two: EventSetup = new_event(players=4, name="別の大会")
    one.record("P001", "ingame.slow-play")
    saved = only(two.record("P001", "ingame.slow-play"))
    assert (saved["number"], saved["offense"]) == (1, 1)
    assert [e.id for e in list_events(one.db)] == [one.id, two.id]
    assert len(queries.player_history(one.db, two.id, "P001")["rulings"]) == 1
    assert list_events(one.db)[1].head_judge == HEAD_JUDGE
    consistent(one.db)
