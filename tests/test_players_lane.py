"""The players' table page at a round's pairing: while the app serves (the live views relay
the ledger, so what is in memory can be trusted), a phone asking for its table is answered
from the event's view kept in memory, past FastAPI's routing, with the page the route
gives. A new pairing, a disqualification or an unpublished event shows at once; the limit
per address holds on either lane. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shinpan.services import corrections, events, publish, recording, results, rounds, swiss
from shinpan.services.results import Wanted
from shinpan.store.db import Database
from shinpan.store.players import names as player_names
from shinpan.web import public_lane
from shinpan.web.app import SWITCH_SECONDS, create_app
from shinpan.web.public import AddressLimit
from web_support import World, worlds

CHEATING = "severe.cheating"  # a disqualification once confirmed (D17)


@pytest.fixture(params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


@pytest.fixture
def lanes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which lane answered each players' table page, in order."""
    taken: list[str] = []
    real = public_lane.PlayersLane._answer

    def answer(scope: Any, token: str) -> Any:
        found = real(scope, token)
        taken.append("route" if found is None else "lane")
        return found

    monkeypatch.setattr(public_lane.PlayersLane, "_answer", staticmethod(answer))
    return taken


def _name(w: World, number: str) -> str:
    with w.db.read() as conn:
        return player_names(conn, w.event, [number])[number]


def _table_of(page: str) -> str:
    return page.split('class="table-no">', 1)[1].split("<", 1)[0]


def _round_of(page: str) -> str:
    return page.split('id="round-state">', 1)[1].split("<", 1)[0]


@pytest.fixture
def afresh(world: World) -> Iterator[TestClient]:
    """The players' pages as read from the database at each request: an app of its own,
    not serving (nothing relayed, nothing kept)."""
    db = Database(world.db.url)
    try:
        yield TestClient(create_app(db))
    finally:
        db.close()


def test_a_phone_takes_the_players_lane_and_gets_the_routes_page(world: World, lanes: list[str]) -> None:
    w = world
    token = publish.publish(w.db, w.event, names="names").token
    with TestClient(w.app) as phone:  # serving: the live views run
        first, second = phone.get(f"/p/{token}?q={w.players[2]}"), phone.get(f"/p/{token}?q={w.players[2]}")
        assert lanes == ["route", "lane"], "the first reads the event; the next need not"
        assert first.status_code == second.status_code == 200
        assert first.text == second.text and _table_of(second.text) == "2番卓"
        assert _name(w, w.players[3]) in second.text  # the opponent
        for header in ("content-type", "content-encoding", "cache-control", "content-security-policy"):
            assert first.headers[header] == second.headers[header]
        reading = phone.get(f"/p/{token}", params={"q": "<b>" + w.players[0]})  # typed, escaped back
        assert "&lt;b&gt;" in reading.text and "<b>" not in reading.text and lanes[-1] == "lane"
        empty = phone.get(f"/p/{token}")
        assert 'id="found"' not in empty.text and 'id="q"' in empty.text
        nobody = phone.get(f"/p/{token}?q=存在しない名前")
        assert "該当する参加中のプレイヤーはいません" in nobody.text and 'class="seat"' not in nobody.text
        phone.cookies.set("lang", "en")
        english = phone.get(f"/p/{token}?q={w.players[2]}")
        assert ">Table 2<" in english.text and lanes[-1] == "route"  # drawn once in English too
        assert phone.get(f"/p/{token}?q={w.players[2]}").text == english.text and lanes[-1] == "lane"


def test_a_new_pairing_a_disqualification_and_unpublishing_show_at_once(
    world: World, lanes: list[str]
) -> None:
    w = world
    token = publish.publish(w.db, w.event, names="names").token
    mine, theirs = w.players[0], w.players[2]
    with TestClient(w.app) as phone:
        for _ in range(2):
            assert _table_of(phone.get(f"/p/{token}?q={mine}").text) == "1番卓"
        assert lanes[-1] == "lane"
        swiss.edit_pairings(
            w.db,
            w.event,
            [swiss.TableChange(1, theirs, w.players[1]), swiss.TableChange(2, mine, w.players[3])],
            "席の入れ替え",
        )
        moved = phone.get(f"/p/{token}?q={mine}").text
        assert _table_of(moved) == "2番卓" and lanes[-1] == "route"
        assert phone.get(f"/p/{token}?q={mine}").text == moved and lanes[-1] == "lane"

        saved = recording.record(w.db, w.event, recording.RecordInput(player=theirs, infraction=CHEATING))
        corrections.confirm(w.db, w.event, [int(saved.rulings[0]["number"])])
        for _ in range(2):  # disqualified: simply not listed as playing, on either lane
            page = phone.get(f"/p/{token}?q={theirs}").text
            assert 'class="table-no"' not in page and _name(w, theirs) not in page
        assert lanes[-1] == "lane"

        publish.publish(w.db, w.event, off=True)
        assert phone.get(f"/p/{token}?q={mine}").status_code == 404 and lanes[-1] == "route"


def test_the_limit_per_address_holds_on_the_players_lane(world: World, lanes: list[str]) -> None:
    w = world
    w.app.state.public_limit = AddressLimit(3)
    token = publish.publish(w.db, w.event, names="names").token
    with TestClient(w.app) as phone:
        for _ in range(3):
            assert phone.get(f"/p/{token}?q={w.players[0]}").status_code == 200
        assert lanes == ["route", "lane", "lane"]
        refused = phone.get(f"/p/{token}?q={w.players[0]}")
        assert refused.status_code == 429 and "アクセスが集中しています" in refused.text
        assert lanes[-1] == "route"  # refused where every refusal is drawn
        w.app.state.public_limit = AddressLimit(3)
        assert phone.get(f"/p/{token}?q={w.players[0]}").status_code == 200


def test_a_kept_page_changes_as_results_pairings_and_drops_are_recorded(
    world: World, lanes: list[str], afresh: TestClient
) -> None:
    w = world
    token = publish.publish(w.db, w.event, names="names").token
    mine, opponent = w.players[0], w.players[1]

    with TestClient(w.app) as phone:

        def table_page(q: str) -> str:
            """What a phone is given (the second time from memory): the page read afresh."""
            phone.get(f"/p/{token}?q={q}")
            kept = phone.get(f"/p/{token}?q={q}")
            assert kept.status_code == 200 and lanes[-1] == "lane"
            assert kept.text == afresh.get(f"/p/{token}?q={q}").text
            return kept.text

        assert _table_of(table_page(mine)) == "1番卓" and _round_of(table_page(mine)) == "第1回戦 · 開始前"
        rounds.start_round(w.db, w.event)
        assert _round_of(table_page(mine)) == "第1回戦 · 対戦中"

        for table in range(1, 5):  # a result shows nothing on the table page: kept as it was
            results.report_result(w.db, w.event, 1, table, Wanted(score="2-0"))
            table_page(mine)
        events.end_round(w.db, w.event, 1)
        assert _round_of(table_page(mine)) == "第1回戦 · 終了"
        standings = phone.get(f"/p/{token}/standings").text
        assert _name(w, mine) in standings and "第1回戦" in standings

        swiss.drop_player(w.db, w.event, opponent)
        table_page(opponent)
        paired = swiss.pair_next_round(w.db, w.event, seed=7)
        moved = table_page(mine)
        table = next(p["table"] for p in paired.pairings if mine in (p["a"], p["b"]))
        assert _round_of(moved) == "第2回戦 · 開始前" and _table_of(moved) == f"{table}番卓"
        assert 'class="table-no"' not in table_page(opponent)  # dropped: not paired again


def test_the_kept_page_is_compressed_as_the_app_compresses_every_page(world: World, lanes: list[str]) -> None:
    w = world
    token = publish.publish(w.db, w.event, names="names").token
    with TestClient(w.app) as phone:
        for encoding, language in (("gzip", "ja"), ("identity", "en")):  # each drawn first by the route
            phone.cookies.set("lang", language)
            route, lane = (
                phone.get(f"/p/{token}?q={w.players[2]}", headers={"accept-encoding": encoding})
                for _ in range(2)
            )
            assert lanes[-2:] == ["route", "lane"]
            assert route.text == lane.text and _table_of(lane.text) in ("2番卓", "Table 2")
            for header in ("content-encoding", "vary", "content-length", "cache-control"):
                assert route.headers.get(header) == lane.headers.get(header), header
            assert lane.headers.get("content-encoding") == (None if encoding == "identity" else "gzip")
            assert lane.headers["vary"] == "Accept-Encoding"


def test_a_served_app_takes_the_interpreter_back_from_the_pools_threads_within_a_millisecond(
    world: World,
) -> None:
    """While threads record rulings and draw desks, the event loop reading 2,000 phones'
    connections waits at most SWITCH_SECONDS for the interpreter each time, not Python's 5 ms."""
    before, threshold = sys.getswitchinterval(), gc.get_threshold()
    db = Database(world.db.url)
    try:
        with TestClient(create_app(db, serving=True)):
            assert sys.getswitchinterval() == pytest.approx(SWITCH_SECONDS) and SWITCH_SECONDS <= 0.001
    finally:
        sys.setswitchinterval(before)
        gc.set_threshold(*threshold)
        db.close()
