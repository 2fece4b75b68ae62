"""Opening a database: where it lives, its settings, its migrations, its transactions.

SQLite is the default (one file in the data directory, WAL, full fsync on commit); a
PostgreSQL URL serves many judges and events from one server. Every write runs in
:meth:`Database.write`: ``BEGIN IMMEDIATE`` on SQLite, a per-event advisory lock on
PostgreSQL, so counting a player's offences and appending the ruling never interleave
with another recording for the same event.

What goes outward is told after commit, here and only here: a write that appended to an
event's ledger notifies every process on PostgreSQL (``NOTIFY``, delivered at commit) and,
on either database, the listeners of this process (:attr:`Database.listeners`, e.g. the web
app's live views and caches, which must forget at once what this process changed),
whichever command made it, on the web or on the command line.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection as CoreConnection
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, DataError, OperationalError
from sqlalchemy.pool import NullPool

from shinpan.errors import StorageError, Unstorable
from shinpan.store.connection import Connection, Statement

__all__ = ["CHANNEL", "Connection", "Database", "Statement", "chunks", "data_dir", "resolve_url"]

# Migrations this code knows, oldest first. A database at any other revision was written
# by a newer shinpan and is refused.
REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006")
HEAD = REVISIONS[-1]
LOCK_NAMESPACE = 0x5348  # "SH": PostgreSQL advisory locks of shinpan
GLOBAL_LOCK = 0
# Values in one ``IN (...)`` list. A statement binds at most 65,535 parameters on
# PostgreSQL and 32,766 on SQLite (999 before SQLite 3.32), so a long list is asked in
# chunks; fewer, larger chunks cost less on the round trips.
IN_CHUNK = 900
BUSY_SECONDS = 30.0  # how long a write waits for the one before it (SQLite's busy timeout too)
CHANNEL = "shinpan_events"  # PostgreSQL's NOTIFY channel: "event id:newest entry" of a grown ledger
GROWN = "shinpan.grown"  # conn.info: event id → newest entry this transaction appended
log = logging.getLogger("shinpan.store")

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
        cur.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: CoreConnection) -> None:
        write = conn.get_execution_options().get("shinpan_write", False)
        raw: Any = conn.connection.driver_connection  # on the driver: no result object
        raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")


_NOTIFY = Statement("SELECT pg_notify(:c, :p)")
_ADVISORY_LOCK = Statement("SELECT pg_advisory_xact_lock(:ns, :key)")
_HAS_VERSION_SQLITE = Statement(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
)
_HAS_VERSION_PG = Statement("SELECT to_regclass('alembic_version')")
_VERSION = Statement("SELECT version_num FROM alembic_version")
_REPEATABLE_READ = Statement("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


@contextmanager
def _unstorable() -> Iterator[None]:
    """A value SQLAlchemy's Core passed to the database that it cannot hold (PostgreSQL's
    integer out of range, a NUL in a text), told as :class:`Unstorable` like the store's own
    statements tell it. Goes with the last Core statement."""
    try:
        yield
    except DataError as e:
        raise Unstorable("a number is too large or a text has characters that cannot be saved") from e


def wrap_core(core: CoreConnection) -> Connection:
    """The store's connection over SQLAlchemy's, sharing its transaction."""
    return Connection(core.connection.driver_connection, core.dialect.name, core)


class Database:
    """One database, SQLite or PostgreSQL, migrated to this code's schema."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = resolve_url(url)
        try:
            parsed = make_url(self.url)
        except ArgumentError:
            raise StorageError(f"not a database URL or path: {url!r}") from None
        self.dialect = parsed.get_backend_name()
        # SQLite on a file: one writer connection per process, taken in turn (see write).
        self._writer: CoreConnection | None = None
        self._writer_lock: threading.Lock | None = None
        if self.dialect == "sqlite":
            path = parsed.database
            if path and path != ":memory:":
                self._writer_lock = threading.Lock()
            if path and path != ":memory:":
                folder = Path(path).parent
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise StorageError(
                        f"cannot make the database's folder {folder}: {e.strerror or e}"
                    ) from None
            # Every transaction ends in commit or rollback (write, read, Connection.close),
            # so the pool need not roll back again when a connection comes back.
            self.engine = create_engine(
                self.url, poolclass=NullPool if not path else None, pool_reset_on_return=None
            )
            _sqlite_settings(self.engine)
        elif self.dialect == "postgresql":
            self.engine = create_engine(self.url, pool_pre_ping=True)
        else:
            raise StorageError(f"unsupported database {self.dialect!r}: use SQLite or PostgreSQL")
        self.listeners: list[Callable[[int, int], None]] = []  # (event, newest entry) after commit
        if migrate:
            self.migrate()

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    def describe(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # -- transactions ---------------------------------------------------------------

    @contextmanager
    def write(self, event_id: int | None = None) -> Iterator[Connection]:
        """A write transaction, serialised with every other write for the same event.
        Once it has committed, whoever listens hears which ledgers grew (see the module)."""
        with _unstorable(), self._write(event_id) as conn:
            yield conn

    @contextmanager
    def _write(self, event_id: int | None) -> Iterator[Connection]:
        grown: dict[int, int] = {}
        if self._writer_lock is not None:
            with self._sqlite_write() as core:
                conn = wrap_core(core)
                with self._tracking(conn, grown):
                    yield conn
        else:
            try:
                with self.engine.connect() as core:
                    core = core.execution_options(shinpan_write=True)
                    with core.begin():
                        conn = wrap_core(core)
                        with self._tracking(conn, grown):
                            if self.is_postgres:
                                _ADVISORY_LOCK.run(
                                    conn,
                                    {
                                        "ns": LOCK_NAMESPACE,
                                        "key": event_id if event_id is not None else GLOBAL_LOCK,
                                    },
                                )
                            yield conn
                            if self.is_postgres:  # delivered when the transaction commits
                                for grew, head in sorted(grown.items()):
                                    _NOTIFY.run(conn, {"c": CHANNEL, "p": f"{grew}:{head}"})
            except OperationalError as e:
                raise StorageError(f"the database could not be written: {_reason(e)}") from e
        for grew, head in sorted(grown.items()):
            self._tell(grew, head)

    @staticmethod
    @contextmanager
    def _tracking(conn: Connection, grown: dict[int, int]) -> Iterator[None]:
        """The appender notes here which ledgers this transaction grew, and how far."""
        conn.info[GROWN] = grown
        try:
            yield
        finally:
            conn.info.pop(GROWN, None)

    def _tell(self, event_id: int, head: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(event_id, head)
            except Exception:  # a listener must never fail the command that committed
                log.exception("a listener failed")

    @contextmanager
    def _sqlite_write(self) -> Iterator[CoreConnection]:
        """On a SQLite file, the process's writes take one connection in turn, in the order
        they asked (a lock), as datasette does: SQLite's own busy wait sleeps up to 100 ms
        between tries, and a new connection per write costs the pool's bookkeeping.
        ``BEGIN IMMEDIATE`` still serialises them with other processes."""
        assert self._writer_lock is not None
        if not self._writer_lock.acquire(timeout=BUSY_SECONDS):
            raise StorageError("the database could not be written: other writes kept it busy")
        try:
            writer = self._writer
            if writer is None or writer.closed or writer.invalidated:
                writer = self._writer = self.engine.connect().execution_options(shinpan_write=True)
            with writer.begin():
                yield writer
        except OperationalError as e:
            raise StorageError(f"the database could not be written: {_reason(e)}") from e
        finally:
            self._writer_lock.release()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction: a consistent view of the database."""
        with _unstorable(), self._read() as conn:
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self.engine.connect() as core, core.begin():
                conn = wrap_core(core)
                if self.is_postgres:
                    _REPEATABLE_READ.run(conn)
                yield conn
        except OperationalError as e:
            raise StorageError(f"the database could not be read: {_reason(e)}") from e

    # -- migrations -----------------------------------------------------------------

    def revision(self, conn: Connection) -> str | None:
        """The schema revision the database is at; None for a new, empty database."""
        present = _HAS_VERSION_PG if conn.is_postgres else _HAS_VERSION_SQLITE
        if present.scalar(conn) is None:
            return None
        found = _VERSION.scalar(conn)
        return None if found is None else str(found)

    def migrate(self) -> None:
        """Create a new database, upgrade an old one, refuse one newer than this code."""
        try:
            with self.engine.connect() as core:
                current = self.revision(wrap_core(core))
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
                assert conn._core is not None
                upgrade(conn._core)
