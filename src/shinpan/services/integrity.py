"""Is the ledger whole, and do the projections say what the entries say?

``verify`` walks every event's hash chain and derives the projections again to compare
them with the stored ones; ``rebuild`` replaces the stored projections with derived ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Table, create_engine, select

from shinpan.store import projector
from shinpan.store.db import Database
from shinpan.store.guards import missing_guards
from shinpan.store.ledger import Break, event_ids, read_entries, verify_chain
from shinpan.store.schema import PROJECTIONS, metadata


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


@dataclass(frozen=True)
class Verification:
    events: int
    entries: int
    breaks: list[Break]
    differences: list[Difference]
    heads: dict[int, str]
    missing_guards: list[str] = field(default_factory=list)  # the ledger's triggers not in force

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.differences and not self.missing_guards


def _normal(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    return value


def _snapshot(conn: Connection, table: Table, event_id: int) -> dict[tuple[Any, ...], dict[str, Any]]:
    keys = [c.name for c in table.primary_key.columns]
    rows = conn.execute(select(table).where(table.c.event_id == event_id)).mappings()
    return {tuple(r[k] for k in keys): {k: _normal(v) for k, v in r.items()} for r in rows}


def snapshot(conn: Connection, event_id: int) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    return {t.name: _snapshot(conn, t, event_id) for t in PROJECTIONS}


def _compare(before: dict[str, Any], after: dict[str, Any]) -> list[Difference]:
    out = []
    for table, stored in before.items():
        derived = after[table]
        for key in sorted(set(stored) | set(derived), key=lambda k: json.dumps(k, default=str)):
            if stored.get(key) != derived.get(key):
                out.append(Difference(table, key, stored.get(key), derived.get(key)))
    return out


def _replace(db: Database, event_id: int) -> list[Difference]:
    """Replace the stored projections with derived ones, in one write transaction."""
    with db.write(event_id) as conn:
        before = snapshot(conn, event_id)
        projector.clear(conn, event_id)
        for entry in read_entries(conn, event_id):
            projector.apply(conn, entry)
        return _compare(before, snapshot(conn, event_id))


def _derive_aside(conn: Connection, event_id: int) -> list[Difference]:
    """Compare the stored projections (read in ``conn``) with ones derived in a scratch
    in-memory database: judges keep recording while this runs."""
    stored = snapshot(conn, event_id)
    scratch = create_engine("sqlite://")
    try:
        with scratch.begin() as aside:
            metadata.create_all(aside, tables=list(PROJECTIONS))
            for entry in read_entries(conn, event_id):
                projector.apply(aside, entry)
            return _compare(stored, snapshot(aside, event_id))
    finally:
        scratch.dispose()


def rebuild(db: Database, event_id: int | None = None, *, check_only: bool = False) -> list[Difference]:
    """Derive the projections from the entries; return where the stored ones differed.

    ``check_only`` compares without changing anything (and without holding the event's
    write lock); otherwise the stored projections are replaced in one write transaction.
    """
    with db.read() as conn:
        ids = [event_id] if event_id is not None else event_ids(conn)
        if check_only:
            return [d for e in ids for d in _derive_aside(conn, e)]
    return [d for e in ids for d in _replace(db, e)]


def verify(db: Database, event_id: int | None = None) -> Verification:
    """Walk every chain; then compare the projections with what the entries give."""
    breaks, heads, total = [], {}, 0
    differences: list[Difference] = []
    with db.read() as conn:  # one consistent view; recording goes on meanwhile
        ids = [event_id] if event_id is not None else event_ids(conn)
        unguarded = missing_guards(conn)
        for e in ids:
            found, count, head = verify_chain(conn, e)
            total += count
            heads[e] = head
            if found is not None:
                breaks.append(found)
        if not breaks:
            differences = [d for e in ids for d in _derive_aside(conn, e)]
    return Verification(len(ids), total, breaks, differences, heads, unguarded)
