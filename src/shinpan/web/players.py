"""The players page (head judge and scorekeeper): a CSV file previewed, then imported whole;
a late entrant; a name or reading corrected; attendance before round 1; a drop.

The preview writes nothing: it shows what would be imported, or every problem by line, and
carries the file itself (base64, in the confirming form) to the import, which reads it again
with the same reader. Every other form posts and redirects to the page (post/redirect/get),
what happened travelling in a short-lived cookie, as on the scorekeeper's page.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Annotated
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.engine.event_rules import Action
from shinpan.errors import Conflict, InvalidInput, ShinpanError
from shinpan.files.csvio import MAX_BYTES, CsvError, check_size
from shinpan.services import decklists, players, swiss
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import role_at
from shinpan.web.i18n import N_
from shinpan.web.render import render

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]
FLASH = "shinpan_players_flash"
Field = Annotated[str, Form(max_length=500)]
# The file, carried from the preview to the import: its base64 within a form's body limit.
CARRIED = 1024 * 1024 - 64 * 1024
ENCODINGS = {"utf-8": "UTF-8", "utf-8-sig": N_("UTF-8 (with BOM)"), "cp932": N_("Shift_JIS (Excel)")}
WORDS = (N_("roster"), N_("dropped"), N_("absent"), N_("present"))
COLUMN_LABELS = dict(
    zip(
        players.FORM_COLUMNS,
        (
            N_("Player ID"),
            N_("Name"),
            N_("Reading (kana)"),
            N_("Club"),
            N_("Handle (shown on the players' pages)"),
        ),
        strict=True,
    )
)


def _page(event_id: int) -> str:
    return f"/events/{event_id}/players"


def _back(event_id: int, message: str, *, error: bool = False) -> Response:
    response = RedirectResponse(_page(event_id), status_code=303)
    value = quote(("!" if error else "") + message, safe="")
    response.set_cookie(FLASH, value, max_age=60, path=_page(event_id), httponly=True, samesite="strict")
    return response


def _form_problems(e: CsvError) -> str:
    """A player typed into a form: its problems by field (its one-line CSV's lines unsaid)."""
    lang = i18n.current.get()
    said = []
    for p in e.problems:
        label = i18n.gettext(COLUMN_LABELS[p.column]) if p.column in COLUMN_LABELS else p.column
        message = p.message_ja if lang == "ja" else p.message_en
        said.append(f"{label}: {message}" if label else message)
    return "\n".join(said)


def _attempt(request: Request, event_id: int, action: Action, work: Callable[[str], str]) -> Response:
    user, _ = role_at(request, event_id, action)
    try:
        message = work(user.name)
    except CsvError as e:
        return _back(event_id, _form_problems(e), error=True)
    except ShinpanError as e:
        return _back(event_id, e.render(i18n.gettext), error=True)
    return _back(event_id, message)


@router.get("/events/{event_id}/players", response_class=HTMLResponse)
def players_page(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, Action.roster)
    found = players.registry(request.app.state.db, event_id)
    decks = decklists.status(request.app.state.db, event_id)
    flash = unquote(request.cookies.get(FLASH, ""))
    error, notice = (flash[1:], None) if flash.startswith("!") else (None, flash or None)
    response = render(
        request,
        "players.html",
        event_id=event_id,
        event=found.event,
        role=role,
        registry=found,
        decks=decks,
        deck_state={p["player"]: p["state"] for p in decks["players"]},
        error=error,
        notice=notice,
    )
    if flash:
        response.delete_cookie(FLASH, path=_page(event_id))
    return response


def _preview(request: Request, event_id: int, data: bytes, status: int = 200) -> Response:
    _, role = role_at(request, event_id, Action.roster)
    db = request.app.state.db
    found = players.preview_import(db, event_id, data)
    carried = base64.b64encode(data).decode("ascii") if found.ok and len(data) * 4 // 3 < CARRIED else None
    return render(
        request,
        "players_preview.html",
        status=status,
        event_id=event_id,
        event=players.registry(db, event_id).event,
        role=role,
        preview=found,
        carried=carried,
        encoding=ENCODINGS.get(found.encoding or ""),
    )


@router.post("/events/{event_id}/players/preview", dependencies=Unsafe)
def preview(request: Request, event_id: int, file: Annotated[UploadFile, File()]) -> Response:
    """What the file would import, or every problem with it by line; nothing is written."""
    role_at(request, event_id, Action.roster)
    data = file.file.read(MAX_BYTES + 1)
    check_size(max(len(data), file.size or 0))
    return _preview(request, event_id, data)


@router.post("/events/{event_id}/players/import", dependencies=Unsafe)
def import_players(
    request: Request, event_id: int, command_id: Field, data: Annotated[str, Form(max_length=CARRIED)] = ""
) -> Response:
    user, _ = role_at(request, event_id, Action.roster)
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInput("the file did not come back whole; choose it again", field="file") from None
    try:
        n = players.import_file(request.app.state.db, event_id, raw, actor=user.name, command_id=command_id)
    except (CsvError, Conflict):  # changed since the preview (one of its players registered since)
        return _preview(request, event_id, raw, status=422)
    return _back(event_id, i18n.gettext("{n} players imported").format(n=n))


@router.post("/events/{event_id}/players/add", dependencies=Unsafe)
def add(
    request: Request,
    event_id: int,
    command_id: Field,
    number: Field = "",
    name: Field = "",
    reading: Field = "",
    club: Field = "",
    handle: Field = "",
) -> Response:
    def work(actor: str) -> str:
        row = players.form_row(number, name, reading, club, handle)
        players.add_player(request.app.state.db, event_id, row, actor=actor, command_id=command_id)
        return i18n.gettext("{name} ({number}) is registered").format(name=row.name, number=row.number)

    return _attempt(request, event_id, Action.roster, work)


@router.post("/events/{event_id}/players/{number}/correct", dependencies=Unsafe)
def correct(
    request: Request,
    event_id: int,
    number: str,
    command_id: Field,
    name: Field = "",
    reading: Field = "",
    club: Field = "",
    handle: Field = "",
) -> Response:
    def work(actor: str) -> str:
        row = players.form_row(number, name, reading, club, handle)
        players.correct_player(request.app.state.db, event_id, row, actor=actor, command_id=command_id)
        return i18n.gettext("{number}: corrected to {name}").format(number=row.number, name=row.name)

    return _attempt(request, event_id, Action.roster, work)


@router.post("/events/{event_id}/players/{number}/attendance", dependencies=Unsafe)
def attendance(
    request: Request, event_id: int, number: str, command_id: Field, present: Field = ""
) -> Response:
    def work(actor: str) -> str:
        here = present == "1"
        players.mark_attendance(
            request.app.state.db, event_id, number, here, actor=actor, command_id=command_id
        )
        who = players.named(request.app.state.db, event_id, number)
        if here:
            return i18n.gettext("{number}: present").format(number=who)
        return i18n.gettext("{number}: absent (not paired in round 1)").format(number=who)

    return _attempt(request, event_id, Action.roster, work)


@router.post("/events/{event_id}/players/{number}/drop", dependencies=Unsafe)
def drop(request: Request, event_id: int, number: str, command_id: Field) -> Response:
    def work(actor: str) -> str:
        swiss.drop_player(request.app.state.db, event_id, number, actor=actor, command_id=command_id)
        return i18n.gettext("{player} has dropped").format(
            player=players.named(request.app.state.db, event_id, number)
        )

    return _attempt(request, event_id, Action.results, work)
