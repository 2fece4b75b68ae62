"""Invitations that reach phones, and the page from which a phone trusts the server.

A join code's link and QR name an address a phone can open: the server's ``--public-url``
if it was given one; else the address the head judge's browser used, unless that is this
machine's loopback (127.0.0.1, ``localhost``: every phone would open itself), when it is
the machine's first LAN address (:mod:`shinpan.services.network`), with the browser's
scheme and port. The page says which, and why.

``/ca`` explains in a few steps how a phone installs the venue's certificate authority
(``shinpan serve --https``) and ``/ca.crt`` hands it out; both are served on the plain-HTTP
listener too, since a phone fetches them before it trusts the server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.engine.event_rules import Action, Role
from shinpan.errors import InvalidInput, NotFound
from shinpan.qr import qr_svg
from shinpan.services import accounts, players, tls
from shinpan.web.api import csrf
from shinpan.web.auth import role_at
from shinpan.web.phones import base_url, join_url, where_phones_go
from shinpan.web.render import render

router = APIRouter(include_in_schema=False)
SHEET_MOST = 12  # codes on one A4 sheet (3 × 4)
INVITED = ("floor_judge", "scorekeeper", "viewer")


def _role(value: str) -> Role:
    return Role(value) if value in INVITED else Role.floor_judge


def _invite_page(
    request: Request,
    event_id: int,
    role: Role,
    where: dict[str, object],
    template: str = "invite.html",
    **shown: Any,
) -> Response:
    """The invite page (the form, and what an invitation just made shows: ``shown``), or
    another ``template`` of invitations (the sheet of codes)."""
    event = players.event_of(request.app.state.db, event_id)
    return render(
        request,
        template,
        event_id=event_id,
        event=event,
        role=role,
        where=where,
        most=SHEET_MOST,
        **shown,
    )


@router.get("/events/{event_id}/invite", response_class=HTMLResponse)
def invite_page(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, Action.invite)
    return _invite_page(request, event_id, role, where_phones_go(request), code=None)


@router.post("/events/{event_id}/invite", dependencies=[Depends(csrf)])
def invite(
    request: Request, event_id: int, role: Annotated[str, Form(max_length=20)] = "floor_judge"
) -> Response:
    user, mine = role_at(request, event_id, Action.invite)
    chosen = _role(role)
    code = accounts.invite(request.app.state.db, event_id, chosen, user.name)
    where = where_phones_go(request)
    url = join_url(str(where["base"]), code)
    return _invite_page(
        request, event_id, mine, where, code=code, url=url, qr=qr_svg(url, box=12), invited=chosen
    )


@router.post("/events/{event_id}/invite/sheet", dependencies=[Depends(csrf)])
def invite_sheet(
    request: Request,
    event_id: int,
    role: Annotated[str, Form(max_length=20)] = "floor_judge",
    count: Annotated[str, Form(max_length=5)] = "6",
) -> Response:
    """An A4 sheet of one-time codes for one role, each with its QR, to print and hand out."""
    user, mine = role_at(request, event_id, Action.invite)
    if not count.isascii() or not count.isdigit() or not 1 <= int(count) <= SHEET_MOST:
        raise InvalidInput("give between 1 and {most} codes", field="count", most=SHEET_MOST)
    chosen = _role(role)
    where = where_phones_go(request)
    slips = []
    for _ in range(int(count)):
        code = accounts.invite(request.app.state.db, event_id, chosen, user.name)
        url = join_url(str(where["base"]), code)
        slips.append({"code": code, "url": url, "qr": qr_svg(url, box=6)})
    return _invite_page(request, event_id, mine, where, "invite_sheet.html", invited=chosen, slips=slips)


_CODE = re.compile(r"[^A-Za-z0-9]")


@router.get("/join")
def join_typed(code: str = "") -> Response:
    """A join code typed on the sign-in page (spaces and dashes allowed, any case)."""
    cleaned = _CODE.sub("", code)[:40].upper()
    return RedirectResponse(f"/join/{cleaned}" if cleaned else "/login", status_code=303)


def _authority(request: Request) -> bytes:
    files: tls.TlsFiles | None = getattr(request.app.state, "tls", None)
    if files is None:
        raise NotFound("this server does not serve HTTPS (start it with shinpan serve --https)")
    return Path(files.ca_cert).read_bytes()


@router.get("/ca", response_class=HTMLResponse)
def authority_page(request: Request) -> Response:
    """How a phone installs the venue's certificate authority, with a QR to this page."""
    pem = _authority(request)
    page: str | None = getattr(request.app.state, "ca_page_url", None)
    if page is None:
        base, _ = base_url(request)
        page = f"{base}ca"
    return render(request, "ca.html", url=page, qr=qr_svg(page, box=8), fingerprint=tls.fingerprint(pem))


@router.get("/ca.crt")
def authority_certificate(request: Request) -> Response:
    return Response(
        _authority(request),
        media_type=tls.CA_MIME,
        headers={"content-disposition": 'attachment; filename="shinpan-ca.crt"'},
    )
