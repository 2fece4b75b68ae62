"""Migration 0004 brings a database of revision 0003 to rounds on a clock: the new columns
and the table of time given to tables, on SQLite and PostgreSQL."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from conftest import Backend, core_of
from shinpan.store.db import HEAD, Database
from shinpan.store.schema import metadata

NEW_COLUMNS = (("events", "round_minutes"), ("players", "dropped_round"), ("rounds", "started_at"),
               ("rounds", "minutes"), ("rounds", "seed"))  # fmt: skip


def _alembic(conn: object) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("shinpan.store") / "migrations"))
    cfg.attributes["connection"] = conn
    return cfg


def test_a_database_of_revision_0003_gets_the_rounds_clock(backend: Backend) -> None:
    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:
            command.upgrade(_alembic(conn), "0003")
            for table, column in NEW_COLUMNS:  # 0001 makes today's tables; 0003's lacked these
                conn.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
        with core_of(old) as conn:
            assert "time_extensions" not in inspect(conn).get_table_names()
    finally:
        old.close()
    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD  # 0004 and every later revision
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        upgraded.close()
