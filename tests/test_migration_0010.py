"""Migration 0010 brings a database of revision 0008 to judge calls (T14): the calls table,
empty (no event held before has any call), on SQLite and PostgreSQL; the schema then equals
schema.py, and the projections a rebuild from the ledger; a call is raised at once."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from conftest import Backend, core_of, make_event
from shinpan.services import integrity, rounds
from shinpan.services.calls import list_calls, raise_call
from shinpan.store.db import HEAD, REVISIONS, Database
from shinpan.store.schema import metadata


def test_a_database_of_revision_0008_gets_the_calls_table(backend: Backend) -> None:
    db = Database(backend.url)
    try:
        made = make_event(db, players=4)
        rounds.start_round(db, made.id)
    finally:
        db.close()

    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:  # as revision 0008 left it
            conn.execute(text("DROP TABLE calls"))
            conn.execute(text("UPDATE alembic_version SET version_num = '0008'"))
    finally:
        old.close()

    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD and "0010" in REVISIONS
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert integrity.verify(upgraded).ok
        assert raise_call(upgraded, made.id, 1, "time")["state"] == "open"
        assert [c["table"] for c in list_calls(upgraded, made.id)["calls"]] == [1]
    finally:
        upgraded.close()
