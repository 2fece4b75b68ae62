"""The head judge seals the event from the reports page (:mod:`shinpan.services.seal`): a
form with a confirmation box, posted, then back to the page (post/redirect/get); and, where
it was sealed, reopens it with a reason (:mod:`shinpan.services.reopen`). Nothing is decided
here: the services seal and reopen, as ``shinpan event seal`` and ``event reopen`` do."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from shinpan.engine.event_rules import Action
from shinpan.errors import InvalidInput, ShinpanError
from shinpan.services import reopen, seal
from shinpan.web import i18n
from shinpan.web.api import CommandForm, ReasonForm, csrf
from shinpan.web.auth import role_at
from shinpan.web.reports import index_view

router = APIRouter(include_in_schema=False, dependencies=[Depends(csrf)])


@router.post("/events/{event_id}/seal")
async def seal_event(
    request: Request,
    event_id: int,
    command_id: CommandForm,
    confirm: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    def attempt() -> Response:
        user, _ = role_at(request, event_id, Action.manage)
        try:
            if confirm != "yes":
                raise InvalidInput("tick the box to confirm that the event is over and may be sealed")
            seal.seal_event(request.app.state.db, event_id, actor=user.name, command_id=command_id)
        except ShinpanError as e:
            return index_view(request, event_id, error=e.render(i18n.gettext), status=e.status)
        return RedirectResponse(f"/events/{event_id}/reports?done=sealed", status_code=303)

    return await run_in_threadpool(attempt)


@router.post("/events/{event_id}/reopen")
async def reopen_event(
    request: Request, event_id: int, command_id: CommandForm, reason: ReasonForm = ""
) -> Response:
    def attempt() -> Response:
        user, _ = role_at(request, event_id, Action.manage)
        try:
            reopen.reopen_event(
                request.app.state.db, event_id, reason, actor=user.name, command_id=command_id
            )
        except ShinpanError as e:
            return index_view(request, event_id, error=e.render(i18n.gettext), status=e.status)
        return RedirectResponse(f"/events/{event_id}/reports?done=reopened", status_code=303)

    return await run_in_threadpool(attempt)
