"""The head judge reopens a sealed event (:mod:`shinpan.services.closed`), saying why: an
``event.reopened`` entry that every later paper shows. The event takes commands again and
may be sealed anew (:func:`shinpan.services.seal.seal_event`)."""

from __future__ import annotations

from typing import TypedDict, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import EventReopened
from shinpan.errors import Conflict, InvalidInput
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import check_reason
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.heads import seal_state
from shinpan.store.ledger import Appender

__all__ = ["Reopened", "reopen_event"]


class Reopened(TypedDict):
    """A reopening as the CLI's ``--json`` gives it: its entry, the seal it lifts, why."""

    seq: int
    seal: int
    reason: str


def reopen_event(
    db: Database,
    event_id: int,
    reason: str,
    **asked: Unpack[Asked],
) -> Reopened:
    """The head judge reopens a sealed event, saying why (an ``event.reopened`` entry that
    every later paper shows): it takes commands again, and may be sealed anew."""
    reason = " ".join(reason.split())
    if not reason:
        raise InvalidInput("say why the event is reopened", field="reason")
    check_reason(reason)

    def act(conn: Connection, ap: Appender) -> Reopened:
        state = seal_state(conn, event_id)
        if state is None or not state.sealed:
            raise Conflict("the event is not sealed: there is nothing to reopen")
        entry = ap.append(EventReopened(state.entry, reason))
        return _reopened(entry.seq, entry.of(EventReopened))

    return run_asked(
        db,
        event_id,
        Action.manage,
        {"reopen": event_id, "reason": reason},
        act,
        lambda _conn, entry: _reopened(entry.seq, entry.of(EventReopened)),
        when_sealed=True,
        **asked,
    )


def _reopened(seq: int, b: EventReopened) -> Reopened:
    return {"seq": seq, "seal": b.seal, "reason": b.reason}
