"""Reads of a chain's head and of its seals: what a printout carries, what ``verify --head``
and ``verify`` compare it with."""

from __future__ import annotations

import json
from typing import NamedTuple

from shinpan.store.chain import GENESIS
from shinpan.store.connection import Connection, Statement

__all__ = [
    "SEALED",
    "Seal",
    "SealState",
    "event_exists",
    "hash_at",
    "head_of",
    "last_reopening",
    "length_of",
    "seal_state",
    "seals_of",
]

SEALED = "event.sealed"  # the kind of a seal's entry (shinpan.entries.EventSealed)

_HEAD = Statement("SELECT seq, hash FROM entries WHERE event_id = :e ORDER BY seq DESC LIMIT 1")
_AT = Statement("SELECT hash FROM entries WHERE event_id = :e AND seq = :seq ORDER BY id LIMIT 1")
_LENGTH = Statement("SELECT COUNT(*) FROM entries WHERE event_id = :e")
_EXISTS = Statement("SELECT 1 FROM events WHERE event_id = :e")
_SEALS = Statement(
    "SELECT seq, recorded_at, actor, body FROM entries WHERE event_id = :e AND seq > :after AND kind = :kind "
    "ORDER BY seq"
)

_STATE = Statement("SELECT sealed_entry, reopened_entry FROM events WHERE event_id = :e")
_REOPENED = Statement("SELECT reopened_entry FROM events WHERE event_id = :e")
_ENTRY = Statement("SELECT recorded_at, actor, body FROM entries WHERE event_id = :e AND seq = :seq")


class Seal(NamedTuple):
    """A seal entry as stored: where it is, and what it signed."""

    seq: int  # the seal entry's own number
    recorded_at: str
    actor: str
    position: int  # the entry whose hash it signed
    head: str
    key: str  # hex
    signature: str  # hex


def head_of(conn: Connection, event_id: int) -> tuple[int, str]:
    """The chain's last entry number and hash (0 and the genesis hash for an empty chain)."""
    row = _HEAD.first(conn, {"e": event_id})
    return (int(row[0]), str(row[1])) if row is not None else (0, GENESIS)


def hash_at(conn: Connection, event_id: int, seq: int) -> str | None:
    """The stored hash of entry ``seq``; None when there is no such entry."""
    if seq == 0:
        return GENESIS
    found = _AT.scalar(conn, {"e": event_id, "seq": seq})
    return None if found is None else str(found)


def length_of(conn: Connection, event_id: int) -> int:
    return int(_LENGTH.scalar(conn, {"e": event_id}) or 0)


def event_exists(conn: Connection, event_id: int) -> bool:
    return _EXISTS.first(conn, {"e": event_id}) is not None


def seals_of(conn: Connection, event_id: int, *, after: int = 0) -> list[Seal]:
    """Every seal entry of the event (after entry ``after``), oldest first; a body that says
    no seal is left out (the chain's own check names such an entry)."""
    out = []
    for seq, at, actor, text in _SEALS.all(conn, {"e": event_id, "after": after, "kind": SEALED}):
        try:
            body = json.loads(text)
            out.append(
                Seal(
                    int(seq),
                    str(at),
                    str(actor),
                    int(body["position"]),
                    str(body["head"]),
                    str(body["key"]),
                    str(body["signature"]),
                )
            )
        except (ValueError, KeyError, TypeError):
            continue
    return out


class SealState(NamedTuple):
    """Whether the event is sealed now (closed) or was reopened since its last seal: the
    entry that made it so, when and by whom."""

    sealed: bool
    entry: int  # the seal's entry (sealed), or the last reopening's
    at: str  # its stamp
    by: str  # the head judge who sealed or reopened
    reason: str  # a reopening's reason ("" for a seal)


def seal_state(conn: Connection, event_id: int, sealed_entry: int | None = None) -> SealState | None:
    """The event's seal in force, else its last reopening; None: never sealed.
    ``sealed_entry``: the seal's entry, when the caller read it with the event."""
    if sealed_entry is None:
        row = _STATE.first(conn, {"e": event_id})
        if row is None or (row[0] is None and row[1] is None):
            return None
        sealed_entry, reopened = (int(row[0]) if row[0] is not None else None), row[1]
    else:
        reopened = None
    seq = sealed_entry if sealed_entry is not None else int(reopened)
    return _state_at(conn, event_id, seq, sealed_entry is not None)


def last_reopening(conn: Connection, event_id: int) -> SealState | None:
    """The event's last reopening (sealed again since, or not); None: never reopened."""
    seq = _REOPENED.scalar(conn, {"e": event_id})
    return None if seq is None else _state_at(conn, event_id, int(seq), False)


def _state_at(conn: Connection, event_id: int, seq: int, sealed: bool) -> SealState | None:
    found = _ENTRY.first(conn, {"e": event_id, "seq": seq})
    if found is None:
        return None
    at, actor, text = found
    reason = ""
    if not sealed:
        try:
            reason = str(json.loads(text)["reason"])
        except (ValueError, KeyError, TypeError):
            reason = ""
    return SealState(sealed, seq, str(at), str(actor), reason)
