"""What a database URL names, read without a database library: SQLite (a file, or memory)
or PostgreSQL. The services ask here whether ``--db`` is a database at all (the demo picks
its own SQLite file beside the one a judge serves) without loading SQLAlchemy.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote, urlsplit, urlunsplit

from shinpan.errors import StorageError

__all__ = ["DatabaseUrl", "database_url", "described"]

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")  # RFC 3986


class DatabaseUrl(NamedTuple):
    """A database URL, read: which database, and for SQLite its file (None: in memory)."""

    dialect: str  # "sqlite" or "postgresql"
    path: str | None = None  # SQLite's file
    conninfo: str = ""  # PostgreSQL: the libpq URI psycopg connects with


def database_url(url: str) -> DatabaseUrl:
    """Read a database URL as SQLAlchemy spells them (``sqlite:///file``,
    ``postgresql+psycopg://user@host/db?options``); :class:`StorageError` for anything else."""
    scheme, sep, rest = url.partition("://")
    if not sep or not _SCHEME.fullmatch(scheme):
        raise StorageError(f"not a database URL or path: {url!r}")
    backend = scheme.split("+", 1)[0].lower()
    if backend == "sqlite":
        if scheme.lower() not in ("sqlite", "sqlite+pysqlite"):
            raise StorageError(f"unsupported SQLite driver {scheme!r}: use sqlite:///FILE")
        path = unquote(rest[1:].split("?", 1)[0]) if rest.startswith("/") else rest.split("?", 1)[0]
        return DatabaseUrl("sqlite", path if path and path != ":memory:" else None)
    if backend in ("postgresql", "postgres"):
        if scheme.lower() not in ("postgresql", "postgres", "postgresql+psycopg"):
            raise StorageError(f"unsupported PostgreSQL driver {scheme!r}: use postgresql://…")
        return DatabaseUrl("postgresql", conninfo="postgresql://" + rest)
    raise StorageError(f"unsupported database {backend!r}: use SQLite or PostgreSQL")


def described(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
