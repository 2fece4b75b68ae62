"""Sessions that end when they should: a signed-out live stream ends
within a second, a sign-in replaces the browser's previous session, the CSRF token is
renewed at sign-in and at sign-out, and each person sees and ends their own sessions, the
head judge those of their event's judges.

Every test runs on SQLite and on PostgreSQL, over real HTTP with a real server where a
stream is involved.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import Client, LiveServer, csrf_in, database_url, sign_in

HEAD_JUDGE = ("山田 一郎", "hj-password-1998")
FLOOR_JUDGE = ("佐藤 花子", "246813")
OTHER_HJ = ("田中 二郎", "other-hj-pass")
PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
LAPTOP_UA = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Safari/605.1.15"
)


@dataclass
class Venue:
    db: Database
    url: str
    event: int
    other_event: int
    server: LiveServer


@pytest.fixture(params=["sqlite", "postgres"])
def venue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Venue]:
    with database_url(request.param, tmp_path) as url:
        db = Database(url)
        head = accounts.add_user(db, HEAD_JUDGE[0], HEAD_JUDGE[1], 2)
        other = accounts.add_user(db, OTHER_HJ[0], OTHER_HJ[1], 2)
        event = events.create_event(
            db, name="テスト大会", head_judge=head.name, head_judge_level=2, head_judge_account=head.uid
        )
        other_event = events.create_event(
            db, name="別の大会", head_judge=other.name, head_judge_level=2, head_judge_account=other.uid
        )
        accounts.join(db, accounts.invite(db, event, Role.floor_judge, head.name), *FLOOR_JUDGE)
        try:
            with LiveServer(create_app(db)) as server:
                yield Venue(db, url, event, other_event, server)
        finally:
            db.close()


def _http(base: str, agent: str = PHONE_UA) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=10, follow_redirects=False, headers={"User-Agent": agent})


def _person(venue: Venue, who: tuple[str, str], agent: str = PHONE_UA) -> Client:
    return sign_in(_http(venue.server.url, agent), *who)


def _cookie(client: Client) -> str:
    return str(client.http.cookies.get("shinpan_session"))


def _with_cookie(venue: Venue, cookie: str) -> httpx.Client:
    stranger = _http(venue.server.url)
    stranger.cookies.set("shinpan_session", cookie)
    return stranger


def _stream_ends_after(venue: Venue, watcher: Client, end: object) -> float:
    """Open the event's live stream as ``watcher``, read its ``ready``, call ``end()``, and
    measure how long the stream takes to end (bounded: a read waits at most 5 s)."""
    with watcher.http.stream("GET", f"/api/events/{venue.event}/stream", timeout=5) as stream:
        assert stream.status_code == 200
        lines = stream.iter_lines()
        assert next(lines).startswith("event: ready")
        started = time.monotonic()
        assert callable(end)
        end()
        for _ in lines:  # a heartbeat comes every 15 s: the read times out first if it goes on
            pass
        return time.monotonic() - started


# -- the live stream ends with its session ---------------------------------------------------


def test_a_signed_out_stream_ends_within_a_second(venue: Venue) -> None:
    judge = _person(venue, FLOOR_JUDGE)
    elsewhere = _with_cookie(venue, _cookie(judge))  # the same session, from the page's other request
    elsewhere.cookies.set("shinpan_csrf", str(judge.http.cookies.get("shinpan_csrf")))

    def sign_out() -> None:
        assert elsewhere.post("/logout", data={"csrf_token": judge.csrf}).status_code == 303

    assert _stream_ends_after(venue, judge, sign_out) < 1.0
    assert judge.get(f"/api/events/{venue.event}/stream").status_code == 401  # and it cannot come back


def test_a_stream_ends_when_the_head_judge_ends_its_session(venue: Venue) -> None:
    judge, head = _person(venue, FLOOR_JUDGE), _person(venue, HEAD_JUDGE)
    listed = head.get(f"/api/events/{venue.event}/sessions").json()
    (key,) = [s["key"] for j in listed if j["seat"] == FLOOR_JUDGE[0] for s in j["sessions"]]

    def cut_off() -> None:
        assert head.post(f"/api/events/{venue.event}/sessions/{key}/end").status_code == 200

    assert _stream_ends_after(venue, judge, cut_off) < 1.0


def test_a_session_ended_on_one_server_ends_its_stream_on_another(venue: Venue) -> None:
    """PostgreSQL: two app processes on one database (the notice reaches the other)."""
    if not venue.url.startswith("postgresql"):
        pytest.skip("one process serves a SQLite database")
    with LiveServer(create_app(Database(venue.url))) as second:
        judge = _person(venue, FLOOR_JUDGE)
        there = _http(second.url)
        there.cookies.update(judge.http.cookies)

        def sign_out_there() -> None:
            assert there.post("/logout", data={"csrf_token": judge.csrf}).status_code == 303

        assert _stream_ends_after(venue, judge, sign_out_there) < 1.0


# -- signing in and out ----------------------------------------------------------------------


def test_signing_in_as_b_in_a_browser_signed_in_as_a_ends_as_session(venue: Venue) -> None:
    browser = _person(venue, HEAD_JUDGE)
    a_session = _cookie(browser)
    form = {"name": FLOOR_JUDGE[0], "password": FLOOR_JUDGE[1], "csrf_token": browser.csrf, "next": "/"}
    asked = browser.http.post("/login", data=form)  # someone is signed in here: asked first, naming who
    assert asked.status_code == 409 and HEAD_JUDGE[0] in asked.text and _cookie(browser) == a_session
    assert browser.http.post("/login", data=form | {"switch": "1"}).status_code == 303
    assert _cookie(browser) != a_session
    assert browser.get("/api/events").status_code == 200  # B, signed in
    assert _with_cookie(venue, a_session).get("/api/events").status_code == 401  # A's session is gone
    assert accounts.account_named(venue.db, HEAD_JUDGE[0]) is not None  # A still signs in elsewhere
    assert _person(venue, HEAD_JUDGE).get("/api/events").status_code == 200


def test_the_csrf_token_is_renewed_at_sign_in_and_at_sign_out(venue: Venue) -> None:
    http = _http(venue.server.url)
    before = csrf_in(http.get("/login").text)
    form = {"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": before, "next": "/"}
    assert http.post("/login", data=form).status_code == 303
    signed_in = csrf_in(http.get("/").text)
    assert signed_in != before
    stale = http.post("/events", data={"name": "古いフォーム", "csrf_token": before})
    assert stale.status_code == 403  # a form of the page before the sign-in posts nothing
    # A client of the JSON API keeps the sign-in page's token in its header (the conformance
    # client's contract): a header no other site can send. Past the next renewal, not even there.
    nobody = "/api/sessions/" + "0" * 64 + "/end"
    assert http.post(nobody, headers={"X-CSRF-Token": before}).status_code == 404  # past the CSRF check
    assert http.post("/logout", data={"csrf_token": signed_in}).status_code == 303
    after = csrf_in(http.get("/login").text)
    assert after not in (signed_in, before)
    old = {"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": signed_in}
    assert http.post("/login", data=old).status_code == 403
    again = {"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": after}
    assert http.post("/login", data=again).status_code == 303
    assert http.post(nobody, headers={"X-CSRF-Token": before}).status_code == 403
    assert http.post(nobody, headers={"X-CSRF-Token": after}).status_code == 404


# -- lists of sessions ------------------------------------------------------------------------


def test_a_judge_lists_their_sessions_and_ends_another_device(venue: Venue) -> None:
    phone = _person(venue, FLOOR_JUDGE, PHONE_UA)
    laptop = _person(venue, FLOOR_JUDGE, LAPTOP_UA)
    mine = phone.get("/api/sessions").json()
    assert [s["current"] for s in mine] == [True, False]
    assert [s["device"] for s in mine] == ["Chrome · Android", "Safari · Mac"]
    assert all(s["address"] == "127.0.0.1" and s["started_at"] and s["last_seen"] for s in mine)
    page = phone.get("/sessions").text
    assert "ログイン中の端末" in page and "Safari · Mac" in page and "この端末" in page
    ended = phone.post(f"/sessions/{mine[1]['key']}/end", data={"csrf_token": phone.csrf})
    assert ended.status_code == 303
    assert laptop.get("/api/events").status_code == 401  # the laptop is signed out
    assert phone.get("/api/events").status_code == 200  # the phone is not
    assert [s["current"] for s in phone.get("/api/sessions").json()] == [True]
    # someone else's session is not theirs to end
    head = _person(venue, HEAD_JUDGE)
    (head_key,) = [s["key"] for s in head.get("/api/sessions").json()]
    assert phone.post(f"/api/sessions/{head_key}/end").status_code == 404
    assert head.get("/api/events").status_code == 200


def test_ending_ones_own_session_from_the_list_signs_out(venue: Venue) -> None:
    phone = _person(venue, FLOOR_JUDGE)
    (key,) = [s["key"] for s in phone.get("/api/sessions").json()]
    done = phone.post(f"/sessions/{key}/end", data={"csrf_token": phone.csrf})
    assert done.status_code == 303 and done.headers["location"] == "/login"
    assert phone.get("/api/events").status_code == 401


def test_the_head_judge_ends_a_floor_judges_session_and_no_one_else_may(venue: Venue) -> None:
    judge, head, other = _person(venue, FLOOR_JUDGE), _person(venue, HEAD_JUDGE), _person(venue, OTHER_HJ)
    listed = head.get(f"/api/events/{venue.event}/sessions").json()
    assert {j["seat"]: j["role"] for j in listed} == {
        HEAD_JUDGE[0]: "head_judge",
        FLOOR_JUDGE[0]: "floor_judge",
    }
    (key,) = [s["key"] for j in listed if j["seat"] == FLOOR_JUDGE[0] for s in j["sessions"]]
    # a floor judge may not list or end their colleagues'; another event's head judge may not either
    assert judge.get(f"/api/events/{venue.event}/sessions").status_code == 403
    assert other.post(f"/api/events/{venue.event}/sessions/{key}/end").status_code == 403
    # nor may the head judge end a session of someone who holds no seat at their event
    (other_key,) = [s["key"] for s in other.get("/api/sessions").json()]
    assert head.post(f"/api/events/{venue.event}/sessions/{other_key}/end").status_code == 404
    assert other.get("/api/events").status_code == 200
    assert judge.get("/api/events").status_code == 200
    page = head.get(f"/events/{venue.event}/sessions").text
    assert "ジャッジの端末" in page and FLOOR_JUDGE[0] in page
    done = head.post(f"/events/{venue.event}/sessions/{key}/end", data={"csrf_token": head.csrf})
    assert done.status_code == 303
    assert judge.get("/api/events").status_code == 401
    assert head.get("/api/events").status_code == 200
    shown = head.get(f"/events/{venue.event}/sessions?done=ended").text
    assert "その端末をサインアウトさせました" in shown and "どの端末でもサインインしていません" in shown


def test_a_sign_out_reaches_every_thread_at_once(venue: Venue) -> None:
    """Requests of a session racing its sign-out: none is answered as signed in once the
    sign-out has answered (the process's cache forgets the session before it answers)."""
    judge = _person(venue, FLOOR_JUDGE)
    cookie = _cookie(judge)
    done = threading.Event()
    late: list[int] = []

    def keep_asking() -> None:
        client = _with_cookie(venue, cookie)
        while not done.is_set():
            asked = time.monotonic()
            status = client.get("/api/events").status_code
            if status == 200 and asked > signed_out_at[0]:
                late.append(status)

    signed_out_at = [float("inf")]
    workers = [threading.Thread(target=keep_asking) for _ in range(2)]
    for worker in workers:
        worker.start()
    time.sleep(0.2)
    assert judge.post("/logout", data={"csrf_token": judge.csrf}).status_code == 303
    signed_out_at[0] = time.monotonic()
    time.sleep(0.3)
    done.set()
    for worker in workers:
        worker.join(10)
    assert late == []
