"""What every service reads of an event before it acts: its settings (the guideline it runs
under, its head judge, the confirmation threshold, the current round, its time zone) and a
judge's role at it (D11). Run on the driver (see :class:`Statement`).

A command reads the same in one statement with its command id and the chain's head
(:func:`shinpan.store.ledger.open_command`); its ``EVENT_COLUMNS`` are the fields of
:class:`EventSettings` (``tests/test_desk_reads.py`` holds them together; this module does
not import the ledger, so a page that only reads loads none of the writing code).
"""

from __future__ import annotations

from typing import NamedTuple

from shinpan.store.connection import Connection, Statement

__all__ = ["EventSettings", "event_settings", "judge_role"]


class EventSettings(NamedTuple):
    """An event's settings, by the names of their columns."""

    event_id: int
    name: str
    rel: int
    guideline_id: str
    guideline_version: str
    head_judge: str
    confirmation_threshold: str
    current_round: int
    time_zone: str
    sealed_entry: int | None = None  # the seal in force (None: open): a sealed event takes no command


_EVENT = Statement(f"SELECT {', '.join(EventSettings._fields)} FROM events WHERE event_id = :e")
_ROLE = Statement("SELECT role FROM judges WHERE event_id = :e AND name = :j")


def event_settings(conn: Connection, event_id: int) -> EventSettings | None:
    """The event's settings (None: no such event)."""
    row = _EVENT.first(conn, {"e": event_id})
    return EventSettings(*row) if row is not None else None


def judge_role(conn: Connection, event_id: int, judge: str) -> str | None:
    """The judge's role at the event (None: not a judge of it)."""
    found = _ROLE.scalar(conn, {"e": event_id, "j": judge})
    return None if found is None else str(found)
