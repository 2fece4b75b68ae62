"""CATALOG D23 through the services, the CLI and the JSON API, on SQLite and PostgreSQL: a
tardy player's "not here by the end of the match: withdrawn" deadline falls due when the
table's time ends (the round's 50 minutes and that table's extensions), not when the duel
losses decide the match; a judge marks the player arrived (到着), which closes what waits
for them; the head judge may still mark it missed sooner (D21); the duel losses stand.

Read `late(ev, "P001")` as "the floor judge records P001 late, one minute into round 1".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from conftest import HEAD_JUDGE, EventSetup, run_cli
from shinpan.engine.event_rules import DeadlineState
from shinpan.errors import Conflict, Forbidden
from shinpan.services import deadlines, formats, rounds
from shinpan.services.context import parse_stamp
from test_ledger_services import consistent, match, winners
from web_support import World, worlds

PAIRS = [("P001", "P002"), ("P003", "P004"), ("P005", "P006"), ("P007", "P008")]


def event_of(new_event: Any, match_format: str) -> EventSetup:
    ev: EventSetup = new_event(pair=False)
    formats.set_format(ev.db, ev.id, match_format=match_format, actor=HEAD_JUDGE, now=ev.clock.now)
    ev.pair(1, PAIRS)
    rounds.start_round(ev.db, ev.id, minutes=50, now=ev.clock.now)
    return ev


def late(ev: EventSetup, player: str) -> int:
    ev.clock.advance(minutes=1)
    return int(ev.record(player, "pregame.tardiness").rulings[0]["number"])


def waiting(ev: EventSetup, ruling: int, minutes: float) -> dict[int, tuple[str, bool]]:
    """Each deadline of ``ruling``, ``minutes`` after the round started: (state, overdue)."""
    started = rounds.round_clock(ev.db, ev.id, now=ev.clock.now).started_at
    assert started is not None
    moment = parse_stamp(started) + timedelta(minutes=minutes)
    found = deadlines.list_deadlines(ev.db, ev.id, now=moment, include_closed=True)
    return {d.position: (d.state.value, d.overdue) for d in found if d.ruling == ruling}


def test_d23_best_of_one_the_duel_loss_decides_the_match_but_the_deadline_waits_for_the_table(
    new_event: Any,
) -> None:
    ev = event_of(new_event, "bo1")
    ruling = late(ev, "P001")
    assert match(ev, 1)["result"] == "b"  # the one duel lost: the match is decided (D10)
    assert waiting(ev, ruling, 1) == {0: ("pending", False), 1: ("pending", False)}
    assert waiting(ev, ruling, 49.9)[1] == ("pending", False)  # not due: the table's time runs
    assert waiting(ev, ruling, 50)[1] == ("pending", True)  # due when the table's time ends
    shown = {d.position: d for d in deadlines.list_deadlines(ev.db, ev.id, now=ev.clock.now)}
    assert (shown[1].clock, shown[1].arrival) == ("table_time", True)
    with pytest.raises(Forbidden, match="only the head judge"):  # not due: the floor judge cannot
        deadlines.mark_missed(ev.db, ev.id, ruling, 1, judge=ev.floor_judge, now=ev.clock.now)
    consistent(ev.db)


def test_d23_a_table_s_extension_pushes_the_deadline(new_event: Any) -> None:
    ev = event_of(new_event, "bo3")  # the match goes on after one duel loss: time may be given
    ruling = late(ev, "P001")
    rounds.give_time(ev.db, ev.id, 1, 10, "デッキチェック", judge=HEAD_JUDGE, now=ev.clock.now)
    assert waiting(ev, ruling, 55)[1] == ("pending", False)  # the round's time is over, table 1's is not
    assert waiting(ev, ruling, 60)[1] == ("pending", True)
    other = late(ev, "P003")  # table 2 had no extension
    assert waiting(ev, other, 50)[1] == ("pending", True)


def test_d23_arrived_closes_what_waits_for_the_player_and_the_duel_loss_stands(new_event: Any) -> None:
    ev = event_of(new_event, "bo1")
    ruling = late(ev, "P001")
    ev.clock.advance(minutes=3)
    deadlines.mark_arrived(ev.db, ev.id, ruling, judge=ev.floor_judge, now=ev.clock.now)
    assert waiting(ev, ruling, 60) == {0: ("done", False), 1: ("done", False)}
    assert winners(ev, 1) == {1: "P002"} and match(ev, 1)["result"] == "b"  # the duel loss stands
    with pytest.raises(Conflict, match="no deadline waiting"):
        deadlines.mark_arrived(ev.db, ev.id, ruling, judge=ev.floor_judge, now=ev.clock.now)
    consistent(ev.db)


def test_d23_best_of_three_the_second_duel_loss_at_ten_minutes_leaves_the_deadline_waiting(
    new_event: Any,
) -> None:
    ev = event_of(new_event, "bo3")
    ruling = late(ev, "P001")
    assert match(ev, 1)["result"] is None
    ev.clock.advance(minutes=10)  # 11 minutes into the round: the 10 minutes are over
    deadlines.mark_missed(ev.db, ev.id, ruling, 0, judge=ev.floor_judge, now=ev.clock.now)
    assert match(ev, 1)["result"] == "b"  # two duels lost: the match is decided
    assert waiting(ev, ruling, 11)[1] == ("pending", False)  # still until the table's time ends
    assert waiting(ev, ruling, 50)[1] == ("pending", True)
    ev.clock.advance(minutes=9)  # 20 minutes: the player comes
    deadlines.mark_arrived(ev.db, ev.id, ruling, judge=ev.floor_judge, now=ev.clock.now)
    assert waiting(ev, ruling, 60)[1] == ("done", False)
    assert winners(ev, 1) == {1: "P002", 2: "P002"}  # both duel losses stand
    consistent(ev.db)


def test_d21_the_head_judge_may_still_mark_it_missed_sooner(new_event: Any) -> None:
    ev = event_of(new_event, "bo1")
    ruling = late(ev, "P001")
    made = deadlines.mark_missed(ev.db, ev.id, ruling, 1, judge=HEAD_JUDGE, now=ev.clock.now)
    assert [r["effects"] for r in made] == [["withdrawn"]]


def test_d23_arrived_on_the_command_line(new_event: Any, db_url: str) -> None:
    ev = event_of(new_event, "bo1")
    ruling = late(ev, "P001")
    listed = json.loads(run_cli("deadlines", "--event", str(ev.id), "--json", db=db_url).stdout)
    assert {(d["position"], d["clock"], d["arrival"]) for d in listed if d["ruling"] == ruling} == {
        (0, "round_start", True),
        (1, "table_time", True),
    }
    done = run_cli(
        "deadlines", "--event", str(ev.id), "arrived", str(ruling), "--judge", HEAD_JUDGE, db=db_url
    )
    assert done.returncode == 0, done.stderr
    assert "到着" in done.stdout
    assert all(
        d.state is DeadlineState.done for d in deadlines.list_deadlines(ev.db, ev.id, include_closed=True)
    )
    again = run_cli(
        "deadlines", "--event", str(ev.id), "arrived", str(ruling), "--judge", HEAD_JUDGE, db=db_url
    )
    assert again.returncode == 1 and "Traceback" not in again.stderr


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for w in worlds(request, tmp_path_factory, players=8, spare=0):
        rounds.start_round(w.db, w.event)
        yield w


def test_d23_arrived_through_the_json_api_and_the_desk(world: World) -> None:
    w, fj = world, world.clients["floor_judge"]
    ruling = w.record(w.players[0], "pregame.tardiness")
    listed = fj.get(f"/api/events/{w.event}/deadlines").json()
    assert [d["arrival"] for d in listed if d["ruling"] == ruling] == [True, True]
    done = fj.post(f"/api/events/{w.event}/deadlines/{ruling}/0/arrived", json={"command_id": w.cid()})
    assert done.status_code == 200, done.text
    assert done.json() == {"arrived": [ruling, 0]}
    closed = deadlines.list_deadlines(w.db, w.event, include_closed=True)
    assert {d.state for d in closed if d.ruling == ruling} == {DeadlineState.done}
    other = w.record(w.players[2], "pregame.tardiness")
    desk = w.clients["head_judge"].get(f"/events/{w.event}/desk")
    assert f"/desk/deadline/{other}/0/arrived" in desk.text
    end_of_match = desk.text.split(f'id="deadline-{other}-1"', 1)[1].split("</article>", 1)[0]
    assert "その卓の対戦時間の終了時" in end_of_match and 'class="countdown tag" data-left=' in end_of_match
    opening = desk.text.split(f'id="deadline-{other}-1"', 1)[0].rsplit("<article", 1)[1]
    assert 'class="deadline"' in opening  # not overdue: the table's time runs (D23)
