"""Reports in the web app: pages, and the same reports under /api as JSON, CSV, HTML or PDF.

Thin over :mod:`shinpan.reports`. Who may see what (D11, ``event_rules.PERMISSIONS``):

- the penalty report and the statistics: ``export`` (head judge, scorekeeper);
- disqualification reports and a player's history: ``report`` (the head judge);
- a ruling's page and its slip, penalty slips in batch: ``read`` (everyone working at the event);
- result slips (they carry each match's code): ``export``.

Statistics across events cover the events where the signed-in user may export; a player's
history covers every event for an organiser, the events where they are head judge for
anyone else, voided rulings only of events they hold a seat at (:func:`history_reader`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import Field

from shinpan import reports
from shinpan.engine.event_rules import Action, Role, may
from shinpan.reports.common import EventHeader, event_header, paper_language
from shinpan.reports.formats import print_css
from shinpan.services import accounts, queries
from shinpan.services.accounts import User
from shinpan.services.closed import state_of
from shinpan.services.heads import read_head
from shinpan.web import i18n
from shinpan.web.auth import NotAllowed, history_reader, role_at, signed_in
from shinpan.web.openapi import REPORT_FILES
from shinpan.web.phones import base_url
from shinpan.web.render import render

router = APIRouter()
Format = Literal["csv", "json", "html", "pdf"]
Grouping = Literal["round", "player", "infraction"]
Lang = Literal["both", "ja"]
Number = Annotated[
    int, Field(ge=1, le=2**31 - 1)
]  # a number the database stores  # Japanese with English beside it, or Japanese only
STYLESHEET = "/reports/print.css"
Handler = TypeVar("Handler", bound=Callable[..., Response])


def _allowed(request: Request, event_id: int, action: Action) -> tuple[User, Role, EventHeader]:
    """The user, their role and the event; 404 for an unknown event, 403 without the right."""
    signed_in(request)
    with request.app.state.db.read() as conn:
        event = event_header(conn, event_id)
    user, role = role_at(request, event_id, action)
    return user, role, event


def _events_where(request: Request, action: Action) -> list[int]:
    """The events where the signed-in user may take ``action``; 403 when there are none."""
    user = signed_in(request)
    ids = [e for e, role in accounts.events_of(request.app.state.db, user) if may(role, action)]
    if not ids:
        raise NotAllowed("you may not {action} at any event", action=action)
    return sorted(ids)


def _file(report: reports.Report, fmt: str, lang: str | None = None) -> Response:
    """The report as a file, in the language asked, else the event's (Japanese only in Japan)."""
    out = reports.render(report, fmt, stylesheet=STYLESHEET, lang=lang or paper_language(report.time_zone))
    disposition = "attachment" if fmt == "csv" else "inline"
    return Response(
        out.content,
        media_type=out.media_type,
        headers={"Content-Disposition": f'{disposition}; filename="{out.filename}"'},
    )


def page(path: str) -> Callable[[Handler], Handler]:
    """A page of the web app (left out of the API's schema)."""
    return router.get(path, include_in_schema=False, response_class=HTMLResponse)


@router.get("/reports/print.css", include_in_schema=False)
def stylesheet() -> Response:
    """The print styles of the reports' HTML documents."""
    return Response(print_css(), media_type="text/css", headers={"Cache-Control": "max-age=3600"})


# -- pages --------------------------------------------------------------------------------


@page("/events/{event_id}/reports")
def index(request: Request, event_id: int, done: str = "") -> Response:
    return index_view(request, event_id, done=done[:20])


def index_view(
    request: Request, event_id: int, *, done: str = "", error: str | None = None, status: int = 200
) -> Response:
    """The reports of an event; for the head judge, the ledger's head and its seal."""
    _, role, event = _allowed(request, event_id, Action.export)
    db = request.app.state.db
    dq = reports.dq_report(db, event_id).cases if may(role, Action.report) else ()
    with db.read() as conn:
        head = read_head(conn, event_id)
        seal_state = state_of(conn, event_id)
    return render(
        request,
        "reports_index.html",
        seal_state=seal_state,
        status=status,
        event_id=event_id,
        event=event,
        role=role,
        may_report=may(role, Action.report),
        may_seal=may(role, Action.manage),
        dq=dq,
        head=head,
        done=done,
        error=error,
        paper_lang=paper_language(event.time_zone),
    )


@page("/events/{event_id}/reports/penalties")
def penalties_page(request: Request, event_id: int, group: Grouping = "round") -> Response:
    _, role, event = _allowed(request, event_id, Action.export)
    report = reports.penalty_report(request.app.state.db, event_id, group)
    return render(request, "reports_penalties.html", event_id=event_id, event=event, role=role, report=report)


def _stats_page(request: Request, stats: reports.Statistics, **context: Any) -> Response:
    from shinpan.reports.charts import calls_chart, charts  # start-up

    drawn = charts(stats, i18n.current.get())
    drawn["calls"] = calls_chart(stats, i18n.current.get())
    return render(request, "reports_stats.html", stats=stats, charts=drawn, **context)


@page("/events/{event_id}/reports/stats")
def stats_page(request: Request, event_id: int) -> Response:
    _, role, event = _allowed(request, event_id, Action.export)
    stats = reports.statistics(request.app.state.db, event_id)
    return _stats_page(request, stats, event_id=event_id, event=event, role=role)


@page("/reports/stats")
def all_stats_page(request: Request) -> Response:
    stats = reports.statistics(request.app.state.db, event_ids=_events_where(request, Action.export))
    return _stats_page(request, stats, event_id=None)


@page("/events/{event_id}/reports/dq")
def dq_page(request: Request, event_id: int) -> Response:
    _, role, event = _allowed(request, event_id, Action.report)
    report = reports.dq_report(request.app.state.db, event_id)
    return render(request, "reports_dq.html", event_id=event_id, event=event, role=role, report=report)


@page("/events/{event_id}/reports/history")
def history_page(
    request: Request,
    event_id: int,
    name: Annotated[str, Query(max_length=200)] = "",
    reading: Annotated[str, Query(max_length=200)] = "",
    player: Annotated[str, Query(max_length=40)] = "",
) -> Response:
    _, role, event = _allowed(request, event_id, Action.report)
    db = request.app.state.db
    scope = history_reader(request)
    history = None
    if player:
        history = reports.history_of_player(db, event_id, player, scope=scope)
    elif name.strip():
        history = reports.player_history(db, name, reading, scope=scope)
    return render(
        request,
        "reports_history.html",
        event_id=event_id,
        event=event,
        role=role,
        history=history,
        scope=scope,
        form={"name": name, "reading": reading},
    )


@page("/events/{event_id}/rulings/{number}")
def ruling_page(request: Request, event_id: int, number: int, done: str = "") -> Response:
    """A ruling with its slip; corrections and appeals from it (:mod:`shinpan.web.corrections`)."""
    return ruling_view(request, event_id, number, done=done[:20])


def ruling_view(
    request: Request,
    event_id: int,
    number: int,
    *,
    done: str = "",
    error: str | None = None,
    status: int = 200,
) -> Response:
    _, role, event = _allowed(request, event_id, Action.read)
    db = request.app.state.db
    slip = reports.penalty_slip(db, event_id, number, base_url(request)[0])
    detail = queries.get_ruling(db, event_id, number)
    return render(
        request,
        "reports_ruling.html",
        status=status,
        event_id=event_id,
        event=event,
        role=role,
        slip=slip,
        r=slip.ruling,
        detail=detail,
        involved=queries.involved(db, event_id, detail),
        ruling_appeals=[a for a in queries.appeals_of(db, event_id) if a["ruling"] == number],
        components=event.book.guideline.components,
        done=done,
        error=error,
        added_after=queries.added_by_correction(db, event_id, detail["entry"]),
        rederived=queries.rederived_by(db, event_id, number),
    )


# -- the API -------------------------------------------------------------------------------


@router.get("/api/events/{event_id}/reports/penalties", tags=["reports"], responses=REPORT_FILES)
def penalties(
    request: Request,
    event_id: int,
    format: Format = "json",
    lang: Lang | None = None,
    group: Grouping = "round",
) -> Response:
    """The event penalty report (head judge, scorekeeper): cautions and draft warnings stay out."""
    _allowed(request, event_id, Action.export)
    return _file(reports.penalty_report(request.app.state.db, event_id, group), format, lang)


@router.get("/api/events/{event_id}/reports/pairings", tags=["reports"], responses=REPORT_FILES)
def wall_pairings(
    request: Request,
    event_id: int,
    format: Format = "pdf",
    lang: Lang | None = None,
    round: Annotated[int | None, Query(ge=1, le=9999)] = None,
    by: Literal["table", "name"] = "table",
) -> Response:
    """A round's pairings for the venue wall (default: the current round), by table or by name in 50-on order."""
    _allowed(request, event_id, Action.read)
    return _file(reports.venue_pairings(request.app.state.db, event_id, round, by), format, lang)


@router.get("/api/events/{event_id}/reports/bracket", tags=["reports"], responses=REPORT_FILES)
def wall_bracket(request: Request, event_id: int, format: Literal["json", "html", "pdf"] = "pdf") -> Response:
    """The playoff's bracket for the venue wall, with the final placings once the final is played."""
    _allowed(request, event_id, Action.read)
    return _file(reports.venue_bracket(request.app.state.db, event_id), format)


@router.get("/api/events/{event_id}/reports/standings", tags=["reports"], responses=REPORT_FILES)
def wall_standings(
    request: Request,
    event_id: int,
    format: Format = "pdf",
    lang: Lang | None = None,
    round: Annotated[int | None, Query(ge=1, le=9999)] = None,
) -> Response:
    """The standings for the venue wall, as they stood at the end of the round (default: the current one)."""
    _allowed(request, event_id, Action.read)
    return _file(reports.venue_standings(request.app.state.db, event_id, round), format, lang)


@router.get("/api/events/{event_id}/reports/stats", tags=["reports"], responses=REPORT_FILES)
def stats(request: Request, event_id: int, format: Format = "json", lang: Lang | None = None) -> Response:
    """Statistics of one event, with charts in the HTML and PDF."""
    _allowed(request, event_id, Action.export)
    return _file(reports.statistics(request.app.state.db, event_id), format, lang)


@router.get("/api/reports/stats", tags=["reports"], responses=REPORT_FILES)
def all_stats(request: Request, format: Format = "json", lang: Lang | None = None) -> Response:
    """Statistics across the events where the signed-in user may export."""
    ids = _events_where(request, Action.export)
    return _file(reports.statistics(request.app.state.db, event_ids=ids), format, lang)


@router.get("/api/events/{event_id}/reports/dq", tags=["reports"], responses=REPORT_FILES)
def dq(
    request: Request,
    event_id: int,
    format: Literal["json", "html", "pdf"] = "json",
    lang: Lang | None = None,
    ruling: int | None = None,
) -> Response:
    """Disqualification reports (head judge): every one, or ``ruling``'s."""
    _allowed(request, event_id, Action.report)
    return _file(reports.dq_report(request.app.state.db, event_id, ruling), format, lang)


@router.get("/api/players/history", tags=["reports"], responses=REPORT_FILES)
def history(
    request: Request,
    name: Annotated[str, Query(min_length=1, max_length=200)],
    reading: Annotated[str, Query(max_length=200)] = "",
    event: int | None = None,
    format: Format = "json",
    lang: Lang | None = None,
) -> Response:
    """A person's rulings across events, by name and reading: an organiser's cover every
    event, a head judge's the events they head; voided rulings only of events they work at."""
    if event is not None:
        _allowed(request, event, Action.report)
    scope = history_reader(request)
    return _file(reports.player_history(request.app.state.db, name, reading, scope=scope), format, lang)


@router.get("/api/events/{event_id}/reports/penalty-slips", tags=["reports"], responses=REPORT_FILES)
def penalty_slips(
    request: Request,
    event_id: int,
    format: Format = "pdf",
    lang: Lang | None = None,
    round: Annotated[int | None, Query(ge=1, le=9999)] = None,
    ruling: Annotated[list[Number] | None, Query(max_length=500)] = None,
) -> Response:
    """Penalty slips in batch, four A6 slips to an A4 page: every ruling of ``round`` that
    stands, or the rulings listed (``ruling=3&ruling=5``)."""
    _allowed(request, event_id, Action.read)
    made = reports.penalty_slips(
        request.app.state.db, event_id, round_no=round, numbers=ruling, base_url=base_url(request)[0]
    )
    return _file(made, format, lang)


@router.get("/api/events/{event_id}/reports/result-slips", tags=["reports"], responses=REPORT_FILES)
def result_slips(
    request: Request,
    event_id: int,
    format: Format = "pdf",
    lang: Lang | None = None,
    round: Annotated[int | None, Query(ge=1, le=9999)] = None,
    table: Annotated[list[Number] | None, Query(max_length=2000)] = None,
) -> Response:
    """A round's result slips (default: the current round), eight to an A4 page with cut
    lines, each with its match's code and a QR code (head judge, scorekeeper)."""
    _allowed(request, event_id, Action.export)
    made = reports.result_slips(request.app.state.db, event_id, round, base_url(request)[0], tables=table)
    return _file(made, format, lang)


@router.get("/api/events/{event_id}/rulings/{number}/slip", tags=["reports"], responses=REPORT_FILES)
def slip(
    request: Request, event_id: int, number: int, format: Format = "pdf", lang: Lang | None = None
) -> Response:
    """A6 penalty slip of one ruling, with a QR code linking to its page."""
    _allowed(request, event_id, Action.read)
    return _file(
        reports.penalty_slip(request.app.state.db, event_id, number, base_url(request)[0]), format, lang
    )
