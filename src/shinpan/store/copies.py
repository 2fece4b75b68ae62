"""Copies: an exported event's entries put back as they were, and a SQLite database's
online backup.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy.exc import DataError, IntegrityError

from shinpan.errors import StorageError
from shinpan.store import projector
from shinpan.store.chain import canonical
from shinpan.store.connection import Connection, IntegrityViolation
from shinpan.store.db import Database
from shinpan.store.ledger import Entry
from shinpan.store.schema import entries

__all__ = ["Unstorable", "backup_sqlite", "restore_entry"]


class Unstorable(ValueError):
    """An entry whose content the database refuses (a key used twice, a value too large)."""


def restore_entry(conn: Connection, entry: Entry) -> None:
    """Insert an exported entry as it was written (its hash checked by the caller) and apply
    it to the projections, in the caller's write transaction. What the database refuses
    is :class:`Unstorable` (the driver's first line); what the projector cannot apply
    raises as it does (KeyError, TypeError, ValueError...)."""
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
        conn.execute(entries.insert(), row)
        projector.apply(conn, entry)
    except (IntegrityError, DataError) as e:
        raise Unstorable(str(e.orig).splitlines()[0]) from None
    except IntegrityViolation as e:  # the projector's statements run on the driver
        raise Unstorable(str(e).splitlines()[0]) from None


def backup_sqlite(db: Database, target: Path) -> None:
    """Copy a live SQLite database to ``target`` with SQLite's online backup (consistent
    while judges keep recording)."""
    source_path = db.engine.url.database
    if not source_path:
        raise StorageError("an in-memory database cannot be backed up")
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(source_path)
    try:
        dst = sqlite3.connect(str(target))
        with dst:
            src.backup(dst)
        dst.close()
    finally:
        src.close()
