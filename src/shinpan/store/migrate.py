"""Running the Alembic migrations in ``migrations/``: the one part of the store that
loads SQLAlchemy, and only when a database is new or older than this code."""

from __future__ import annotations

from importlib import resources
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.pool import NullPool, StaticPool

from shinpan.store.db import GLOBAL_LOCK, HEAD, LOCK_NAMESPACE, set_up_sqlite


def _config(conn: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("shinpan.store") / "migrations"))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def upgrade(conn: Connection) -> None:
    """Bring the database on ``conn`` to the newest revision, inside its transaction."""
    command.upgrade(_config(conn), "head")


def known_revisions() -> list[str]:
    """Every revision in ``migrations/``, oldest first."""
    script = ScriptDirectory.from_config(_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


def core_engine(url: str, raw: Any | None = None) -> Engine:
    """SQLAlchemy's engine on the database at ``url`` (on ``raw``, an open in-memory SQLite
    connection, when given), set up as the store sets up its own connections: SQLite
    in WAL with full fsync and foreign keys, transactions begun ``IMMEDIATE``."""
    if raw is not None:
        engine = create_engine("sqlite://", creator=lambda: raw, poolclass=StaticPool)
    else:
        engine = create_engine(url, poolclass=NullPool)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # BEGIN is issued below
            set_up_sqlite(dbapi_conn, on_disk=raw is None)

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            raw_conn: Any = conn.connection.driver_connection  # on the driver: not a statement of Core
            raw_conn.execute("BEGIN IMMEDIATE")

    return engine


def upgrade_database(url: str, raw: Any | None = None) -> None:
    """Migrate the database to this code's schema, once, whoever else opens it meanwhile
    (SQLite's write lock, PostgreSQL's global advisory lock)."""
    engine = core_engine(url, raw)
    try:
        with engine.connect() as conn, conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(
                    text("SELECT pg_advisory_xact_lock(:ns, :key)"),
                    {"ns": LOCK_NAMESPACE, "key": GLOBAL_LOCK},
                )
            at = "SELECT version_num FROM alembic_version"
            if inspect(conn).has_table("alembic_version") and conn.execute(text(at)).scalar() == HEAD:
                return
            upgrade(conn)
    finally:
        if raw is None:
            engine.dispose()
