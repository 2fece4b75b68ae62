"""The judges' queue of calls (T14) on judges' phones (``/events/<id>/calls``) and on the
head judge's desk (its ``calls`` panel, escalated calls beside the appeals).

Open calls by waiting time, the minutes shown, those past the threshold marked; claim,
escalate and resolve in one tap (htmx, as the desk's forms); resolving proposes the table's
extension, which the judge confirms or changes with a reason. The page is live through the
desk's stream and script (:mod:`shinpan.web.live`, ``desk.js``): a claim on one phone
shows on every other within the stream's relay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from shinpan.engine.clock import MAX_EXTENSION_MINUTES
from shinpan.engine.event_rules import Action
from shinpan.errors import InvalidInput, ShinpanError
from shinpan.services import calls, players, queries
from shinpan.services.context import parse_stamp, stamp
from shinpan.store.calls import call_of
from shinpan.web import i18n
from shinpan.web.api import CommandForm, csrf
from shinpan.web.auth import role_at
from shinpan.web.desk import _panels
from shinpan.web.live import PANELS
from shinpan.web.render import render

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]
Text = Annotated[str, Form(max_length=500)]


def _phone(request: Request) -> bool:
    """Whether the form was sent from the phones' queue page (else: the desk)."""
    return request.headers.get("hx-current-url", "").split("?")[0].endswith("/calls")


def _queue(
    request: Request, event_id: int, error: str | None = None, status: int = 200, template: str = "calls.html"
) -> Response:
    _, role = role_at(request, event_id, Action.read)
    head = queries.ledger_head(request.app.state.db, event_id)
    listed = calls.list_calls(request.app.state.db, event_id, open_only=True)["calls"]
    return render(
        request,
        template,
        status=status,
        event_id=event_id,
        event=players.event_of(request.app.state.db, event_id),
        role=role,
        head=head,
        calls=listed,
        error=error,
    )


def _after(request: Request, event_id: int, error: str | None = None, status: int = 200) -> Response:
    if _phone(request):
        return _queue(request, event_id, error, status, "_calls_panels.html")
    _, role = role_at(request, event_id, Action.read)
    return render(
        request, "_desk_panels.html", status=status, event_id=event_id, role=role, error=error,
        **_panels(request, event_id, PANELS),
    )  # fmt: skip


def _attempt(request: Request, event_id: int, work: Callable[[str], object]) -> Response:
    user, _ = role_at(request, event_id, Action.record)
    try:
        work(user.name)
    except ShinpanError as e:
        return _after(request, event_id, e.render(i18n.gettext), e.status)
    return _after(request, event_id)


@router.get("/events/{event_id}/calls", response_class=HTMLResponse)
def queue(request: Request, event_id: int) -> Response:
    """The judges' queue on a phone: open calls, longest waiting first, live."""
    return _queue(request, event_id)


def _taking_up(step: str) -> None:
    """Claiming and escalating: one handler each, into the service's step of that name."""

    def take_up(request: Request, event_id: int, call: int, command_id: CommandForm) -> Response:
        db = request.app.state.db
        service = calls.claim_call if step == "claim" else calls.escalate_call
        return _attempt(
            request, event_id, lambda name: service(db, event_id, call, judge=name, command_id=command_id)
        )

    take_up.__name__ = step
    router.post(f"/events/{{event_id}}/desk/call/{{call}}/{step}", dependencies=Unsafe)(take_up)


for _step in ("claim", "escalate"):
    _taking_up(_step)


@router.get("/events/{event_id}/desk/call/{call}/resolve", response_class=HTMLResponse)
def resolve_form(request: Request, event_id: int, call: int) -> Response:
    """The resolve form, with the extension T14 proposes now."""
    _, role = role_at(request, event_id, Action.record)
    db = request.app.state.db
    now = parse_stamp(stamp())
    with db.read() as conn:
        row = call_of(conn, event_id, call)
    if row is None:
        return HTMLResponse(i18n.gettext("no call {call}").format(call=call), status_code=404)
    taken = row.claimed_at or row.escalated_at
    seconds = int((now - parse_stamp(taken)).total_seconds()) if taken else 0
    listed = calls.listed(row, now)
    return render(
        request,
        "_call_resolve.html",
        event_id=event_id,
        role=role,
        c=listed,
        proposed=calls.proposed_minutes(row, now),
        took=f"{seconds // 60}:{seconds % 60:02d}",
        max_extension=MAX_EXTENSION_MINUTES,
    )


def _numbers(text: str) -> list[int]:
    parts = [p.strip() for p in text.replace("、", ",").replace(" ", ",").split(",") if p.strip()]
    if not all(p.isascii() and p.isdigit() and len(p) < 10 for p in parts):
        raise InvalidInput("write the rulings' numbers, e.g. 4,5", field="rulings")
    return [int(p) for p in parts]


@router.post("/events/{event_id}/desk/call/{call}/resolve", dependencies=Unsafe)
def resolve(
    request: Request,
    event_id: int,
    call: int,
    command_id: CommandForm,
    outcome: Annotated[str, Form(max_length=10)] = "none",
    rulings: Text = "",
    minutes: Annotated[int, Form(ge=0, le=MAX_EXTENSION_MINUTES)] = 0,
    proposed: Annotated[int, Form(ge=0, le=MAX_EXTENSION_MINUTES)] = 0,
    reason: Text = "",
) -> Response:
    """Resolve: the outcome, the rulings, the minutes confirmed (or changed, with a reason)."""
    db = request.app.state.db

    def work(name: str) -> Any:
        resolution = calls.Resolution(outcome, _numbers(rulings), minutes, reason or None, seen=proposed)
        return calls.resolve_call(db, event_id, call, resolution, judge=name, command_id=command_id)

    return _attempt(request, event_id, work)
