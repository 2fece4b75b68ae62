"""A winner's report on the players' pages (T11, T12): ``/p/<token>/report``.

The QR code on a table's result slip opens ``/events/<id>/report?round=&table=&code=``;
with the right code, and where the event takes winners' reports, it leads to the players'
page for that table. There the winner picks the score as the slip says it, with the code;
it waits on the scorekeeper's page for one tap. No account; each address may send at most
``REPORTS_PER_MINUTE`` reports a minute, besides the players' pages' own limit; a wrong
code is refused in the player's language and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.errors import InvalidInput, NotFound, ShinpanError
from shinpan.services import winner_reports
from shinpan.services.public import PublicEvent
from shinpan.web import i18n
from shinpan.web.public import _page, _refused, address_allowed, shown_event, whole_number

router = APIRouter(include_in_schema=False)

REPORTS_PER_MINUTE = 10  # reports (and slip codes tried) one address may send in a minute
Field = Annotated[str, Form(max_length=100)]


def _allowed(request: Request) -> bool:
    return address_allowed(request, "report_limit", REPORTS_PER_MINUTE)


@router.get("/events/{event_id}/report", response_class=HTMLResponse)
def from_slip(request: Request, event_id: int, round: str = "", table: str = "", code: str = "") -> Response:
    """The slip's QR code: to the players' report page of the table, with the right code."""
    if not _allowed(request):
        return _refused(request, 429)
    round_no, table_no = whole_number(round[:10]), whole_number(table[:10])
    token = None
    if round_no is not None and table_no is not None:
        try:
            token = winner_reports.report_address(
                request.app.state.db, event_id, round_no, table_no, code[:100]
            )
        except NotFound:
            token = None
    if token is None:
        message = i18n.gettext(
            "This event does not take results here, or the code is not this table's. "
            "Take the slip to the scorekeeper's desk."
        )
        return _page(request, "public_error.html", 404, message=message, status_code=404)
    query = urlencode({"round": round_no, "table": table_no, "code": code[:100]})
    return RedirectResponse(f"/p/{token}/report?{query}", status_code=303)


def _form(
    request: Request,
    event: PublicEvent,
    token: str,
    round_no: int | None,
    table_no: int | None,
    code: str,
    status: int = 200,
    **extra: Any,
) -> Response:
    takes, offered = winner_reports.report_page(event.db, event.event_id, round_no or event.round)
    if not takes:
        message = i18n.gettext("This event takes results at the scorekeeper's desk, not here.")
        return _page(request, "public_error.html", 404, message=message, status_code=404)
    seated = {t.table: t for t in event.tables()}
    context = {
        "event": event,
        "token": token,
        "base": f"/p/{token}",
        "round_no": round_no or event.round,
        "table_no": table_no,
        "code": code,
        "seated": seated.get(table_no) if table_no else None,
        "offered": offered,
        **extra,
    }
    return _page(request, "public_report.html", status, **context)


@router.get("/p/{token}/report", response_class=HTMLResponse)
def report_form(request: Request, token: str, round: str = "", table: str = "", code: str = "") -> Response:
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    return _form(request, event, token, whole_number(round[:10]), whole_number(table[:10]), code[:100])


@router.post("/p/{token}/report", response_class=HTMLResponse)
def report(
    request: Request,
    token: str,
    round_no: Field = "",
    table: Field = "",
    code: Field = "",
    score: Field = "",
    command_id: Field = "",
) -> Response:
    """The winner's report: the score picked (``2-1``, or ``1-1@time`` at time) and the code."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    if not _allowed(request):
        return _refused(request, 429)
    number, where = whole_number(round_no), whole_number(table)
    given, _, when = score.partition("@")
    try:
        if number is None or where is None:
            raise InvalidInput("choose your table", field="table")
        if not given:
            raise InvalidInput("choose the score", field="score")
        done = winner_reports.report_win(
            event.db,
            event.event_id,
            number,
            where,
            code,
            given,
            at_time=when == "time",
            command_id=command_id or None,
        )
    except ShinpanError as e:
        return _form(
            request, event, token, number, where, code, e.status, error=e.render(i18n.gettext), chosen=score
        )
    return _form(request, event, token, number, where, "", sent=done)
