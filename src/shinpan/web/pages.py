"""Server-rendered pages: sign-in, events, the guideline, joining with a code.

The floor judge's record screen, the head judge's desk and the scorekeeper's pages are
in :mod:`shinpan.web.floor` and :mod:`shinpan.web.desk`; this module holds the rest.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from shinpan.engine.event_rules import Action, Role
from shinpan.errors import ShinpanError
from shinpan.files.guidelines import held_guidelines
from shinpan.guideline.search import search
from shinpan.services import access, accounts, events, players, publish
from shinpan.views.events import list_events
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import (
    SESSION_COOKIE,
    SESSION_SECONDS,
    current_user,
    renew_csrf,
    role_at,
    signed_in,
    signed_out,
)
from shinpan.web.auth import session_id as auth_session_id
from shinpan.web.render import book, render

router = APIRouter(include_in_schema=False)


def _safe_next(value: str | None) -> str:
    return value if value and value.startswith("/") and not value.startswith("//") else "/"


def _sign_in(request: Request, user: accounts.User, target: str) -> Response:
    """A new session replaces the browser's previous one (which ends, whoever's it was),
    with a new CSRF token: nothing of the page signed in before works after."""
    response = RedirectResponse(target, status_code=303)
    session_id = access.start_session(
        request.app.state.db,
        user,
        device=request.headers.get("user-agent", ""),
        address=request.client.host if request.client else "",
        replacing=auth_session_id(request),
    )
    response.set_cookie(
        SESSION_COOKIE,
        request.app.state.signer.session(user, session_id),
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=request.app.state.secure_cookies,
    )
    renew_csrf(request, response)
    return response


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    user = current_user(request)
    if user is None:
        return RedirectResponse("/login", status_code=303)
    db = request.app.state.db
    mine = dict(accounts.events_of(db, user))
    found = [(e, mine[e.id]) for e in list_events(db) if e.id in mine]
    return render(request, "index.html", events=found, Role=Role, guidelines=held_guidelines())


@router.post("/events", dependencies=[Depends(csrf)])
def create_event(
    request: Request,
    name: Annotated[str, Form(max_length=200)] = "",
    starts_on: Annotated[str, Form(max_length=10)] = "",
    venue: Annotated[str, Form(max_length=200)] = "",
    time_zone: Annotated[str, Form(max_length=64)] = "",
    match_format: Annotated[str, Form(max_length=10)] = "",
    time_out: Annotated[str, Form(max_length=20)] = "",
    tiebreakers: Annotated[str, Form(max_length=60)] = "",
    guideline: Annotated[str, Form(max_length=150)] = "",
) -> Response:
    user = signed_in(request)
    try:
        event_id = events.create_event(
            request.app.state.db,
            name=name,
            head_judge=user.name,
            head_judge_level=user.level,
            head_judge_account=user.uid,
            starts_on=starts_on or None,
            venue=venue or None,
            time_zone=time_zone or None,
            match_format=match_format or None,
            time_out=time_out or None,
            tiebreakers=tiebreakers or None,
            guideline=events.guideline_of(guideline),
        )
    except ShinpanError as e:
        db = request.app.state.db
        mine = dict(accounts.events_of(db, user))
        found = [(ev, mine[ev.id]) for ev in list_events(db) if ev.id in mine]
        return render(
            request,
            "index.html",
            status=e.status,
            events=found,
            Role=Role,
            errors={e.field or "name": e.render(i18n.gettext)},
            guidelines=held_guidelines(),
            form={"name": name, "time_zone": time_zone, "guideline": guideline},
        )
    return RedirectResponse(f"/events/{event_id}/desk", status_code=303)


def _demo_accounts(request: Request) -> list[list[str]]:
    """The demo's accounts (role, name, password), one a line of ``shinpan serve --demo``'s hint."""
    hint: str | None = request.app.state.demo_hint
    return [line.split("\t") for line in (hint or "").splitlines() if line.count("\t") == 2]


@router.get("/slip/{event_id}/{number}", response_class=HTMLResponse)
def slip_link(request: Request, event_id: int, number: int) -> Response:
    """Where a penalty slip's QR code leads: a judge of the event to the ruling; anyone else
    (the player the slip was handed to) to a page that says whose code it is, with the
    event's pages for players when published; never a judges' page or a sign-in."""
    try:
        role_at(request, event_id, Action.read)
    except ShinpanError:
        pass
    else:
        return RedirectResponse(f"/events/{event_id}/rulings/{number}", status_code=303)
    try:
        address = publish.players_address(request.app.state.db, event_id)
    except ShinpanError:
        address = None
    return render(request, "slip_link.html", players_url=address)


@router.get("/session/who")
def who(request: Request) -> Response:
    """Who is signed in on this browser now (an open tab asks, to tell a changed session)."""
    user = current_user(request)
    body = {"id": user.id, "name": user.name} if user else {"id": None, "name": None}
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> Response:
    return render(
        request, "login.html", next=_safe_next(next), demo=_demo_accounts(request), now=current_user(request)
    )


@router.post("/login", dependencies=[Depends(csrf)])
def login(
    request: Request,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=200)] = "",
    next: Annotated[str, Form(max_length=500)] = "/",
    switch: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    now = current_user(request)
    if now is not None and not switch and accounts.sign_in_name(name) != now.name:
        # Someone else is signed in on this browser: every tab of it would become the new
        # person's. Asked first, naming who (the form's box says it).
        return render(
            request,
            "login.html",
            status=409,
            next=_safe_next(next),
            form={"name": name},
            errors={
                "switch": i18n.gettext("tick the box to sign %(name)s out of this browser first")
                % {"name": now.name}
            },
            demo=_demo_accounts(request),
            now=now,
        )
    limiter = request.app.state.limiter
    address = request.client.host if request.client else "?"
    limiter.attempt(address, name)
    user = accounts.authenticate(request.app.state.db, name, password)
    if user is None:
        return render(
            request,
            "login.html",
            status=401,
            next=_safe_next(next),
            form={"name": name},
            errors={"password": i18n.gettext("wrong name or password")},
            demo=_demo_accounts(request),
            now=now,
        )
    limiter.succeeded(address, name)
    return _sign_in(request, user, _landing(request, user, _safe_next(next)))


def _landing(request: Request, user: accounts.User, asked: str) -> str:
    """Where signing in leads: where the person was going; else, for someone who only
    judges the floor, the record screen of their (newest) event; else their events."""
    if asked != "/":
        return asked
    held = accounts.events_of(request.app.state.db, user)
    if held and all(role is Role.floor_judge for _, role in held):
        return f"/events/{max(event for event, _ in held)}/record"
    return asked


@router.post("/logout", dependencies=[Depends(csrf)])
def logout(request: Request) -> Response:
    """Sign out: the session ends in the database, so its cookie no longer works anywhere;
    its live streams end, and the CSRF token is a new one."""
    found = auth_session_id(request)
    if found is not None:  # its cache and its live streams here hear of it at once
        access.sign_out(request.app.state.db, found)
    return signed_out(request)


@router.get("/lang/{code}")
def set_language(code: str, next: str = "/") -> Response:
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(i18n.COOKIE, i18n.choose(code), max_age=365 * 86400, samesite="lax")
    return response


@router.get("/guideline", response_class=HTMLResponse)
def guideline(request: Request, q: str = "") -> Response:
    """The whole guideline, searchable, in both languages (public)."""
    found = search(book(), q[:100])
    template = "_guideline_rows.html" if request.headers.get("hx-request") else "guideline.html"
    return render(request, template, found=found, q=q, g=book().guideline)


@router.get("/join/{code}", response_class=HTMLResponse)
def join_page(request: Request, code: str) -> Response:
    try:
        found = accounts.invitation(request.app.state.db, code)
    except ShinpanError as e:
        return render(request, "error.html", status=404, message=e.render(i18n.gettext), status_code=404)
    return render(
        request,
        "join.html",
        code=code,
        role=found.role,
        event_id=found.event_id,
        seat=found.seat,
        user=current_user(request),
        form={"name": found.seat or ""},
        event_name=players.event_of(request.app.state.db, found.event_id).name,
    )


@router.post("/join/{code}", dependencies=[Depends(csrf)])
def join(
    request: Request,
    code: str,
    name: Annotated[str, Form(max_length=200)] = "",
    pin: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    try:
        found = accounts.invitation(request.app.state.db, code)
        event_id, role = found.event_id, found.role
        holder = current_user(request) if found.seat else None  # a claim code: to this account
        user = accounts.join(request.app.state.db, code, name, pin, user=holder)
    except ShinpanError as e:
        return render(
            request,
            "join.html",
            status=e.status,
            code=code,
            role=None,
            event_id=None,
            errors={e.field or "name": e.render(i18n.gettext)},
            form={"name": name},
        )
    target = f"/events/{event_id}/record" if role is Role.floor_judge else f"/events/{event_id}"
    return _sign_in(request, user, target)
