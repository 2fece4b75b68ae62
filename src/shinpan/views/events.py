"""The events the database holds, as the list of events shows them."""

from __future__ import annotations

from shinpan.store.db import Database
from shinpan.store.events import EventSummary, event_summaries


def list_events(db: Database) -> list[EventSummary]:
    """Every event, in the order they were made."""
    with db.read() as conn:
        return event_summaries(conn)
