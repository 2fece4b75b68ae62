"""Do the stored projections say what the entries say? Every projection table's rows of one
event, derived again from its entries and compared with the stored ones: in a scratch
database beside the stored ones (nothing is changed), or in place (``shinpan rebuild``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from shinpan.store import projector
from shinpan.store.connection import Connection, Statement
from shinpan.store.ledger import read_entries
from shinpan.store.tables import PROJECTIONS, SCRATCH_DDL, Projection

__all__ = ["Difference", "derive_aside", "derive_in_place", "snapshot"]

Rows = dict[tuple[Any, ...], dict[str, Any]]  # a table's rows by primary key: column -> value


@dataclass(frozen=True)
class Difference:
    """A projection row that the entries do not give."""

    table: str
    key: tuple[Any, ...]
    stored: dict[str, Any] | None
    derived: dict[str, Any] | None

    def __str__(self) -> str:
        where = f"{self.table} {'/'.join(map(str, self.key))}"
        if self.stored is None:
            return f"{where}: missing from the table, the ledger has it"
        if self.derived is None:
            return f"{where}: in the table, but no ledger entry gives it"
        changed = [
            f"{k} is {self.stored[k]!r} but the ledger gives {self.derived[k]!r}"
            for k in self.stored
            if self.stored[k] != self.derived.get(k)
        ]
        return f"{where}: " + "; ".join(changed)


def _normal(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    return value


def _read(table: Projection) -> Statement:
    columns = ", ".join(f'"{c}"' for c in table.columns)  # quoted: "trigger", "by"
    return Statement(f"SELECT {columns} FROM {table.name} WHERE event_id = :e")


_READS = {t.name: _read(t) for t in PROJECTIONS}  # one statement per projection table


def _rows(conn: Connection, table: Projection, event_id: int) -> Rows:
    where = [table.columns.index(k) for k in table.key]
    return {
        tuple(row[i] for i in where): {c: _normal(v) for c, v in zip(table.columns, row, strict=True)}
        for row in _READS[table.name].all(conn, {"e": event_id})
    }


def snapshot(conn: Connection, event_id: int) -> dict[str, Rows]:
    """Every projection table's rows of the event, by table name (booleans as 0 and 1)."""
    return {t.name: _rows(conn, t, event_id) for t in PROJECTIONS}


def _compare(before: dict[str, Rows], after: dict[str, Rows]) -> list[Difference]:
    out = []
    for table, stored in before.items():
        derived = after[table]
        for key in sorted(set(stored) | set(derived), key=lambda k: json.dumps(k, default=str)):
            if stored.get(key) != derived.get(key):
                out.append(Difference(table, key, stored.get(key), derived.get(key)))
    return out


def derive_in_place(conn: Connection, event_id: int) -> list[Difference]:
    """Replace the event's stored projections with ones derived from its entries, in the
    caller's write transaction; where the stored ones differed."""
    before = snapshot(conn, event_id)
    projector.clear(conn, event_id)
    for entry in read_entries(conn, event_id):
        projector.apply(conn, entry)
    return _compare(before, snapshot(conn, event_id))


def derive_aside(conn: Connection, event_id: int) -> list[Difference]:
    """Compare the stored projections (read in ``conn``) with ones derived in a scratch
    in-memory SQLite database: judges keep recording while this runs."""
    stored = snapshot(conn, event_id)
    raw = sqlite3.connect(":memory:", isolation_level=None)
    try:
        raw.executescript(SCRATCH_DDL)
        raw.execute("BEGIN")  # one transaction: nothing to make durable
        aside = Connection(raw, "sqlite")
        for entry in read_entries(conn, event_id):
            projector.apply(aside, entry)
        return _compare(stored, snapshot(aside, event_id))
    finally:
        raw.close()
