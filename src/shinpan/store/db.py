"""Opening a database: where it lives, its settings, its migrations, its transactions.

SQLite is the default (one file in the data directory, WAL, full fsync on commit); a
PostgreSQL URL serves many judges and events from one server. Every write runs in
:meth:`Database.write`: ``BEGIN IMMEDIATE`` on SQLite, a per-event advisory lock on
PostgreSQL, so counting a player's offences and appending the ruling never interleave
with another recording for the same event.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlalchemy.pool import NullPool

from shinpan.errors import StorageError

# Migrations this code knows, oldest first. A database at any other revision was written
# by a newer shinpan and is refused.
REVISIONS = ("0001", "0002", "0003", "0005")
HEAD = REVISIONS[-1]
LOCK_NAMESPACE = 0x5348  # "SH": PostgreSQL advisory locks of shinpan
GLOBAL_LOCK = 0
# Values in one ``IN (...)`` list. A statement binds at most 65,535 parameters on
# PostgreSQL and 32,766 on SQLite (999 before SQLite 3.32), so a long list is asked in
# chunks; fewer, larger chunks cost less on the round trips.
IN_CHUNK = 900

T = TypeVar("T")


def chunks(values: Sequence[T], size: int = IN_CHUNK) -> Iterator[Sequence[T]]:
    """``values`` in consecutive slices of at most ``size``, for ``column.in_(chunk)``."""
    for start in range(0, len(values), size):
        yield values[start : start + size]


def data_dir() -> Path:
    base = os.environ.get("SHINPAN_HOME")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "shinpan"


def resolve_url(db: str | None) -> str:
    """``--db`` / ``SHINPAN_DATABASE_URL``: a URL, or a path to a SQLite file."""
    value = db or os.environ.get("SHINPAN_DATABASE_URL")
    if not value:
        return f"sqlite:///{data_dir() / 'shinpan.sqlite3'}"
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser().resolve()}"
    if value.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + value.split("://", 1)[1]
    return value


def _reason(e: DatabaseError) -> str:
    """The driver's message on one line (libpq's has hints on further lines)."""
    return " ".join(str(e.orig).split())


def _sqlite_settings(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout = 30000")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("shinpan_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


class Database:
    """One database, SQLite or PostgreSQL, migrated to this code's schema."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = resolve_url(url)
        try:
            parsed = make_url(self.url)
        except ArgumentError:
            raise StorageError(f"not a database URL or path: {url!r}") from None
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            path = parsed.database
            if path and path != ":memory:":
                folder = Path(path).parent
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise StorageError(
                        f"cannot make the database's folder {folder}: {e.strerror or e}"
                    ) from None
            self.engine = create_engine(self.url, poolclass=NullPool if not path else None)
            _sqlite_settings(self.engine)
        elif self.dialect == "postgresql":
            self.engine = create_engine(self.url, pool_pre_ping=True)
        else:
            raise StorageError(f"unsupported database {self.dialect!r}: use SQLite or PostgreSQL")
        if migrate:
            self.migrate()

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    def describe(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions ---------------------------------------------------------------

    @contextmanager
    def write(self, event_id: int | None = None) -> Iterator[Connection]:
        """A write transaction, serialised with every other write for the same event."""
        try:
            with self.engine.connect() as conn:
                conn = conn.execution_options(shinpan_write=True)
                with conn.begin():
                    if self.is_postgres:
                        conn.execute(
                            text("SELECT pg_advisory_xact_lock(:ns, :key)"),
                            {"ns": LOCK_NAMESPACE, "key": event_id if event_id is not None else GLOBAL_LOCK},
                        )
                    yield conn
        except OperationalError as e:
            raise StorageError(f"the database could not be written: {_reason(e)}") from e

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction: a consistent view of the database."""
        try:
            with self.engine.connect() as conn, conn.begin():
                if self.is_postgres:
                    conn.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                yield conn
        except OperationalError as e:
            raise StorageError(f"the database could not be read: {_reason(e)}") from e

    # -- migrations -----------------------------------------------------------------

    def revision(self, conn: Connection) -> str | None:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()

    def migrate(self) -> None:
        """Create a new database, upgrade an old one, refuse one newer than this code."""
        try:
            with self.engine.connect() as conn:
                current = self.revision(conn)
        except DatabaseError as e:  # OperationalError, or a file that is not a SQLite database
            raise StorageError(f"cannot open the database {self.describe()}: {_reason(e)}") from None
        if current == HEAD:
            return
        if current is not None and current not in REVISIONS:
            raise StorageError(
                f"this database is at schema revision {current}, newer than this shinpan "
                f"knows (up to {HEAD}); upgrade shinpan to use it"
            )
        from shinpan.store.migrate import upgrade

        with self.write() as conn:
            if self.revision(conn) != HEAD:
                upgrade(conn)
