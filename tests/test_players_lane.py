"""The players' table page at a round's pairing: while the app serves (the live views relay
the ledger, so what is in memory can be trusted), a phone asking for its table is answered
from the event's view kept in memory, past FastAPI's routing, with the page the route
gives. A new pairing, a disqualification or an unpublished event shows at once; the limit
per address holds on either lane. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from shinpan.services import corrections, publish, recording, swiss
from shinpan.store.players import names as player_names
from shinpan.web import public_lane
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
            w.db, w.event, [swiss.TableChange(1, theirs, w.players[1]), swiss.TableChange(2, mine, w.players[3])],
            "席の入れ替え",
        )  # fmt: skip
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
