"""The players' pages (T12): read-only, without an account, under ``/p/<token>``.

What they show is :mod:`shinpan.services.public`'s: nothing a judge records. They never
read who is signed in (a judge's cookie gives nothing more), and each address may ask
for at most ``PER_MINUTE`` pages a minute (beyond: 429, in the player's language). The head
judge publishes the event from ``/events/{id}/publish`` (a QR code of the address for the
wall), the JSON API or ``shinpan event publish``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import Field

from shinpan.engine.event_rules import Action, RoundState
from shinpan.errors import NotFound
from shinpan.qr import qr_svg
from shinpan.reports.common import local_time
from shinpan.services import publish as publishing
from shinpan.services.context import load_event
from shinpan.services.public import PublicEvent, public_event
from shinpan.web import i18n
from shinpan.web.api import CommandIn, Unsafe, csrf
from shinpan.web.auth import role_at
from shinpan.web.openapi import ERRORS, ShapeOut
from shinpan.web.phones import where_phones_go
from shinpan.web.pieces import accepts_gzip
from shinpan.web.public_lane import (
    NO_STORE,
    PER_MINUTE,
    WINDOW,
    AddressLimit,
    address_limit,
    home_answer,
    home_page,
)
from shinpan.web.render import environment, render

__all__ = ["PER_MINUTE", "AddressLimit", "api_router", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["players"], responses=ERRORS)


class TooMany(Exception):
    """Past the address's limit."""


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A players' page: drawn for nobody in particular (no account, no CSRF token)."""
    html = environment().get_template(template).render(request=request, user=None, csrf="", **context)
    headers = dict(NO_STORE)
    if status == 429:
        headers["retry-after"] = str(int(WINDOW))
    return HTMLResponse(html, status_code=status, headers=headers)


def _refused(request: Request, status: int) -> HTMLResponse:
    if status == 429:
        message = i18n.gettext(
            "Too many requests from your network. Wait a minute, then open the page again."
        )
    else:
        message = i18n.gettext("Nothing is published at this address. Ask the judges for the players' page.")
    return _page(request, "public_error.html", status, message=message, status_code=status)


def address_allowed(request: Request, name: str, per_minute: int) -> bool:
    """Whether the request's address is within the limit kept under ``name`` (counted)."""
    return address_limit(request.app.state, name, per_minute).allow(
        request.client.host if request.client else "?"
    )


def whole_number(value: str) -> int | None:
    """A round's or a table's number a player typed: 1 to 9 digits, else None."""
    value = value.strip()
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 10 else None


def _event(request: Request, token: str) -> PublicEvent:
    if not address_allowed(request, "public_limit", PER_MINUTE):
        raise TooMany
    return public_event(request.app.state.db, token)


def shown_event(request: Request, token: str) -> PublicEvent | HTMLResponse:
    """The event the token shows, or the page that refuses it: past the address's limit
    (429), or nothing published at the token (404)."""
    try:
        return _event(request, token)
    except TooMany:
        return _refused(request, 429)
    except NotFound:
        return _refused(request, 404)


def _public(request: Request, token: str, template: str, **extra: Any) -> Response:
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    context: dict[str, Any] = {"event": event, "token": token, "base": f"/p/{token}"}
    for key, make in extra.items():
        context[key] = make(event) if callable(make) else make
    return _page(request, template, **context)


@router.get("/p/{token}", response_class=HTMLResponse)
def home(request: Request, token: str, q: str = "") -> Response:
    """The player's own table: drawn in pieces, as its own lane answers it
    (:mod:`shinpan.web.public_lane`)."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    return home_answer(home_page(event), q, accepts_gzip(request.scope))


def _clock(event: PublicEvent) -> dict[str, Any]:
    found = event.clock()
    tables = [
        {**table, "ends_local": local_time(table["ends_at"], event.time_zone, style="clock")}
        for table in found["tables"]
    ]
    started = found["state"] == RoundState.started
    ends_local = local_time(found["ends_at"], event.time_zone, style="clock") if started else ""
    return {**found, "tables": tables, "ends_local": ends_local}


# The players' pages drawn from the published event: each its template and what it shows,
# each part drawn by the event (``/p/{token}/<page>``, the route named as the page).
_PAGES: dict[str, tuple[str, dict[str, Callable[[PublicEvent], object]]]] = {
    "pairings": ("public_pairings.html", {"tables": PublicEvent.tables, "byes": PublicEvent.byes}),
    "standings": ("public_standings.html", {"table": PublicEvent.standings}),
    "bracket": ("public_bracket.html", {"rounds": PublicEvent.bracket, "placings": PublicEvent.placings}),
    "wall": ("public_wall.html", {"clock": _clock}),
}


def _players_page(
    template: str, parts: dict[str, Callable[[PublicEvent], object]]
) -> Callable[..., Response]:
    def page(request: Request, token: str) -> Response:
        return _public(request, token, template, **parts)

    return page


for _name, (_template, _parts) in _PAGES.items():
    router.add_api_route(
        f"/p/{{token}}/{_name}", _players_page(_template, _parts), response_class=HTMLResponse, name=_name
    )


@router.get("/p/{token}/clock")
def clock(request: Request, token: str) -> Response:
    """The wall's clock as JSON: the round's end, the server's time, extended tables."""
    try:
        event = _event(request, token)
    except TooMany:
        return JSONResponse({"detail": "too many requests"}, 429, headers={"retry-after": str(int(WINDOW))})
    except NotFound:
        return JSONResponse({"detail": "not found"}, 404)
    return JSONResponse(_clock(event), headers=NO_STORE)


# -- the head judge publishes ---------------------------------------------------------------------


def _publish_page(request: Request, event_id: int, found: publishing.Published, role: Any) -> Response:
    where = where_phones_go(request)  # as invitations: never the laptop's own 127.0.0.1
    url = str(where["base"]).rstrip("/") + publishing.players_url(found.token) if found.token else None
    with request.app.state.db.read() as conn:
        event = load_event(conn, event_id)
    return render(
        request,
        "publish.html",
        event_id=event_id,
        event=event,
        role=role,
        published=found,
        url=url,
        qr=qr_svg(url, box=12) if url else None,
        where=where,
    )


@router.get("/events/{event_id}/publish", response_class=HTMLResponse)
def publish_page(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, Action.manage)
    with request.app.state.db.read() as conn:
        found = publishing.publication(conn, event_id)
    return _publish_page(request, event_id, found, role)


@router.post("/events/{event_id}/publish", dependencies=[Depends(csrf)])
def publish_form(
    request: Request,
    event_id: int,
    command_id: Annotated[str, Form(max_length=100)] = "",
    names: Annotated[str, Form(max_length=20)] = "names",
    off: Annotated[str, Form(max_length=5)] = "",
    winner_report: Annotated[str, Form(max_length=5)] = "",
) -> Response:
    user, _ = role_at(request, event_id, Action.manage)
    publishing.publish(
        request.app.state.db,
        event_id,
        names=names,
        off=bool(off),
        winner_report=bool(winner_report),
        actor=user.name,
        command_id=command_id or None,
    )
    return RedirectResponse(f"/events/{event_id}/publish", status_code=303)


class PublishIn(CommandIn):
    names: Literal["names", "handles"] | None = Field(
        None, description="names with readings, or the handles players registered (left out: as it was)"
    )
    off: bool = Field(False, description="unpublish: the players' address answers 404 after")
    winner_report: bool | None = Field(
        None,
        description="winners report their results on the players' pages with the code on the table's slip, "
        "for the scorekeeper to confirm (left out: as it was)",
    )


class PublishOut(
    ShapeOut,
    shape=publishing.PublicationJson,
    about={
        "url": "the players' pages, a path under the server's address (/p/<token>)",
        "winner_report": "winners report their results on the players' pages",
    },
):
    names: Literal["names", "handles"]


@api_router.post("/events/{event_id}/publish", dependencies=Unsafe)
def publish_api(request: Request, event_id: int, body: PublishIn) -> PublishOut:
    """The head judge publishes the event to its players (T12), or unpublishes it (``off``)."""
    user, _ = role_at(request, event_id, Action.manage)
    found = publishing.publish(
        request.app.state.db,
        event_id,
        names=body.names,
        off=body.off,
        winner_report=body.winner_report,
        actor=user.name,
        command_id=body.command_id,
    )
    return PublishOut.model_validate(publishing.publication_json(found))


@api_router.get("/events/{event_id}/publish")
def publication_api(request: Request, event_id: int) -> PublishOut:
    """Whether the event is published to its players, where, and with what names."""
    role_at(request, event_id, Action.manage)
    with request.app.state.db.read() as conn:
        found = publishing.publication(conn, event_id)
    return PublishOut.model_validate(publishing.publication_json(found))
