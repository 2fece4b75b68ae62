"""The JSON API of an event's format (T7–T9) and its playoff after the Swiss (T10): the
format read and changed before round 1, the playoff started and its next round paired, the
bracket and the final placings. Thin over :mod:`shinpan.services.formats` and
:mod:`shinpan.services.playoff`, the role checked for every call (D11)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from shinpan.engine.event_rules import Action
from shinpan.services import formats, playoff
from shinpan.services.playoff import BracketJson
from shinpan.web.api import CommandIn, Unsafe
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS

router = APIRouter(prefix="/api", tags=["playoff"], responses=ERRORS)

Key = Literal["omw", "gw", "ogw", "oomw", "seeded"]


class FormatOut(BaseModel):
    format: Literal["bo3", "bo1"] = Field(description="best of three or best of one (T7)")
    time_out: Literal["duels", "both-lose"] = Field(
        description="a match at time: decided by duels or a loss for both"
    )
    tiebreakers: list[Key] = Field(description="the keys after match points, in order (T9)")


class FormatIn(CommandIn):
    format: Literal["bo3", "bo1"] | None = None
    time_out: Literal["duels", "both-lose"] | None = None
    tiebreakers: Annotated[list[Key], Field(max_length=5)] | Literal["standard", "both-lose"] | None = Field(
        None, description="keys in order, each at most once, or a preset's name"
    )


@router.get("/events/{event_id}/format")
def get_format(request: Request, event_id: int) -> FormatOut:
    """The event's format: match format, what a match at time is, the tiebreakers."""
    with readable(request, event_id).read() as conn:
        return FormatOut.model_validate(formats.format_json(formats.read_format(conn, event_id)))


@router.post("/events/{event_id}/format", dependencies=Unsafe)
def set_format(request: Request, event_id: int, body: FormatIn) -> FormatOut:
    """The head judge changes the format before round 1 is paired (what is left out stays)."""
    user, _ = role_at(request, event_id, Action.manage)
    chain = (
        body.tiebreakers
        if isinstance(body.tiebreakers, str) or body.tiebreakers is None
        else ",".join(body.tiebreakers)
    )
    chosen = formats.set_format(
        request.app.state.db,
        event_id,
        match_format=body.format,
        time_out=body.time_out,
        tiebreakers=chain,
        actor=user.name,
        command_id=body.command_id,
    )
    return FormatOut.model_validate(formats.format_json(chosen))


class PlayoffIn(CommandIn):
    size: Literal[4, 8, 16, 32]
    third_place: bool = False


class PlayoffPairingOut(BaseModel):
    table: int | None = Field(description="null for a player who goes on without playing")
    a: str
    b: str | None
    seeds: list[int]


class PlayoffRoundOut(BaseModel):
    round: int
    pairings: list[PlayoffPairingOut]


@router.post("/events/{event_id}/playoff", status_code=201, dependencies=Unsafe)
def start(request: Request, event_id: int, body: PlayoffIn) -> PlayoffRoundOut:
    """Start the playoff from the final Swiss standings (scorekeeper, head judge)."""
    user, _ = role_at(request, event_id, Action.results)
    made = playoff.start_playoff(
        request.app.state.db,
        event_id,
        body.size,
        third_place=body.third_place,
        actor=user.name,
        command_id=body.command_id,
    )
    return PlayoffRoundOut.model_validate(made.as_json())


@router.post("/events/{event_id}/playoff/rounds", status_code=201, dependencies=Unsafe)
def pair(request: Request, event_id: int, body: CommandIn) -> PlayoffRoundOut:
    """Pair the playoff's next round once the current one has every result."""
    user, _ = role_at(request, event_id, Action.results)
    made = playoff.pair_playoff_round(
        request.app.state.db, event_id, actor=user.name, command_id=body.command_id
    )
    return PlayoffRoundOut.model_validate(made.as_json())


@router.get("/events/{event_id}/playoff", response_model=dict[str, Any] | None)
def bracket(request: Request, event_id: int) -> BracketJson | None:
    """The bracket as it stands (null: no playoff)."""
    found = playoff.event_bracket(readable(request, event_id), event_id)
    return found.as_json() if found else None


class PlacingOut(BaseModel):
    place: int
    player: str


class PlacingsOut(BaseModel):
    placings: list[PlacingOut]


@router.get("/events/{event_id}/placings")
def placings(request: Request, event_id: int) -> PlacingsOut:
    """Every player's final place: the playoff's, then the Swiss order (T10)."""
    found = playoff.final_placings(readable(request, event_id), event_id)
    return PlacingsOut(placings=[PlacingOut(place=place, player=player) for place, player in found])
