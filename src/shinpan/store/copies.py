"""Copies: an exported event's entries put back as they were, and a SQLite database's
online backup.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from shinpan.errors import StorageError, Unstorable
from shinpan.store import projector
from shinpan.store.chain import canonical
from shinpan.store.connection import Connection, IntegrityViolation, Statement, placeholders
from shinpan.store.db import Database
from shinpan.store.ledger import Entry

__all__ = ["Unstorable", "backup_sqlite", "restore_entry"]

_COLUMNS = (
    "event_id", "seq", "kind", "command_id", "command_hash", "actor", "recorded_at", "refs", "body",
    "prev_hash", "hash",
)  # fmt: skip
_INSERT = Statement(f"INSERT INTO entries ({', '.join(_COLUMNS)}) VALUES ({placeholders(_COLUMNS)})")
_FILE = Statement("SELECT file FROM pragma_database_list WHERE name = 'main'")


def restore_entry(conn: Connection, entry: Entry) -> None:
    """Insert an exported entry as it was written (its hash checked by the caller) and apply
    it to the projections, in the caller's write transaction. What the database refuses
    (a key used twice, a value too large) is :class:`~shinpan.errors.Unstorable`, told in
    the driver's first line; what the projector cannot apply raises as it does (KeyError,
    TypeError, ValueError...)."""
    row = {
        "event_id": entry.event_id,
        "seq": entry.seq,
        "kind": entry.kind,
        "command_id": entry.command_id,
        "command_hash": entry.command_hash,
        "actor": entry.actor,
        "recorded_at": entry.recorded_at,
        "refs": canonical(list(entry.refs)),
        "body": entry.body_json,
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
    }
    try:
        _INSERT.run(conn, row)
        projector.apply(conn, entry)
    except IntegrityViolation as e:
        raise Unstorable(str(e.orig).splitlines()[0]) from None


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
