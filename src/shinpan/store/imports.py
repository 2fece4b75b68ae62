"""Typed read of where an event came from: its last ``event.imported`` entry (nothing
projects it)."""

from __future__ import annotations

import json

from shinpan.entries import EventImported
from shinpan.entries.reading import MalformedBody
from shinpan.store.connection import Connection, Statement

__all__ = ["import_of"]

_IMPORTED = Statement(
    "SELECT body FROM entries WHERE event_id = :e AND kind = 'event.imported' ORDER BY seq DESC LIMIT 1"
)


def import_of(conn: Connection, event_id: int) -> EventImported | None:
    """The event's last import (None: it was made here, never imported)."""
    body = _IMPORTED.scalar(conn, {"e": event_id})
    if body is None:
        return None
    try:
        return EventImported.from_body(json.loads(body))
    except (MalformedBody, ValueError):
        return None
