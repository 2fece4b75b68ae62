"""The JSON API of rulings: a record and its preview, the rulings' feed and one ruling, the
head judge's confirmation, deviation and void (D11, D16). Thin over the services, as
:mod:`shinpan.web.api` is; the role checked for every call (D11)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from shinpan.engine import Deviation, explain
from shinpan.engine.event_rules import Action, RulingState
from shinpan.services import corrections, queries, recording
from shinpan.services.context import load_event
from shinpan.services.shapes import DeviationJson, RulingInFeed, RulingListed
from shinpan.web import i18n
from shinpan.web.api import (
    DB_INT_MAX,
    CommandId,
    CommandIn,
    Facts,
    InfractionId,
    Name,
    Penalties,
    ReasonIn,
    Text,
    Unsafe,
    signed,
)
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS

router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)


class DeviationIn(BaseModel):
    penalties: Penalties
    reason: Text


class RecordIn(BaseModel):
    command_id: CommandId
    player: Name
    infraction: InfractionId
    facts: Facts = {}
    draft: str | None = Field(None, max_length=100)
    penalties: Penalties | None = None
    deviation: DeviationIn | None = None
    round: int | None = Field(None, ge=1, le=DB_INT_MAX)
    table: int | None = Field(None, ge=1, le=DB_INT_MAX)
    note: str = Field("", max_length=2000)
    given_at: str | None = Field(
        None,
        max_length=40,
        description="when the ruling was given at the table: ISO 8601 with an offset (D21)",
        json_schema_extra={"format": "date-time"},
    )
    call: int | None = Field(
        None, ge=1, le=DB_INT_MAX, description="the judge call it is recorded from (T14)"
    )
    deck_check: int | None = Field(
        None, ge=1, le=DB_INT_MAX, description="the deck check the ruling comes from (T13)"
    )

    def record_input(self) -> recording.RecordInput:
        return recording.RecordInput(
            player=self.player,
            infraction=self.infraction,
            facts=dict(self.facts),
            draft=self.draft or None,
            penalties=tuple(self.penalties) if self.penalties is not None else None,
            deviation=Deviation(tuple(self.deviation.penalties), self.deviation.reason)
            if self.deviation
            else None,
            round=self.round,
            table=self.table,
            note=self.note,
            given_at=self.given_at,
            call=self.call,
            deck_check=self.deck_check,
        )


@router.post("/events/{event_id}/rulings/preview", dependencies=Unsafe)
def preview(request: Request, event_id: int, body: RecordIn) -> dict[str, Any]:
    """The rulings this record would make now; nothing is saved."""
    user, _ = role_at(request, event_id, Action.record)
    made = recording.preview(request.app.state.db, event_id, body.record_input(), judge=user.name)
    lang = i18n.current.get()
    with request.app.state.db.read() as conn:
        rulebook = load_event(conn, event_id).book

    return {
        "rulings": [
            {
                "player": r.player,
                "rule": r.rule,
                "offense": r.offense,
                "penalties": list(r.penalties),
                "effects": list(r.effects),
                "needs_head_judge": r.needs_head_judge,
                "explanation": explain(rulebook, r, lang),
            }
            for r in made
        ]
    }


# The answer is plain JSON already: sent as it is (FastAPI would check it against the
# annotation in a second trip to the thread pool, then walk it again to encode it).
@router.post(
    "/events/{event_id}/rulings",
    status_code=201,
    dependencies=Unsafe,
    response_model=None,
    responses={
        201: {
            "description": "The rulings made (or made before, for a retry)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
def record(request: Request, event_id: int, body: RecordIn) -> JSONResponse:
    """Record an infraction; a retry with the same command_id records nothing new."""
    user, _ = role_at(request, event_id, Action.record)
    if body.deviation is not None:
        role_at(request, event_id, Action.deviate)
    db = request.app.state.db
    saved = recording.record(db, event_id, body.record_input(), **signed(user, body))
    answer = saved.as_json()
    names = queries.player_names(db, event_id, sorted({r["player"] for r in saved.rulings}))
    named = [{**r, "player_name": names.get(r["player"])} for r in saved.rulings]  # for the banner
    return JSONResponse({**answer, "rulings": named}, status_code=201)


@router.get("/events/{event_id}/rulings", response_model=list[dict[str, Any]])
def rulings(
    request: Request,
    event_id: int,
    state: Literal["pending", "confirmed", "recorded", "voided"] | None = None,
    limit: int = Query(100, ge=1, le=1000),
    before: int | None = Query(None, ge=1),
) -> list[RulingInFeed]:
    """The newest rulings first; ``state=pending`` is the confirmation queue."""
    role_at(request, event_id, Action.read)
    chosen = RulingState(state) if state is not None else None
    return queries.rulings_feed(request.app.state.db, event_id, state=chosen, limit=limit, before=before)


@router.get("/events/{event_id}/rulings/{number}", response_model=dict[str, Any])
def ruling(request: Request, event_id: int, number: int) -> RulingListed:
    return queries.get_ruling(readable(request, event_id), event_id, number)


class DeviateIn(ReasonIn):
    penalties: Penalties


@router.post("/events/{event_id}/rulings/{number}/confirm", dependencies=Unsafe)
def confirm(request: Request, event_id: int, number: int, body: CommandIn) -> dict[str, Any]:
    """The head judge confirms a ruling (D11)."""
    user, _ = role_at(request, event_id, Action.confirm)
    done = corrections.confirm(request.app.state.db, event_id, [number], **signed(user, body))
    return {"confirmed": done}


@router.post(
    "/events/{event_id}/rulings/{number}/deviate", dependencies=Unsafe, response_model=dict[str, Any]
)
def deviate(request: Request, event_id: int, number: int, body: DeviateIn) -> dict[str, Any]:
    """The head judge deviates from the guideline, with a reason (D11); ``rederived`` names
    the additional rulings the correction voided and added (D16)."""
    user, _ = role_at(request, event_id, Action.deviate)
    db = request.app.state.db
    before = queries.rederived_by(db, event_id, number)
    result: DeviationJson = corrections.deviate(
        db,
        event_id,
        number,
        body.penalties,
        body.reason,
        **signed(user, body),
    )
    return {**result, "rederived": queries.rederived_since(db, event_id, number, before)}


@router.post("/events/{event_id}/rulings/{number}/void", dependencies=Unsafe)
def void(request: Request, event_id: int, number: int, body: ReasonIn) -> dict[str, Any]:
    """The head judge voids a ruling's record, with a reason (D1); ``rederived`` names the
    additional rulings the correction voided and added (D16)."""
    user, _ = role_at(request, event_id, Action.void)
    db = request.app.state.db
    before = queries.rederived_by(db, event_id, number)
    done = corrections.void(db, event_id, number, body.reason, **signed(user, body))
    return {"voided": done, "rederived": queries.rederived_since(db, event_id, number, before)}
