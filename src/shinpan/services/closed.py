"""A sealed event is closed: after the head judge's seal nothing is recorded, confirmed,
corrected, paired, reported or dropped in it, by anyone, on any path, until the head judge
reopens it with a reason (:func:`shinpan.services.seal.reopen_event`).

The one write door (:func:`shinpan.services.commands.run_command`) reads the seal in force
with the event and refuses with :func:`closed`; a write that opens its own transaction (a
winner's report from the players' page, a join code) asks :func:`check_open`.
"""

from __future__ import annotations

from shinpan.errors import EventClosed
from shinpan.services.context import local_time
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.heads import SealState, seal_state
from shinpan.store.settings import event_settings

__all__ = ["SealState", "check_open", "closed", "seal_state_of", "state_of"]

# conn.info: set by an import replaying an exported ledger (:mod:`shinpan.files.reimport`),
# which restores what the file holds, entries after a seal too (made before seals closed).
IMPORTING = "shinpan.importing"


def _when(stamp: str, time_zone: str | None) -> str:
    return local_time(stamp, time_zone, style="full")[:16]


def closed(conn: Connection, event_id: int, sealed_entry: int, time_zone: str | None) -> EventClosed:
    """The refusal of a command to a sealed event: when, and by whom, it was sealed."""
    state = seal_state(conn, event_id, sealed_entry)
    when = _when(state.at, time_zone) if state is not None else ""
    who = state.by if state is not None else ""
    return EventClosed(
        "this event is sealed ({who} sealed it at {when}): to record anything, the head judge must reopen it",
        who=who,
        when=when,
    )


def check_open(conn: Connection, event_id: int) -> None:
    """Refused (:class:`EventClosed`) when the event is sealed; for a write that does not go
    through the write door. Nothing when the event does not exist (the caller says so)."""
    if conn.info.get(IMPORTING):
        return
    state = seal_state(conn, event_id)
    if state is not None and state.sealed:
        settings = event_settings(conn, event_id)
        raise closed(conn, event_id, state.entry, settings.time_zone if settings else None)


def state_of(conn: Connection, event_id: int) -> SealState | None:
    """The seal in force, or the last reopening (None: never sealed): what Matches, the desk
    and the players' page say of it."""
    return seal_state(conn, event_id)


def seal_state_of(db: Database, event_id: int) -> SealState | None:
    """:func:`state_of` in a read of its own."""
    with db.read() as conn:
        return seal_state(conn, event_id)
