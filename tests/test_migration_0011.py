"""Migration 0011 brings a database of revision 0008 to the seal in force kept on the event's
row: an event sealed before the upgrade is closed after it (its ``event.sealed`` entry is
found), an event never sealed stays open, on SQLite and PostgreSQL; the projections still
equal a rebuild from the ledger."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text

from conftest import Backend, core_of, make_event
from shinpan.errors import EventClosed
from shinpan.services import integrity, seal
from shinpan.store.connection import Statement
from shinpan.store.db import HEAD, Database
from shinpan.store.schema import metadata

COLUMNS = ("sealed_entry", "reopened_entry")
ROW = Statement(f"SELECT {', '.join(COLUMNS)} FROM events WHERE event_id = :e")


def test_a_database_of_revision_0008_keeps_its_sealed_events_closed(
    backend: Backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHINPAN_HOME", str(tmp_path / "home"))
    db = Database(backend.url)
    try:
        sealed = make_event(db, players=4)
        plain = make_event(db, players=4, name="封印しない大会")
        done = seal.seal_event(db, sealed.id)
    finally:
        db.close()

    old = Database(backend.url, migrate=False)
    try:
        with core_of(old) as conn:  # as revision 0008 left it
            for column in COLUMNS:
                conn.execute(text(f"ALTER TABLE events DROP COLUMN {column}"))
            conn.execute(text("UPDATE alembic_version SET version_num = '0008'"))
    finally:
        old.close()

    upgraded = Database(backend.url)
    try:
        with upgraded.read() as conn:
            assert upgraded.revision(conn) == HEAD
            assert tuple(ROW.first(conn, {"e": sealed.id})) == (done["seq"], None)
            assert tuple(ROW.first(conn, {"e": plain.id})) == (None, None)
        with core_of(upgraded) as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        assert integrity.verify(upgraded).ok
        with pytest.raises(EventClosed):
            sealed.db = upgraded
            sealed.record("P001", "ingame.slow-play")
        plain.db = upgraded
        plain.record("P001", "ingame.slow-play")
    finally:
        upgraded.close()
