"""The JSON API of decklists and deck checks (T13), mirroring ``shinpan decklist …`` and
``shinpan deckcheck …``: the same services, the same shapes (:mod:`shinpan.services.deck_shapes`).

A list is sent as the text of its file (``text``: plain text, an MTGO ``.dek``, an Arena
export, Pokémon TCG Live's text; ``format`` names it or it is read from the text), or, for
the counts found at a check, as sections of counts and names. Lists are the judges' alone:
every read here needs a judge's seat (``read``), never the players' pages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from shinpan.engine.event_rules import Action
from shinpan.files.decklists import digest, parse, parse_batch
from shinpan.services import deck_rules, deckchecks, decklists
from shinpan.services.context import MAX_REASON
from shinpan.services.deck_shapes import (
    CheckJson,
    CountedJson,
    DeckCorrectedJson,
    EndedJson,
    ListStatusJson,
    PickedJson,
    ShownListJson,
    StartedJson,
    SubmittedJson,
)
from shinpan.tournament.decks import Card, Decklist, sections_text
from shinpan.web.api import CommandIn, Name, Unsafe, signed
from shinpan.web.auth import readable, role_at
from shinpan.web.openapi import ERRORS

router = APIRouter(prefix="/api", tags=["decklists"], responses=ERRORS)
RoundNumber = Annotated[int, Field(ge=1, le=2**31 - 1)]
Table = Annotated[int, Field(ge=1, le=100_000)]
ListText = Annotated[str, Field(min_length=1, max_length=1_000_000, description="the list file's text")]
Format = Literal["text", "dek", "arena", "ptcgl"]
Section = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[a-z][a-z0-9_-]*$")]
CardName = Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S")]


def _list(text: str, fmt: str | None, source: str) -> tuple[Decklist, str, str]:
    data = text.encode("utf-8")
    deck, found = parse(data, fmt, source=source)
    return deck, found, digest(data)


class RulesIn(CommandIn):
    required: bool = True
    sections: str = Field("main:60-,side:0-15", max_length=200, description="name:low-high, …")
    copies: int = Field(4, ge=1, le=99)
    copies_across: bool = False
    banned: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field([], max_length=5000)
    restricted: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field([], max_length=5000)
    unlimited: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field([], max_length=5000)
    lock: str = Field("round1", max_length=40, description="round1, or an ISO time with its offset")


class RulesOut(BaseModel):
    required: bool
    sections: str
    copies: int
    copies_across: bool
    lock: str


@router.post("/events/{event_id}/decklists/rules", dependencies=Unsafe)
def set_rules(request: Request, event_id: int, body: RulesIn) -> RulesOut:
    """The event's deck rules, set before round 1 (head judge)."""
    user, _ = role_at(request, event_id, Action.manage)
    limits = [(n, 0) for n in body.banned] + [(n, 1) for n in body.restricted]
    made = deck_rules.set_rules(
        request.app.state.db, event_id, required=body.required, sections=body.sections, copies=body.copies,
        across=body.copies_across, limits=limits, unlimited=body.unlimited, lock=body.lock, **signed(user, body),
    )  # fmt: skip
    return RulesOut(
        required=made.required,
        sections=sections_text(made.sections),
        copies=made.copies,
        copies_across=made.across,
        lock=made.lock,
    )


class SubmitIn(CommandIn):
    player: Name
    text: ListText
    format: Format | None = None
    source: str = Field("", max_length=200, description="the file's name")


@router.post(
    "/events/{event_id}/decklists", status_code=201, dependencies=Unsafe, response_model=dict[str, Any]
)
def submit(request: Request, event_id: int, body: SubmitIn) -> SubmittedJson:
    """Register a player's list (before the lock; a list with problems is registered too)."""
    user, _ = role_at(request, event_id, Action.decklist)
    deck, fmt, hashed = _list(body.text, body.format, body.source)
    return decklists.submit(
        request.app.state.db, event_id, body.player.strip(), deck, fmt=fmt, source=body.source or "api",
        digest=hashed, **signed(user, body),
    ).as_json()  # fmt: skip


class ImportIn(CommandIn):
    csv: ListText = Field(description="player, section, count, name")
    source: str = Field("", max_length=200)


class ImportedOut(BaseModel):
    players: list[dict[str, Any]]
    count: int


@router.post("/events/{event_id}/decklists/import", status_code=201, dependencies=Unsafe)
def import_lists(request: Request, event_id: int, body: ImportIn) -> ImportedOut:
    """Many players' lists from one CSV; any problem and nothing is registered."""
    user, _ = role_at(request, event_id, Action.decklist)
    data = body.csv.encode("utf-8")
    lists = {
        p: (d, "csv", body.source or "api", digest(data)) for p, d in parse_batch(data, body.source).items()
    }
    done = decklists.import_lists(request.app.state.db, event_id, lists, **signed(user, body))
    return ImportedOut(players=[dict(d.as_json()) for d in done], count=len(done))


@router.get("/events/{event_id}/decklists", response_model=dict[str, Any])
def status(request: Request, event_id: int) -> ListStatusJson:
    """Each player's list: missing, registered, illegal or locked."""
    return decklists.status(readable(request, event_id), event_id)


@router.get("/events/{event_id}/decklists/{player}", response_model=dict[str, Any])
def show(request: Request, event_id: int, player: Annotated[str, Field(max_length=64)]) -> ShownListJson:
    """A player's registered list by section, its problems and its versions (judges only)."""
    return decklists.show(readable(request, event_id), event_id, player)


class LockedOut(BaseModel):
    locked_at: str


@router.post("/events/{event_id}/decklists/lock", dependencies=Unsafe)
def lock(request: Request, event_id: int, body: CommandIn) -> LockedOut:
    """Lock the lists now (head judge)."""
    user, _ = role_at(request, event_id, Action.manage)
    return LockedOut(locked_at=decklists.lock(request.app.state.db, event_id, **signed(user, body)))


class CorrectIn(SubmitIn):
    reason: str = Field(min_length=1, max_length=MAX_REASON, json_schema_extra={"pattern": r"\S"})


@router.post("/events/{event_id}/decklists/correct", dependencies=Unsafe, response_model=dict[str, Any])
def correct(request: Request, event_id: int, body: CorrectIn) -> SubmittedJson:
    """The head judge corrects a list after the lock, with a reason (both versions stay)."""
    user, _ = role_at(request, event_id, Action.manage)
    deck, fmt, hashed = _list(body.text, body.format, body.source)
    return decklists.correct(
        request.app.state.db, event_id, body.player.strip(), deck, body.reason, fmt=fmt,
        source=body.source or "api", digest=hashed, **signed(user, body),
    ).as_json()  # fmt: skip


# -- deck checks -------------------------------------------------------------------------------


@router.get("/events/{event_id}/deckchecks/pick", response_model=dict[str, Any])
def pick(
    request: Request,
    event_id: int,
    round: int = Query(ge=1, le=2**31 - 1),
    tables: int = Query(2, ge=1, le=100),
    top: bool = False,
    seed: int | None = Query(None, ge=0, le=2**31 - 1),
) -> PickedJson:
    """Tables to check in the round, at random, leaving out players checked already."""
    role_at(request, event_id, Action.deckcheck)
    return deckchecks.pick(request.app.state.db, event_id, round, tables=tables, top=top, seed=seed)


class TableIn(CommandIn):
    round: RoundNumber
    table: Table


@router.post(
    "/events/{event_id}/deckchecks", status_code=201, dependencies=Unsafe, response_model=dict[str, Any]
)
def start(request: Request, event_id: int, body: TableIn) -> StartedJson:
    """Start a deck check of one table."""
    user, _ = role_at(request, event_id, Action.deckcheck)
    return deckchecks.start(request.app.state.db, event_id, body.round, body.table, **signed(user, body))


class CardIn(BaseModel):
    count: int = Field(ge=1, le=999)
    name: CardName


class CountIn(TableIn):
    player: Name
    text: str | None = Field(
        None, min_length=1, max_length=1_000_000, description="the counts as a list file"
    )
    format: Format | None = None
    sections: dict[Section, list[CardIn]] | None = Field(None, description="or the counts by section")


@router.post("/events/{event_id}/deckchecks/count", dependencies=Unsafe, response_model=dict[str, Any])
def count(request: Request, event_id: int, body: CountIn) -> CountedJson:
    """The cards found in a player's deck; the differences from the registered list."""
    user, _ = role_at(request, event_id, Action.deckcheck)
    if body.text is not None:
        deck = _list(body.text, body.format, "count")[0]
    else:
        sections = body.sections or {}
        deck = Decklist({s: tuple(Card(c.count, c.name) for c in cards) for s, cards in sections.items()})
    return deckchecks.count(
        request.app.state.db, event_id, body.round, body.table, body.player.strip(), deck, **signed(user, body),
    )  # fmt: skip


class ConfirmedIn(BaseModel):
    """What the judge confirmed of a player's findings where it differs from the comparison."""

    deck_legal: bool | None = None
    list_legal: bool | None = None
    matches: bool | None = None
    foreign_from: list[Annotated[str, Field(min_length=1, max_length=64)]] | None = Field(None, max_length=10)


class EndIn(TableIn):
    recorded_by: dict[Annotated[str, Field(max_length=64)], Name] = Field(
        {}, max_length=10, description="player → who wrote their list wrongly"
    )
    extend: bool = Field(False, description="give the table the check's minutes (T5)")
    confirmed: dict[Annotated[str, Field(max_length=64)], ConfirmedIn] = Field(
        {}, max_length=10, description="player → the four findings as the judge confirms them"
    )


@router.post("/events/{event_id}/deckchecks/end", dependencies=Unsafe, response_model=dict[str, Any])
def end(request: Request, event_id: int, body: EndIn) -> EndedJson:
    """End the check: each player's findings and T13's proposals, the minutes it took."""
    user, _ = role_at(request, event_id, Action.deckcheck)
    return deckchecks.end(
        request.app.state.db, event_id, body.round, body.table, recorded_by=body.recorded_by, extend=body.extend,
        confirmed={
            p: deckchecks.Confirmed(c.deck_legal, c.list_legal, c.matches,
                                    tuple(c.foreign_from) if c.foreign_from is not None else None)
            for p, c in body.confirmed.items()
        },
        **signed(user, body),
    )  # fmt: skip


class CorrectedIn(TableIn):
    player: Name


@router.post("/events/{event_id}/deckchecks/corrected", dependencies=Unsafe, response_model=dict[str, Any])
def deck_corrected(request: Request, event_id: int, body: CorrectedIn) -> DeckCorrectedJson:
    """A judge marks a player's deck corrected to match the list (the mismatch's remedy)."""
    user, _ = role_at(request, event_id, Action.deckcheck)
    return deckchecks.deck_corrected(
        request.app.state.db, event_id, body.round, body.table, body.player.strip(), **signed(user, body),
    )  # fmt: skip


@router.get("/events/{event_id}/deckchecks", response_model=list[dict[str, Any]])
def checks(
    request: Request, event_id: int, round: int | None = Query(None, ge=1, le=2**31 - 1)
) -> list[CheckJson]:
    """The event's deck checks (of one round), with the rulings citing each."""
    return deckchecks.checks(readable(request, event_id), event_id, round)


@router.get("/events/{event_id}/deckchecks/{round}/{table}", response_model=dict[str, Any])
def check(
    request: Request,
    event_id: int,
    round: Annotated[int, Field(ge=1, le=2**31 - 1)],
    table: Annotated[int, Field(ge=1, le=100_000)],
) -> CheckJson:
    """The table's latest check, as the judge's phone shows it: the lists, the counts, the differences."""
    role_at(request, event_id, Action.deckcheck)
    return deckchecks.check_view(request.app.state.db, event_id, round, table)
