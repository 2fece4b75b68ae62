"""A ledger entry: the envelope every change to an event is written in (its kind, who, when,
what it points at, the body, and its place in the event's hash chain). Its own module, so
that the ledger that appends entries and the projector that applies them both import it and
neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shinpan.store.chain import GENESIS


@dataclass(frozen=True)
class Entry:
    """One ledger entry of one event."""

    event_id: int
    seq: int
    kind: str
    actor: str
    recorded_at: str
    body: dict[str, Any]
    refs: tuple[int, ...] = ()
    command_id: str | None = None
    command_hash: str | None = None
    prev_hash: str = GENESIS
    hash: str = ""

    def content(self) -> dict[str, Any]:
        """The entry as exported: everything but the local event id."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "actor": self.actor,
            "recorded_at": self.recorded_at,
            "body": self.body,
            "refs": list(self.refs),
            "command_id": self.command_id,
            "command_hash": self.command_hash,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }
