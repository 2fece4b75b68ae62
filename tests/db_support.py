"""The tests' databases: a fresh SQLite file or PostgreSQL schema, empty or already migrated.

A test that takes ``db`` gets a database at this code's schema. Migrating one from nothing
runs Alembic's eleven revisions: about 35 ms on SQLite and 250 ms on PostgreSQL on an idle
machine (94 statements, 43 of them DDL), more than most tests' own work, and the suite has
some 1,300 such tests on each kind. So the migration runs once per process and kind:

- **SQLite**: the migrated file is copied (its WAL checkpointed into it first).
- **PostgreSQL**: migrated schemas are kept in a pool. A schema comes back to the pool
  emptied in place (every table's rows deleted, every sequence restarted, with the
  triggers off for the session only, as a superuser may), and only when its catalog is
  still the migrated one: a test that dropped a trigger, added a table or ran a migration
  down leaves a schema that is dropped instead, like one that could not be emptied.

What a test sees is what it saw before: a database at the newest revision with no rows, on
which ``Database(url)`` finds nothing to migrate. The migrations themselves are tested from
nothing by the tests that take an empty database (``backend`` without ``db``: the CLI's
first run, ``tests/test_migration_*.py``, the schema against Alembic's models).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

PG_HOST, PG_PORT, PG_DB = "127.0.0.1", 5432, "test"
PG_ADMIN = f"postgresql://postgres@{PG_HOST}:{PG_PORT}/{PG_DB}"

_PG_STATE: dict[str, str | None] = {}


def postgres_problem() -> str | None:
    """Why PostgreSQL on 127.0.0.1:5432 cannot be used (asked once a process), or None."""
    if "problem" not in _PG_STATE:
        import psycopg

        try:
            with psycopg.connect(PG_ADMIN, connect_timeout=3) as conn:
                conn.execute("SELECT 1")
            _PG_STATE["problem"] = None
        except psycopg.Error as e:
            _PG_STATE["problem"] = " ".join(str(e).split()) or type(e).__name__
    return _PG_STATE["problem"]


def require_postgres() -> None:
    """Skip (or, under CI, fail) when PostgreSQL is not reachable."""
    problem = postgres_problem()
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL must be reachable on {PG_HOST}:{PG_PORT} in CI ({problem})", pytrace=False)
    pytest.skip(f"no PostgreSQL on {PG_HOST}:{PG_PORT}: postgres variants skipped ({problem})")


def pg_admin_execute(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute("SET lock_timeout = '20s'")
        conn.execute(sql)  # type: ignore[arg-type]


def pg_url(schema: str) -> str:
    """The store's URL of ``schema`` in the test database."""
    return (
        f"postgresql+psycopg://postgres@{PG_HOST}:{PG_PORT}/{PG_DB}"
        f"?options=-csearch_path%3D{schema}&connect_timeout=5"
    )


# -- SQLite ----------------------------------------------------------------------------------

_SQLITE_TEMPLATE: list[Path] = []


def _sqlite_template() -> Path:
    """A SQLite file migrated to this code's schema, made once a process."""
    if not _SQLITE_TEMPLATE:
        from shinpan.store.db import Database

        path = Path(tempfile.mkdtemp(prefix="shinpan-template-")) / "migrated.sqlite3"
        Database(f"sqlite:///{path}").close()
        with sqlite3.connect(path) as raw:  # everything into the main file: it alone is copied
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _SQLITE_TEMPLATE.append(path)
    return _SQLITE_TEMPLATE[0]


def migrated_sqlite(path: Path) -> None:
    """Make ``path`` a migrated, empty SQLite database."""
    shutil.copyfile(_sqlite_template(), path)


# -- PostgreSQL --------------------------------------------------------------------------------

_CATALOG = """
SELECT concat_ws(' | ',
  (SELECT string_agg(c.relname::text || ':' || c.relkind::text || ':' || c.relnatts::text, ',' ORDER BY c.relname)
     FROM pg_class c WHERE c.relnamespace = n.oid),
  (SELECT string_agg(t.tgname::text || ':' || t.tgenabled::text, ',' ORDER BY t.tgname)
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = n.oid),
  (SELECT string_agg(p.proname::text, ',' ORDER BY p.proname) FROM pg_proc p WHERE p.pronamespace = n.oid),
  (SELECT string_agg(con.conname::text, ',' ORDER BY con.conname)
     FROM pg_constraint con WHERE con.connamespace = n.oid))
FROM pg_namespace n WHERE n.nspname = %s
"""


class SchemaPool:
    """Migrated PostgreSQL schemas of this process, emptied and used again."""

    def __init__(self) -> None:
        self.free: list[str] = []
        self.catalog: str | None = None  # what a migrated schema's catalog reads
        self.version = ""  # and its Alembic revision

    def take(self) -> str:
        if self.free:
            return self.free.pop()
        from shinpan.store.db import Database

        schema = f"t_{uuid.uuid4().hex[:16]}"
        pg_admin_execute(f"CREATE SCHEMA {schema}")
        try:
            Database(pg_url(schema)).close()
            if self.catalog is None:
                from shinpan.store.db import HEAD

                self.catalog, self.version = self._catalog(schema), HEAD
        except BaseException:
            pg_admin_execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            raise
        return schema

    def drop_all(self) -> None:
        """Drop the pool's schemas (at the session's end: nothing is left in ``test``)."""
        while self.free:
            with suppress(Exception):  # the server gone already: nothing to leave behind
                pg_admin_execute(f"DROP SCHEMA IF EXISTS {self.free.pop()} CASCADE")

    def give_back(self, schema: str) -> None:
        """Empty ``schema`` into the pool, or drop it when it is no longer the migrated one."""
        if self._emptied(schema):
            self.free.append(schema)
        else:
            pg_admin_execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")

    def _catalog(self, schema: str) -> str:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(_CATALOG, (schema,)).fetchone()
        return str(row[0]) if row else ""

    def _emptied(self, schema: str) -> bool:
        import psycopg
        from psycopg import sql

        if self.catalog is None or self._catalog(schema) != self.catalog:
            return False
        try:
            with psycopg.connect(PG_ADMIN, connect_timeout=5) as conn, conn.transaction():
                conn.execute("SET LOCAL lock_timeout = '5s'")
                version = sql.SQL("SELECT version_num FROM {}").format(
                    sql.Identifier(schema, "alembic_version")
                )
                if conn.execute(version).fetchall() != [(self.version,)]:
                    return False
                conn.execute("SET LOCAL session_replication_role = replica")  # triggers off here
                tables = conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'alembic_version'",
                    (schema,),
                ).fetchall()
                for (table,) in tables:
                    conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, table)))
                sequences = conn.execute(
                    "SELECT sequencename FROM pg_sequences WHERE schemaname = %s", (schema,)
                ).fetchall()
                for (sequence,) in sequences:
                    conn.execute(
                        sql.SQL("ALTER SEQUENCE {} RESTART").format(sql.Identifier(schema, sequence))
                    )
        except psycopg.Error:
            return False
        return True


_POOL = SchemaPool()


def drop_pooled_schemas() -> None:
    """The pool's schemas dropped: called as this process's test session ends."""
    _POOL.drop_all()


@contextmanager
def postgres_schema(*, migrated: bool) -> Iterator[str]:
    """A fresh schema (migrated and empty, or with nothing in it), gone or pooled afterwards."""
    require_postgres()
    if migrated:
        schema = _POOL.take()
        try:
            yield schema
        finally:
            _POOL.give_back(schema)
        return
    schema = f"t_{uuid.uuid4().hex[:16]}"
    pg_admin_execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        pg_admin_execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
