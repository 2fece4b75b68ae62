"""What the store knows of its tables as plain data (:mod:`shinpan.store.tables`) says what
the schema says: ``shinpan verify`` derives the projections in a scratch database made from
it, reads them by its columns and keys, and the app's role is granted its tables. A column
or an index added to the schema and not here fails these tests.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import create_engine

from shinpan.store import schema
from shinpan.store.tables import APP_TABLES, PROJECTIONS, SCRATCH_DDL


def _shape(conn: sqlite3.Connection) -> dict[str, Any]:
    """Every table's columns (name, type, not null, default, place in the key), indexes and
    unique constraints, as SQLite reports them."""
    tables = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    shape = {}
    for table in tables:
        columns = conn.execute(f"PRAGMA table_info({table})").fetchall()
        indexes = {
            (unique, origin, tuple(c[2] for c in conn.execute(f"PRAGMA index_info({name})")))
            for _, name, unique, origin, _partial in conn.execute(f"PRAGMA index_list({table})")
        }
        shape[table] = (columns, indexes)
    return shape


def test_the_scratch_database_has_the_projection_tables_of_the_schema() -> None:
    engine = create_engine("sqlite://")
    with engine.begin() as core:
        schema.metadata.create_all(core, tables=list(schema.PROJECTIONS))
        from_schema = _shape(core.connection.driver_connection)  # type: ignore[arg-type]
    engine.dispose()
    scratch = sqlite3.connect(":memory:")
    scratch.executescript(SCRATCH_DDL)
    assert _shape(scratch) == from_schema
    assert len(from_schema) == len(schema.PROJECTIONS) == 17


def test_the_projections_are_read_by_the_schemas_columns_and_keys() -> None:
    assert [(p.name, p.key, p.columns) for p in PROJECTIONS] == [
        (t.name, tuple(c.name for c in t.primary_key.columns), tuple(c.name for c in t.columns))
        for t in schema.PROJECTIONS
    ]


def test_the_app_role_is_granted_every_table_of_the_schema() -> None:
    assert tuple(t.name for t in schema.metadata.sorted_tables) == APP_TABLES
    assert "entries" in APP_TABLES and "users" in APP_TABLES
