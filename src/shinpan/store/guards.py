"""The database's own guard on the ledger, and the app's PostgreSQL role.

The ledger is append-only because the database refuses anything else: triggers refuse
UPDATE, DELETE, TRUNCATE and (on SQLite) an INSERT that would replace an entry.
:func:`missing_guards` names any that was dropped or switched off (``shinpan verify``
reports it). On PostgreSQL the app should not connect as the tables' owner, who may switch
triggers off: :func:`grant_app_role` makes a role that may append and read, not alter.
"""

from __future__ import annotations

import re

from sqlalchemy import text

from shinpan.errors import InvalidInput
from shinpan.store.connection import Connection
from shinpan.store.schema import metadata

SQLITE_TRIGGERS = ("entries_no_update", "entries_no_delete", "entries_no_replace")
POSTGRES_TRIGGERS = ("entries_append_only", "entries_no_truncate")
ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def missing_guards(conn: Connection) -> list[str]:
    """The ledger's triggers that are not there (or, on PostgreSQL, switched off)."""
    if conn.dialect == "sqlite":
        present = set(
            conn.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'entries'")
            )
            .scalars()
            .all()
        )
        return [t for t in SQLITE_TRIGGERS if t not in present]
    enabled = set(
        conn.execute(
            text(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass('entries') "
                "AND NOT tgisinternal AND tgenabled <> 'D'"
            )
        )
        .scalars()
        .all()
    )
    return [t for t in POSTGRES_TRIGGERS if t not in enabled]


def grant_app_role(conn: Connection, role: str, password: str | None) -> None:
    """PostgreSQL: a login role for ``shinpan serve`` that appends to and reads the ledger
    and keeps the projections, without owning any table (so it cannot switch triggers off,
    alter or drop them). Run by the tables' owner; safe to run again."""
    if conn.dialect != "postgresql":
        raise InvalidInput("an app role is a PostgreSQL matter; SQLite has no roles", field="role")
    if not ROLE_NAME.fullmatch(role):
        raise InvalidInput("a role name is lower-case letters, digits and _", field="role")
    exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
    if exists is None:
        conn.execute(text(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS"))
    if password:
        quoted = password.replace("'", "''")  # DDL takes no parameters
        conn.execute(text(f"ALTER ROLE {role} PASSWORD '{quoted}'"))
    schema = conn.execute(text("SELECT current_schema()")).scalar()
    conn.execute(text(f'GRANT USAGE ON SCHEMA "{schema}" TO {role}'))
    for table in metadata.sorted_tables:
        rights = "SELECT, INSERT" if table.name == "entries" else "SELECT, INSERT, UPDATE, DELETE"
        conn.execute(text(f'GRANT {rights} ON "{table.name}" TO {role}'))
    conn.execute(text(f"GRANT SELECT ON alembic_version TO {role}"))
    conn.execute(text(f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "{schema}" TO {role}'))
