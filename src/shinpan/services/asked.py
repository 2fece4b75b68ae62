"""Who asks for a command, under which command id, and when: the keywords every judges'
command takes (``actor``, ``command_id``, ``now``), declared once as :class:`Asked` and handed
on whole to the write door (:func:`run_asked`, over :func:`~shinpan.services.commands.run_command`).

A command declares them as ``**asked: Unpack[Asked]``: callers name them as before
(``actor=…, command_id=…, now=…``), each may be left out (the head judge, a new id, now).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypedDict, TypeVar, Unpack

from shinpan.engine.event_rules import Action
from shinpan.services.commands import run_command
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry

__all__ = ["Asked", "run_asked"]

T = TypeVar("T")


class Asked(TypedDict, total=False):
    """Who asks (a judge's name; left out, the head judge), the command's id (left out, a
    new one: a retry sends the same) and the time it is recorded at (left out, now)."""

    actor: str | None
    command_id: str | None
    now: datetime | None


def run_asked(
    db: Database,
    event_id: int,
    action: Action,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    replayed: Callable[[Connection, Entry], T],
    /,
    *,
    when_sealed: bool = False,
    **asked: Unpack[Asked],
) -> T:
    """Run ``act`` through the write door for the one who asked (see :func:`run_command`):
    once per command id, ``replayed`` answering a retry from the entry first recorded; a
    sealed event takes it only ``when_sealed`` (the command that reopens it)."""
    actor, command_id, now = asked.get("actor"), asked.get("command_id"), asked.get("now")
    return run_command(
        db, event_id, action, actor, command_id, payload, act, now, replayed, when_sealed=when_sealed
    )
