"""What players do for themselves on the players' pages (T12, T14), without an account.

``/p/<token>/player/<id>``: the player's own table view: their table this round, a button
that calls a judge to it (with an optional reason), whether a judge is coming and who,
their result once the scorekeeper has it, and a drop between rounds with their registration
code. The page asks ``…/state`` every few seconds (``/static/player.js``) and says so when
the next round is paired, without a reload. ``/p/<token>/call?table=N`` is the call page a
table's slip opens (its QR code). The JSON API mirrors both under ``/api/p/<token>/…``.

Each address may raise at most ``CALLS_PER_MINUTE`` calls (and try as many drop codes) a
minute, besides the players' pages' own limit: beyond, 429 in the player's language.
Nothing a judge records is shown but the name of the judge who is coming.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from shinpan.errors import InvalidInput, NotFound, ShinpanError, TooManyAttempts
from shinpan.services import calls, self_service
from shinpan.services.public import PublicEvent
from shinpan.services.self_service import PlayerStateJson
from shinpan.web import i18n
from shinpan.web.api import CommandId
from shinpan.web.i18n import N_
from shinpan.web.openapi import ERRORS
from shinpan.web.public import _page, _refused, address_allowed, shown_event, whole_number
from shinpan.web.public_lane import NO_STORE

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)

CALLS_PER_MINUTE = 6  # calls (and drop codes tried) one address may send in a minute
REASONS = ("rules", "dispute", "time", "other")
FormText = Annotated[str, Form(max_length=100)]
TOO_MANY = N_("Too many calls from your network. Wait a minute, or raise your hand for a judge.")


def _allowed(request: Request) -> bool:
    return address_allowed(request, "call_limit", CALLS_PER_MINUTE)


def _player_page(
    request: Request, event: PublicEvent, token: str, number: str, status: int = 200, **extra: Any
) -> Response:
    seat = event.seat(number)
    if seat is None:
        return _refused(request, 404)
    state = self_service.player_state(event.db, event.event_id, number)
    context = {
        "event": event,
        "token": token,
        "base": f"/p/{token}",
        "number": number,
        "seat": seat,
        "state": state,
        "reasons": REASONS,
        **extra,
    }
    return _page(request, "public_player.html", status, **context)


@router.get("/p/{token}/player/{number}")
def player_page(request: Request, token: str, number: str) -> Response:
    """The player's own table view."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    return _player_page(request, event, token, number[:64])


@router.get("/p/{token}/player/{number}/state")
def player_state(request: Request, token: str, number: str) -> Response:
    """What the player's own table view shows now, for their phone to poll."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    if event.seat(number[:64]) is None:
        return JSONResponse({"detail": i18n.gettext("no such player")}, status_code=404, headers=NO_STORE)
    return JSONResponse(self_service.player_state(event.db, event.event_id, number[:64]), headers=NO_STORE)


def _call_page(
    request: Request, event: PublicEvent, token: str, table: int | None, status: int = 200, **extra: Any
) -> Response:
    seated = {t.table: t for t in event.tables()}
    round_no, seen = (
        self_service.table_call(event.db, event.event_id, table) if table else (event.round, None)
    )
    context = {
        "event": event,
        "token": token,
        "base": f"/p/{token}",
        "table_no": table,
        "seated": seated.get(table) if table else None,
        "round_no": round_no,
        "seen": seen,
        "reasons": REASONS,
        **extra,
    }
    return _page(request, "public_call.html", status, **context)


@router.get("/events/{event_id}/call")
def from_slip(request: Request, event_id: int, table: str = "") -> Response:
    """The slip's second QR code: to the call page of the table, once the event is published."""
    token = self_service.players_token(request.app.state.db, event_id)
    where = whole_number(table[:10])
    if token is None or where is None:
        return _refused(request, 404)
    return RedirectResponse(f"/p/{token}/call?table={where}", status_code=303)


@router.get("/p/{token}/call")
def call_page(request: Request, token: str, table: str = "") -> Response:
    """The call page of a table (the slip's QR code opens it)."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    return _call_page(request, event, token, whole_number(table[:10]))


@router.post("/p/{token}/call")
def call_form(
    request: Request,
    token: str,
    table: FormText = "",
    reason: FormText = "",
    player: FormText = "",
    command_id: FormText = "",
) -> Response:
    """A player calls a judge to their table, in one tap (the reason is optional)."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    where = whole_number(table)

    def back(status: int, **kw: Any) -> Response:
        if player:
            return _player_page(request, event, token, player, status, **kw)
        return _call_page(request, event, token, where, status, **kw)

    if not _allowed(request):
        return back(429, call_error=i18n.gettext(TOO_MANY))
    try:
        if where is None:
            raise InvalidInput("choose your table", field="table")
        done = calls.raise_call_as_player(
            event.db, event.event_id, where, reason or None, command_id=command_id or None
        )
    except ShinpanError as e:
        return back(e.status, call_error=e.render(i18n.gettext))
    return back(200, called=done)


@router.post("/p/{token}/drop")
def drop_form(
    request: Request, token: str, player: FormText = "", code: FormText = "", command_id: FormText = ""
) -> Response:
    """A player drops from the event between rounds, with their registration code."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    if not _allowed(request):
        return _player_page(request, event, token, player, 429, drop_error=i18n.gettext(TOO_MANY))
    try:
        done = self_service.drop_myself(event.db, event.event_id, player, code, command_id=command_id or None)
    except ShinpanError as e:
        return _player_page(request, event, token, player, e.status, drop_error=e.render(i18n.gettext))
    return _player_page(request, event, token, player, dropped=done)


# -- the JSON API of the same ---------------------------------------------------------------


class PlayerCallIn(BaseModel):
    command_id: CommandId
    table: int = Field(ge=1, le=100_000)
    reason: Literal["rules", "dispute", "time", "other"] | None = None


class PlayerCallOut(BaseModel):
    call: int
    round: int
    table: int
    state: Literal["open", "claimed", "escalated", "resolved"]


class DropIn(BaseModel):
    command_id: CommandId
    player: str = Field(min_length=1, max_length=64)
    code: str = Field(min_length=1, max_length=40)


class DropOut(BaseModel):
    player: str
    round: int


def _api_event(request: Request, token: str) -> PublicEvent:
    event = shown_event(request, token)
    if isinstance(event, Response):
        if event.status_code == 429:
            raise TooManyAttempts(TOO_MANY)
        raise NotFound("Nothing is published at this address. Ask the judges for the players' page.")
    if not _allowed(request):
        raise TooManyAttempts(TOO_MANY)
    return event


@api_router.post("/p/{token}/calls", status_code=201)
def api_call(request: Request, token: str, body: PlayerCallIn) -> PlayerCallOut:
    """A player calls a judge to their table (no account: the event's published token)."""
    event = _api_event(request, token)
    done = calls.raise_call_as_player(
        event.db, event.event_id, body.table, body.reason, command_id=body.command_id
    )
    return PlayerCallOut.model_validate(done)


@api_router.post("/p/{token}/drop")
def api_drop(request: Request, token: str, body: DropIn) -> DropOut:
    """A player drops between rounds with their registration code."""
    event = _api_event(request, token)
    done = self_service.drop_myself(
        event.db, event.event_id, body.player, body.code, command_id=body.command_id
    )
    return DropOut.model_validate(done)


@api_router.get("/p/{token}/players/{number}", response_model=dict[str, Any])
def api_state(request: Request, token: str, number: str) -> PlayerStateJson:
    """The player's own table view: round, table, the open call of the table (who is
    coming), their result once recorded."""
    event = shown_event(request, token)
    if isinstance(event, Response) or event.seat(number[:64]) is None:
        raise NotFound("no such player")
    return self_service.player_state(event.db, event.event_id, number[:64])
