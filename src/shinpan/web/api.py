"""The JSON API under /api: thin over the services; every call checks the role (D11).

Every call that records something carries ``command_id`` (made by the page or the
client): a retry with the same id returns the first result and records nothing new.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol, TypedDict
from zoneinfo import available_timezones

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, JsonValue
from starlette.concurrency import run_in_threadpool

from shinpan.engine.event_rules import Action, Role
from shinpan.errors import Forbidden
from shinpan.files import transfer
from shinpan.files.csvio import parse_pairings, parse_players
from shinpan.files.guidelines import default_guideline, held_guidelines, rulebook_for
from shinpan.files.transfer import Export
from shinpan.guideline.model import as_data
from shinpan.guideline.search import search
from shinpan.services import accounts, appeals, deadlines, events, queries
from shinpan.services.deadlines import DeadlineJson
from shinpan.services.search import index_of
from shinpan.services.shapes import (
    AppealDecidedJson,
    EventListed,
    PlayerHistory,
    RoundMatches,
    event_listed,
)
from shinpan.store.db import Database
from shinpan.views.events import list_events as all_events
from shinpan.web import i18n
from shinpan.web.auth import (
    CSRF_COOKIE,
    CSRF_HEADER,
    SESSION_COOKIE,
    check_csrf,
    csrf_expected,
    current_user,
    readable,
    role_at,
    role_at_async,
    session_key,
    signed_in,
)
from shinpan.web.i18n import N_
from shinpan.web.lane import players_found
from shinpan.web.openapi import ERRORS, LIVE_STREAM
from shinpan.web.phones import base_url, join_url
from shinpan.web.pieces import accepts_gzip
from shinpan.web.render import book
from shinpan.web.resources import StreamCap, TooManyStreams
from shinpan.web.uploads import parse_upload

DB_INT_MAX = 2**31 - 1  # the largest id or number the database holds (PostgreSQL's integer)
CommandId = Annotated[str, Field(min_length=8, max_length=100, pattern=r"^[A-Za-z0-9_.:-]+$")]
# A page's form: its command id (as long as CommandId), and a reason (as long as Text)
CommandForm = Annotated[str, Form(min_length=8, max_length=100)]
ReasonForm = Annotated[str, Form(max_length=5000)]
# A name: something besides spaces, and no character that turns the text around (refused
# with its own message: the document says it, the services check it).
_NOT_BIDI = r"[^\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
NAME_PATTERN = rf"^{_NOT_BIDI}*[^\s\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]{_NOT_BIDI}*$"
Name = Annotated[str, Field(min_length=1, max_length=200, json_schema_extra={"pattern": NAME_PATTERN})]
# A text: something besides spaces (a blank reason is refused)
Text = Annotated[str, Field(min_length=1, max_length=5000, json_schema_extra={"pattern": r"\S"})]
# A ruling's penalty codes: the event's guideline's components (others are refused), a
# handful; the document names those of every guideline the installation held at start.
_HELD = [rulebook_for(h.id, h.version).guideline for h in held_guidelines()]
_CODES = list(dict.fromkeys(c.code for g in _HELD for c in g.components))
PenaltyCode = Annotated[str, Field(max_length=40, json_schema_extra={"enum": _CODES})]
# An infraction: one of the event's guideline's (others are refused)
_INFRACTIONS = list(dict.fromkeys(i.id for g in _HELD for i in g.infractions))
InfractionId = Annotated[str, Field(min_length=1, max_length=80, json_schema_extra={"enum": _INFRACTIONS})]
Penalties = Annotated[list[PenaltyCode], Field(max_length=20)]
# Answers to the infraction's questions: the guideline asks a few.
FactName = Annotated[str, Field(max_length=40)]
FactValue = bool | Annotated[str, Field(max_length=200)]
Facts = Annotated[dict[FactName, FactValue], Field(max_length=10)]


ACCOUNT_HEADER = "x-shinpan-account"  # the account a page of this app was opened as (menu.js)


class SessionChanged(Forbidden):
    """403: the page was opened as one account, and the browser is now signed in as another
    (or no longer): it may not act as someone else."""

    def __init__(self, now: str | None) -> None:
        if now:
            super().__init__(
                N_(
                    "this page was opened as someone else; this browser is now signed in as {name}: reload the page"
                ),
                name=now,
            )
        else:
            super().__init__(
                N_("this page was opened as someone no longer signed in on this browser: reload the page")
            )


async def csrf(request: Request) -> None:
    """Unsafe calls carry the CSRF token (header ``X-CSRF-Token`` or form ``csrf_token``)."""
    expected = csrf_expected(request)
    given = request.headers.get(CSRF_HEADER)
    previous = None  # the token a sign-in replaced: in the API's header only (see check_csrf)
    if given is not None and given != expected and request.url.path.startswith("/api/"):
        previous = request.app.state.signer.csrf_previous(request.cookies.get(CSRF_COOKIE))
    if given is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()
        value = form.get("csrf_token")
        given = value if isinstance(value, str) else None
    check_csrf(expected, given, previous)
    opened_as = request.headers.get(ACCOUNT_HEADER)
    if opened_as is not None:  # a page of this app: it acts only as the account it was opened as
        now = current_user(request)
        if now is None or str(now.id) != opened_as:
            raise SessionChanged(now.name if now else None)


router = APIRouter(prefix="/api", tags=["api"], responses=ERRORS)
Unsafe = [Depends(csrf)]


# -- the guideline (public) ---------------------------------------------------------------


@router.get("/guideline")
def guideline(q: str = "") -> dict[str, Any]:
    """The guideline's infractions, searchable (public)."""
    g = book().guideline
    found = search(book(), q)
    return {
        "id": g.id,
        "version": g.version,
        "infractions": [as_data(i) for i in found],
        "general_rules": [as_data(r) for r in g.general_rules] if not q else [],
    }


# -- events --------------------------------------------------------------------------------


class EventIn(BaseModel):
    name: Name
    starts_on: str | None = Field(None, json_schema_extra={"format": "date"})
    venue: str | None = Field(None, max_length=200, json_schema_extra={"pattern": NAME_PATTERN})
    # D15: the REL the built-in guideline is for (any other is refused); its number is said
    rel: int = Field(3, ge=1, le=3, json_schema_extra={"enum": [default_guideline().rel]})
    time_zone: str | None = Field(
        None,
        max_length=64,
        description="the zone every time is shown in (IANA name; default Asia/Tokyo)",
        json_schema_extra={"enum": list[JsonValue](sorted(available_timezones()))},
    )
    format: Literal["bo3", "bo1"] | None = Field(None, description="best of three (default) or best of one")
    time_out: Literal["duels", "both-lose"] | None = Field(
        None, description="a match at time (default duels)"
    )
    tiebreakers: list[Literal["omw", "gw", "ogw", "oomw", "seeded"]] | None = Field(
        None, max_length=5, description="the keys after match points, in order (default omw, gw, ogw)"
    )
    guideline: str | None = Field(
        None,
        max_length=150,
        description="the guideline the event runs under, as id@version: one the installation holds "
        "(`shinpan guideline list`; default the shipped one)",
        json_schema_extra={"enum": [f"{g.id}@{g.version}" for g in _HELD]},
    )


@router.get("/events", response_model=list[dict[str, Any]])
def list_events(request: Request) -> list[EventListed]:
    """The events the signed-in user works at."""
    user = signed_in(request)
    mine = dict(accounts.events_of(request.app.state.db, user))
    return [event_listed(e, mine[e.id].value) for e in all_events(request.app.state.db) if e.id in mine]


@router.post("/events", status_code=201, dependencies=Unsafe)
def create_event(request: Request, body: EventIn) -> dict[str, Any]:
    """Create an event with the signed-in user as its head judge (D15 applies)."""
    user = signed_in(request)
    event_id = events.create_event(
        request.app.state.db,
        name=body.name,
        head_judge=user.name,
        head_judge_level=user.level,
        head_judge_account=user.uid,
        starts_on=body.starts_on,
        venue=body.venue,
        rel=body.rel,
        time_zone=body.time_zone,
        match_format=body.format,
        time_out=body.time_out,
        tiebreakers=",".join(body.tiebreakers) if body.tiebreakers else None,
        guideline=events.guideline_of(body.guideline),
    )
    return {"event": event_id}


@router.get("/events/{event_id}/players", response_model=list[dict[str, Any]])
async def players(request: Request, event_id: int, q: str = Query("", max_length=100)) -> Response:
    """Find players by table, id, or name in kanji, kana or romaji (from the player index,
    on the event loop; read in a thread only when the index is not current)."""
    await role_at_async(request, event_id, Action.read)
    index = index_of(request.app.state.db)
    kept = index.ready(event_id)
    if kept is None:
        kept = await run_in_threadpool(index.current, event_id)
    return players_found(kept, q, accepts_gzip(request.scope))  # the usual case: shinpan.web.lane


@router.get("/events/{event_id}/players/{number}", response_model=dict[str, Any])
def player(request: Request, event_id: int, number: str) -> PlayerHistory:
    """Everything a player has in this event."""
    return queries.player_history(readable(request, event_id), event_id, number)


class CommandIn(BaseModel):
    command_id: CommandId


class Commanded(Protocol):
    @property
    def command_id(self) -> str: ...


class Signed(TypedDict):
    """Who records a command and the command's id, as every service's command takes them."""

    judge: str
    command_id: str


def signed(user: accounts.User, body: Commanded) -> Signed:
    """The signed-in judge (by their seat's name) and the body's command id, for ``**``."""
    return {"judge": user.name, "command_id": body.command_id}


def judging(request: Request, event_id: int, action: Action, body: Commanded) -> tuple[Database, Signed]:
    """A judge's command through the API: the database, once their role at the event allows
    ``action`` (D11), and who records it under which command id (:func:`signed`)."""
    user, _ = role_at(request, event_id, action)
    return request.app.state.db, signed(user, body)


class ReasonIn(CommandIn):
    reason: Text


@router.get("/events/{event_id}/deadlines", response_model=list[dict[str, Any]])
def list_deadlines(request: Request, event_id: int) -> list[DeadlineJson]:
    return [d.as_json() for d in deadlines.list_deadlines(readable(request, event_id), event_id)]


@router.post("/events/{event_id}/deadlines/{ruling}/{position}/{outcome}", dependencies=Unsafe)
def close_deadline(
    request: Request,
    event_id: int,
    ruling: int,
    position: int,
    outcome: Literal["done", "arrived", "missed"],
    body: CommandIn,
) -> dict[str, Any]:
    """The remedy was done in time; the late player arrived (到着, D23: every deadline of the
    ruling from ``position`` that waits for the player closes); or missed (the follow-up
    ruling, D7)."""
    user, _ = role_at(request, event_id, Action.deadline)
    db = request.app.state.db
    if outcome == "done":
        deadlines.mark_done(db, event_id, ruling, position, **signed(user, body))
        result: dict[str, Any] = {"done": [ruling, position]}
    elif outcome == "arrived":
        deadlines.mark_arrived(db, event_id, ruling, position, **signed(user, body))
        result = {"arrived": [ruling, position]}
    else:
        made = deadlines.mark_missed(db, event_id, ruling, position, **signed(user, body))
        result = {"rulings": made}
    return result


@router.get("/events/{event_id}/rounds/{round_no}", response_model=dict[str, Any])
def round_view(request: Request, event_id: int, round_no: int) -> RoundMatches:
    """A round's matches and duels, with the rulings that changed them."""
    return queries.round_matches(readable(request, event_id), event_id, round_no)


@router.post("/events/{event_id}/players", dependencies=Unsafe)
def import_players(
    request: Request,
    event_id: int,
    file: Annotated[UploadFile, File()],
    command_id: CommandForm,
) -> dict[str, Any]:
    """Import players from CSV (UTF-8 or Shift_JIS); nothing is imported if any row is wrong."""
    user, _ = role_at(request, event_id, Action.roster)
    rows = parse_upload(file, parse_players)
    n = events.import_players(request.app.state.db, event_id, rows, actor=user.name, command_id=command_id)
    return {"imported": n}


@router.post("/events/{event_id}/rounds/{round_no}/pairings", dependencies=Unsafe)
def import_pairings(
    request: Request,
    event_id: int,
    round_no: int,
    file: Annotated[UploadFile, File()],
    command_id: CommandForm,
) -> dict[str, Any]:
    """Pair a round from CSV; players out of the event are refused (D14)."""
    user, _ = role_at(request, event_id, Action.results)
    rows = parse_upload(file, parse_pairings)
    n = events.import_pairings(
        request.app.state.db, event_id, round_no, rows, actor=user.name, command_id=command_id
    )
    return {"paired": n}


class AppealIn(CommandIn):
    ruling: int = Field(ge=1, le=DB_INT_MAX)
    by: Name
    reason: Text


class DecisionIn(ReasonIn):
    """Upheld or overturned; or changed, with the ruling's new penalties (``oneOf``)."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [
                {"properties": {"outcome": {"enum": ["upheld", "overturned"]}}},
                {
                    "required": ["penalties"],
                    "properties": {"outcome": {"const": "changed"}, "penalties": {"type": "array"}},
                },
            ]
        }
    )
    outcome: Literal["upheld", "overturned", "changed"]
    penalties: Penalties | None = None


class StatementIn(CommandIn):
    ruling: int | None = Field(None, ge=1, le=DB_INT_MAX)
    author: Name
    author_role: Literal["player", "opponent", "witness", "judge"]
    text: Text


@router.post("/events/{event_id}/appeals", status_code=201, dependencies=Unsafe)
def file_appeal(request: Request, event_id: int, body: AppealIn) -> dict[str, Any]:
    db, by = judging(request, event_id, Action.statement, body)
    seq = appeals.file_appeal(db, event_id, body.ruling, body.by, body.reason, **by)
    return {"appeal": seq}


@router.post(
    "/events/{event_id}/appeals/{appeal}/decision", dependencies=Unsafe, response_model=dict[str, Any]
)
def decide_appeal(request: Request, event_id: int, appeal: int, body: DecisionIn) -> AppealDecidedJson:
    """The head judge's decision on an appeal is final (D11)."""
    db, by = judging(request, event_id, Action.appeal, body)
    return appeals.decide_appeal(
        db, event_id, appeal, body.outcome, body.reason, penalties=body.penalties, **by
    )


@router.post("/events/{event_id}/statements", status_code=201, dependencies=Unsafe)
def add_statement(request: Request, event_id: int, body: StatementIn) -> dict[str, Any]:
    db, by = judging(request, event_id, Action.statement, body)
    seq = appeals.add_statement(
        db, event_id, body.author, body.author_role, body.text, ruling=body.ruling, **by
    )
    return {"statement": seq}


class InviteIn(BaseModel):
    role: Literal["floor_judge", "scorekeeper", "viewer"]


@router.post("/events/{event_id}/invitations", status_code=201, dependencies=Unsafe)
def invite(request: Request, event_id: int, body: InviteIn) -> dict[str, Any]:
    """A one-time join code for a judge, scorekeeper or viewer (head judge)."""
    user, _ = role_at(request, event_id, Action.invite)
    code = accounts.invite(request.app.state.db, event_id, Role(body.role), user.name)
    return {"code": code, "url": join_url(base_url(request)[0], code)}


@router.get("/events/{event_id}/export", response_model=dict[str, Any])
def export(request: Request, event_id: int) -> Export:
    """The whole event as its ledger, every entry with its hash."""
    role_at(request, event_id, Action.export)
    return transfer.export_event(request.app.state.db, event_id)


@router.get("/events/{event_id}/stream", responses=LIVE_STREAM)
async def stream(request: Request, event_id: int) -> Response:
    """Server-sent events: ``changed`` whenever the event's ledger grows; the stream ends
    when its session does (signed out, or ended from a list of sessions). A session has a
    few streams at most, the server a bounded number (429 beyond)."""
    await role_at_async(request, event_id, Action.read)
    session = request.app.state.signer.session_of(request.cookies.get(SESSION_COOKIE))
    streams: StreamCap = request.app.state.streams
    try:
        slot = streams.take(session[1] if session else "")
    except TooManyStreams as e:  # the connection is closed after: a refused stream holds no file
        return JSONResponse(
            {"detail": e.render(i18n.gettext)}, 429, headers={"Retry-After": "10", "Connection": "close"}
        )
    live = request.app.state.live
    return StreamingResponse(
        streams.hold(slot, live.stream(event_id, session=session_key(request))),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
