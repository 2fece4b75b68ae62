"""The JSON API of the seal: what the event's seal says now, the head judge's seal at the
event's end and the reopening of a sealed event with a reason. Thin over
:mod:`shinpan.services.seal` and :mod:`shinpan.services.reopen`, as ``shinpan event seal``
and ``shinpan event reopen`` are; the role checked for every call (D11)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from shinpan.engine.event_rules import Action
from shinpan.services import reopen, seal
from shinpan.services.closed import state_of
from shinpan.web.api import CommandIn, ReasonIn, Unsafe
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS

router = APIRouter(prefix="/api", tags=["seal"], responses=ERRORS)


@router.get("/events/{event_id}/seal")
def seal_state(request: Request, event_id: int) -> dict[str, Any]:
    """Whether the event is sealed (closed to every command) or was reopened since its last
    seal: the entry that made it so, when, by whom and (a reopening) why."""
    with readable(request, event_id).read() as conn:
        state = state_of(conn, event_id)
    if state is None:
        return {"sealed": False, "reopened": False}
    return {
        "sealed": state.sealed,
        "reopened": not state.sealed,
        "entry": state.entry,
        "at": state.at,
        "by": state.by,
        **({"reason": state.reason} if not state.sealed else {}),
    }


@router.post("/events/{event_id}/seal", dependencies=Unsafe, response_model=dict[str, Any])
def seal_event(request: Request, event_id: int, body: CommandIn) -> seal.Sealed:
    """The head judge seals the event: the installation's signature of the ledger's head.
    Nothing is recorded in it afterwards until it is reopened."""
    user, _ = role_at(request, event_id, Action.manage)
    return seal.seal_event(request.app.state.db, event_id, actor=user.name, command_id=body.command_id)


@router.post("/events/{event_id}/reopen", dependencies=Unsafe, response_model=dict[str, Any])
def reopen_event(request: Request, event_id: int, body: ReasonIn) -> reopen.Reopened:
    """The head judge reopens a sealed event, with a reason every later paper shows."""
    user, _ = role_at(request, event_id, Action.manage)
    return reopen.reopen_event(
        request.app.state.db, event_id, body.reason, actor=user.name, command_id=body.command_id
    )
