"""The JSON API of judge calls (T14): the same contract as ``shinpan call``.

Raise a call for a table (a judge), claim, escalate and resolve it, and list the event's
calls (the judges' queue with ``open=true``). Thin over :mod:`shinpan.services.calls`; the
role is checked for every call (D11), every one that records something carries its
``command_id``. A player's call comes from the players' page (:mod:`shinpan.web.public_calls`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from shinpan.engine.clock import MAX_EXTENSION_MINUTES
from shinpan.engine.event_rules import Action
from shinpan.services import calls
from shinpan.services.context import MAX_REASON
from shinpan.web.api import CommandIn, Unsafe, signed
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS

router = APIRouter(prefix="/api", tags=["calls"], responses=ERRORS)
Number = Annotated[int, Field(ge=1, le=2**31 - 1)]
Reason = Literal["rules", "dispute", "time", "other"]


class CallOut(BaseModel):
    call: int
    round: int
    table: int
    state: Literal["open", "claimed", "escalated", "resolved"]


class ResolvedOut(CallOut):
    outcome: Literal["none", "ruling", "appeal"]
    rulings: list[int]
    proposed: int = Field(
        description="minutes T14 proposed: claim to resolution, less one minute, rounded up"
    )
    minutes: int = Field(description="minutes the table got")


class CallListedOut(CallOut):
    reason: Reason | None
    waited_s: int = Field(description="seconds from raised to claimed (to now while nobody took it)")
    over: bool = Field(description="waited past the threshold and nobody has taken it")
    judge: str | None
    escalated: bool
    outcome: Literal["none", "ruling", "appeal"] | None
    rulings: list[int]
    handled_s: int | None
    proposed: int | None
    minutes: int | None


class CallsOut(BaseModel):
    calls: list[CallListedOut]


class RaiseIn(CommandIn):
    table: Number
    reason: Reason | None = None


@router.post("/events/{event_id}/calls", status_code=201, dependencies=Unsafe)
def raise_call(request: Request, event_id: int, body: RaiseIn) -> CallOut:
    """A judge raises a call for a table of the round being played."""
    user, _ = role_at(request, event_id, Action.record)
    done = calls.raise_call(request.app.state.db, event_id, body.table, body.reason, **signed(user, body))
    return CallOut.model_validate(done)


@router.get("/events/{event_id}/calls")
def list_calls(request: Request, event_id: int, open_only: bool = Query(False, alias="open")) -> CallsOut:
    """The event's calls; ``open=true``: the judges' queue, longest waiting first."""
    return CallsOut.model_validate(
        calls.list_calls(readable(request, event_id), event_id, open_only=open_only)
    )


@router.post("/events/{event_id}/calls/{call}/claim", dependencies=Unsafe)
def claim(request: Request, event_id: int, call: int, body: CommandIn) -> CallOut:
    """Take the call: the other judges see it taken, the table sees who is coming."""
    user, _ = role_at(request, event_id, Action.record)
    done = calls.claim_call(request.app.state.db, event_id, call, **signed(user, body))
    return CallOut.model_validate(done)


@router.post("/events/{event_id}/calls/{call}/escalate", dependencies=Unsafe)
def escalate(request: Request, event_id: int, call: int, body: CommandIn) -> CallOut:
    """Hand the call to the head judge: the desk shows it beside the appeals."""
    user, _ = role_at(request, event_id, Action.record)
    done = calls.escalate_call(request.app.state.db, event_id, call, **signed(user, body))
    return CallOut.model_validate(done)


class ResolveIn(CommandIn):
    outcome: Literal["none", "ruling", "appeal"]
    rulings: list[Number] = Field(default_factory=list, max_length=100)
    extend: int | None = Field(
        None,
        ge=0,
        le=MAX_EXTENSION_MINUTES,
        description="minutes instead of the proposed ones (with a reason)",
    )
    reason: str | None = Field(None, max_length=MAX_REASON)


@router.post("/events/{event_id}/calls/{call}/resolve", dependencies=Unsafe)
def resolve(request: Request, event_id: int, call: int, body: ResolveIn) -> ResolvedOut:
    """Resolve the call: the table gets the proposed minutes (or ``extend``) on its clock."""
    user, _ = role_at(request, event_id, Action.record)
    resolution = calls.Resolution(body.outcome, body.rulings, body.extend, body.reason)
    done = calls.resolve_call(request.app.state.db, event_id, call, resolution, **signed(user, body))
    return ResolvedOut.model_validate(done)


class ProposalOut(BaseModel):
    call: int
    proposed: int


@router.get("/events/{event_id}/calls/{call}/proposal")
def proposal(request: Request, event_id: int, call: int) -> ProposalOut:
    """The minutes resolving the call now would give the table (T14)."""
    role_at(request, event_id, Action.record)
    return ProposalOut(call=call, proposed=calls.proposal(request.app.state.db, event_id, call))
