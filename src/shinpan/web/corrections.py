"""Corrections from a ruling's page: void and deviate (head judge, D16) and appeals (any
judge writes down a player's appeal), each with a reason. Post, then back to the page
(post/redirect/get); a refusal shows on the page with what the service said.

The desk posts the same forms from its feed (:mod:`shinpan.web.desk` takes the dependencies
below: `voiding`, `deviating`, `appealing`). Nothing is decided here:
the services decide, as on the command line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from shinpan.engine.event_rules import Action
from shinpan.errors import ShinpanError
from shinpan.services import appeals, corrections
from shinpan.web import i18n
from shinpan.web.api import CommandForm, Penalties, ReasonForm, csrf
from shinpan.web.auth import role_at
from shinpan.web.reports import ruling_view

router = APIRouter(include_in_schema=False, dependencies=[Depends(csrf)])
Work = Callable[[str], object]  # a correction, done when given the judge's name


async def _correct(
    request: Request, event_id: int, number: int, action: Action, done: str, work: Work
) -> Response:
    def attempt() -> Response:
        user, _ = role_at(request, event_id, action)
        try:
            work(user.name)
        except ShinpanError as e:
            return ruling_view(request, event_id, number, error=e.render(i18n.gettext), status=e.status)
        return RedirectResponse(f"/events/{event_id}/rulings/{number}?done={done}", status_code=303)

    return await run_in_threadpool(attempt)


def voiding(
    request: Request, event_id: int, number: int, command_id: CommandForm, reason: ReasonForm = ""
) -> Work:
    """The void form (D1), posted from a ruling's page or the desk."""
    db = request.app.state.db
    return lambda name: corrections.void(db, event_id, number, reason, judge=name, command_id=command_id)


def deviating(
    request: Request,
    event_id: int,
    number: int,
    command_id: CommandForm,
    reason: ReasonForm = "",
    penalties: Annotated[Penalties | None, Form()] = None,
) -> Work:
    """The deviation form (D11, D16), posted from a ruling's page or the desk."""
    db = request.app.state.db
    chosen = penalties or []
    return lambda name: corrections.deviate(
        db, event_id, number, chosen, reason, judge=name, command_id=command_id
    )


def appealing(
    request: Request,
    event_id: int,
    number: int,
    command_id: CommandForm,
    by: Annotated[str, Form(max_length=200)] = "",
    reason: ReasonForm = "",
) -> Work:
    """A player's appeal written down by a judge, posted from a ruling's page or the desk."""
    db = request.app.state.db
    return lambda name: appeals.file_appeal(
        db, event_id, number, by, reason, judge=name, command_id=command_id
    )


Voiding = Annotated[Work, Depends(voiding)]
Deviating = Annotated[Work, Depends(deviating)]
Appealing = Annotated[Work, Depends(appealing)]


@router.post("/events/{event_id}/rulings/{number}/void")
async def void(request: Request, event_id: int, number: int, work: Voiding) -> Response:
    return await _correct(request, event_id, number, Action.void, "voided", work)


@router.post("/events/{event_id}/rulings/{number}/deviate")
async def deviate(request: Request, event_id: int, number: int, work: Deviating) -> Response:
    return await _correct(request, event_id, number, Action.deviate, "deviated", work)


@router.post("/events/{event_id}/rulings/{number}/appeal")
async def appeal(request: Request, event_id: int, number: int, work: Appealing) -> Response:
    return await _correct(request, event_id, number, Action.statement, "appealed", work)
