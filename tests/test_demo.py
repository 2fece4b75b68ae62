"""``shinpan serve --demo``: the demo lives in a SQLite file of its own, never in the real database."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from conftest import SHINPAN
from shinpan.services.demo import DEMO_MARK, DEMO_NAME, FLOOR_JUDGE, HEAD_JUDGE, SCOREKEEPER, demo_path
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.views.events import list_events


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory of the test's own: the default database and the demo's live in it."""
    monkeypatch.setenv("SHINPAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SHINPAN_DATABASE_URL", raising=False)
    return tmp_path / "home"


def counts(path: Path) -> tuple[int, int]:
    """(accounts, events) in the SQLite file at ``path``."""
    db = Database(str(path))
    try:
        with db.read() as conn:
            accounts = int(Statement("SELECT count(*) FROM users").scalar(conn))
        return accounts, len(list_events(db))
    finally:
        db.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server by its pid: SIGTERM (uvicorn shuts down), SIGKILL if it hangs."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


def _ready(url: str, proc: subprocess.Popen[bytes]) -> bool:
    """Our server answers /login with the demo's sign-in hint (not some other process on the port)."""
    try:
        page = httpx.get(f"{url}/login", timeout=2)
    except httpx.TransportError:
        return False
    return page.status_code == 200 and DEMO_MARK in page.text and proc.poll() is None


@contextmanager
def serving(*args: str, home: Path) -> Iterator[tuple[str, Path]]:
    """``shinpan serve --demo ARGS`` on a free port of 127.0.0.1 until /login answers, then stopped
    by its pid; the URL, and the file its output goes to. Another port is tried when the one
    picked was taken in the meantime."""
    env = {**os.environ, "SHINPAN_HOME": str(home), "COLUMNS": "300", "NO_COLOR": "1"}
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("SHINPAN_DATABASE_URL", None)
    for _attempt in range(3):
        port = _free_port()
        url, log = f"http://127.0.0.1:{port}", home.parent / f"serve-{port}.log"
        command = [str(SHINPAN), "serve", "--demo", "--host", "127.0.0.1", "--port", str(port), *args]
        with log.open("w", encoding="utf-8") as out:
            proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out)
        try:
            deadline = time.monotonic() + 90
            while not _ready(url, proc):
                if proc.poll() is not None:
                    break
                assert time.monotonic() < deadline, f"serve --demo did not answer in time: {log.read_text()}"
                time.sleep(0.2)
            else:
                yield url, log
                return
        finally:
            _stop(proc)
        printed = log.read_text(encoding="utf-8")
        if "address already in use" not in printed.lower():
            raise AssertionError(f"serve --demo stopped ({proc.returncode}): {printed}")
    raise AssertionError("no free port for serve --demo")


def test_the_demo_path_is_never_the_served_database(home: Path, tmp_path: Path) -> None:
    assert demo_path() == home.resolve() / "demo.sqlite3"
    assert demo_path(str(home / "shinpan.sqlite3")) == home.resolve() / "demo.sqlite3"
    venue = tmp_path / "venue.sqlite3"
    assert demo_path(str(venue)) == tmp_path.resolve() / "venue.demo.sqlite3"
    assert demo_path(f"sqlite:///{venue}") == tmp_path.resolve() / "venue.demo.sqlite3"
    assert demo_path(str(tmp_path / "x.demo.sqlite3")) == tmp_path.resolve() / "x.demo.sqlite3"
    # PostgreSQL (never connected to) and in-memory SQLite: the data directory's demo file
    assert demo_path("postgresql://judge:secret@db.invalid/shinpan") == home.resolve() / "demo.sqlite3"
    assert demo_path("sqlite://") == home.resolve() / "demo.sqlite3"


def test_the_demo_path_follows_the_environment(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHINPAN_DATABASE_URL", str(tmp_path / "real.sqlite3"))
    assert demo_path() == tmp_path.resolve() / "real.demo.sqlite3"


def test_the_demo_accounts_are_marked() -> None:
    for name, *_ in (HEAD_JUDGE, FLOOR_JUDGE, SCOREKEEPER):
        assert name.endswith(DEMO_MARK)


def test_serve_demo_leaves_the_default_database_alone(home: Path) -> None:
    real = home / "shinpan.sqlite3"
    assert counts(real) == (0, 0)  # the real database exists, empty, before the demo starts
    with serving(home=home) as (url, log), httpx.Client(base_url=url, timeout=10) as http:
        page = http.get("/login")
        assert DEMO_MARK in page.text and HEAD_JUDGE[1] in page.text  # the sign-in hint
        for name, secret in (HEAD_JUDGE[:2], FLOOR_JUDGE, SCOREKEEPER):  # every demo account, with its role
            assert name in page.text and f"<code>{secret}</code>" in page.text
        assert "フロアジャッジ" in page.text and "スコアキーパー" in page.text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token
        done = http.post(
            "/login",
            data={"name": HEAD_JUDGE[0], "password": HEAD_JUDGE[1], "csrf_token": token[1], "next": "/"},
            follow_redirects=False,
        )
        assert done.status_code == 303, done.text
        assert DEMO_NAME in http.get("/").text
    printed = log.read_text(encoding="utf-8")
    demo = home.resolve() / "demo.sqlite3"
    assert f"demo database: {demo}" in printed
    assert counts(real) == (0, 0)
    accounts, events = counts(demo)
    assert accounts == 3 and events == 1


def test_serve_demo_beside_a_given_file_never_opens_it(home: Path, tmp_path: Path) -> None:
    venue = tmp_path / "venue.sqlite3"
    with serving("--db", str(venue), home=home) as (_url, log):
        pass
    printed = log.read_text(encoding="utf-8")
    assert f"demo database: {tmp_path.resolve() / 'venue.demo.sqlite3'}" in printed
    assert not venue.exists()
    assert not (home / "shinpan.sqlite3").exists()
    assert counts(tmp_path / "venue.demo.sqlite3") == (3, 1)


def test_serve_demo_refuses_several_workers(home: Path) -> None:
    env = {**os.environ, "SHINPAN_HOME": str(home), "NO_COLOR": "1"}
    env.pop("SHINPAN_DATABASE_URL", None)
    done = subprocess.run(
        [str(SHINPAN), "serve", "--demo", "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 1
    assert "--demo" in done.stdout + done.stderr
    assert not home.exists()
