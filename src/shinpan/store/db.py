"""Opening a database: where it lives, its settings, its migrations, its transactions.

SQLite is the default (one file in the data directory, WAL, full fsync on commit); a
PostgreSQL URL serves many judges and events from one server. The store talks to both on
their own drivers (``sqlite3``, ``psycopg``): SQLAlchemy and Alembic are loaded only to
migrate a database to this code's schema, so a command that opens a database starts
without them.

Every write runs in :meth:`Database.write`: ``BEGIN IMMEDIATE`` on SQLite, a per-event
advisory lock on PostgreSQL, so counting a player's offences and appending the ruling
never interleave with another recording for the same event.

What goes outward is told after commit, here and only here: a write that appended to an
event's ledger notifies every process on PostgreSQL (``NOTIFY``, delivered at commit) and,
on either database, the listeners of this process (:attr:`Database.listeners`, e.g. the web
app's live views and caches, which must forget at once what this process changed),
whichever command made it, on the web or on the command line.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from shinpan.errors import StorageError
from shinpan.store.connection import Connection, DriverError, Script, Statement
from shinpan.store.kept import Kept
from shinpan.store.pool import BUSY_SECONDS, Batch, Pool, operational, reason
from shinpan.store.urls import database_url, described

__all__ = [
    "CHANNEL",
    "NOTICE",
    "Connection",
    "Database",
    "Growth",
    "Statement",
    "chunks",
    "data_dir",
    "database_url",
    "resolve_url",
]

# Migrations this code knows, oldest first. A database at any other revision was written
# by a newer shinpan and is refused.
REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010", "0011")
HEAD = REVISIONS[-1]
LOCK_NAMESPACE = 0x5348  # "SH": PostgreSQL advisory locks of shinpan
GLOBAL_LOCK = 0
# Values in one ``IN (...)`` list. A statement binds at most 65,535 parameters on
# PostgreSQL and 32,766 on SQLite (999 before SQLite 3.32), so a long list is asked in
# chunks; fewer, larger chunks cost less on the round trips.
IN_CHUNK = 900


def set_up_sqlite(raw: Any, *, on_disk: bool) -> None:
    """How every SQLite connection of the store runs, the migration's too: a write waits its
    turn, a file is in WAL with a full fsync at each commit, foreign keys are enforced."""
    raw.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    if on_disk:
        raw.execute("PRAGMA journal_mode = WAL")
    raw.execute("PRAGMA synchronous = FULL")
    raw.execute("PRAGMA foreign_keys = ON")


# PostgreSQL's NOTIFY channel ("event id:newest entry" of a grown ledger, or a sign-out):
# one per schema, so that two shinpan schemas in one database never hear each other's
# events (event 1 of one is not event 1 of the other). Worked out by the server, from the
# connection's own search path, so the sender and the listener cannot disagree.
CHANNEL_OF_SCHEMA = "'shinpan_events_' || left(md5(current_schema()), 12)"
NOTICE = Statement(f"SELECT pg_notify({CHANNEL_OF_SCHEMA}, :p)")
CHANNEL = Statement(f"SELECT {CHANNEL_OF_SCHEMA}")
GROWN = "shinpan.grown"  # conn.info: event id → what this transaction appended (Growth)


@dataclass
class Growth:
    """What one transaction appended to an event's ledger: its first and newest entries
    and their kinds (a listener that saw the entry before ``first`` needs no read)."""

    first: int
    head: int
    kinds: set[str]

    def add(self, seq: int, kind: str) -> None:
        self.head = seq
        self.kinds.add(kind)

    def notice(self, event_id: int) -> str:
        """The NOTIFY payload telling other processes: ``event:head:first:kind,kind`` (they
        need no read to know what changed). Kinds are the store's own words; were one not
        plain, only ``event:head`` is told, and the hearer reads."""
        told = f"{int(event_id)}:{int(self.head)}"
        if all(_PLAIN_KIND.fullmatch(kind) for kind in self.kinds):
            told += f":{int(self.first)}:{','.join(sorted(self.kinds))}"
        return told

    @classmethod
    def of_notice(cls, payload: str) -> tuple[int, int, Growth | None]:
        """The event, its newest entry and (when told) what grew, from :meth:`notice`'s payload."""
        parts = payload.split(":")
        event_id, head = int(parts[0]), int(parts[1])
        if len(parts) != 4:
            return event_id, head, None
        return event_id, head, cls(int(parts[2]), head, set(parts[3].split(",")))


_PLAIN_KIND = re.compile(r"[a-z][a-z0-9_.-]{0,60}")


IDLE_PING_SECONDS = 10.0  # a pooled PostgreSQL connection idle this long is checked before use
POOL_LIMIT = 20  # connections open at once per process (the web app's threads share them)

T = TypeVar("T")


def chunks(values: Sequence[T], size: int = IN_CHUNK) -> Iterator[Sequence[T]]:
    """``values`` in consecutive slices of at most ``size``, for ``IN (:values)``."""
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


_HAS_VERSION_SQLITE = Statement(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
)
_HAS_VERSION_PG = Statement("SELECT to_regclass('alembic_version')")
_VERSION = Statement("SELECT version_num FROM alembic_version")
_PING = Statement("SELECT 1")
_COMMIT = Statement("COMMIT")
_BEGIN = Statement("BEGIN IMMEDIATE")
GROUP_COMMIT_MOST = 64  # writes in one SQLite transaction at most


class Database:
    """One database, SQLite or PostgreSQL, migrated to this code's schema."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = resolve_url(url)
        self.target = database_url(self.url)
        self.dialect = self.target.dialect
        self.path = self.target.path  # SQLite's file; None for memory and PostgreSQL
        # SQLite: one writer connection per process, taken in turn (see _sqlite_write);
        # in memory, that one connection is the whole database.
        self._writer: Any = None
        self._writer_lock = threading.Lock() if self.dialect == "sqlite" else None
        self._batch: Batch | None = None  # the writes sharing the open transaction
        self._queued = 0  # writes waiting for the writer connection
        self._queue_lock = threading.Lock()
        if self.dialect == "sqlite" and self.path:
            folder = Path(self.path).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageError(f"cannot make the database's folder {folder}: {e.strerror or e}") from None
        self._pool = Pool(self._open, POOL_LIMIT)
        self._reading = threading.local()  # the read this thread's reads join (one_view)
        # told after commit: (event, newest entry, what this process's transaction appended)
        self.listeners: list[Callable[[int, int, Growth], None]] = []
        self.kept = Kept()  # the caches kept for this database in this process (store.kept)
        if migrate:
            self.migrate()

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    @property
    def connect_hooks(self) -> list[Callable[[Any], None]]:
        """Run on every driver connection this database opens from now on (tests use it to
        hold SQLite to its default limits); :meth:`close` drops the ones already open."""
        return self._pool.hooks

    def describe(self) -> str:
        return described(self.url)

    def close(self) -> None:
        if self._writer is not None:
            with suppress(Exception):
                self._writer.close()
            self._writer = None
        self._pool.clear()

    # -- connections ----------------------------------------------------------------

    def _open(self) -> Any:
        try:
            if self.dialect == "sqlite":
                return self._open_sqlite()
            import psycopg  # start-up

            # autocommit: the store says BEGIN and COMMIT itself, as on SQLite.
            return psycopg.connect(self.target.conninfo, autocommit=True)
        except Exception as e:
            if type(e).__name__ in ("OperationalError", "DatabaseError") or isinstance(e, OSError):
                raise StorageError(f"cannot open the database {self.describe()}: {reason(e)}") from None
            raise

    def _open_sqlite(self) -> Any:
        import sqlite3  # start-up

        raw = sqlite3.connect(
            self.path or ":memory:", timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
        )
        set_up_sqlite(raw, on_disk=bool(self.path))
        return raw

    @contextmanager
    def _transaction(
        self, raw: Any, begin: str | Script, end: Callable[[], Script] | None = None
    ) -> Iterator[Connection]:
        """BEGIN on ``raw``; COMMIT (or ``end()``, which ends with it) when the block ends,
        ROLLBACK when it raises (or the COMMIT fails: a refused commit is a store error like
        any statement's)."""
        conn = Connection(raw, self.dialect)
        try:
            if isinstance(begin, Script):  # a lock refused with it: rolled back below
                begin.run(conn)
            else:
                raw.execute(begin)
            yield conn
            if end is None:
                _COMMIT.run(conn)
            else:
                end().run(conn)
        except BaseException:
            with suppress(Exception):  # the connection is gone; the server rolled back
                raw.execute("ROLLBACK")
            raise

    @contextmanager
    def _pooled(self) -> Iterator[Any]:
        """A connection of the pool, given back afterwards unless it broke. On PostgreSQL
        one that sat idle is checked first (the server may have restarted since)."""
        raw, since = self._pool.take()
        if self.is_postgres and since and (raw.broken or time.monotonic() - since > IDLE_PING_SECONDS):
            try:
                _PING.run(Connection(raw, self.dialect))
            except DriverError:
                self._pool.discard(raw)
                raw, _ = self._pool.take()
        try:
            yield raw
        except BaseException:
            if self.is_postgres and (raw.closed or raw.broken):
                self._pool.discard(raw)
            else:
                self._pool.give_back(raw)
            raise
        self._pool.give_back(raw)

    # -- transactions ---------------------------------------------------------------

    @contextmanager
    def write(self, event_id: int | None = None) -> Iterator[Connection]:
        """A write transaction, serialised with every other write for the same event.
        Once it has committed, whoever listens hears which ledgers grew (see the module)."""
        grown: dict[int, Growth] = {}
        try:
            if self.dialect == "sqlite":
                with self._sqlite_write() as conn, self._tracking(conn, grown):
                    yield conn
            else:
                # One trip to the server to begin and take the event's lock, one to tell who
                # listens and commit: the lock is held for as few trips as the work needs.
                key = event_id if event_id is not None else GLOBAL_LOCK
                begin = Script("BEGIN", f"SELECT pg_advisory_xact_lock({LOCK_NAMESPACE}, {int(key)})")

                def end() -> Script:  # notices are delivered when the transaction commits
                    told = [
                        f"SELECT pg_notify({CHANNEL_OF_SCHEMA}, '{g.notice(e)}')"
                        for e, g in sorted(grown.items())
                    ]
                    return Script(*told, "COMMIT")

                with (
                    self._pooled() as raw,
                    self._transaction(raw, begin, end) as conn,
                    self._tracking(conn, grown),
                ):
                    yield conn
        except DriverError as e:
            if operational(e):
                raise StorageError(f"the database could not be written: {reason(e)}") from e
            raise
        for grew, growth in sorted(grown.items()):
            self._tell(grew, growth)

    @staticmethod
    @contextmanager
    def _tracking(conn: Connection, grown: dict[int, Growth]) -> Iterator[None]:
        """The appender notes here which ledgers this transaction grew, and how far."""
        conn.info[GROWN] = grown
        try:
            yield
        finally:
            conn.info.pop(GROWN, None)

    def _tell(self, event_id: int, growth: Growth) -> None:
        for listener in list(self.listeners):
            try:
                listener(event_id, growth.head, growth)
            except Exception:  # a listener must never fail the command that committed
                import logging  # start-up: only when one fails, a command that starts does not pay for it

                logging.getLogger("shinpan.store").exception("a listener failed")

    @contextmanager
    def _sqlite_write(self) -> Iterator[Connection]:
        """On SQLite, the process's writes take one connection in turn, in the order they
        asked (a lock), as datasette does: SQLite's own busy wait sleeps up to 100 ms
        between tries. ``BEGIN IMMEDIATE`` still serialises them with other processes.

        Group commit: a write that finds others waiting for the connection leaves its
        transaction open to them, each in a savepoint of its own (a write that fails takes
        back only itself), and the last of them commits for all; each returns once that
        commit is on disk. Under load one fsync then serves many rulings; alone, a write
        commits at once as before, without a savepoint (it is alone in its transaction)."""
        assert self._writer_lock is not None
        with self._queue_lock:
            self._queued += 1
        acquired = self._writer_lock.acquire(timeout=BUSY_SECONDS)
        with self._queue_lock:
            self._queued -= 1
        if not acquired:
            raise StorageError("the database could not be written: other writes kept it busy")
        batch: Batch | None = None
        failed: BaseException | None = None
        try:
            batch = self._join_batch()
            raw = self._writer
            shared = batch.size > 1  # the first write is alone in the transaction so far
            if shared:
                raw.execute("SAVEPOINT write")
            try:
                yield Connection(raw, self.dialect)
            except BaseException as e:
                failed = e
                with suppress(Exception):  # gone with the transaction if SQLite ended it
                    if shared:
                        raw.execute("ROLLBACK TO write")
                        raw.execute("RELEASE write")
                    else:
                        raw.execute("ROLLBACK")
                raise
            if shared:
                raw.execute("RELEASE write")
        except Exception as e:
            failed = failed or e
            if operational(e) and not isinstance(e, StorageError):
                raise StorageError(f"the database could not be written: {reason(e)}") from e
            raise
        finally:
            try:
                waits = batch is not None and self._settle(batch, failed)
            finally:
                self._writer_lock.release()
        if waits and batch is not None:
            batch.wait()

    def _join_batch(self) -> Batch:
        """The open transaction, or a new one (the writer lock is held)."""
        if self._writer is None:
            self._writer = self._open()
            for hook in self._pool.hooks:
                hook(self._writer)
        if self._batch is None:
            _BEGIN.run(Connection(self._writer, self.dialect))
            self._batch = Batch()
        self._batch.size += 1
        return self._batch

    def _settle(self, batch: Batch, failed: BaseException | None) -> bool:
        """After a write's savepoint (the writer lock is held): leave the transaction open
        to the writes waiting, or commit it for the whole batch. True when this write must
        still wait for the commit."""
        raw = self._writer
        if failed is not None and batch.size == 1:  # the write alone in it failed: nothing to keep
            if raw is not None and raw.in_transaction:
                with suppress(Exception):
                    raw.execute("ROLLBACK")
            self._batch = None
            batch.finish(None)
            return False
        if raw is None or not raw.in_transaction:  # SQLite rolled the whole batch back
            self._batch = None
            batch.finish(StorageError("the database could not be written: the transaction was rolled back"))
            return False
        if self._queued > 0 and batch.size < GROUP_COMMIT_MOST:
            return failed is None
        self._batch = None
        try:
            _COMMIT.run(Connection(raw, self.dialect))
        except Exception as e:
            with suppress(Exception):
                raw.execute("ROLLBACK")
            batch.finish(e)
            if failed is None:
                raise
            return False
        batch.finish(None)
        return False

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction: a consistent view of the database. A read asked for inside
        another read of the same thread joins it: a page that asks several services sees
        one moment of the event, in one transaction (see :meth:`one_view`)."""
        joined = getattr(self._reading, "conn", None)
        if joined is not None:
            yield joined
            return
        try:
            if self.dialect == "sqlite" and not self.path:  # memory: the one connection
                with self._sqlite_write() as conn:
                    yield conn
                return
            begin = "BEGIN ISOLATION LEVEL REPEATABLE READ" if self.is_postgres else "BEGIN"
            with self._pooled() as raw, self._transaction(raw, begin) as conn:
                yield conn
        except DriverError as e:
            if operational(e):
                raise StorageError(f"the database could not be read: {reason(e)}") from e
            raise

    @contextmanager
    def one_view(self) -> Iterator[Connection]:
        """A read that every :meth:`read` of this thread joins until it ends."""
        if getattr(self._reading, "conn", None) is not None:
            with self.read() as conn:
                yield conn
            return
        with self.read() as conn:
            self._reading.conn = conn
            try:
                yield conn
            finally:
                self._reading.conn = None

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
            with self.read() as conn:
                current = self.revision(conn)
        except DriverError as e:  # e.g. a file that is not a SQLite database
            raise StorageError(f"cannot open the database {self.describe()}: {reason(e)}") from None
        if current == HEAD:
            return
        if current is not None and current not in REVISIONS:
            raise StorageError(
                f"this database is at schema revision {current}, newer than this shinpan "
                f"knows (up to {HEAD}); upgrade shinpan to use it"
            )
        from shinpan.store.migrate import upgrade_database  # start-up: Alembic, SQLAlchemy

        if self.dialect == "sqlite" and not self.path:  # memory: migrate the one connection
            assert self._writer_lock is not None
            with self._writer_lock:
                if self._writer is None:
                    self._writer = self._open()
                upgrade_database(self.url, self._writer)
        else:
            upgrade_database(self.url)
        self._pool.clear()  # connections opened before the schema changed
