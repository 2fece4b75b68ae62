"""What the web process keeps in memory follows the ledger: the player index, sessions and
judges' seats.

A judge searching at a round's start gets the players as they are now: one just imported,
one who dropped, the new round's tables, whether the change was made in this process or on
the command line. Signing out and a new judge's seat take effect at once; a ruling, which
changes no player and no seat, does not make the index read the event again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import EventSetup, make_event, run_shinpan
from shinpan.engine.event_rules import Role
from shinpan.files.csvio import PlayerRow
from shinpan.services import accounts, events, swiss
from shinpan.services.search import find_players, index_of
from shinpan.store.db import Database
from web_support import OUTSIDER, LiveServer, World, build_world, database_url, sign_in

ROSTER = [("P001", "佐藤 翔太", "さとう しょうた"), ("P002", "伊藤 陽菜", "いとう ひな"),
          ("P003", "長 淳", "ちょう じゅん"), ("P004", "大野 慎也", "おおの しんや")]  # fmt: skip
NEWCOMER = PlayerRow("P100", "新井 太郎", "あらい たろう", None)


@pytest.fixture
def roster_event(db: Database) -> EventSetup:
    ev = make_event(db, players=0, pair=False)
    events.import_players(db, ev.id, [PlayerRow(n, name, reading, None) for n, name, reading in ROSTER])
    ev.pair(1, [("P001", "P002"), ("P003", "P004")])
    return ev


def numbers(ev: EventSetup, query: str) -> list[str]:
    return [p.number for p in find_players(ev.db, ev.id, query)]


def test_the_index_follows_an_import_a_drop_and_a_new_pairing(roster_event: EventSetup) -> None:
    ev = roster_event
    assert numbers(ev, "arai") == []  # the index of the event is built now
    events.import_players(ev.db, ev.id, [NEWCOMER])
    assert numbers(ev, "arai taro") == ["P100"]
    swiss.drop_player(ev.db, ev.id, "P100", now=ev.clock.now)
    assert [p.status for p in find_players(ev.db, ev.id, "P100")] == ["dropped"]
    ev.pair(2, [("P004", "P001"), ("P002", "P003")])
    first = find_players(ev.db, ev.id, "1")[0]
    assert (first.number, first.table, first.seat, first.opponent_name) == ("P004", 1, "a", "佐藤 翔太")


def test_a_ruling_moves_the_index_on_without_reading_the_players_again(roster_event: EventSetup) -> None:
    ev = roster_event
    numbers(ev, "sato")
    kept = index_of(ev.db).events[ev.id]
    head = kept.head
    ev.record("P001", "ingame.slow-play")
    assert numbers(ev, "sato") == ["P001"]
    assert index_of(ev.db).events[ev.id] is kept and kept.head > head
    events.import_players(ev.db, ev.id, [NEWCOMER])  # a change of players: read again
    assert numbers(ev, "arai") == ["P100"]
    assert index_of(ev.db).events[ev.id] is not kept


# -- the web process -------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[World, str]]:
    with database_url(request.param, tmp_path) as url:
        world = build_world(url, players=8, spare=2)
        try:
            with LiveServer(world.app) as server:
                yield world, server.url
        finally:
            world.close()


def _signed_in(base: str, name: str, password: str) -> httpx.Client:
    return sign_in(httpx.Client(base_url=base, timeout=10), name, password).http


def _until(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_the_servers_index_follows_the_command_line(served: tuple[World, str], tmp_path: Path) -> None:
    w, base = served
    judge = _signed_in(base, "山田 一郎", "hj-password-1998")
    search = f"/api/events/{w.event}/players"
    assert judge.get(search, params={"q": "arai"}).json() == []
    csv = tmp_path / "more.csv"
    csv.write_text("number,name,reading\nP100,新井 太郎,あらい たろう\n", encoding="utf-8")
    done = run_shinpan("players", "import", "--event", str(w.event), str(csv), db=w.db.url)
    assert done.returncode == 0, done.stderr
    found = _until(lambda: [p["number"] for p in judge.get(search, params={"q": "arai taro"}).json()])
    assert found == ["P100"]
    done = run_shinpan("players", "drop", "--event", str(w.event), "--player", "P100", db=w.db.url)
    assert done.returncode == 0, done.stderr
    status = _until(lambda: judge.get(search, params={"q": "P100"}).json()[0]["status"] == "dropped")
    assert status, "the drop on the command line reached the server's index"


def test_a_new_judge_and_signing_out_take_effect_at_once(served: tuple[World, str]) -> None:
    w, base = served
    outsider = _signed_in(base, *OUTSIDER)
    search = f"/api/events/{w.event}/players"
    assert outsider.get(search).status_code == 403  # kept in memory: no seat at the event
    account = accounts.account_named(w.db, OUTSIDER[0])
    assert account is not None
    events.add_judge(w.db, w.event, name=OUTSIDER[0], level=1, role=Role.floor_judge, account=account.uid)
    assert outsider.get(search).status_code == 200  # at once: no waiting for a poll
    kept_cookies = dict(outsider.cookies)
    page = outsider.get("/")
    token = outsider.cookies.get("shinpan_csrf")
    assert page.status_code == 200 and token
    from web_support import csrf_in

    out = outsider.post("/logout", data={"csrf_token": csrf_in(outsider.get("/login").text)})
    assert out.status_code in (200, 303)
    again = httpx.Client(base_url=base, cookies=kept_cookies, timeout=10)
    assert again.get(search).status_code == 401  # the old cookie is refused at once
