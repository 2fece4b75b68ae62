"""A server that holds against what strangers send it: accounts that are people, sign-in
limits every process shares, sessions that end, a ledger that refuses REPLACE.

Every test runs on SQLite and on PostgreSQL, over real HTTP where a server is involved.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from conftest import run_cli
from shinpan.engine.event_rules import Role
from shinpan.services import accounts, events
from shinpan.store.connection import DriverError, Statement
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import LiveServer, csrf_in, database_url, sign_in


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, tmp_path) as found:
        yield found


@pytest.fixture
def db(url: str) -> Iterator[Database]:
    database = Database(url)
    yield database
    database.close()


def _client(base: str) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=20, follow_redirects=False)


# -- 1. seats belong to accounts, never to names --------------------------------------------


def test_a_join_code_of_one_event_grants_nothing_in_another(db: Database) -> None:
    # Event A made on the command line: its seats wait for claim codes, named only.
    a = events.create_event(db, name="大会 A", head_judge="審判 太郎", head_judge_level=3)
    events.add_judge(db, a, name="床 次郎", level=1, role=Role.floor_judge)
    owner = accounts.add_user(db, "主催 B", "b-password", 2)
    b = events.create_event(
        db, name="大会 B", head_judge=owner.name, head_judge_level=2, head_judge_account=owner.uid
    )
    with LiveServer(create_app(db)) as server:
        for n, seat in enumerate(("審判 太郎", "床 次郎")):  # a stranger takes the names of A's judges in B
            code = accounts.invite(db, b, Role.viewer, owner.name)
            http = _client(server.url)
            token = csrf_in(http.get("/login").text)
            joined = http.post(f"/join/{code}", data={"name": seat, "pin": "123456", "csrf_token": token})
            assert joined.status_code == 303, joined.text
            headers = {"X-CSRF-Token": token}
            assert [e["id"] for e in http.get("/api/events").json()] == [b]
            assert http.get(f"/api/events/{a}/rulings").status_code == 403
            record = {"command_id": f"takeover-{n}", "player": "P1", "infraction": "ingame.slow-play"}
            assert http.post(f"/api/events/{a}/rulings", json=record, headers=headers).status_code == 403
            invite = {"command_id": f"invite-{n}", "role": "floor_judge"}
            assert http.post(f"/api/events/{a}/invitations", json=invite, headers=headers).status_code in (
                403,
                404,
            )


def test_a_claim_code_gives_a_command_line_seat_to_its_account(url: str, db: Database) -> None:
    made = run_cli(
        "event",
        "create",
        "--name",
        "CLI 大会",
        "--head-judge",
        "審判 太郎",
        "--head-judge-level",
        "3",
        "--json",
        db=url,
    )
    assert made.returncode == 0, made.stderr
    import json

    found = json.loads(made.stdout)
    event, code = found["event"], found["claim_code"]
    assert code and len(code) == 10
    with LiveServer(create_app(db)) as server:
        http = _client(server.url)
        token = csrf_in(http.get("/login").text)
        claimed = http.post(f"/join/{code}", data={"name": "審判 太郎", "pin": "432109", "csrf_token": token})
        assert claimed.status_code == 303, claimed.text
        assert http.get(f"/api/events/{event}/rulings").status_code == 200  # the head judge's seat
        again = _client(server.url)
        token = csrf_in(again.get("/login").text)
        assert (
            again.post(f"/join/{code}", data={"name": "x", "pin": "432109", "csrf_token": token}).status_code
            != 303
        )


def test_account_bound_on_the_command_line(url: str, db: Database) -> None:
    accounts.add_user(db, "山田 一郎", "password-1", 2)
    made = run_cli("event", "create", "--name", "E", "--account", "山田　一郎", "--json", db=url)
    assert made.returncode == 0, made.stderr
    assert '"claim_code": null' in made.stdout
    missing = run_cli("judge", "add", "--event", "1", "--name", "X", "--account", "nobody", db=url)
    assert missing.returncode != 0 and "no account named" in missing.stderr


# -- 2. the sign-in limit: names as they normalize, parallel guesses, every process -----------


def _attempt(base: str, name: str, password: str) -> int:
    with _client(base) as http:
        token = csrf_in(http.get("/login").text)
        return http.post("/login", data={"name": name, "password": password, "csrf_token": token}).status_code


def test_name_variants_share_one_limit(db: Database) -> None:
    accounts.add_user(db, "limit user", "right-password")
    with LiveServer(create_app(db)) as server:
        variants = [
            "limit user",
            " limit user",
            "limit user\t",
            "ｌｉｍｉｔ　ｕｓｅｒ",
            "limit  user",
            "LIMIT USER",
        ]
        codes = [_attempt(server.url, v, "wrong") for v in variants]
        assert codes[:5] == [401] * 5
        assert _attempt(server.url, "limit user ", "right-password") == 429  # the sixth try, any form


def test_parallel_guesses_never_get_past_the_limit(db: Database) -> None:
    accounts.add_user(db, "parallel", "right-password")
    with LiveServer(create_app(db)) as server:
        codes: list[int] = []

        def guess(n: int) -> None:
            codes.append(_attempt(server.url, "parallel", f"wrong-{n}"))

        threads = [threading.Thread(target=guess, args=(n,)) for n in range(30)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert Counter(codes)[401] <= 5 and Counter(codes)[429] >= 25, Counter(codes)


def test_the_limit_holds_across_processes(url: str, db: Database) -> None:
    accounts.add_user(db, "two servers", "right-password")
    with LiveServer(create_app(Database(url))) as one, LiveServer(create_app(Database(url))) as two:
        codes = [_attempt(server.url, "two servers", "wrong") for server in (one, two) * 4]
        assert codes.count(401) == 5 and codes.count(429) == 3, codes


def test_a_japanese_keyboards_space_signs_in(db: Database) -> None:
    accounts.add_user(db, "山田 一郎", "password-1")
    assert accounts.authenticate(db, "山田　一郎", "password-1") is not None  # U+3000
    assert accounts.authenticate(db, " 山田 一郎 ", "password-1") is not None


# -- 3. signing out ends the session --------------------------------------------------------


def test_a_signed_out_cookie_is_refused(db: Database) -> None:
    accounts.add_user(db, "leaving", "password-1")
    with LiveServer(create_app(db)) as server:
        person = sign_in(_client(server.url), "leaving", "password-1")
        cookie = person.http.cookies.get("shinpan_session")
        assert person.get("/api/events").status_code == 200
        assert person.post("/logout", data={"csrf_token": person.csrf}).status_code == 303
        stranger = _client(server.url)
        stranger.cookies.set("shinpan_session", str(cookie))
        assert stranger.get("/api/events").status_code == 401


def test_secure_cookies_behind_tls(db: Database) -> None:
    accounts.add_user(db, "tls", "password-1")
    http = TestClient(create_app(db, secure_cookies=True), base_url="https://testserver")  # TLS ends ahead
    token = csrf_in(http.get("/login").text)
    done = http.post(
        "/login", data={"name": "tls", "password": "password-1", "csrf_token": token}, follow_redirects=False
    )
    session = next(c for c in done.headers.get_list("set-cookie") if c.startswith("shinpan_session="))
    assert "secure" in [f.strip().lower() for f in session.split(";")]


# -- 9. the ledger refuses REPLACE ------------------------------------------------------------


def test_insert_or_replace_cannot_rewrite_an_entry(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    db = Database(f"sqlite:///{path}")
    events.create_event(db, name="E", head_judge="HJ", head_judge_level=2)
    db.close()
    conn = sqlite3.connect(path)
    row = conn.execute("SELECT * FROM entries WHERE seq = 1").fetchone()
    columns = [d[0] for d in conn.execute("SELECT * FROM entries").description]
    forged = dict(zip(columns, row, strict=True)) | {"body": '{"forged": true}'}
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute(
            f"INSERT OR REPLACE INTO entries ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            list(forged.values()),
        )
    assert conn.execute("SELECT body FROM entries WHERE seq = 1").fetchone()[0] != '{"forged": true}'


def test_verify_notices_a_dropped_trigger(url: str, db: Database) -> None:
    events.create_event(db, name="E", head_judge="HJ", head_judge_level=2)
    assert run_cli("verify", db=url).returncode == 0
    with db.write() as conn:
        if db.is_postgres:
            Statement("ALTER TABLE entries DISABLE TRIGGER entries_append_only").run(conn)
        else:
            Statement("DROP TRIGGER entries_no_update").run(conn)
    found = run_cli("verify", db=url)
    assert found.returncode == 1
    assert "UNGUARDED" in found.stdout and (
        "entries_append_only" in found.stdout or "entries_no_update" in found.stdout
    )


def test_the_app_role_cannot_switch_the_ledger_off(url: str, db: Database) -> None:
    if not db.is_postgres:
        pytest.skip("roles are PostgreSQL's")
    role = f"app_{uuid.uuid4().hex[:10]}"
    assert run_cli("db", "grant", "--role", role, db=url).returncode == 0
    as_app = url.replace("postgres@", f"{role}@")
    app_db = Database(as_app, migrate=False)
    try:
        event = events.create_event(app_db, name="E", head_judge="HJ", head_judge_level=2)  # it appends
        assert event == 1
        for attack in (
            "ALTER TABLE entries DISABLE TRIGGER ALL",
            "UPDATE entries SET body = '{}'",
            "DROP TRIGGER entries_append_only ON entries",
            "TRUNCATE entries",
        ):
            with pytest.raises(DriverError), app_db.write() as conn:
                Statement(attack).run(conn)
    finally:
        app_db.close()
        with db.write() as conn:
            Statement(f"DROP OWNED BY {role}").run(conn)
            Statement(f"DROP ROLE {role}").run(conn)


def test_a_role_that_may_not_make_roles_is_told_why_in_one_line(url: str, db: Database) -> None:
    if not db.is_postgres:
        pytest.skip("roles are PostgreSQL's")
    role = f"app_{uuid.uuid4().hex[:10]}"
    assert run_cli("db", "grant", "--role", role, db=url).returncode == 0
    try:
        refused = run_cli("db", "grant", "--role", f"{role}_2", db=url.replace("postgres@", f"{role}@"))
        assert refused.returncode == 1 and "Traceback" not in refused.stderr
        assert refused.stderr.startswith("error: the role could not be granted: ")
        assert "permission denied" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    finally:
        with db.write() as conn:
            Statement(f"DROP OWNED BY {role}").run(conn)
            Statement(f"DROP ROLE {role}").run(conn)


def test_a_session_kept_in_memory_ends_when_it_ends(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the app serves, who is signed in is kept in memory; a session still ends at
    its time there, without the database being asked."""
    import time

    from shinpan.web.auth import Members

    user = accounts.add_user(db, "期限 五郎", "expiry-pass-1")
    session = accounts.open_session(db, user)
    members = Members(db)
    members.watch.relayed = True  # as the live views set it while the app serves
    try:
        assert members.member(user.id, session, None) is not None  # read once, then kept
        assert members.known(user.id, session, None) is not None
        ends = time.time() + accounts.SESSION_SECONDS + 1
        monkeypatch.setattr(time, "time", lambda: ends)
        assert members.known(user.id, session, None) is None
    finally:
        members.watch.relayed = False
