"""Copies: a SQLite database's online backup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from shinpan.errors import StorageError
from shinpan.store.connection import Statement
from shinpan.store.db import Database

__all__ = ["backup_sqlite"]

_FILE = Statement("SELECT file FROM pragma_database_list WHERE name = 'main'")


def backup_sqlite(db: Database, target: Path) -> None:
    """Copy a live SQLite database to ``target`` with SQLite's online backup, from a read
    transaction's snapshot (consistent while judges keep recording)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with db.read() as conn:
        if not _FILE.scalar(conn):
            raise StorageError("an in-memory database cannot be backed up")
        dst = sqlite3.connect(str(target))
        try:
            conn.driver.backup(dst)
        finally:
            dst.close()
