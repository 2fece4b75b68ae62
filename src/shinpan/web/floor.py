"""The floor judge's pages: record an infraction from a phone, and a player's page.

The record screen: find the player (table, id, kanji, kana, romaji), pick the infraction
(category or search), answer only its questions, see the ruling before saving, save.
Saving goes through the JSON API with an id made by the page (``static/record.js``), so a
double tap or a retry never records twice and an unsent record waits on the phone. The
service worker (``static/sw.js``, served at ``/sw.js``) keeps the page, its scripts and the
roster, so the screen opens, finds and asks offline too; the server still decides.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from shinpan import romaji
from shinpan.engine import Ruling, explain
from shinpan.engine.clock import MAX_EXTENSION_MINUTES
from shinpan.engine.event_rules import Action
from shinpan.engine.explain import reason_text
from shinpan.engine.leaving import left_reason
from shinpan.errors import ShinpanError
from shinpan.guideline.model import Question
from shinpan.services import deadlines, players, queries, recording, search
from shinpan.services.context import Event
from shinpan.web import i18n
from shinpan.web.api import CommandForm, csrf
from shinpan.web.auth import role_at
from shinpan.web.render import render

router = APIRouter(include_in_schema=False)

# The questions an infraction asks, in the order a judge answers them.
QUESTION_ORDER = (
    Question.intentional,
    Question.facts_determined,
    Question.kind,
    Question.same_as_previous,
    Question.mixed_into,
    Question.recorded_by,
    Question.advisor,
    Question.advisor_only,
)


def _event(request: Request, event_id: int) -> Event:
    return players.event_of(request.app.state.db, event_id)


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_home(request: Request, event_id: int) -> Response:
    """Each role's starting page."""
    _, role = role_at(request, event_id, Action.read)
    target = {
        "head_judge": "desk",
        "floor_judge": "record",
        "scorekeeper": "scorekeeper",
        "viewer": "desk",
    }[role.value]
    return RedirectResponse(f"/events/{event_id}/{target}", status_code=303)


@cache
def _service_worker() -> str:
    """``static/sw.js`` with its VERSION: a digest of the static files, so that a new shinpan
    replaces what the phones kept."""
    static = resources.files("shinpan.web") / "static"
    digest = hashlib.sha256()
    for item in sorted(static.iterdir(), key=lambda f: f.name):
        if item.is_file():
            digest.update(item.name.encode() + b"\0" + item.read_bytes())
    return f'var VERSION = "{digest.hexdigest()[:16]}";\n' + (static / "sw.js").read_text(encoding="utf-8")


@router.get("/sw.js")
def service_worker() -> Response:
    """The record screen's service worker, at the root so that it may keep every event's."""
    headers = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
    return Response(_service_worker(), media_type="text/javascript", headers=headers)


@router.get("/events/{event_id}/record", response_class=HTMLResponse)
def record_page(request: Request, event_id: int) -> Response:
    """The record screen, with every infraction's questions in it: once loaded (and kept by
    the service worker), it finds, asks and queues without the network."""
    _, role = role_at(request, event_id, Action.record)
    event = _event(request, event_id)
    guideline = event.book.guideline
    asked = {inf.id: [q for q in QUESTION_ORDER if q in inf.questions] for inf in guideline.infractions}
    response = render(
        request,
        "record.html",
        event_id=event_id,
        event=event,
        role=role,
        categories=guideline.categories,
        infractions=guideline.infractions,
        asked=asked,
        max_extension=MAX_EXTENSION_MINUTES,
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


@router.get("/events/{event_id}/record/roster")
def record_roster(request: Request, event_id: int) -> JSONResponse:
    """The players with their search keys and their seats in the current round, and the
    romaji spelling rules: what the record screen searches when the network is gone."""
    role_at(request, event_id, Action.record)
    roster = search.roster(request.app.state.db, event_id)
    body = {
        "round": roster.round,
        "players": [p.as_json() | {"search": k} for p, k in roster.players],
        "spelling": [list(rule) for rule in romaji.SPELLING],
    }
    return JSONResponse(body, headers={"Cache-Control": "no-cache"})


@router.get("/events/{event_id}/record/mine", response_class=HTMLResponse)
def my_rulings(request: Request, event_id: int) -> Response:
    """自分の記録: what this judge recorded today, each as it stands (an HTML fragment the
    record screen shows, and the service worker keeps for a reload offline)."""
    user, role = role_at(request, event_id, Action.record)
    mine = queries.rulings_recorded_today(request.app.state.db, event_id, user.name)
    response = render(
        request, "_mine.html", event_id=event_id, event=_event(request, event_id), role=role, mine=mine
    )
    response.headers["Cache-Control"] = "no-cache"
    return response


def _awaiting_arrival(request: Request, event_id: int, player: str) -> list[deadlines.Deadline]:
    """The player's late-arrival deadlines still running (D9): a judge recording something
    else for them at their table may close those in one tap ("到着")."""
    found = deadlines.list_deadlines(request.app.state.db, event_id)
    first: dict[int, deadlines.Deadline] = {}  # per ruling: its first (done closes the later ones)
    for d in sorted(found, key=lambda d: d.position, reverse=True):
        if d.player == player and d.arrival:
            first[d.ruling] = d
    return list(first.values())


def _left_note(ruling: Ruling, lang: str) -> str | None:
    """What the preview says first when the player has left the event (D14, D22)."""
    reason = left_reason(ruling)
    return reason_text(reason, lang) if reason else None


def _record_input(form: dict[str, Any]) -> recording.RecordInput:
    facts: dict[str, Any] = {}
    for q in QUESTION_ORDER:
        value = form.get(f"fact_{q.value}")
        if value in (None, ""):
            continue
        facts[q.value] = {"yes": True, "no": False}.get(str(value), str(value))
    penalties = [str(p) for p in form.get("penalties", [])] if form.get("uncategorized") else None
    return recording.RecordInput(
        player=str(form.get("player", "")),
        infraction=str(form.get("infraction", "")),
        facts=facts,
        draft=str(form.get("draft") or "") or None,
        penalties=tuple(penalties) if penalties is not None else None,
        call=int(call) if (call := str(form.get("call") or "")).isdigit() and len(call) < 10 else None,
        deck_check=int(check)
        if (check := str(form.get("deck_check", ""))).isdigit() and len(check) < 10
        else None,
    )


async def _form(request: Request) -> dict[str, Any]:
    form = await request.form()
    data: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
    data["penalties"] = [v for v in form.getlist("penalties") if isinstance(v, str)]
    return data


@router.post("/events/{event_id}/record/preview", response_class=HTMLResponse, dependencies=[Depends(csrf)])
async def record_preview(request: Request, event_id: int) -> Response:
    """The ruling the engine would make now (an HTML fragment)."""
    form = await _form(request)

    def work() -> Response:
        user, _ = role_at(request, event_id, Action.record)
        inp = _record_input(form)
        if not inp.player or not inp.infraction:
            return HTMLResponse("")
        try:
            made: list[Ruling] = recording.preview(request.app.state.db, event_id, inp, judge=user.name)
        except ShinpanError as e:
            return render(request, "_preview.html", rulings=[], error=e.render(i18n.gettext), field=e.field)
        lang = i18n.current.get()
        rulebook = _event(request, event_id).book
        shown = [(r, explain(rulebook, r, lang), _left_note(r, lang)) for r in made]
        names = queries.player_names(request.app.state.db, event_id, [r.player for r in made])
        return render(
            request,
            "_preview.html",
            rulings=shown,
            names=names,
            error=None,
            field=None,
            rulebook=rulebook,
            arrivals=_awaiting_arrival(request, event_id, inp.player),
        )

    return await run_in_threadpool(work)


@router.post("/events/{event_id}/record", dependencies=[Depends(csrf)])
async def record_form(request: Request, event_id: int, command_id: CommandForm) -> Response:
    """Saving without JavaScript: the same service, the same retry rule."""
    form = await _form(request)

    def work() -> Response:
        user, _ = role_at(request, event_id, Action.record)
        saved = recording.record(
            request.app.state.db, event_id, _record_input(form), judge=user.name, command_id=command_id
        )
        player = saved.rulings[0]["player"] if saved.rulings else form.get("player", "")
        return RedirectResponse(f"/events/{event_id}/players/{player}?saved={saved.entry}", status_code=303)

    return await run_in_threadpool(work)


@router.get("/events/{event_id}/players/{number}", response_class=HTMLResponse)
def player_page(request: Request, event_id: int, number: str, saved: int | None = None) -> Response:
    _, role = role_at(request, event_id, Action.read)
    data = queries.player_history(request.app.state.db, event_id, number)
    return render(
        request,
        "player.html",
        event_id=event_id,
        event=_event(request, event_id),
        role=role,
        data=data,
        saved=saved,
    )
