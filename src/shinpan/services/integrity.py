"""Is the ledger whole, and do the projections say what the entries say?

``verify`` walks every event's hash chain and derives the projections again to compare
them with the stored ones; ``rebuild`` replaces the stored projections with derived ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shinpan.services.seal import KeptSeal, SealProblem, check_seals, kept_seals, known_keys
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.events import event_with_uid
from shinpan.store.guards import missing_guards
from shinpan.store.heads import Seal, seal_state, seals_of
from shinpan.store.integrity import Difference, derive_aside, derive_in_place
from shinpan.store.ledger import Break, event_ids, verify_chain


@dataclass(frozen=True)
class Verification:
    events: int
    entries: int
    breaks: list[Break]
    differences: list[Difference]
    heads: dict[int, str]
    missing_guards: list[str] = field(default_factory=list)  # the ledger's triggers not in force
    seals: list[SealProblem] = field(default_factory=list)  # seals broken, or of an unknown key
    sealed: dict[int, int] = field(default_factory=dict)  # event -> the entry its newest seal signed
    reopened: dict[int, int] = field(default_factory=dict)  # event -> the reopening after that seal

    @property
    def ok(self) -> bool:
        return not self.breaks and not self.differences and not self.missing_guards and not self.seals


def _replace(db: Database, event_id: int) -> list[Difference]:
    """Replace the stored projections with derived ones, in one write transaction."""
    with db.write(event_id) as conn:
        return derive_in_place(conn, event_id)


def rebuild(db: Database, event_id: int | None = None, *, check_only: bool = False) -> list[Difference]:
    """Derive the projections from the entries; return where the stored ones differed.

    ``check_only`` compares without changing anything (and without holding the event's
    write lock); otherwise the stored projections are replaced in one write transaction.
    """
    with db.read() as conn:
        ids = [event_id] if event_id is not None else event_ids(conn)
        if check_only:
            return [d for e in ids for d in derive_aside(conn, e)]
    return [d for e in ids for d in _replace(db, e)]


def check_kept(
    conn: Connection, kept: list[KeptSeal], seals: dict[int, list[Seal]], event_id: int | None
) -> list[SealProblem]:
    """The seals this installation made (:func:`kept_seals`) against the ledger: each must
    still be there, at its entry, signing the same head (``seals``: the ledger's seals of
    the events already read, by event). A seal of an event this database does not have is
    another database's (a folder may hold several). ``event_id``: that event's only."""
    found = []
    for k in kept:
        here = event_with_uid(conn, k.event)
        if here is None or (event_id is not None and here != event_id):
            continue
        ours = seals.get(here)
        if ours is None:
            ours = seals[here] = seals_of(conn, here)
        if not any(
            (s.seq, s.position, s.head, s.signature) == (k.entry, k.position, k.head, k.signature)
            for s in ours
        ):
            found.append(SealProblem(here, k.entry, "missing", ""))
    return found


def verify(db: Database, event_id: int | None = None) -> Verification:
    """Walk every chain and check every seal in the ledger, and find in it every seal this
    installation made (kept beside its key); then compare the projections with what the
    entries give."""
    breaks, heads, total = [], {}, 0
    differences: list[Difference] = []
    broken_seals: list[SealProblem] = []
    sealed: dict[int, int] = {}
    reopened: dict[int, int] = {}
    known: set[str] | None = None
    kept = kept_seals(db)
    read: dict[int, list[Seal]] = {}
    with db.read() as conn:  # one consistent view; recording goes on meanwhile
        ids = [event_id] if event_id is not None else event_ids(conn)
        unguarded = missing_guards(conn)
        for e in ids:
            found, count, head = verify_chain(conn, e)
            total += count
            heads[e] = head
            if found is not None:
                breaks.append(found)
            seals = read[e] = seals_of(conn, e)
            if seals:
                known = known_keys(db) if known is None else known
                broken_seals += check_seals(conn, e, seals, known, found.seq if found is not None else None)
                sealed[e] = seals[-1].position
                state = seal_state(conn, e)
                if state is not None and not state.sealed and state.entry > seals[-1].seq:
                    reopened[e] = state.entry
        named = {(p.event_id, p.seq) for p in broken_seals}  # a seal found broken is named once
        broken_seals += [
            p for p in check_kept(conn, kept, read, event_id) if (p.event_id, p.seq) not in named
        ]
        if not breaks:
            differences = [d for e in ids for d in derive_aside(conn, e)]
    return Verification(
        len(ids), total, breaks, differences, heads, unguarded, broken_seals, sealed, reopened
    )
