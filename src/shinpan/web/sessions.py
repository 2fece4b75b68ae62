"""Sessions and organisers on the web: each person's list of the devices signed in as them
("ログイン中の端末"), the head judge's list of their judges' (a phone lost at the venue is
cut off in one tap, after a confirmation), and the organisers' page where an organiser
names others. Pages, and the same under /api. The services decide
(:mod:`shinpan.services.access`); who may ask is :mod:`shinpan.web.auth`'s to say.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel

from shinpan.engine.event_rules import Action
from shinpan.errors import ShinpanError
from shinpan.services import access, accounts
from shinpan.services.context import load_event
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import role_at, session_id, signed_in, signed_out
from shinpan.web.openapi import ERRORS
from shinpan.web.render import render

router = APIRouter()
Unsafe = [Depends(csrf)]
# How a list names a session: the database's hash of its id (64 hex digits), never the id.
Key = Annotated[str, Path(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]
Name = Annotated[str, Form(min_length=1, max_length=200)]


class SessionOut(BaseModel):
    """A signed-in session (``key`` names it to end it)."""

    key: str
    device: str
    address: str
    started_at: str | None
    last_seen: str | None
    current: bool


class JudgeSessionsOut(BaseModel):
    seat: str
    role: str
    sessions: list[SessionOut]


def _out(view: access.SessionView) -> SessionOut:
    return SessionOut(
        key=view.key,
        device=view.device,
        address=view.address,
        started_at=view.started_at,
        last_seen=view.last_seen,
        current=view.current,
    )


def _fresh(request: Request) -> None:
    """What this process saw of sessions lately is written before a list is read."""
    request.app.state.members.flush_seen()


# -- one's own sessions -----------------------------------------------------------------------


@router.get("/sessions", response_class=HTMLResponse, include_in_schema=False)
def sessions_page(request: Request, done: str = "") -> Response:
    user = signed_in(request)
    _fresh(request)
    found = access.own_sessions(request.app.state.db, user, session_id(request))
    return render(
        request,
        "sessions.html",
        sessions=found,
        done=done[:20],
        organiser=access.is_organiser(request.app.state.db, user),
    )


@router.post("/sessions/{key}/end", include_in_schema=False, dependencies=Unsafe)
def end_own(request: Request, key: Key) -> Response:
    user = signed_in(request)
    current = session_id(request)
    try:
        access.end_own_session(request.app.state.db, user, key)
    except ShinpanError as e:
        found = access.own_sessions(request.app.state.db, user, current)
        return render(
            request, "sessions.html", status=e.status, sessions=found, done="", error=e.render(i18n.gettext)
        )
    if current is not None and accounts.session_hash(current) == key:
        return signed_out(request)
    return RedirectResponse("/sessions?done=ended", status_code=303)


@router.get("/api/sessions", tags=["sessions"], responses=ERRORS)
def my_sessions(request: Request) -> list[SessionOut]:
    """The signed-in person's sessions (their browsers and phones), this one first."""
    user = signed_in(request)
    _fresh(request)
    return [_out(v) for v in access.own_sessions(request.app.state.db, user, session_id(request))]


@router.post("/api/sessions/{key}/end", tags=["sessions"], responses=ERRORS, dependencies=Unsafe)
def end_my_session(request: Request, key: Key) -> dict[str, Any]:
    """End one of the signed-in person's sessions: its cookie is refused from now on and its
    live streams end within a second."""
    user = signed_in(request)
    access.end_own_session(request.app.state.db, user, key)
    return {"ended": key}


# -- the head judge: their judges' sessions --------------------------------------------------


@router.get("/events/{event_id}/sessions", response_class=HTMLResponse, include_in_schema=False)
def judges_page(request: Request, event_id: int, done: str = "") -> Response:
    _, role = role_at(request, event_id, Action.end_sessions)
    return _judges_view(request, event_id, role, done=done[:20])


def _judges_view(
    request: Request, event_id: int, role: Any, *, done: str = "", error: str | None = None, status: int = 200
) -> Response:
    db = request.app.state.db
    with db.read() as conn:
        event = load_event(conn, event_id)
    _fresh(request)
    judges = access.judges_sessions(db, event_id, session_id(request))
    return render(
        request,
        "judges_sessions.html",
        status=status,
        event_id=event_id,
        event=event,
        role=role,
        judges=judges,
        done=done,
        error=error,
    )


@router.post("/events/{event_id}/sessions/{key}/end", include_in_schema=False, dependencies=Unsafe)
def end_judges(request: Request, event_id: int, key: Key) -> Response:
    _, role = role_at(request, event_id, Action.end_sessions)
    current = session_id(request)
    try:
        access.end_judge_session(request.app.state.db, event_id, key)
    except ShinpanError as e:
        return _judges_view(request, event_id, role, error=e.render(i18n.gettext), status=e.status)
    if current is not None and accounts.session_hash(current) == key:
        return signed_out(request)
    return RedirectResponse(f"/events/{event_id}/sessions?done=ended", status_code=303)


@router.get("/api/events/{event_id}/sessions", tags=["sessions"], responses=ERRORS)
def event_sessions(request: Request, event_id: int) -> list[JudgeSessionsOut]:
    """The sessions of everyone holding a seat at the event (head judge)."""
    role_at(request, event_id, Action.end_sessions)
    _fresh(request)
    judges = access.judges_sessions(request.app.state.db, event_id, session_id(request))
    return [
        JudgeSessionsOut(seat=j.seat, role=j.role.value, sessions=[_out(v) for v in j.sessions])
        for j in judges
    ]


@router.post(
    "/api/events/{event_id}/sessions/{key}/end", tags=["sessions"], responses=ERRORS, dependencies=Unsafe
)
def end_event_session(request: Request, event_id: int, key: Key) -> dict[str, Any]:
    """End a session of someone holding a seat at the event (head judge): a phone lost at
    the venue is cut off; its live streams end within a second."""
    role_at(request, event_id, Action.end_sessions)
    access.end_judge_session(request.app.state.db, event_id, key)
    return {"ended": key}


# -- organisers -------------------------------------------------------------------------------


@router.get("/organisers", response_class=HTMLResponse, include_in_schema=False)
def organisers_page(request: Request, done: str = "") -> Response:
    user = signed_in(request)
    db = request.app.state.db
    return render(
        request,
        "organisers.html",
        organisers=access.organisers(db),
        done=done[:20],
        organiser=access.is_organiser(db, user),
    )


@router.post("/organisers", include_in_schema=False, dependencies=Unsafe)
def name_organiser(request: Request, name: Name, off: Annotated[str, Form(max_length=5)] = "") -> Response:
    user = signed_in(request)
    db = request.app.state.db
    try:
        access.name_organiser(db, name, on=not off, by=user)
    except ShinpanError as e:
        return render(
            request,
            "organisers.html",
            status=e.status,
            organisers=access.organisers(db),
            organiser=access.is_organiser(db, user),
            error=e.render(i18n.gettext),
            form={"name": name},
        )
    return RedirectResponse("/organisers?done=" + ("removed" if off else "named"), status_code=303)
