"""The store's typed reads on the driver, where the earlier tests do not reach: a long list
of players or rulings asked at once (the scoresheet, a void of many rulings) stays within
the database's limit on bound parameters, and the app's PostgreSQL role takes a password of
any characters. And the modules of these reads load neither SQLAlchemy nor the tables.

SQLite is held to the limit of its older builds (999 parameters a statement), which a
list of numbers in one ``IN (...)`` would exceed.
"""

from __future__ import annotations

import ast
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import HEAD_JUDGE, EventSetup
from shinpan.engine.event_rules import Status
from shinpan.services import corrections, deadlines
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import Database
from shinpan.store.history import before_record, is_player, last_ruling_number, live_rulings
from shinpan.store.roles import grant_role
from shinpan.store.roster import statuses
from shinpan.store.rulings import causes, live_follow_ups

OLD_SQLITE_LIMIT = 999


@contextmanager
def held_to_old_limits(db: Database) -> Iterator[Connection]:
    """A read transaction whose SQLite connection binds at most 999 parameters a statement."""
    with db.read() as conn:
        if conn.is_postgres:
            yield conn
            return
        before = conn.driver.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, OLD_SQLITE_LIMIT)
        try:
            yield conn
        finally:
            conn.driver.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, before)


def test_the_statuses_of_a_long_list_of_players_are_read_whatever_its_length(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event(players=1200, pair=False)
    asked = [*ev.players, *(f"X{n:04d}" for n in range(900))]  # 2,100 ids, 900 not registered
    with held_to_old_limits(ev.db) as conn:
        if not conn.is_postgres:
            too_many = Statement("SELECT number FROM players WHERE number IN (:n)")
            with pytest.raises(Exception, match="too many SQL variables"):
                too_many.all(conn, {"n": asked})  # what one statement would have done
        found = statuses(conn, ev.id, asked)
    assert found == dict.fromkeys(ev.players, Status.active)


def test_the_causes_and_follow_ups_of_many_rulings_are_read_whatever_their_number(ev: EventSetup) -> None:
    given = ev.clock.now - timedelta(minutes=10)
    late = ev.record("P001", "pregame.tardiness", given_at=given.isoformat()).rulings[0]["number"]
    (follow_up,) = deadlines.mark_missed(ev.db, ev.id, late, 0, now=ev.clock.now)
    many = range(1, 2501)  # the two rulings and 2,498 numbers no ruling has
    with held_to_old_limits(ev.db) as conn:
        found = causes(conn, ev.id, many)
        follow_ups = live_follow_ups(conn, ev.id, many)
    assert sorted(found) == [late, follow_up["number"]]
    assert found[late].rule == "pregame.tardiness"
    assert [f.number for f in follow_ups] == [follow_up["number"]]


def test_what_a_record_reads_first_is_one_read_that_agrees_with_the_reads_one_by_one(
    new_event: Callable[..., EventSetup],
) -> None:
    ev = new_event()  # round 1: P001 v P002 at table 1, P003 v P004 at table 2, ...
    with ev.db.read() as conn:
        fresh = before_record(conn, ev.id, "P001", ["P001"])
    assert fresh.last_number == 0 and fresh.rulings == {"P001": []}
    assert fresh.playing == (1, 1)

    ev.pair(2, [("P003", "P002"), ("P004", "P001")])  # P001 second-named, at table 2
    voided = ev.record("P001", "general.uncategorized", penalties=["caution"]).rulings[0]["number"]
    ev.record("P001", "players.advice", facts={"advisor": "P002"})  # a ruling for each of them
    ev.record("P001", "general.uncategorized", penalties=["caution"])
    corrections.void(ev.db, ev.id, voided, "recorded for the wrong player", judge=HEAD_JUDGE)
    names = ["P001", "P002", "P005", "a spectator"]
    with ev.db.read() as conn:
        before = before_record(conn, ev.id, "P001", names)
        assert before.players == {n for n in names if is_player(conn, ev.id, n)} == {"P001", "P002", "P005"}
        assert before.rulings == {n: live_rulings(conn, ev.id, n) for n in names}
        assert before.last_number == last_ruling_number(conn, ev.id) == 4
        assert before.playing == (2, 2)  # the latest round the player was paired in
        elsewhere = before_record(conn, ev.id, "P005", ["P005"])
    assert [r.number for r in before.rulings["P001"]] == [2, 4]  # the voided one counts no more
    assert [r.rule for r in before.rulings["P002"]] == ["players.advice"]
    assert elsewhere.playing == (1, 3)  # not paired in round 2: still where round 1 put them


_PASSWORD_SET = Statement("SELECT rolpassword IS NOT NULL FROM pg_authid WHERE rolname = :r")


def test_the_app_role_takes_a_password_of_any_characters(db: Database) -> None:
    if not db.is_postgres:
        pytest.skip("roles are PostgreSQL's")
    role = f"app_{uuid.uuid4().hex[:10]}"
    try:
        grant_role(db, role, "it's a :secret, %s 100%")  # a quote, a colon before a word, percent signs
        with db.read() as conn:
            assert _PASSWORD_SET.scalar(conn, {"r": role}) is True
    finally:
        with db.write() as conn:
            if Statement("SELECT 1 FROM pg_roles WHERE rolname = :r").first(conn, {"r": role}):
                for ddl in (f"DROP OWNED BY {role}", f"DROP ROLE {role}"):
                    Statement(ddl).run(conn)


FREED = (
    "copies", "deadlines", "events", "guards", "history", "integrity", "roles", "roster", "rounds",
    "rulings", "snapshots", "standings", "tables",
)  # fmt: skip


@pytest.mark.parametrize("module", FREED)
def test_the_stores_reads_import_no_sqlalchemy_and_no_tables(module: str) -> None:
    path = Path(__file__).resolve().parents[1] / "src" / "shinpan" / "store" / f"{module}.py"
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # inside functions too
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    assert not {
        n for n in imported if n.split(".")[0] == "sqlalchemy" or n.startswith("shinpan.store.schema")
    }
