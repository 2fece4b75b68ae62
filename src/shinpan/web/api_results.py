"""The JSON API of results (T5, T11): a table's result as ``shinpan result`` takes it, and
its corrections; a result that stands is refused with it (409).

Like the rest of :mod:`shinpan.web.api`: thin over the services, the role checked for
every call (D11), every call carrying its ``command_id``.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from shinpan.engine.event_rules import Action
from shinpan.errors import InvalidInput
from shinpan.services import results, winner_reports
from shinpan.services.context import MAX_REASON, load_event
from shinpan.tournament.results import MOST_DUELS
from shinpan.web.api import CommandIn, Name, Unsafe
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS, ShapeOut

router = APIRouter(prefix="/api", tags=["results"], responses=ERRORS)


class ResultIn(CommandIn):
    """One table's result, as ``shinpan result`` takes it: a duel (``duel`` with ``winner``
    or ``draw``), the match without duels (``match``, or ``result``), or the slip's
    ``score`` (``time``: the match ran out of time with it). A correction names what it
    replaces (``replaces``: the ledger entry of the result that stands, or that result as
    shown) and says why (``reason``)."""

    round: int = Field(ge=1, le=2**31 - 1)
    table: int = Field(ge=1, le=100_000)
    duel: int | None = Field(None, ge=1, le=MOST_DUELS, description="left out with a winner: the next duel")
    winner: Name | None = Field(None, description="the duel's winner (a player id)")
    draw: bool = Field(False, description="the duel was drawn (1 game point each)")
    match: Literal["a", "b", "draw"] | None = Field(
        None, description="the match without duels: counts 2-0 (a draw 1-1)"
    )
    result: Literal["a", "b", "draw"] | None = Field(None, description="the same as match")
    score: str | None = Field(
        None, max_length=20, description="duels won by seat a, by seat b (and drawn): 2-1, 1-1-1"
    )
    time: bool = Field(False, description="the match ran out of time with this score: more duels won wins")
    replaces: int | str | None = Field(
        None,
        description="what the correction replaces: the ledger entry of the result that stands, or it as shown",
    )
    reason: str | None = Field(None, max_length=MAX_REASON, description="why the result is corrected")


class ResultOut(BaseModel):
    ok: bool = True
    round: int
    table: int
    result: str | None = Field(description="a, b, draw; null while the match is still played")
    shown: str | None = Field(description="the result as shown: the score (2-1), or a, b, draw without duels")
    at_time: bool
    entry: int = Field(description="the ledger entry of this result (a correction names it)")
    corrects: int | None = Field(description="the entry this correction replaced")
    correction: bool


class StandingDuel(ShapeOut, shape=results.StandingDuel):
    pass


class StandingResult(
    ShapeOut,
    shape=results.ResultThatStands,
    about={
        "entry": "its ledger entry: name it in replaces to correct it",
        "ruling": "the ruling that decided it, if one did",
    },
):
    """The result that stands for the table (T11)."""

    duels: list[StandingDuel]


class ResultConflict(BaseModel):
    detail: str
    field: str | None = None
    stands: StandingResult | None = None


@router.post(
    "/events/{event_id}/results",
    dependencies=Unsafe,
    responses={
        409: {
            "model": ResultConflict,
            "description": "A result stands for the table (T11): ``stands`` is it; "
            "or the round has not started (T5).",
        }
    },
)
def report_result(request: Request, event_id: int, body: ResultIn) -> ResultOut:
    """A table's result: a duel won or drawn, the match without duels, or the slip's score
    (at time: decided by duels); a correction names the result it replaces and why (T11).
    Refused for a round not started (T5)."""
    user, _ = role_at(request, event_id, Action.results)
    if body.match is not None and body.result is not None and body.match != body.result:
        raise InvalidInput("give the match result once", field="result")
    if (
        body.duel is None
        and body.winner is None
        and not body.draw
        and body.score is None
        and (body.match or body.result) is None
    ):
        raise InvalidInput("give a duel and its winner, or a match result", field="result")
    replaces: str | None = None
    entry: int | None = None
    if isinstance(body.replaces, int):
        entry = body.replaces
    elif body.replaces is not None:
        plain = body.replaces.strip().lstrip("#")
        replaces, entry = (None, int(plain)) if plain.isascii() and plain.isdigit() else (body.replaces, None)
    wanted = results.Wanted(
        duel=body.duel,
        winner=body.winner,
        draw=body.draw,
        match=body.match or body.result,
        score=body.score,
        at_time=body.time,
        replaces=replaces,
        replaces_entry=entry,
        reason=body.reason,
    )
    done = results.report_result(
        request.app.state.db,
        event_id,
        body.round,
        body.table,
        wanted,
        actor=user.name,
        command_id=body.command_id,
    )
    return ResultOut.model_validate(done)


class WinnerReportOut(BaseModel):
    """A winner's report waiting for the scorekeeper (T11, T12)."""

    report: int = Field(description="its ledger entry: confirm it by this number")
    round: int
    table: int
    score: str = Field(description="as on the slip, seat a's duels first: 2-1, 1-1-1")
    at_time: bool
    reported_at: str


@router.get("/events/{event_id}/winner-reports")
def waiting_reports(request: Request, event_id: int, round: int | None = None) -> list[WinnerReportOut]:
    """The winners' reports of the round (default: the current one) waiting for confirmation:
    not confirmed, for a table with no result yet."""
    with readable(request, event_id).read() as conn:
        number = round if round is not None else load_event(conn, event_id).current_round
        found = winner_reports.pending_reports(conn, event_id, number) if number else []
    return [
        WinnerReportOut(
            report=r.seq,
            round=r.round,
            table=r.table,
            score=r.score,
            at_time=r.at_time,
            reported_at=r.recorded_at,
        )
        for r in found
    ]


class ConfirmedOut(ResultOut):
    report: int = Field(description="the winner's report confirmed")


@router.post(
    "/events/{event_id}/winner-reports/{report}/confirm",
    dependencies=Unsafe,
    responses={
        409: {
            "model": ResultConflict,
            "description": "A result already stands for the table (T11), or the report is already confirmed.",
        }
    },
)
def confirm_report(request: Request, event_id: int, report: int, body: CommandIn) -> ConfirmedOut:
    """The scorekeeper confirms a winner's report: it becomes the table's result (T11)."""
    user, _ = role_at(request, event_id, Action.results)
    done = winner_reports.confirm_report(
        request.app.state.db, event_id, report, actor=user.name, command_id=body.command_id
    )
    return ConfirmedOut.model_validate(done)
