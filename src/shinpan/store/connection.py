"""The connection a transaction runs on (:meth:`Database.read`, :meth:`Database.write`).

Services hand it to the store's reads and to the ledger's appender without looking inside;
they name its type from here, so that only the store imports SQLAlchemy.
"""

from __future__ import annotations

from sqlalchemy import Connection

__all__ = ["Connection"]
