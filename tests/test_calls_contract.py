"""The contract of judge calls (T14): ``shinpan call raise|claim|escalate|resolve|list`` and
``shinpan record … --call N`` with their ``--json`` shapes, and the JSON API that mirrors
them (in the OpenAPI document). Refusals are in Japanese and change nothing. SQLite and
PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import FLOOR_JUDGE, EventSetup, run_cli
from shinpan.services import rounds
from web_support import World, ledger_size, worlds


def _cli(ev: EventSetup, *args: str) -> Any:
    done = run_cli(*args, "--event", str(ev.id), "--json", db=ev.db.url)
    assert done.returncode == 0, done.stderr + done.stdout
    return json.loads(done.stdout)


def _refused(ev: EventSetup, *args: str) -> str:
    done = run_cli(*args, "--event", str(ev.id), db=ev.db.url)
    assert done.returncode != 0, done.stdout
    return done.stderr + done.stdout


def test_the_command_line_raises_claims_records_from_and_resolves_a_call(ev: EventSetup) -> None:
    rounds.start_round(ev.db, ev.id)
    raised = _cli(ev, "call", "raise", "--table", "2", "--reason", "rules")
    n = raised["call"]
    assert raised == {"call": n, "round": 1, "table": 2, "state": "open"}
    (listed,) = _cli(ev, "call", "list", "--open")["calls"]
    assert {k: listed[k] for k in ("call", "table", "state", "judge", "rulings")} == {
        "call": n,
        "table": 2,
        "state": "open",
        "judge": None,
        "rulings": [],
    }
    assert isinstance(listed["waited_s"], int)
    claimed = _cli(ev, "call", "claim", str(n), "--judge", FLOOR_JUDGE)
    assert claimed == {"call": n, "round": 1, "table": 2, "state": "claimed"}
    assert "対応しています" in _refused(ev, "call", "claim", str(n))  # the head judge is too late
    recorded = run_cli(
        "record", "ingame.slow-play", "--event", str(ev.id), "--player", "P003", "--call", str(n),
        "--judge", FLOOR_JUDGE, "--yes", "--json", db=ev.db.url,
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr
    ruling = json.loads(recorded.stdout)["rulings"][0]["number"]
    (held,) = _cli(ev, "call", "list")["calls"]
    assert (held["judge"], held["rulings"], held["state"]) == (FLOOR_JUDGE, [ruling], "claimed")
    assert "番号" in _refused(ev, "call", "resolve", str(n), "--ruling", "")
    assert "一つ" in _refused(ev, "call", "resolve", str(n), "--none", "--appeal")
    done = _cli(ev, "call", "resolve", str(n), "--ruling", str(ruling), "--judge", FLOOR_JUDGE)
    assert {k: done[k] for k in ("call", "table", "state", "outcome", "rulings", "minutes")} == {
        "call": n,
        "table": 2,
        "state": "resolved",
        "outcome": "ruling",
        "rulings": [ruling],
        "minutes": done["proposed"],
    }
    assert "解決済み" in _refused(ev, "call", "resolve", str(n), "--none")
    assert _cli(ev, "call", "list", "--open") == {"calls": []}


def test_the_command_line_refuses_a_table_not_in_the_round_and_gives_other_minutes_with_a_reason(
    ev: EventSetup,
) -> None:
    rounds.start_round(ev.db, ev.id)
    assert "いまの回戦に対戦がありません" in _refused(ev, "call", "raise", "--table", "40")
    n = _cli(ev, "call", "raise", "--table", "3")["call"]
    _cli(ev, "call", "escalate", str(n))
    assert _cli(ev, "call", "list")["calls"][0]["state"] == "escalated"
    assert "理由" in _refused(ev, "call", "resolve", str(n), "--appeal", "--extend", "5")
    done = _cli(ev, "call", "resolve", str(n), "--appeal", "--extend", "5", "--reason", "上訴の聴取")
    assert (done["outcome"], done["minutes"]) == ("appeal", 5)
    text = run_cli("call", "list", "--event", str(ev.id), db=ev.db.url)
    assert text.returncode == 0 and "解決済み" in text.stdout and "上訴" not in text.stderr


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    for made in worlds(request, tmp_path_factory, players=12, spare=0):
        rounds.start_round(made.db, made.event)
        yield made


def test_the_api_mirrors_the_command_line_and_refuses_in_japanese(world: World) -> None:
    w = world
    floor, head, viewer = w.clients["floor_judge"], w.clients["head_judge"], w.clients["viewer"]
    base = f"/api/events/{w.event}/calls"
    assert viewer.post(base, json={"command_id": w.cid(), "table": 4}).status_code == 403
    made = floor.post(base, json={"command_id": w.cid(), "table": 4, "reason": "time"})
    assert made.status_code == 201, made.text
    n = made.json()["call"]
    assert made.json() == {"call": n, "round": 1, "table": 4, "state": "open"}
    queue = viewer.get(f"{base}?open=true").json()["calls"]
    assert [c["call"] for c in queue] == [n] and queue[0]["reason"] == "time"
    assert floor.post(f"{base}/{n}/claim", json={"command_id": w.cid()}).json()["state"] == "claimed"
    before = ledger_size(w)
    taken = head.post(f"{base}/{n}/claim", json={"command_id": w.cid()})
    assert taken.status_code == 409 and "対応しています" in taken.json()["detail"]
    bare = floor.post(f"{base}/{n}/resolve", json={"command_id": w.cid(), "outcome": "ruling"})
    assert bare.status_code == 422 and "裁定の番号" in bare.json()["detail"]
    assert ledger_size(w) == before
    record = {"command_id": w.cid(), "player": w.players[6], "infraction": "ingame.slow-play", "call": n}
    ruled = floor.post(f"/api/events/{w.event}/rulings", json=record)
    assert ruled.status_code in (200, 201), ruled.text
    ruling = ruled.json()["rulings"][0]["number"]
    assert floor.get(f"{base}/{n}/proposal").json() == {"call": n, "proposed": 0}
    command = w.cid()
    done = floor.post(
        f"{base}/{n}/resolve", json={"command_id": command, "outcome": "ruling", "rulings": [ruling]}
    )
    assert done.status_code == 200, done.text
    assert (done.json()["state"], done.json()["rulings"], done.json()["minutes"]) == ("resolved", [ruling], 0)
    again = floor.post(
        f"{base}/{n}/resolve", json={"command_id": command, "outcome": "ruling", "rulings": [ruling]}
    )
    assert again.status_code == 200 and again.json() == done.json()  # a phone's retry
    twice = floor.post(f"{base}/{n}/resolve", json={"command_id": w.cid(), "outcome": "none"})
    assert twice.status_code == 409 and "解決済み" in twice.json()["detail"]
    paths = w.clients["signed_out"].get("/api/openapi.json").json()["paths"]
    assert {
        "/api/events/{event_id}/calls",
        "/api/events/{event_id}/calls/{call}/claim",
        "/api/events/{event_id}/calls/{call}/escalate",
        "/api/events/{event_id}/calls/{call}/resolve",
    } <= set(paths)
