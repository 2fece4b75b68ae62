"""The database's own guard on the ledger, and the app's PostgreSQL role.

The ledger is append-only because the database refuses anything else: triggers refuse
UPDATE, DELETE, TRUNCATE and (on SQLite) an INSERT that would replace an entry.
:func:`missing_guards` names any that was dropped or switched off (``shinpan verify``
reports it). On PostgreSQL the app should not connect as the tables' owner, who may switch
triggers off: :func:`grant_app_role` makes a role that may append and read, not alter.
"""

from __future__ import annotations

import re

from shinpan.errors import InvalidInput
from shinpan.store.connection import Connection, DriverError, Statement
from shinpan.store.tables import APP_TABLES

SQLITE_TRIGGERS = ("entries_no_update", "entries_no_delete", "entries_no_replace")
POSTGRES_TRIGGERS = ("entries_append_only", "entries_no_truncate")
ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")

_SQLITE_PRESENT = Statement("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'entries'")
_POSTGRES_ENABLED = Statement(
    "SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass('entries') "
    "AND NOT tgisinternal AND tgenabled <> 'D'"
)
_ROLE_EXISTS = Statement("SELECT 1 FROM pg_roles WHERE rolname = :r")
_SCHEMA = Statement("SELECT current_schema()")


def missing_guards(conn: Connection) -> list[str]:
    """The ledger's triggers that are not there (or, on PostgreSQL, switched off)."""
    if conn.dialect == "sqlite":
        present = set(_SQLITE_PRESENT.scalars(conn))
        return [t for t in SQLITE_TRIGGERS if t not in present]
    enabled = set(_POSTGRES_ENABLED.scalars(conn))
    return [t for t in POSTGRES_TRIGGERS if t not in enabled]


def grant_app_role(conn: Connection, role: str, password: str | None) -> None:
    """PostgreSQL: a login role for ``shinpan serve`` that appends to and reads the ledger
    and keeps the projections, without owning any table (so it cannot switch triggers off,
    alter or drop them). Run by the tables' owner; safe to run again."""
    if conn.dialect != "postgresql":
        raise InvalidInput("an app role is a PostgreSQL matter; SQLite has no roles", field="role")
    if not ROLE_NAME.fullmatch(role):
        raise InvalidInput("a role name is lower-case letters, digits and _", field="role")
    if _ROLE_EXISTS.first(conn, {"r": role}) is None:
        _ddl(conn, f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS")
    if password:
        quoted = password.replace("'", "''")
        _ddl(conn, f"ALTER ROLE {role} PASSWORD '{quoted}'", told=f"ALTER ROLE {role} PASSWORD '…'")
    schema = str(_SCHEMA.scalar(conn)).replace('"', '""')
    _ddl(conn, f'GRANT USAGE ON SCHEMA "{schema}" TO {role}')
    for table in APP_TABLES:
        rights = "SELECT, INSERT" if table == "entries" else "SELECT, INSERT, UPDATE, DELETE"
        _ddl(conn, f'GRANT {rights} ON "{table}" TO {role}')
    _ddl(conn, f"GRANT SELECT ON alembic_version TO {role}")
    _ddl(conn, f'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA "{schema}" TO {role}')


def _ddl(conn: Connection, sql: str, *, told: str | None = None) -> None:
    """Run a statement that takes no parameters (DDL) as it is written: no ``:name`` or
    ``%`` is read as a placeholder, so a password may hold any character. The role's name
    was checked against :data:`ROLE_NAME`; the password is a quoted literal, left out of
    the error (``told``)."""
    try:
        conn.driver.execute(sql)
    except Exception as e:
        raise DriverError(told or sql, e) from e
