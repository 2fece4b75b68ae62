"""What the web tests share: a fresh database, the app on a real port, signed-in clients.

- :func:`database_url` gives a fresh SQLite file or a fresh PostgreSQL schema (database
  ``test`` on 127.0.0.1:5432); without that server the PostgreSQL variants are skipped,
  except under CI (the ``CI`` environment variable), where they fail.
- :class:`LiveServer` runs the app with uvicorn in a thread of this process, on a socket
  already bound to a free port of 127.0.0.1, and stops it (bounded) afterwards.
- :func:`build_world` makes an event with a head judge, a floor judge, a scorekeeper and a
  viewer who joined with join codes, an outsider and a signed-out visitor, each with a
  :class:`Client` that carries its session and CSRF token.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from db_support import pg_url, postgres_schema
from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events, recording
from shinpan.services.queries import player_history
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.web.app import create_app

# Playwright lets a test see and stop a service worker's own requests only with this set
# before the browser starts (microsoft/playwright#2311: setOffline alone does not stop them).
os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")

ROOT = Path(__file__).resolve().parents[1]

# -- the browser ---------------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# -- people and players --------------------------------------------------------------------

HEAD_JUDGE = ("山田 一郎", "hj-password-1998", 2)
FLOOR_JUDGE = ("佐藤 花子", "246813")
SCOREKEEPER = ("鈴木 次郎", "135792")
VIEWER = ("観戦 三郎", "999999")
OUTSIDER = ("部外 四郎", "outsider-pass")
ROLES = ("head_judge", "floor_judge", "scorekeeper", "viewer", "outsider", "signed_out")
XSS_NAME = "<script>alert(1)</script>"

_FAMILY = [
    ("佐藤", "さとう"),
    ("鈴木", "すずき"),
    ("高橋", "たかはし"),
    ("田中", "たなか"),
    ("伊藤", "いとう"),
]
_GIVEN = [("翔太", "しょうた"), ("美咲", "みさき"), ("大輔", "だいすけ"), ("陽菜", "ひな"),
          ("健", "けん"), ("愛", "あい"), ("拓海", "たくみ"), ("結衣", "ゆい")]  # fmt: skip


def player_table(n: int = 40, prefix: str = "P") -> list[tuple[str, str, str]]:
    """``n`` players (number, name, kana reading), every name different."""
    names = [(f + " " + g, fk + " " + gk) for g, gk in _GIVEN for f, fk in _FAMILY]
    return [(f"{prefix}{i:03d}", *names[(i - 1) % len(names)]) for i in range(1, n + 1)]


def players_csv(rows: list[tuple[str, str, str]]) -> bytes:
    lines = ["番号,名前,フリガナ"] + [f'{n},"{name}",{reading}' for n, name, reading in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def pairings_csv(numbers: list[str]) -> bytes:
    lines = ["卓番号,プレイヤーA,プレイヤーB"]
    lines += [f"{t + 1},{numbers[2 * t]},{numbers[2 * t + 1]}" for t in range(len(numbers) // 2)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def csrf_in(html: str) -> str:
    """The CSRF token a rendered page carries in its forms."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "the page has no CSRF token"
    return match[1]


# -- a database ------------------------------------------------------------------------------


@contextlib.contextmanager
def database_url(backend: str, directory: Path) -> Iterator[str]:
    """A fresh, empty database: a new SQLite file in ``directory``, or a new PostgreSQL schema."""
    if backend == "sqlite":
        yield f"sqlite:///{directory / f'shinpan-{uuid.uuid4().hex[:8]}.sqlite3'}"
        return
    with postgres_schema(migrated=False) as schema:
        yield pg_url(schema)


# -- a real server -------------------------------------------------------------------------


class LiveServer:
    """The app served by uvicorn on 127.0.0.1 in a thread of this process."""

    def __init__(self, app: FastAPI) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", 0))
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2, access_log=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, name="shinpan-live", daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        if self.thread.is_alive():
            self.server.force_exit = True
            self.thread.join(5)
        self.socket.close()


# -- the server's clock --------------------------------------------------------------------


class ServerClock:
    """The clock the app stamps the ledger with (``services.context.stamp``, through which
    every command and every "now" of the calls, rounds and desk pages is read), moved
    forward by the test instead of waited for: after ``advance(61.5)`` the server's "now" is
    61.5 s later than the wall clock's, as if that time had passed (undone with the test's
    ``monkeypatch``). Only the time read moves: the app measures and decides from its stamps
    as it does in a venue."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from datetime import datetime, timedelta

        from shinpan.services import context

        assert context.stamp.__globals__["datetime"] is datetime, "stamp reads datetime.now"
        self.offset = timedelta(0)
        clock = self

        class Later(datetime):
            @classmethod
            def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
                return datetime.now(tz) + clock.offset

        monkeypatch.setattr(context, "datetime", Later)

    def advance(self, seconds: float) -> None:
        from datetime import timedelta

        self.offset += timedelta(seconds=max(0.0, seconds))


# -- clients -------------------------------------------------------------------------------


@dataclass
class Client:
    """One person's HTTP client: their cookies and the CSRF token for unsafe calls."""

    http: httpx.Client
    csrf: str

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, *, csrf: bool = True, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", None) or {})
        if csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return self.http.post(path, headers=headers, **kw)


def sign_in(http: httpx.Client, name: str | None, password: str = "") -> Client:
    """Open the sign-in page (which sets the CSRF cookie) and, given a name, sign in; the
    client carries the token the sign-in renewed."""
    page = http.get("/login")
    assert page.status_code == 200, page.text
    token = csrf_in(page.text)
    if name is not None:
        done = http.post(
            "/login",
            data={"name": name, "password": password, "csrf_token": token, "next": "/"},
            follow_redirects=False,
        )
        assert done.status_code == 303, done.text
        token = csrf_in(http.get("/login").text)  # a sign-in renews the token
    return Client(http, token)


@dataclass
class World:
    """An event in a fresh database, and a signed-in client for every role."""

    db: Database
    app: FastAPI
    event: int
    players: list[str]
    spare: list[str]  # registered, not paired in round 1
    clients: dict[str, Client]
    join_code: str
    counter: Iterator[int] = field(default_factory=itertools.count)

    def cid(self, what: str = "cmd") -> str:
        return f"{what}-{next(self.counter):06d}-{uuid.uuid4().hex[:8]}"

    def record(self, player: str, infraction: str, **kw: Any) -> int:
        """Record as the head judge through the service; the first ruling's number."""
        inp = recording.RecordInput(player=player, infraction=infraction, **kw)
        saved = recording.record(self.db, self.event, inp, command_id=self.cid("setup"))
        return int(saved.rulings[0]["number"])

    def rulings_of(self, player: str) -> list[dict[str, Any]]:
        rulings: list[dict[str, Any]] = player_history(self.db, self.event, player)["rulings"]
        return rulings

    def close(self) -> None:
        for client in self.clients.values():
            client.http.close()
        self.db.close()


def build_world(url: str, *, players: int = 40, spare: int = 20, time_zone: str | None = None) -> World:
    """An REL 3 event: ``players`` paired in round 1, ``spare`` more registered, every role;
    times shown in ``time_zone`` (default: the event's default, Asia/Tokyo)."""
    db = Database(url)
    hj_name, hj_password, hj_level = HEAD_JUDGE
    head = accounts.add_user(db, hj_name, hj_password, hj_level)
    accounts.add_user(db, OUTSIDER[0], OUTSIDER[1])
    event = events.create_event(
        db,
        name="テスト大会 2026",
        head_judge=hj_name,
        head_judge_level=hj_level,
        starts_on="2026-02-01",
        head_judge_account=head.uid,
        time_zone=time_zone,
    )
    paired = player_table(players)
    extra = player_table(spare, prefix="Q")
    from shinpan.files.csvio import parse_pairings, parse_players

    events.import_players(db, event, parse_players(players_csv(paired + extra)), command_id="setup-players")
    numbers = [n for n, _, _ in paired]
    events.import_pairings(db, event, 1, parse_pairings(pairings_csv(numbers)), command_id="setup-round-1")
    for role, (name, pin) in (
        (Role.floor_judge, FLOOR_JUDGE),
        (Role.scorekeeper, SCOREKEEPER),
        (Role.viewer, VIEWER),
    ):
        code = accounts.invite(db, event, role, hj_name)
        accounts.join(db, code, name, pin)
    join_code = accounts.invite(db, event, Role.viewer, hj_name)
    app = create_app(db)
    secrets = {
        "head_judge": HEAD_JUDGE[:2], "floor_judge": FLOOR_JUDGE, "scorekeeper": SCOREKEEPER,
        "viewer": VIEWER, "outsider": OUTSIDER,
    }  # fmt: skip
    clients = {
        role: sign_in(TestClient(app, raise_server_exceptions=False), name, password)
        for role, (name, password) in secrets.items()
    }
    clients["signed_out"] = sign_in(TestClient(app, raise_server_exceptions=False), None)
    return World(db, app, event, numbers, [n for n, _, _ in extra], clients, join_code)


def worlds(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, **kw: Any
) -> Iterator[World]:
    """A module fixture's world on ``request.param`` (sqlite or postgres), closed afterwards."""
    with database_url(request.param, tmp_path_factory.mktemp("world")) as url:
        world = build_world(url, **kw)
        try:
            yield world
        finally:
            world.close()


@contextlib.contextmanager
def in_english(client: Client) -> Iterator[Client]:
    client.http.cookies.set("lang", "en")
    try:
        yield client
    finally:
        client.http.cookies.delete("lang")


def ledger_size(w: World) -> int:
    with w.db.read() as conn:
        return int(Statement("SELECT count(*) FROM entries").scalar(conn))


def _no_network(route: Any) -> None:
    route.abort("internetdisconnected")


def network_down(page: Any) -> None:
    """The venue's Wi-Fi drops for this phone: the page, and its service worker too,
    reach nothing; what the worker keeps still loads."""
    page.context.set_offline(True)
    page.context.route("**/*", _no_network)


def save_record(page: Any, *, tap: bool = False) -> None:
    """The judge saves once the preview has answered: until then the button may still move."""
    expect(page.locator("#preview")).not_to_have_attribute("aria-busy", "true")
    save = page.locator("#save")
    expect(save).to_be_enabled()
    if tap:
        save.tap()
    else:
        save.click()


def network_back(page: Any) -> None:
    page.context.unroute("**/*", _no_network)
    page.context.set_offline(False)


def kept_on_first_visit(page: Any, event: int) -> None:
    """The worker this visit installed controls the page and keeps the record screen, its
    roster and 自分の記録 (the page is not reloaded for it)."""
    wanted = {f"/events/{event}/record", f"/events/{event}/record/roster", f"/events/{event}/record/mine"}
    deadline = time.monotonic() + 45  # a loaded machine: the worker fetches three pages
    seen: dict[str, Any] = {}
    while time.monotonic() < deadline:
        seen = page.evaluate(
            "() => Promise.all([caches.open('shinpan-pages').then(c => c.keys()),"
            " navigator.serviceWorker.getRegistration()]).then(([ks, r]) => ({"
            " controlled: navigator.serviceWorker.controller !== null,"
            " worker: r ? [r.installing, r.waiting, r.active].map(w => w && w.state) : null,"
            " kept: ks.map(k => new URL(k.url).pathname) }))"
        )
        if seen["controlled"] and wanted <= set(seen["kept"]):
            return
        time.sleep(0.1)
    raise AssertionError(f"the service worker did not keep the record screen on its first visit: {seen}")
