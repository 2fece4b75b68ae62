"""The ledger: append an entry, read entries, verify the chain.

Every change to an event is an :class:`Entry` appended here, in the caller's write
transaction, and applied at once to the projections (:mod:`shinpan.store.projector`).
Entries are never changed: a correction is a new entry whose ``refs`` point at older ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from shinpan.entries import EntryBody
from shinpan.store import projector
from shinpan.store.chain import CHAINED, GENESIS, canonical, chained_hash
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import GROWN, Growth
from shinpan.store.entry import Entry as Entry  # where the readers of entries have always found it
from shinpan.store.entry import stored_entry

# The statements every command runs, on the driver (see :class:`Statement`).
_HEAD = Statement("SELECT seq, hash FROM entries WHERE event_id = :e ORDER BY seq DESC LIMIT 1")
_INSERT = Statement(
    "INSERT INTO entries (event_id, seq, kind, command_id, command_hash, actor, recorded_at, refs, body, "
    "prev_hash, hash) VALUES (:event_id, :seq, :kind, :command_id, :command_hash, :actor, :recorded_at, "
    ":refs, :body, :prev_hash, :hash)"
)
# The event, the actor's role (the head judge when no actor is named), the entry an earlier
# use of the command id made, and the chain's head: one statement, each part on an index.
EVENT_COLUMNS = (
    "event_id", "name", "rel", "guideline_id", "guideline_version", "head_judge",
    "confirmation_threshold", "current_round", "time_zone", "sealed_entry",
)  # fmt: skip
_OPENING = Statement(
    f"SELECT {', '.join('ev.' + c for c in EVENT_COLUMNS)}, "
    "(SELECT role FROM judges j WHERE j.event_id = ev.event_id AND j.name = COALESCE(:actor, ev.head_judge)), "
    "(SELECT seq FROM entries x WHERE x.event_id = ev.event_id AND x.command_id = :command), "
    "(SELECT seq FROM entries x WHERE x.event_id = ev.event_id ORDER BY seq DESC LIMIT 1), "
    "(SELECT hash FROM entries x WHERE x.event_id = ev.event_id ORDER BY seq DESC LIMIT 1) "
    "FROM events ev WHERE ev.event_id = :e"
)


@dataclass(frozen=True)
class Opening:
    """What a command reads before it acts, in one statement (:func:`open_command`)."""

    event: dict[str, Any]  # the columns of EVENT_COLUMNS
    role: str | None  # the acting judge's role at the event; None: not a judge of it
    earlier: int | None  # the entry an earlier use of the command id made
    head: tuple[int, str]  # the chain's last entry number and hash


def open_command(
    conn: Connection, event_id: int, actor: str | None, command_id: str | None
) -> Opening | None:
    """The event (None: no such event), the role of ``actor`` (default: the head judge),
    an earlier use of ``command_id`` and the chain's head."""
    row = _OPENING.run(conn, {"e": event_id, "actor": actor, "command": command_id}).fetchone()
    if row is None:
        return None
    n = len(EVENT_COLUMNS)
    role, earlier, seq, digest = row[n:]
    head = (int(seq), str(digest)) if seq is not None else (0, GENESIS)
    return Opening(dict(zip(EVENT_COLUMNS, row[:n], strict=True)), role, earlier, head)


class Appender:
    """Appends entries to one event's chain within one write transaction."""

    def __init__(
        self,
        conn: Connection,
        event_id: int,
        actor: str,
        now: str,
        *,
        command_id: str | None = None,
        command_hash: str | None = None,
        head: tuple[int, str] | None = None,
    ) -> None:
        """``head``: the chain's last entry number and hash, when the caller read them in
        this transaction (:func:`open_command`)."""
        self.command_id = command_id
        self.command_hash = command_hash
        self.conn = conn
        self.event_id = event_id
        self.actor = actor
        self.now = now
        if head is None:
            row = _HEAD.run(conn, {"e": event_id}).fetchone()
            head = (int(row[0]), str(row[1])) if row else (0, GENESIS)
        self.seq, self.hash = head
        self.appended: list[Entry] = []

    def append(self, body: EntryBody, *, refs: Sequence[int] | None = None) -> Entry:
        """Append one entry, its body serialised once (the bytes its hash covers). The
        command's first entry carries its id; later ones point at it."""
        kind = body.kind
        command_id = command_hash = None
        if not self.appended:
            command_id, command_hash = self.command_id, self.command_hash
        if refs is None:
            refs = [self.appended[0].seq] if self.appended else []
        seq = self.seq + 1
        body_json = canonical(body.body())
        refs_json = canonical(list(refs))
        chained = (seq, kind, command_id, command_hash, self.actor, self.now, refs_json, body_json, self.hash)
        digest = chained_hash(chained)
        row = dict(zip(CHAINED, chained, strict=True))
        _INSERT.run(self.conn, {"event_id": self.event_id, **row, "hash": digest})
        entry = Entry(
            self.event_id,
            seq,
            self.actor,
            self.now,
            body,
            tuple(refs),
            command_id,
            command_hash,
            self.hash,
            digest,
            body_json,
        )
        self.seq, self.hash = seq, digest
        projector.apply(self.conn, entry)
        grown = self.conn.info.get(GROWN)
        if grown is not None:  # told after commit (Database.write)
            growth = grown.get(self.event_id)
            if growth is None:
                grown[self.event_id] = Growth(seq, seq, {entry.kind})
            else:
                growth.add(seq, entry.kind)
        self.appended.append(entry)
        return entry


_COLUMNS = "event_id, seq, kind, actor, recorded_at, body, refs, command_id, command_hash, prev_hash, hash"
_ENTRIES_AFTER = Statement(
    f"SELECT {_COLUMNS} FROM entries WHERE event_id = :e AND seq > :after ORDER BY seq"
)
_BY_COMMAND = Statement(f"SELECT {_COLUMNS} FROM entries WHERE event_id = :e AND command_id = :c")
_EVENT_IDS = Statement("SELECT DISTINCT event_id FROM entries ORDER BY event_id")
_CHAIN = Statement(
    "SELECT seq, kind, command_id, command_hash, actor, recorded_at, refs, body, prev_hash, hash "
    "FROM entries WHERE event_id = :e ORDER BY seq, id"
)


def read_entries(conn: Connection, event_id: int, *, after: int = 0) -> Iterator[Entry]:
    """The event's entries after entry ``after``, in order, each body parsed into its type."""
    for row in _ENTRIES_AFTER.all(conn, {"e": event_id, "after": after}):
        yield stored_entry(*row)


def entry_by_command(conn: Connection, event_id: int, command_id: str) -> Entry | None:
    row = _BY_COMMAND.first(conn, {"e": event_id, "c": command_id})
    return stored_entry(*row) if row is not None else None


def event_ids(conn: Connection) -> list[int]:
    return [int(r[0]) for r in _EVENT_IDS.all(conn)]


class _Row(NamedTuple):
    seq: int
    kind: str
    command_id: str | None
    command_hash: str | None
    actor: str
    recorded_at: str
    refs: str
    body: str
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class Break:
    """Where an event's chain does not hold."""

    event_id: int
    seq: int
    problem: str

    def __str__(self) -> str:
        return f"event {self.event_id}, entry {self.seq}: {self.problem}"


def verify_chain(
    conn: Connection, event_id: int, *, upto: int | None = None
) -> tuple[Break | None, int, str]:
    """Walk one event's chain (from its first entry to entry ``upto``, or to its end),
    hashing every entry again from its stored content; the first break (or None), the entry
    count and the head hash."""
    expected_seq, prev, before_prev = 1, GENESIS, None
    count = 0
    for r in map(_Row._make, _CHAIN.run(conn, {"e": event_id})):
        if upto is not None and r.seq > upto and expected_seq > upto:
            break
        count += 1
        if r.seq != expected_seq:
            if r.seq > expected_seq:
                gap = f"entries {expected_seq}–{r.seq - 1} were" if r.seq - 1 > expected_seq else "was"
                return Break(event_id, expected_seq, f"{gap} removed"), count, prev
            return Break(event_id, r.seq, "was inserted (its number is used twice)"), count, prev
        if r.prev_hash != prev:
            if r.prev_hash == before_prev:  # this entry links past the one before it
                return Break(event_id, r.seq - 1, "was inserted"), count, prev
            return Break(event_id, r.seq, "was inserted or the entry before it removed"), count, prev
        if chained_hash(r[:-1]) != r.hash:  # the row holds the chained content, then its hash
            return (
                Break(event_id, r.seq, f"was altered ({r.kind}: its content no longer matches its hash)"),
                count,
                prev,
            )
        before_prev, prev = prev, r.hash
        expected_seq += 1
    return None, count, prev
