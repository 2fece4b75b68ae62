"""The PostgreSQL role the app runs as (:func:`shinpan.store.guards.grant_app_role`), granted
in one write transaction; what the database refuses comes back as a :class:`StorageError`.
"""

from __future__ import annotations

from shinpan.errors import StorageError
from shinpan.store.connection import DriverError
from shinpan.store.db import Database
from shinpan.store.guards import grant_app_role

__all__ = ["grant_role"]


def grant_role(db: Database, role: str, password: str | None) -> None:
    """Make or update the login role ``role`` that appends and reads, owning no table."""
    try:
        with db.write() as conn:
            grant_app_role(conn, role, password)
    except DriverError as e:
        raise StorageError(f"the role could not be granted: {' '.join(str(e.orig).split())}") from None
