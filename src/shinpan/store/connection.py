"""The connection a transaction runs on, and the statements the store runs on it.

:class:`Connection` is what :meth:`Database.read` and :meth:`Database.write` hand out:
the driver's own connection (``sqlite3`` or ``psycopg``), which database it is, and a
scratch ``info`` mapping that lives as long as the transaction. Services pass it to the
store's reads and to the ledger's appender without looking inside; they name its type from
here, so that only the store knows there is SQL at all.

:class:`Statement` is one SQL statement, written once with ``:name`` parameters (SQLite's
style; PostgreSQL's ``%(name)s`` is derived here) and run on the driver: no compiling, no
result objects, 1–2 µs of overhead where SQLAlchemy's Core costs about 30. A parameter
given a list or tuple is an ``IN`` list: ``WHERE number IN (:numbers)`` with
``{"numbers": [3, 5]}`` runs as ``IN (:numbers_0, :numbers_1)``. Errors of the driver come
out as the errors of :mod:`shinpan.errors` where a user caused them (:class:`Unstorable`),
otherwise as :class:`DriverError` carrying the driver's own.

This module imports no database library: the command line opens SQLite without loading
SQLAlchemy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from shinpan.errors import Unstorable

__all__ = ["Connection", "DriverError", "IntegrityViolation", "Script", "Statement"]

_NAME = re.compile(r"(?<![:\w]):(\w+)")


class DriverError(Exception):
    """The database refused a statement for a reason no user input explains."""

    def __init__(self, sql: str, cause: BaseException) -> None:
        super().__init__(f"{type(cause).__name__}: {cause} [SQL: {sql}]")
        self.sql = sql
        self.orig = cause


class IntegrityViolation(DriverError):
    """A key or constraint refused a row (a duplicate, a dangling reference)."""


class Connection:
    """One transaction's connection (see the module)."""

    __slots__ = ("dialect", "driver", "info")

    def __init__(self, driver: Any, dialect: str) -> None:
        self.driver = driver  # sqlite3.Connection or psycopg.Connection
        self.dialect = dialect  # "sqlite" or "postgresql"
        self.info: dict[str, Any] = {}

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"


def _errors(conn: Connection) -> tuple[type[BaseException], type[BaseException], type[BaseException]]:
    """The driver's (base error, data error, integrity error) classes."""
    module = type(conn.driver).__module__.split(".")[0]
    if module == "psycopg":
        import psycopg  # start-up

        return psycopg.Error, psycopg.DataError, psycopg.IntegrityError
    import sqlite3  # start-up

    return sqlite3.Error, sqlite3.DataError, sqlite3.IntegrityError


def _translate(conn: Connection, sql: str, e: BaseException) -> BaseException:
    base, data, integrity = _errors(conn)
    if isinstance(e, (OverflowError, UnicodeEncodeError, data)):
        # A number too large for the column, a lone surrogate or a NUL in a text: the value
        # passed validation but cannot be stored; the transaction rolls back.
        return Unstorable("a number is too large or a text has characters that cannot be saved")
    if isinstance(e, integrity):
        return IntegrityViolation(sql, e)
    if isinstance(e, base):
        return DriverError(sql, e)
    return e


class Script:
    """Statements with no parameters sent in one trip to the server (PostgreSQL's simple
    query protocol takes several at once): a write's ``BEGIN`` with its lock, its notices
    with its ``COMMIT``. Only numbers and the store's own words go into one."""

    __slots__ = ("sql",)

    def __init__(self, *statements: str) -> None:
        self.sql = "; ".join(statements)

    def run(self, conn: Connection) -> None:
        try:
            conn.driver.execute(self.sql)
        except Exception as e:
            raise _translate(conn, self.sql, e) from e


class Statement:
    """One SQL statement run on the driver (see the module)."""

    __slots__ = ("_expanded", "pyformat", "sql")

    def __init__(self, sql: str) -> None:
        self.sql = " ".join(sql.split())
        self.pyformat = _pyformat(self.sql)
        self._expanded: dict[tuple[tuple[str, int], ...], tuple[str, str]] = {}

    def _text(self, conn: Connection, params: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
        lists = tuple((k, len(v)) for k, v in params.items() if isinstance(v, (list, tuple)))
        if not lists:
            return (self.pyformat if conn.dialect == "postgresql" else self.sql), params
        texts = self._expanded.get(lists)
        if texts is None:
            sql = self.sql
            for name, size in lists:
                names = ", ".join(f":{name}_{i}" for i in range(size)) or "NULL"
                sql = re.sub(rf"(?<![:\w]):{name}\b", names, sql)
            texts = self._expanded[lists] = (sql, _pyformat(sql))
        flat = {k: v for k, v in params.items() if not isinstance(v, (list, tuple))}
        for name, _size in lists:
            flat.update({f"{name}_{i}": value for i, value in enumerate(params[name])})
        return (texts[1] if conn.dialect == "postgresql" else texts[0]), flat

    def run(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Any:
        """Execute once; the driver's cursor (``fetchone``, ``fetchall``, iteration).
        Rows are the driver's tuples (SQLite gives booleans as 0 and 1)."""
        sql, bound = self._text(conn, params or {})
        try:
            return conn.driver.execute(sql, bound)
        except Exception as e:
            raise _translate(conn, sql, e) from e

    def run_many(self, conn: Connection, rows: Iterable[Mapping[str, Any]]) -> None:
        """Execute once per row, in one call to the driver (no ``IN`` lists here)."""
        rows = list(rows)
        if not rows:
            return
        try:
            if conn.dialect == "postgresql":
                with conn.driver.cursor() as cur:
                    cur.executemany(self.pyformat, rows)
            else:
                conn.driver.executemany(self.sql, rows)
        except Exception as e:
            raise _translate(conn, self.sql, e) from e

    # Shorthands for the common shapes of a read.
    def all(self, conn: Connection, params: Mapping[str, Any] | None = None) -> list[Any]:
        return list(self.run(conn, params).fetchall())

    def first(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Any:
        """The first row, or None."""
        return self.run(conn, params).fetchone()

    def scalar(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Any:
        """The first column of the first row, or None."""
        row = self.run(conn, params).fetchone()
        return None if row is None else row[0]

    def scalars(self, conn: Connection, params: Mapping[str, Any] | None = None) -> list[Any]:
        """The first column of every row."""
        return [row[0] for row in self.run(conn, params).fetchall()]


def _pyformat(sql: str) -> str:
    return _NAME.sub(r"%(\1)s", sql.replace("%", "%%"))


def placeholders(names: Sequence[str]) -> str:
    """``:a, :b, :c`` for an INSERT's VALUES."""
    return ", ".join(f":{n}" for n in names)
