"""Results as people report them, through the services, the CLI and the JSON API, on SQLite
and PostgreSQL: a slip's score (at time too), drawn duels in GW, T11's corrections and the
409 on a stale, queued or racing result (real concurrent requests), T5's rounds not
started, T6's standings after round N.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from conftest import EventSetup, run_cli
from shinpan.engine.event_rules import Role
from shinpan.errors import Conflict, Forbidden, InvalidInput, ResultStands
from shinpan.services import corrections, events, results, rounds, swiss
from shinpan.services.results import Wanted
from shinpan.services.scoresheet import round_sheet
from shinpan.store.connection import Statement
from shinpan.tournament.rounds import OpenTable
from shinpan.views.standings import event_standings
from web_support import HEAD_JUDGE, SCOREKEEPER, LiveServer, World, sign_in, worlds


def standing(ev: EventSetup, player: str, round_no: int | None = None) -> dict[str, Any]:
    rows = event_standings(ev.db, ev.id, round_no).as_json()["standings"]
    found: dict[str, Any] = next(s for s in rows if s["player"] == player)
    return found


def entries(db: Any, event_id: int, kind: str) -> list[dict[str, Any]]:
    with db.read() as conn:
        rows = Statement("SELECT body FROM entries WHERE event_id = :e AND kind = :k ORDER BY seq").scalars(
            conn, {"e": event_id, "k": kind}
        )
    return [json.loads(b) for b in rows]


# -- T5: results once a round runs --------------------------------------------------------------


def test_t5_a_round_only_paired_takes_no_result_until_it_starts(ev: EventSetup) -> None:
    with pytest.raises(Conflict, match="has not started"):
        results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"))
    rounds.start_round(ev.db, ev.id)
    assert results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"))["result"] == "a"


def test_t5_only_the_head_judge_ends_a_round_that_never_started_and_then_it_takes_results(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event(players=4)
    events.add_judge(ev.db, ev.id, name="SK", level=None, role=Role.scorekeeper)
    with pytest.raises(Forbidden, match="only the head judge"):
        events.end_round(ev.db, ev.id, actor="SK")
    events.end_round(ev.db, ev.id)  # the head judge
    assert results.report_result(ev.db, ev.id, 1, 2, Wanted(match="b"), actor="SK")["result"] == "b"


# -- T7, T8: the slip's score, at time, drawn duels ---------------------------------------------


def test_a_slips_score_a_draw_with_a_drawn_duel_and_a_match_at_time_count_as_written(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)
    assert results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-1"))["shown"] == "2-1"
    assert results.report_result(ev.db, ev.id, 1, 2, Wanted(score="1-1-1"))["result"] == "draw"
    at_time = results.report_result(ev.db, ev.id, 1, 3, Wanted(score="1-0", at_time=True))
    assert (at_time["result"], at_time["at_time"]) == ("a", True)
    results.report_result(ev.db, ev.id, 1, 4, Wanted(duel=1, draw=True))
    assert results.report_result(ev.db, ev.id, 1, 4, Wanted(duel=2, winner="P008"))["result"] is None
    assert results.report_result(ev.db, ev.id, 1, 4, Wanted(winner="P008"))["shown"] == "0-2-1"
    assert standing(ev, "P001")["gw"] == round(6 / 9, 4) and standing(ev, "P002")["gw"] == round(3 / 9, 4)
    assert standing(ev, "P003")["gw"] == round(4 / 9, 4) and standing(ev, "P003")["points"] == 1
    assert standing(ev, "P005")["gw"] == 1.0 and standing(ev, "P006")["gw"] == round(1 / 3, 4)
    assert standing(ev, "P008")["gw"] == round(7 / 9, 4) and standing(ev, "P007")["gw"] == round(1 / 3, 4)
    with pytest.raises(InvalidInput, match="not finished"):
        results.report_result(ev.db, ev.id, 1, 4, Wanted(score="1-0", replaces="0-2-1", reason="x"))


# -- T11 through the services --------------------------------------------------------------------


def test_t11_a_correction_replaces_what_stands_the_ledger_keeps_both_and_standings_follow(
    ev: EventSetup,
) -> None:
    rounds.start_round(ev.db, ev.id)
    first = results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"))
    assert standing(ev, "P001")["points"] == 3
    with pytest.raises(ResultStands) as refused:
        results.report_result(ev.db, ev.id, 1, 1, Wanted(score="0-2"))
    assert refused.value.details["shown"] == "2-0" and refused.value.details["entry"] == first["entry"]
    with pytest.raises(InvalidInput, match="why"):
        results.report_result(ev.db, ev.id, 1, 1, Wanted(score="0-2", replaces="2-0"))
    done = results.report_result(
        ev.db, ev.id, 1, 1, Wanted(score="0-2", replaces="2-0", reason="席を逆に読んだ")
    )
    assert done["correction"] and done["corrects"] == first["entry"]
    assert standing(ev, "P001")["points"] == 0 and standing(ev, "P002")["points"] == 3
    kept = entries(ev.db, ev.id, "result.reported")
    assert [b["shown"] for b in kept] == ["2-0", "0-2"] and kept[1]["reason"] == "席を逆に読んだ"
    with pytest.raises(ResultStands):  # a stale correction: it names what stood before
        results.report_result(
            ev.db, ev.id, 1, 1, Wanted(match="a", replaces_entry=first["entry"], reason="x")
        )


def test_t11_once_the_next_round_is_paired_only_the_head_judge_corrects_and_the_pairings_stand(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event(players=4)
    events.add_judge(ev.db, ev.id, name="SK", level=None, role=Role.scorekeeper)
    rounds.start_round(ev.db, ev.id)
    results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"), actor="SK")
    results.report_result(ev.db, ev.id, 1, 2, Wanted(score="2-1"), actor="SK")
    events.end_round(ev.db, ev.id, actor="SK")
    swiss.pair_next_round(ev.db, ev.id, seed=3, actor="SK")
    seated = [(m.table, m.a.number, m.b.number if m.b else None) for m in round_sheet(ev.db, ev.id, 2).rows]
    with pytest.raises(Forbidden, match="only the head judge"):
        results.report_result(ev.db, ev.id, 1, 1, Wanted(score="0-2", replaces="2-0", reason="x"), actor="SK")
    results.report_result(ev.db, ev.id, 1, 1, Wanted(score="0-2", replaces="2-0", reason="結果票の読み違い"))
    assert standing(ev, "P002", 1)["points"] == 3 and standing(ev, "P001", 1)["points"] == 0
    assert [
        (m.table, m.a.number, m.b.number if m.b else None) for m in round_sheet(ev.db, ev.id, 2).rows
    ] == seated


# -- T6: the standings after round N -------------------------------------------------------------


def test_t6_a_drop_or_a_disqualification_after_round_n_ended_belongs_to_round_n_plus_one(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event(players=4)
    rounds.start_round(ev.db, ev.id)
    results.report_result(ev.db, ev.id, 1, 1, Wanted(score="2-0"))
    results.report_result(ev.db, ev.id, 1, 2, Wanted(score="0-2"))
    events.end_round(ev.db, ev.id)
    swiss.drop_player(ev.db, ev.id, "P002")
    dq = ev.record("P003", "severe.cheating").rulings[0]["number"]
    corrections.confirm(ev.db, ev.id, [dq])
    after_1 = {
        s["player"]: (s["rank"], s["status"]) for s in event_standings(ev.db, ev.id, 1).as_json()["standings"]
    }
    assert after_1["P002"][1] == "active" and after_1["P003"][1] == "active"
    assert after_1["P003"][0] is not None  # ranked: the disqualification came after round 1 ended
    swiss.pair_next_round(ev.db, ev.id, seed=1)
    rounds.start_round(ev.db, ev.id)
    results.report_result(ev.db, ev.id, 2, 1, Wanted(score="2-0"))
    events.end_round(ev.db, ev.id)
    after_2 = {
        s["player"]: (s["rank"], s["status"]) for s in event_standings(ev.db, ev.id, 2).as_json()["standings"]
    }
    assert after_2["P002"][1] == "dropped" and after_2["P003"] == (None, "disqualified")


def test_t5_t6_standings_say_which_round_and_its_state_never_round_0(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event(players=4, pair=False)
    nothing = event_standings(ev.db, ev.id).as_json()
    assert (nothing["round"], nothing["state"]) == (None, "none")
    assert rounds.round_clock(ev.db, ev.id).as_json()["round"] is None
    swiss.pair_next_round(ev.db, ev.id, seed=1)
    assert event_standings(ev.db, ev.id).as_json()["round"] is None  # paired, nothing played
    clock = rounds.round_clock(ev.db, ev.id).as_json()
    assert clock["state"] == "paired" and not any(t["playing"] for t in clock["tables"])
    rounds.start_round(ev.db, ev.id)
    assert event_standings(ev.db, ev.id).as_json()["state"] == "started"
    events.end_round(ev.db, ev.id, open_tables={1: OpenTable.draw, 2: OpenTable.draw})
    swiss_table = event_standings(ev.db, ev.id).as_json()
    assert (swiss_table["round"], swiss_table["state"]) == (1, "ended")


# -- the CLI (its contract) ---------------------------------------------------------------------


def test_the_cli_reports_scores_drawn_duels_time_and_refuses_in_japanese_naming_what_stands(
    new_event: Callable[..., EventSetup], db_url: str
) -> None:
    ev = new_event(players=6)
    e = str(ev.id)

    def result(*args: str) -> Any:
        return run_cli("result", "--event", e, "--round", "1", *args, db=db_url)

    early = result("--table", "1", "--score", "2-1")
    assert early.returncode == 1 and "has not started" in early.stderr
    rounds.start_round(ev.db, ev.id)
    assert result("--table", "1", "--score", "2-1").stdout.strip() == (
        "記録しました: 第1回戦、1番卓: 2-1 / recorded: round 1, table 1: 2-1"
    )
    assert result("--table", "2", "--duel", "1", "--draw").returncode == 0
    assert (
        result("--table", "2", "--score", "1-0", "--time", "--replaces", "x", "--reason", "r").returncode == 1
    )
    assert result("--table", "3", "--score", "1-0", "--time", "--json").returncode == 0
    stale = result("--table", "1", "--match", "b")
    assert stale.returncode == 1 and stale.stdout == ""
    assert "すでに結果があります: 2-1" in stale.stderr and "選手 1の勝ち" in stale.stderr
    assert "--replaces" not in stale.stderr and len(stale.stderr.strip().splitlines()) == 1
    assert result("--table", "1", "--match", "b", "--replaces", "2-1").returncode == 2  # no reason
    fixed = result("--table", "1", "--score", "1-2", "--replaces", "2-1", "--reason", "読み違い", "--json")
    assert fixed.returncode == 0, fixed.stderr
    assert json.loads(fixed.stdout)["correction"] is True
    table = json.loads(run_cli("standings", "--event", e, "--json", db=db_url).stdout)
    assert table["state"] == "started" and table["round"] == 1
    points = {s["player"]: s["points"] for s in table["standings"]}
    assert points["P002"] == 3 and points["P001"] == 0 and points["P005"] == 3
    for wrong in (
        ["--match", "x"],
        ["--score", "2-1", "--match", "a"],
        ["--time", "--match", "a"],
        ["--duel", "1"],
    ):
        assert result("--table", "3", *wrong).returncode == 2, wrong


# -- the JSON API: 409 with what stands; a phone's queued result; two at once ------------------


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for w in worlds(request, tmp_path_factory, players=20, spare=0):
        rounds.start_round(w.db, w.event)
        yield w


def test_the_api_refuses_a_second_result_with_409_and_the_result_that_stands(world: World) -> None:
    w, sk, hj = world, world.clients["scorekeeper"], world.clients["head_judge"]
    url = f"/api/events/{w.event}/results"
    first = sk.post(url, json={"command_id": w.cid(), "round": 1, "table": 1, "score": "2-1"})
    assert first.status_code == 200, first.text
    assert first.json()["shown"] == "2-1" and first.json()["correction"] is False
    second = hj.post(url, json={"command_id": w.cid(), "round": 1, "table": 1, "match": "b"})
    assert second.status_code == 409
    stands = second.json()["stands"]
    assert (stands["shown"], stands["result"], stands["entry"]) == ("2-1", "a", first.json()["entry"])
    assert "すでに結果があります" in second.json()["detail"] and "2-1" in second.json()["detail"]
    fixed = hj.post(
        url,
        json={
            "command_id": w.cid(),
            "round": 1,
            "table": 1,
            "match": "b",
            "replaces": stands["entry"],
            "reason": "結果票の読み違い",
        },
    )
    assert fixed.status_code == 200 and fixed.json()["corrects"] == stands["entry"]
    drawn = sk.post(url, json={"command_id": w.cid(), "round": 1, "table": 2, "duel": 1, "draw": True})
    assert drawn.status_code == 200 and drawn.json()["result"] is None
    timed = sk.post(url, json={"command_id": w.cid(), "round": 1, "table": 3, "score": "0-1", "time": True})
    assert timed.status_code == 200 and (timed.json()["result"], timed.json()["at_time"]) == ("b", True)
    schema = w.app.openapi()
    body = schema["components"]["schemas"]["ResultIn"]["properties"]
    assert {"score", "time", "draw", "match", "replaces", "reason"} <= set(body)
    assert "409" in schema["paths"]["/api/events/{event_id}/results"]["post"]["responses"]


def test_a_phones_queued_result_arriving_late_is_refused_and_its_retry_replays(world: World) -> None:
    w, sk, hj = world, world.clients["scorekeeper"], world.clients["head_judge"]
    url = f"/api/events/{w.event}/results"
    queued = {"command_id": w.cid("phone"), "round": 1, "table": 5, "score": "0-2"}  # made offline
    desk = sk.post(url, json={"command_id": w.cid(), "round": 1, "table": 5, "score": "2-0"})
    assert desk.status_code == 200
    late = hj.post(url, json=queued)  # the phone is back: its queue is sent
    assert late.status_code == 409 and late.json()["stands"]["shown"] == "2-0"
    retried = sk.post(url, json={**queued, "command_id": w.cid("desk-retry")})
    assert retried.status_code == 409
    body = {"command_id": w.cid("phone"), "round": 1, "table": 6, "score": "2-1"}
    sent = sk.post(url, json=body)
    resent = sk.post(url, json=body)  # the same command sent again (no answer reached the phone)
    assert resent.status_code == 200 and resent.json()["entry"] == sent.json()["entry"]


def test_two_results_for_one_table_sent_at_once_one_stands_the_other_is_told_which(world: World) -> None:
    w = world
    tables = list(range(7, 11))
    with LiveServer(w.app) as server:
        people = [
            sign_in(httpx.Client(base_url=server.url, timeout=30), name, password)
            for name, password in (SCOREKEEPER, HEAD_JUDGE[:2])
        ]
        answers: dict[int, list[httpx.Response]] = {t: [] for t in tables}
        barrier = threading.Barrier(2)

        def send(who: int, score: str) -> None:
            for t in tables:
                barrier.wait(10)
                body = {"command_id": w.cid(f"race{who}"), "round": 1, "table": t, "score": score}
                answers[t].append(people[who].post(f"/api/events/{w.event}/results", json=body))

        threads = [
            threading.Thread(target=send, args=(0, "2-0")),
            threading.Thread(target=send, args=(1, "0-2")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        for person in people:
            person.http.close()
    for t in tables:
        codes = sorted(r.status_code for r in answers[t])
        assert codes == [200, 409], (t, [r.text for r in answers[t]])
        won = next(r for r in answers[t] if r.status_code == 200).json()
        told = next(r for r in answers[t] if r.status_code == 409).json()["stands"]
        assert told["shown"] == won["shown"] and told["entry"] == won["entry"]
    reported = [b for b in entries(w.db, w.event, "result.reported") if b["table"] in tables]
    assert len(reported) == len(tables)  # the refused ones wrote nothing
