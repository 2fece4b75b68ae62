"""shinpan.store: opening, migrating and writing a database; the append-only hash chain."""

from __future__ import annotations

import itertools
import sqlite3
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from conftest import Backend, core_of
from shinpan.entries import EventCreated, GuidelineRef, HeadJudge, JudgeAdded
from shinpan.errors import StorageError
from shinpan.store import projector
from shinpan.store.chain import GENESIS, canonical, entry_hash, fingerprint
from shinpan.store.connection import DriverError, Statement
from shinpan.store.db import HEAD, LOCK_NAMESPACE, REVISIONS, Database, resolve_url
from shinpan.store.ledger import Appender, entry_by_command, read_entries, verify_chain
from shinpan.store.migrate import known_revisions
from shinpan.store.schema import PROJECTIONS, metadata

STAMP = "2024-06-01T10:00:00.000000Z"


# -- where the database is ---------------------------------------------------------------


def test_a_path_is_a_sqlite_file_and_a_postgres_url_uses_psycopg(tmp_path: Path) -> None:
    assert resolve_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    assert resolve_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert resolve_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert resolve_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_default_is_a_file_in_the_data_directory_unless_the_environment_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SHINPAN_DATABASE_URL", raising=False)
    monkeypatch.setenv("SHINPAN_HOME", str(tmp_path / "home"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'home' / 'shinpan.sqlite3'}"
    monkeypatch.setenv("SHINPAN_DATABASE_URL", str(tmp_path / "env.db"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'env.db'}"
    assert resolve_url(str(tmp_path / "flag.db")) == f"sqlite:///{tmp_path / 'flag.db'}"  # --db wins


def test_a_new_sqlite_database_is_created_on_first_use_with_wal_and_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "shinpan.sqlite3"
    database = Database(str(path))
    try:
        assert path.exists()
        with database.read() as conn:
            assert Statement("PRAGMA journal_mode").scalar(conn) == "wal"
            assert Statement("PRAGMA synchronous").scalar(conn) == 2  # FULL
            assert Statement("PRAGMA foreign_keys").scalar(conn) == 1
            assert database.revision(conn) == HEAD
    finally:
        database.close()


def test_other_databases_and_nonsense_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="unsupported database 'mysql'"):
        Database("mysql://root@localhost/x")
    with pytest.raises(StorageError, match="not a database URL"):
        Database("::://")
    with pytest.raises(StorageError, match="cannot open the database"):
        Database("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


# -- migrations --------------------------------------------------------------------------


def test_the_revisions_the_code_accepts_are_the_migrations_it_ships() -> None:
    assert list(REVISIONS) == known_revisions()
    assert known_revisions()[-1] == HEAD


def test_a_new_database_is_migrated_and_matches_schema_py(db: Database) -> None:
    with db.read() as conn:
        assert db.revision(conn) == HEAD
    with core_of(db) as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
    assert differences == []


def test_opening_a_migrated_database_again_changes_nothing(db: Database, backend: Backend) -> None:
    with core_of(db) as conn:
        before = sorted(inspect(conn).get_table_names())
    again = Database(backend.url)
    try:
        with core_of(again) as conn:
            assert sorted(inspect(conn).get_table_names()) == before
        with again.read() as conn:
            assert again.revision(conn) == HEAD
    finally:
        again.close()


def _alembic(conn: object) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("shinpan.store") / "migrations"))
    cfg.attributes["connection"] = conn
    return cfg


@pytest.mark.skipif(len(REVISIONS) < 2, reason="one migration: nothing older to upgrade from")
def test_a_database_at_an_older_revision_is_upgraded(backend: Backend) -> None:
    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:
            command.upgrade(_alembic(conn), REVISIONS[0])
        with old.read() as conn:
            assert old.revision(conn) == REVISIONS[0]
    finally:
        old.close()
    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        upgraded.close()


def test_a_database_newer_than_the_code_is_refused(db: Database, backend: Backend) -> None:
    with db.write() as conn:
        Statement("UPDATE alembic_version SET version_num = '9999'").run(conn)
    with pytest.raises(StorageError) as raised:
        Database(backend.url)
    message = str(raised.value)
    assert "9999" in message and "upgrade shinpan" in message


# -- the ledger is append-only at the database --------------------------------------------


def _append(db: Database, event_id: int, n: int, *, command_id: str | None = None) -> None:
    with db.write(event_id) as conn:
        ap = Appender(conn, event_id, "HJ", STAMP, command_id=command_id, command_hash="c" * 64)
        for i in range(n):
            ap.append(JudgeAdded(f"J{i}", 1, "floor_judge"))


def _event(db: Database, event_id: int = 1) -> None:
    created = EventCreated(
        uid=f"uid-{event_id}",
        name="E",
        starts_on=None,
        ends_on=None,
        venue=None,
        rel=3,
        guideline=GuidelineRef("g", "1"),
        head_judge=HeadJudge("HJ", 2),
        confirmation_threshold="warning1",
    )
    with db.write(None) as conn:
        Appender(conn, event_id, "HJ", STAMP).append(created)


def test_entries_cannot_be_updated_or_deleted_even_with_raw_sql(db: Database) -> None:
    _event(db)
    _append(db, 1, 2)
    statements = [
        "UPDATE entries SET body = '{}' WHERE seq = 2",
        "UPDATE entries SET actor = 'someone else'",
        "DELETE FROM entries WHERE seq = 3",
        "DELETE FROM entries",
    ]
    if db.is_postgres:
        statements.append("TRUNCATE entries")
    for sql in statements:
        with pytest.raises(DriverError, match="append-only"), db.write() as conn:
            Statement(sql).run(conn)
    with db.read() as conn:
        assert [e.seq for e in read_entries(conn, 1)] == [1, 2, 3]
        assert verify_chain(conn, 1)[0] is None


def test_entries_can_still_be_appended_after_a_refused_change(db: Database) -> None:
    _event(db)
    with pytest.raises(DriverError), db.write() as conn:
        Statement("DELETE FROM entries").run(conn)
    _append(db, 1, 1)
    with db.read() as conn:
        assert verify_chain(conn, 1)[:2] == (None, 2)


# -- the chain -------------------------------------------------------------------------


def test_each_entry_hashes_its_content_and_the_previous_hash(db: Database) -> None:
    _event(db)
    _append(db, 1, 3, command_id="cmd-1")
    with db.read() as conn:
        chain = list(read_entries(conn, 1))
    assert [e.seq for e in chain] == [1, 2, 3, 4]
    assert chain[0].prev_hash == GENESIS
    for before, entry in itertools.pairwise(chain):
        assert entry.prev_hash == before.hash
    for e in chain:
        assert e.hash == entry_hash(
            seq=e.seq,
            kind=e.kind,
            command_id=e.command_id,
            command_hash=e.command_hash,
            actor=e.actor,
            recorded_at=e.recorded_at,
            refs=canonical(list(e.refs)),
            body=canonical(e.body.body()),
            prev_hash=e.prev_hash,
        )
    # one command: the first entry carries its id, the others point at that entry
    assert chain[1].command_id == "cmd-1" and chain[2].command_id is None
    assert chain[2].refs == (2,) and chain[3].refs == (2,)
    with db.read() as conn:
        found = entry_by_command(conn, 1, "cmd-1")
        assert found is not None and found.seq == 2
        assert entry_by_command(conn, 1, "cmd-2") is None
        broken, count, head = verify_chain(conn, 1)
    assert (broken, count, head) == (None, 4, chain[-1].hash)


def test_events_have_separate_chains(db: Database) -> None:
    _event(db, 1)
    _event(db, 2)
    _append(db, 2, 2)
    _append(db, 1, 1)
    with db.read() as conn:
        assert [e.seq for e in read_entries(conn, 1)] == [1, 2]
        assert [e.seq for e in read_entries(conn, 2)] == [1, 2, 3]
        assert verify_chain(conn, 1)[0] is None and verify_chain(conn, 2)[0] is None


def test_canonical_json_and_fingerprints_do_not_depend_on_key_order() -> None:
    assert canonical({"b": 1, "a": "審判"}) == '{"a":"審判","b":1}'
    assert fingerprint({"a": 1, "b": [1, 2]}) == fingerprint({"b": [1, 2], "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})


def test_a_failed_write_leaves_nothing_behind(db: Database) -> None:
    _event(db)
    with pytest.raises(RuntimeError), db.write(1) as conn:
        Appender(conn, 1, "HJ", STAMP).append(JudgeAdded("X", 1, "viewer"))
        raise RuntimeError("the judge's phone died")
    with db.read() as conn:
        assert [e.seq for e in read_entries(conn, 1)] == [1]
        assert Statement("SELECT count(*) FROM judges WHERE name = 'X'").scalar(conn) == 0


def test_an_unknown_entry_kind_is_not_applied(db: Database) -> None:
    _event(db)

    @dataclass(frozen=True)
    class Nonsense:
        kind: ClassVar[str] = "nonsense"

        def body(self) -> dict[str, Any]:
            return {}

    with pytest.raises(ValueError, match="no projection for 'nonsense'"), db.write(1) as conn:
        Appender(conn, 1, "HJ", STAMP).append(Nonsense())  # type: ignore[arg-type]
    with db.read() as conn:
        assert Statement("SELECT seq FROM entries WHERE event_id = 1").scalars(conn) == [1]


def test_every_projection_has_the_event_in_its_key() -> None:
    assert tuple(t.name for t in PROJECTIONS) == projector.PROJECTION_TABLES  # what a rebuild clears
    for table in PROJECTIONS:
        assert "event_id" in table.primary_key.columns, table.name


# -- writes are serialised --------------------------------------------------------------


def test_a_write_transaction_holds_the_write_lock_until_it_ends(db: Database, backend: Backend) -> None:
    """SQLite: BEGIN IMMEDIATE takes the write lock at once; PostgreSQL: the event's advisory lock."""
    _event(db)
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with db.write(1):
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert holding.wait(10)
        if backend.is_postgres:
            with db.read() as conn:
                try_lock = Statement("SELECT pg_try_advisory_lock(:ns, :key)")
                assert try_lock.scalar(conn, {"ns": LOCK_NAMESPACE, "key": 1}) is False
                assert (
                    try_lock.scalar(conn, {"ns": LOCK_NAMESPACE, "key": 2}) is True
                )  # another event is not held up
                Statement("SELECT pg_advisory_unlock(:ns, 2)").run(conn, {"ns": LOCK_NAMESPACE})
        else:
            assert backend.path is not None
            raw = sqlite3.connect(str(backend.path), timeout=0, isolation_level=None)
            try:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    raw.execute("BEGIN IMMEDIATE")
                assert raw.execute("SELECT count(*) FROM entries").fetchone() == (1,)  # readers go on
            finally:
                raw.close()
    finally:
        release.set()
        thread.join(10)
