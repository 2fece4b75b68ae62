"""Who asks for a command, under which command id, and when: the keywords every judges'
command takes (``actor``, ``command_id``, ``now``; ``judge`` for the floor's commands), declared
once as :class:`Asked` (:class:`Judged`) and handed on whole to the write door
(:func:`run_asked`, over :func:`~shinpan.services.commands.run_command`).

A command declares them as ``**asked: Unpack[Asked]``: callers name them as before
(``actor=…, command_id=…, now=…``), each may be left out (the head judge, a new id, now).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypedDict, TypeVar, Unpack

from shinpan.engine.event_rules import Action
from shinpan.services.commands import run_command
from shinpan.services.context import Event
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry

__all__ = ["Asked", "Judged", "by_judge", "run_asked"]

T = TypeVar("T")


class _Command(TypedDict, total=False):
    command_id: str | None  # left out, a new one: a retry sends the same
    now: datetime | None  # the time it is recorded at (left out, now)


class Asked(_Command, total=False):
    """Who asks (a judge's name; left out, the head judge), the command's id and its time."""

    actor: str | None


class Judged(_Command, total=False):
    """The same for the floor's commands (a ruling, a call, a deck check, a deadline), whose
    callers name the one who asks ``judge``."""

    judge: str | None


def run_asked(
    db: Database,
    event_id: int,
    action: Action,
    payload: Any,
    act: Callable[[Connection, Appender], T],
    replayed: Callable[[Connection, Entry], T],
    /,
    *,
    check: Callable[[Connection, Event, str], None] | None = None,
    when_sealed: bool = False,
    **asked: Unpack[Asked],
) -> T:
    """Run ``act`` through the write door for the one who asked (see :func:`run_command`):
    once per command id, ``replayed`` answering a retry from the entry first recorded, after
    ``check`` (a further permission); a sealed event takes it only ``when_sealed`` (the
    command that reopens it)."""
    _only(asked, Asked.__optional_keys__)
    actor, command_id, now = asked.get("actor"), asked.get("command_id"), asked.get("now")
    return run_command(
        db,
        event_id,
        action,
        actor,
        command_id,
        payload,
        act,
        now,
        replayed,
        check=check,
        when_sealed=when_sealed,
    )


def by_judge(judged: Judged) -> Asked:
    """A floor's command asked by ``judge``, as the write door takes it (:func:`run_asked`)."""
    _only(judged, Judged.__optional_keys__)
    return Asked(actor=judged.get("judge"), command_id=judged.get("command_id"), now=judged.get("now"))


def _only(asked: Mapping[str, object], known: frozenset[str]) -> None:
    """A keyword no command takes is refused, as Python refuses it in a signature that names
    its keywords (the ``**asked`` of a command takes any at the call)."""
    unknown = sorted(set(asked) - known)
    if unknown:
        raise TypeError(f"unexpected keyword argument {', '.join(map(repr, unknown))}")
