"""The player search's own lane: while the app serves (the live views relay the ledger, so
what is in memory can be trusted), a judge's search is answered past FastAPI's routing,
and answered exactly as the route answers it. Anything unusual takes the route: not
signed in, not a judge of the event, a query too long. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import QueryParams

from shinpan.web import lane
from shinpan.web.app import BODY_LIMIT
from web_support import FLOOR_JUDGE, OUTSIDER, World, sign_in, worlds


@pytest.fixture(params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    yield from worlds(request, tmp_path_factory, players=8, spare=0)


@pytest.fixture
def lanes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Which lane answered each search, in order."""
    taken: list[str] = []
    real = lane.SearchLane._answer

    def answer(scope: Any, event_id: int) -> Any:
        found = real(scope, event_id)
        taken.append("route" if found is None else "lane")
        return found

    monkeypatch.setattr(lane.SearchLane, "_answer", staticmethod(answer))
    return taken


def test_a_judges_search_takes_its_own_lane_and_gets_the_routes_answer(
    world: World, lanes: list[str]
) -> None:
    with TestClient(world.app) as http:  # serving: the live views run
        judge = sign_in(http, *FLOOR_JUDGE)
        path = f"/api/events/{world.event}/players?q=P00"
        first, second = judge.get(path), judge.get(path)
        assert lanes == ["route", "lane"], "the first reads the seat and the index; the next need not"
        assert first.status_code == second.status_code == 200
        assert first.json() == second.json() and len(second.json()) == 8
        for header in (
            "content-type",
            "content-encoding",
            "vary",
            "content-security-policy",
            "x-content-type-options",
        ):
            assert first.headers[header] == second.headers[header]
        table = judge.get(f"/api/events/{world.event}/players?q=t1").json()  # a table: both its players
        assert [p["number"] for p in table] == [world.players[0], world.players[1]] and lanes[-1] == "lane"


def test_anything_unusual_takes_the_route_and_its_answer(world: World, lanes: list[str]) -> None:
    with TestClient(world.app) as http:
        judge = sign_in(http, *FLOOR_JUDGE)
        path = f"/api/events/{world.event}/players"
        assert judge.get(path + "?q=P").status_code == 200 and judge.get(path + "?q=P").status_code == 200
        assert lanes[-1] == "lane"
        too_long = judge.get(path + "?q=" + "あ" * 101)
        assert too_long.status_code == 422 and lanes[-1] == "route"
        http.cookies.delete("shinpan_session")
        signed_out = judge.get(path + "?q=P")
        assert signed_out.status_code == 401 and "サインイン" in signed_out.json()["detail"]
        assert lanes[-1] == "route"
    with TestClient(world.app) as other:
        outsider = sign_in(other, *OUTSIDER)
        assert outsider.get(path + "?q=P").status_code == 403
        assert outsider.get(path + "?q=P").status_code == 403 and lanes[-2:] == ["route", "route"]


@pytest.mark.parametrize(
    "query_string",
    [
        "q=sato",
        "q=%E3%81%95%E3%81%A8%E3%81%86",
        "q=sato+shota",
        "q=a%2Bb",
        "q=",
        "",
        "x=1&q=P0",
        "q=a&q=b",
        "q=%ZZ",
        "q=%E3%81",
        "%71=P0",
        "q=a;b",
    ],
)
def test_the_lane_reads_the_query_as_the_route_does(query_string: str) -> None:
    assert lane._query(query_string) == QueryParams(query_string).get("q", "")


def test_a_search_sent_with_a_body_over_the_limit_is_refused_on_either_lane(
    world: World, lanes: list[str]
) -> None:
    with TestClient(world.app) as http:
        judge = sign_in(http, *FLOOR_JUDGE)
        path = f"/api/events/{world.event}/players?q=P00"
        assert judge.get(path).status_code == 200 and judge.get(path).status_code == 200
        assert lanes[-1] == "lane"  # the index is current: the next search could take the lane
        heavy = judge.http.request("GET", path, content=b"x" * (BODY_LIMIT + 10))
        assert heavy.status_code == 413, heavy.text[:200]


def test_a_search_asked_again_is_compressed_as_the_app_compresses_every_answer(
    world: World, lanes: list[str]
) -> None:
    with TestClient(world.app) as http:
        judge = sign_in(http, *FLOOR_JUDGE)
        path = f"/api/events/{world.event}/players?q=P00"
        for encoding in ("gzip", "identity"):
            answers = [judge.get(path, headers={"accept-encoding": encoding}) for _ in range(2)]
            assert answers[0].json() == answers[1].json() and len(answers[1].json()) == 8
            assert lanes[-1] == "lane"
            for header in ("content-type", "content-encoding", "vary", "content-length"):
                assert answers[0].headers.get(header) == answers[1].headers.get(header), header
            assert answers[1].headers.get("content-encoding") == (None if encoding == "identity" else "gzip")
        assert lanes[0] == "route"
