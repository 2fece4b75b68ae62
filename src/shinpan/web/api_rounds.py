"""The JSON API of a Swiss event's rounds: pair, start and end a round, give a table time,
the head judge's changes to a pairing, drops, the round's clock and the standings.

Like the rest of :mod:`shinpan.web.api`: thin over the services, the role checked for
every call (D11), every call that records something carrying its ``command_id``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from shinpan.engine.clock import MAX_EXTENSION_MINUTES, MAX_ROUND_MINUTES
from shinpan.engine.event_rules import Action
from shinpan.services import events, rounds, swiss
from shinpan.services.context import MAX_REASON
from shinpan.services.formats import SEED_LIMIT
from shinpan.services.rounds import RoundClockJson, RoundStartedJson
from shinpan.services.shapes import PlayerDroppedJson
from shinpan.tournament.rounds import OpenTable
from shinpan.views import standings
from shinpan.web.api import CommandId, CommandIn, Name, Unsafe, judging
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS, ShapeOut

router = APIRouter(prefix="/api", tags=["rounds"], responses=ERRORS)
RoundNumber = Annotated[int, Field(ge=1, le=2**31 - 1)]
Table = Annotated[int, Field(ge=1, le=100_000)]


class PairIn(CommandIn):
    seed: int | None = Field(None, ge=0, lt=SEED_LIMIT, description="default: chosen and recorded")


class PairingOut(BaseModel):
    table: int | None = Field(description="null for the bye")
    a: str
    b: str | None = Field(description="null for the bye")


class PairedOut(BaseModel):
    round: int
    seed: int | None
    pairings: list[PairingOut]
    recommended_rounds: int


@router.post("/events/{event_id}/rounds", status_code=201, dependencies=Unsafe)
def pair(request: Request, event_id: int, body: PairIn) -> PairedOut:
    """Pair the next Swiss round and record it with its seed (scorekeeper, head judge)."""
    user, _ = role_at(request, event_id, Action.results)
    db = request.app.state.db
    made = swiss.pair_next_round(db, event_id, seed=body.seed, actor=user.name, command_id=body.command_id)
    return PairedOut(
        round=made.round,
        seed=made.seed,
        pairings=[PairingOut(**p) for p in made.pairings],
        recommended_rounds=swiss.recommended(db, event_id),
    )


class StartIn(CommandIn):
    minutes: int | None = Field(None, ge=1, le=MAX_ROUND_MINUTES, description="default: the event's (50)")


@router.post("/events/{event_id}/rounds/start", dependencies=Unsafe, response_model=dict[str, Any])
def start(request: Request, event_id: int, body: StartIn) -> RoundStartedJson:
    """Start the clock of the round paired last."""
    user, _ = role_at(request, event_id, Action.results)
    started = rounds.start_round(
        request.app.state.db, event_id, minutes=body.minutes, actor=user.name, command_id=body.command_id
    )
    return started


class EndIn(CommandIn):
    round: RoundNumber | None = Field(None, description="default: the current round")
    open_tables: dict[int, OpenTable] = Field(
        default_factory=dict,
        json_schema_extra={"propertyNames": {"pattern": "^[1-9][0-9]{0,8}$"}},
        description="each table still without a result, and what it becomes: draw, or both_lose "
        "where the event counts a match at time as a loss for both (T8)",
    )


@router.post("/events/{event_id}/rounds/end", dependencies=Unsafe)
def end(request: Request, event_id: int, body: EndIn) -> dict[str, Any]:
    """End the round: its end-of-round deadlines fall due; the tables still playing, and
    what falls due when each ends."""
    user, _ = role_at(request, event_id, Action.results)
    db = request.app.state.db
    number = events.end_round(
        db, event_id, body.round, actor=user.name, command_id=body.command_id, open_tables=body.open_tables
    )
    clock = rounds.round_clock(db, event_id, number)
    return {"round": number, "still_playing": [t.as_json() for t in clock.still_playing]}


@router.get("/events/{event_id}/clock", response_model=dict[str, Any])
def clock(
    request: Request, event_id: int, round: int | None = Query(None, ge=1, le=2**31 - 1)
) -> RoundClockJson:
    """A round's clock (default: the current round): each table's end time, the time judges
    gave it and why, the rulings that give it extra turns, what falls due when it ends."""
    return rounds.round_clock(readable(request, event_id), event_id, round).as_json()


class TimeIn(CommandIn):
    table: Table
    minutes: int = Field(ge=1, le=MAX_EXTENSION_MINUTES)
    reason: str = Field(min_length=1, max_length=MAX_REASON, json_schema_extra={"pattern": r"\S"})
    round: RoundNumber | None = Field(None, description="default: the current round")


@router.post("/events/{event_id}/extensions", status_code=201, dependencies=Unsafe)
def give_time(request: Request, event_id: int, body: TimeIn) -> dict[str, Any]:
    """A judge gives one table more time (a judge call, a deck check), with the reason."""
    db, by = judging(request, event_id, Action.extend, body)
    rounds.give_time(db, event_id, body.table, body.minutes, body.reason, round_no=body.round, **by)
    return {"table": body.table, "minutes": body.minutes}


class TableIn(BaseModel):
    table: Table
    a: Name
    b: Name | None = Field(None, description="null: a bye")


class PairingEditIn(BaseModel):
    command_id: CommandId
    reason: str = Field(min_length=1, max_length=2000, json_schema_extra={"pattern": r"\S"})
    tables: list[TableIn] = Field(min_length=1, max_length=500)


@router.post("/events/{event_id}/pairings", dependencies=Unsafe)
def edit_pairings(request: Request, event_id: int, body: PairingEditIn) -> dict[str, Any]:
    """The head judge pairs tables of the current round again before it starts, with a reason."""
    user, _ = role_at(request, event_id, Action.edit_pairings)
    changes = [swiss.TableChange(t.table, t.a, t.b) for t in body.tables]
    done = swiss.edit_pairings(
        request.app.state.db, event_id, changes, body.reason, actor=user.name, command_id=body.command_id
    )
    return {"pairings": done}


@router.post("/events/{event_id}/players/{number}/drop", dependencies=Unsafe, response_model=dict[str, Any])
def drop(request: Request, event_id: int, number: str, body: CommandIn) -> PlayerDroppedJson:
    """The player drops between rounds: never paired again; their results stay."""
    user, _ = role_at(request, event_id, Action.results)
    done = swiss.drop_player(
        request.app.state.db, event_id, number, actor=user.name, command_id=body.command_id
    )
    return done


class StandingOut(
    ShapeOut,
    shape=standings.StandingJson,
    about={
        "rank": "null for a disqualified player (shown, not ranked)",
        "oomw": "when the event's tiebreakers name oomw",
        "seeded": "the drawn order (1 first), when the tiebreakers name seeded",
    },
):
    pass


class StandingsOut(BaseModel):
    round: int | None = Field(description="the round they are after; null while no round has been played")
    format: Literal["bo3", "bo1"] = Field(description="best of three or best of one (T7)")
    time_out: Literal["duels", "both-lose"] = Field(description="what a match at time is (T8)")
    tiebreakers: list[Literal["omw", "gw", "ogw", "oomw", "seeded"]] = Field(
        description="the keys after match points, in order (T9)"
    )
    standings: list[StandingOut]
    now: bool = Field(
        description="true without a round asked: the standings now (T6), every status as it stands "
        "now (a disqualification confirmed after the last round ended has no rank); false: after that round"
    )
    state: str = Field(
        description="that round's state: ended (the standings after it, statuses as at its end, T6), "
        "started (the standings so far), paired (nothing of it played yet), none (no round)"
    )


@router.get("/events/{event_id}/standings")
def get_standings(
    request: Request, event_id: int, round: int | None = Query(None, ge=0, le=2**31 - 1)
) -> StandingsOut:
    """The standings now (no round: every status as it stands now, T6), or after a round,
    statuses as they stood when it ended (T6)."""
    table = standings.event_standings(readable(request, event_id), event_id, round)
    return StandingsOut.model_validate(table.as_json())
