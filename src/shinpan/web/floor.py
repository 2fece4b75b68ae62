"""The floor judge's pages: record an infraction from a phone, and a player's page.

The record screen: find the player (table, id, kanji, kana, romaji), pick the infraction
(category or search), answer only its questions, see the ruling before saving, save.
Saving goes through the JSON API with an id made by the page (``static/record.js``), so a
double tap or a retry never records twice and an unsent record waits on the phone.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.engine import Ruling, explain
from shinpan.errors import ShinpanError
from shinpan.guideline.model import Question
from shinpan.guideline.search import search
from shinpan.services import queries, recording
from shinpan.services.context import load_event
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import role_at
from shinpan.web.render import book, render

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


def _event_name(request: Request, event_id: int) -> str:
    with request.app.state.db.read() as conn:
        return load_event(conn, event_id).name


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_home(request: Request, event_id: int) -> Response:
    """Each role's starting page."""
    _, role = role_at(request, event_id, "read")
    target = {
        "head_judge": "desk",
        "floor_judge": "record",
        "scorekeeper": "scorekeeper",
        "viewer": "desk",
    }[role.value]
    return RedirectResponse(f"/events/{event_id}/{target}", status_code=303)


@router.get("/events/{event_id}/record", response_class=HTMLResponse)
def record_page(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, "record")
    categories = book().guideline.categories
    return render(
        request, "record.html", event_id=event_id, event_name=_event_name(request, event_id), role=role,
        categories=categories, infractions=book().guideline.infractions,
    )  # fmt: skip


@router.get("/events/{event_id}/record/players", response_class=HTMLResponse)
def record_players(request: Request, event_id: int, q: str = "") -> Response:
    role_at(request, event_id, "record")
    found = queries.find_players(request.app.state.db, event_id, q[:100], limit=12) if q.strip() else []
    return render(request, "_players.html", players=found, q=q)


@router.get("/events/{event_id}/record/infractions", response_class=HTMLResponse)
def record_infractions(request: Request, event_id: int, q: str = "", category: str = "") -> Response:
    role_at(request, event_id, "record")
    found = [i for i in search(book(), q[:100]) if not category or i.category == category]
    return render(request, "_infractions.html", infractions=found)


@router.get("/events/{event_id}/record/questions", response_class=HTMLResponse)
def record_questions(request: Request, event_id: int, infraction: str = "") -> Response:
    role_at(request, event_id, "record")
    inf = book().infractions.get(infraction)
    asked = [q for q in QUESTION_ORDER if inf is not None and q in inf.questions]
    return render(request, "_questions.html", infraction=inf, asked=asked,
                  uncategorized=infraction == book().uncategorized.id)  # fmt: skip


def _record_input(form: dict[str, Any]) -> recording.RecordInput:
    facts: dict[str, Any] = {}
    for q in QUESTION_ORDER:
        value = form.get(f"fact_{q.value}")
        if value in (None, ""):
            continue
        facts[q.value] = {"yes": True, "no": False}.get(str(value), str(value))
    penalties = [str(p) for p in form.get("penalties", [])] if form.get("uncategorized") else None
    return recording.RecordInput(
        player=str(form.get("player", "")), infraction=str(form.get("infraction", "")), facts=facts,
        draft=str(form.get("draft") or "") or None,
        penalties=tuple(penalties) if penalties is not None else None,
    )  # fmt: skip


async def _form(request: Request) -> dict[str, Any]:
    form = await request.form()
    data: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
    data["penalties"] = [v for v in form.getlist("penalties") if isinstance(v, str)]
    return data


@router.post("/events/{event_id}/record/preview", response_class=HTMLResponse, dependencies=[Depends(csrf)])
async def record_preview(request: Request, event_id: int) -> Response:
    """The ruling the engine would make now (an HTML fragment)."""
    from starlette.concurrency import run_in_threadpool

    form = await _form(request)

    def work() -> Response:
        user, _ = role_at(request, event_id, "record")
        inp = _record_input(form)
        if not inp.player or not inp.infraction:
            return HTMLResponse("")
        try:
            made: list[Ruling] = recording.preview(request.app.state.db, event_id, inp, judge=user.name)
        except ShinpanError as e:
            return render(request, "_preview.html", rulings=[], error=e.render(i18n.gettext), field=e.field)
        lang = i18n.current.get()
        shown = [(r, explain(book(), r, lang)) for r in made]
        return render(request, "_preview.html", rulings=shown, error=None, field=None)

    return await run_in_threadpool(work)


@router.post("/events/{event_id}/record", dependencies=[Depends(csrf)])
async def record_form(
    request: Request, event_id: int, command_id: Annotated[str, Form(min_length=8, max_length=100)]
) -> Response:
    """Saving without JavaScript: the same service, the same retry rule."""
    from starlette.concurrency import run_in_threadpool

    form = await _form(request)

    def work() -> Response:
        user, _ = role_at(request, event_id, "record")
        saved = recording.record(request.app.state.db, event_id, _record_input(form), judge=user.name,
                                 command_id=command_id)  # fmt: skip
        if not saved.replayed:
            request.app.state.live.publish(event_id)
        player = saved.rulings[0]["player"] if saved.rulings else form.get("player", "")
        return RedirectResponse(f"/events/{event_id}/players/{player}?saved={saved.entry}", status_code=303)

    return await run_in_threadpool(work)


@router.get("/events/{event_id}/players/{number}", response_class=HTMLResponse)
def player_page(request: Request, event_id: int, number: str, saved: int | None = None) -> Response:
    role_at(request, event_id, "read")
    data = queries.player_history(request.app.state.db, event_id, number)
    return render(request, "player.html", event_id=event_id, event_name=_event_name(request, event_id),
                  data=data, saved=saved)  # fmt: skip
