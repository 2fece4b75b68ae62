"""Migration 0007 brings a database of revision 0006 to organisers and listed sessions: the
first account organises the installation, sessions already open keep working and show in
their lists (when they started is not known), on SQLite and PostgreSQL."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from conftest import Backend, core_of
from shinpan.services import access, accounts
from shinpan.store.db import HEAD, Database
from shinpan.store.schema import metadata

SESSION_COLUMNS = ("started_at", "last_seen", "device", "address")


def _alembic(conn: object) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("shinpan.store") / "migrations"))
    cfg.attributes["connection"] = conn
    return cfg


def test_a_database_of_revision_0006_gets_organisers_and_listed_sessions(backend: Backend) -> None:
    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:
            command.upgrade(_alembic(conn), "0006")
            conn.execute(
                text("DROP INDEX ix_sessions_user")
            )  # 0001–0003 make today's tables; 0006's lacked these
            for column in SESSION_COLUMNS:
                conn.execute(text(f"ALTER TABLE sessions DROP COLUMN {column}"))
            conn.execute(text("ALTER TABLE users DROP COLUMN organiser"))
            for n, name in enumerate(("最初 の人", "二番目 の人"), start=1):
                conn.execute(
                    text(
                        "INSERT INTO users (id, name, password_hash, level, created_at, uid) "
                        "VALUES (:id, :name, 'x', 2, '2026-01-01T00:00:00.000000Z', :uid)"
                    ),
                    {"id": n + 10, "name": name, "uid": f"uid-{n}"},
                )
            conn.execute(
                text("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (:h, 12, :until)"),
                {"h": accounts.session_hash("open-before"), "until": "2999-01-01T00:00:00.000000Z"},
            )
    finally:
        old.close()
    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            assert "ix_sessions_user" in {i["name"] for i in inspect(conn).get_indexes("sessions")}
        assert access.organisers(upgraded) == ["最初 の人"]
        second = accounts.account_named(upgraded, "二番目 の人")
        assert second is not None
        assert accounts.get_user(upgraded, second.id, "open-before") == second  # still signed in
        (listed,) = access.own_sessions(upgraded, second, "open-before")
        assert listed.current and listed.started_at is None and listed.device == ""
    finally:
        upgraded.close()
