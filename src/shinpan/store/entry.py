"""A ledger entry: the envelope every change to an event is written in (who, when, what it
points at, the typed body, and its place in the event's hash chain). Its own module, so
that the ledger that appends entries and the projector that applies them both import it and
neither imports the other."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TypeVar

from shinpan.entries import EntryBody, parse
from shinpan.store.chain import GENESIS, canonical

B = TypeVar("B", bound=EntryBody)


@dataclass(frozen=True)
class Entry:
    """One ledger entry of one event. ``body`` is what it says (:mod:`shinpan.entries`);
    ``stored`` is the body's JSON as written, the bytes its hash covers."""

    event_id: int
    seq: int
    actor: str
    recorded_at: str
    body: EntryBody
    refs: tuple[int, ...] = ()
    command_id: str | None = None
    command_hash: str | None = None
    prev_hash: str = GENESIS
    hash: str = ""
    stored: str = field(default="", compare=False, repr=False)

    @property
    def kind(self) -> str:
        return self.body.kind

    def of(self, kind: type[B]) -> B:
        """The body, known to be of this type (a command reading back its own entry)."""
        if not isinstance(self.body, kind):
            raise TypeError(f"entry {self.seq} is {self.kind}, not {kind.kind}")
        return self.body

    @property
    def written(self) -> Any:
        """:attr:`body_json` read back as values: to compare two entries field by field."""
        return json.loads(self.body_json)

    @property
    def body_json(self) -> str:
        """The body as the chain's hash covers it: as written when read back from the
        ledger (an entry from an older shinpan keeps its bytes), else serialised now."""
        return self.stored or canonical(self.body.body())

    def content(self) -> dict[str, Any]:
        """The entry as exported: everything but the local event id."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "actor": self.actor,
            "recorded_at": self.recorded_at,
            "body": json.loads(self.body_json),
            "refs": list(self.refs),
            "command_id": self.command_id,
            "command_hash": self.command_hash,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


def stored_entry(
    event_id: int,
    seq: int,
    kind: str,
    actor: str,
    recorded_at: str,
    body: str,
    refs: str,
    command_id: str | None,
    command_hash: str | None,
    prev_hash: str,
    hash: str,
) -> Entry:
    """An entry as a ledger row holds it (body and refs as JSON), its body parsed into its type."""
    return Entry(
        event_id,
        seq,
        actor,
        recorded_at,
        parse(kind, json.loads(body)),
        tuple(json.loads(refs)),
        command_id,
        command_hash,
        prev_hash,
        hash,
        body,
    )
