"""The head judge's desk (the scorekeeper's pages are in :mod:`shinpan.web.scorekeeper`).

The desk: the live feed of rulings (refreshed over server-sent events, no reload), the
confirmation queue (confirm in one tap; deviate or void with a reason), appeals with their
own queue and decision, deadlines counting down, and disqualification reports with
statements. Every ruling in the feed can be corrected or appealed from here (D16); a
ruling that will eject or disqualify shows as waiting until the head judge confirms (D17).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, Response

from shinpan.engine.event_rules import Action, RulingState
from shinpan.errors import ShinpanError
from shinpan.files import transfer
from shinpan.reports import dq
from shinpan.services import accounts, appeals, calls, corrections, deadlines, players, queries
from shinpan.services.closed import seal_state_of
from shinpan.services.context import Event, stamp
from shinpan.store.db import Database
from shinpan.web import i18n
from shinpan.web.api import CommandForm, Penalties, ReasonForm, csrf
from shinpan.web.auth import role_at
from shinpan.web.corrections import Appealing, Deviating, Voiding
from shinpan.web.live import PANELS
from shinpan.web.render import for_viewer, render, render_shared

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]


def _event(request: Request, event_id: int) -> Event:
    return players.event_of(request.app.state.db, event_id)


def _panels(request: Request, event_id: int, shown: tuple[str, ...] = PANELS) -> dict[str, Any]:
    """What the panels ``shown`` need, and only that (the live refresh asks for the panels
    a change touched, see :func:`shinpan.web.live.panels_touched`)."""
    db = request.app.state.db
    with db.one_view():  # every panel as of one moment, in one read transaction
        return _panels_in_view(request, event_id, shown)


def _panels_in_view(request: Request, event_id: int, shown: tuple[str, ...]) -> dict[str, Any]:
    db = request.app.state.db
    head = queries.ledger_head(db, event_id)
    event = _event(request, event_id)
    out: dict[str, Any] = {
        "event": event,
        "head": head,
        "shown": shown,
        "components": event.book.guideline.components,
    }
    if "feed" in shown:
        out["feed"] = queries.rulings_feed(db, event_id, limit=30)
    if "queue" in shown:
        out["queue"] = queries.rulings_feed(db, event_id, state=RulingState.pending, limit=200)
        out["seal_state"] = seal_state_of(db, event_id)  # sealed, or reopened: said above the queue
    if "deadlines" in shown:
        out["deadlines"] = due = deadlines.list_deadlines(db, event_id)
        out["names"] = queries.player_names(db, event_id, [d.player for d in due])
    if "appeals" in shown:
        out["appeals"] = queries.appeals_of(db, event_id)
        out["escalated"] = [
            c for c in calls.list_calls(db, event_id, open_only=True)["calls"] if c["escalated"]
        ]
    if "calls" in shown:
        out["calls"] = calls.list_calls(db, event_id, open_only=True)["calls"]
    if "dq" in shown:
        out["dq"] = dq.disqualifications(db, event_id)
        out["statements"] = queries.statements_of(db, event_id)
    return out


@router.get("/events/{event_id}/desk", response_class=HTMLResponse)
def desk(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, Action.read)
    db = request.app.state.db
    imported = transfer.imported_from(db, event_id)
    locked = [(j.seat, j.account, stamp(j.until)) for j in accounts.locked_judges(db, event_id)]
    return render(
        request,
        "desk.html",
        event_id=event_id,
        role=role,
        imported=imported,
        locked=locked,
        **_panels(request, event_id),
    )


@router.get("/events/{event_id}/desk/panels", response_class=HTMLResponse)
def desk_panels(request: Request, event_id: int, only: str = "", since: int = Query(0, ge=0)) -> Response:
    """The desk's panels for the live refresh: every panel, or those named in ``only``
    (``feed,queue``: what a change touched), each on its own to put in place. ``since``:
    panels drawn at this ledger entry or later will do (desk.js asks for anything newer
    than what it shows, and again for what is still older than a change it heard)."""
    _, role = role_at(request, event_id, Action.read)
    if not only:
        return render(
            request,
            "_desk_panels.html",
            event_id=event_id,
            role=role,
            partial=False,
            **_panels(request, event_id, PANELS),
        )
    asked = tuple(p for p in PANELS if p in only.split(","))
    timed = ("deadlines", "calls")  # time left, time waited: the viewer's moment's
    shared = tuple(p for p in asked if p not in timed)
    html = [for_viewer(request, _shared_panels(request, event_id, role, shared, since))]
    own_panels = tuple(p for p in asked if p in timed)
    if own_panels:  # drawn for this request
        own = render_shared(
            "_desk_panels.html",
            event_id=event_id,
            role=role,
            partial=True,
            **_panels(request, event_id, own_panels),
        )
        html.append(for_viewer(request, own))
    return HTMLResponse("".join(html))


class _SharedPanels:
    """The desk's panels as every desk of an event sees them at one ledger entry (in one
    language, for one role): a change reaches a dozen desks, which then ask for the same
    panels at once; they are read and rendered once (:func:`render_shared`). A desk asking
    for panels drawn at ``since`` or later takes the newest drawing that is, if there is
    one, without a read: one drawing a second then serves a dozen desks refreshing at
    their own moments."""

    MOST = 64

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self.newest: dict[tuple[Any, ...], tuple[int, str]] = {}  # the key without its head
        self.lock = threading.Lock()
        self.rendering: dict[tuple[Any, ...], threading.Lock] = {}

    def recent(self, alike: tuple[Any, ...], since: int) -> str | None:
        with self.lock:
            head, html = self.newest.get(alike, (-1, ""))
        return html if since and head >= since else None

    def get(self, key: tuple[Any, ...], make: Callable[[], tuple[tuple[Any, ...], str]]) -> str:
        with self.lock:
            if key in self.kept:
                return self.kept[key]
            turn = self.rendering.setdefault(key, threading.Lock())
        with turn:  # the same panels asked at once: one renders, the others wait for it
            with self.lock:
                if key in self.kept:
                    return self.kept[key]
            try:
                made_key, html = make()
                with self.lock:
                    self.kept[made_key] = html
                    self.kept.move_to_end(made_key)
                    alike, head = made_key[:-1], made_key[-1]
                    if head >= self.newest.get(alike, (-1, ""))[0]:
                        self.newest[alike] = (head, html)
                    while len(self.kept) > self.MOST:
                        self.kept.popitem(last=False)
            finally:  # made or failed, nobody waits on this key's turn any more
                with self.lock:
                    self.rendering.pop(key, None)
            return html


def _shared_panels(request: Request, event_id: int, role: Any, shown: tuple[str, ...], since: int = 0) -> str:
    if not shown:
        return ""
    db: Database = request.app.state.db
    shared = db.kept.of(_SharedPanels, _SharedPanels)
    lang = i18n.current.get()
    recent = shared.recent((event_id, shown, lang, role), since)
    if recent is not None:
        return recent

    def key(head: int) -> tuple[Any, ...]:
        return (event_id, shown, lang, role, head)

    def make() -> tuple[tuple[Any, ...], str]:
        data = _panels(request, event_id, shown)
        return key(data["head"]), render_shared(
            "_desk_panels.html", event_id=event_id, role=role, partial=True, **data
        )

    return shared.get(key(queries.ledger_head(db, event_id)), make)


@router.get("/events/{event_id}/desk/corrections/{number}", response_class=HTMLResponse)
def correction_forms(request: Request, event_id: int, number: int) -> Response:
    """A ruling's void, deviate and appeal forms, opened from the feed."""
    _, role = role_at(request, event_id, Action.read)
    db = request.app.state.db
    ruling = queries.get_ruling(db, event_id, number)
    event = _event(request, event_id)
    return render(
        request,
        "_corrections.html",
        event_id=event_id,
        event=event,
        role=role,
        r=ruling,
        on_desk=True,
        involved=queries.involved(db, event_id, ruling),
        components=event.book.guideline.components,
    )


def _after(
    request: Request,
    event_id: int,
    error: str | None = None,
    status: int = 200,
    rederived: queries.Rederived | None = None,
) -> Response:
    _, role = role_at(request, event_id, Action.read)
    return render(
        request,
        "_desk_panels.html",
        status=status,
        event_id=event_id,
        role=role,
        error=error,
        rederived=rederived,
        **_panels(request, event_id),
    )


def _correct(
    request: Request, event_id: int, number: int, action: Action, work: Callable[[str], object]
) -> Response:
    """A deviation or a void from the desk; the answer names the additional rulings it
    voided or added (D16), as the CLI and the JSON API do."""
    user, _ = role_at(request, event_id, action)
    db = request.app.state.db
    before = queries.rederived_by(db, event_id, number)
    try:
        work(user.name)
    except ShinpanError as e:
        return _after(request, event_id, e.render(i18n.gettext), e.status)
    return _after(request, event_id, rederived=queries.rederived_since(db, event_id, number, before))


def _attempt(request: Request, event_id: int, action: Action, work: Callable[[str], object]) -> Response:
    user, _ = role_at(request, event_id, action)
    try:
        work(user.name)
    except ShinpanError as e:
        return _after(request, event_id, e.render(i18n.gettext), e.status)
    return _after(request, event_id)


Name = Annotated[str, Form(max_length=200)]


@router.post("/events/{event_id}/desk/confirm/{number}", dependencies=Unsafe)
def confirm(request: Request, event_id: int, number: int, command_id: CommandForm) -> Response:
    db = request.app.state.db
    return _attempt(
        request,
        event_id,
        Action.confirm,
        lambda name: corrections.confirm(db, event_id, [number], judge=name, command_id=command_id),
    )


@router.post("/events/{event_id}/desk/deviate/{number}", dependencies=Unsafe)
def deviate(request: Request, event_id: int, number: int, work: Deviating) -> Response:
    return _correct(request, event_id, number, Action.deviate, work)


@router.post("/events/{event_id}/desk/void/{number}", dependencies=Unsafe)
def void(request: Request, event_id: int, number: int, work: Voiding) -> Response:
    return _correct(request, event_id, number, Action.void, work)


@router.post("/events/{event_id}/desk/file-appeal/{number}", dependencies=Unsafe)
def file_appeal(request: Request, event_id: int, number: int, work: Appealing) -> Response:
    """A judge records a player's appeal against a ruling; it joins the appeals' queue."""
    return _attempt(request, event_id, Action.statement, work)


@router.post("/events/{event_id}/desk/deadline/{ruling}/{position}/{outcome}", dependencies=Unsafe)
def deadline(
    request: Request,
    event_id: int,
    ruling: int,
    position: int,
    outcome: Literal["done", "arrived", "missed"],
    command_id: CommandForm,
    early: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Done, arrived (到着, D23: a late player came, closing what waits for them), or missed;
    missed before it is due (D21, the head judge only) only once the desk's confirmation,
    which names the consequence, was given."""
    db = request.app.state.db

    def work(name: str) -> None:
        if outcome == "done":
            deadlines.mark_done(db, event_id, ruling, position, judge=name, command_id=command_id)
        elif outcome == "arrived":
            deadlines.mark_arrived(db, event_id, ruling, position, judge=name, command_id=command_id)
        else:  # "missed": the path allows nothing else
            deadlines.mark_missed(
                db,
                event_id,
                ruling,
                position,
                judge=name,
                command_id=command_id,
                early_confirmed=early == "yes",
            )

    return _attempt(request, event_id, Action.deadline, work)


@router.post("/events/{event_id}/desk/appeal/{appeal}", dependencies=Unsafe)
def decide(
    request: Request,
    event_id: int,
    appeal: int,
    command_id: CommandForm,
    reason: ReasonForm = "",
    outcome: Annotated[str, Form()] = "upheld",
    penalties: Annotated[Penalties | None, Form()] = None,
) -> Response:
    db = request.app.state.db
    return _attempt(
        request,
        event_id,
        Action.appeal,
        lambda name: appeals.decide_appeal(
            db,
            event_id,
            appeal,
            outcome,
            reason,
            penalties=penalties if outcome == "changed" else None,
            judge=name,
            command_id=command_id,
        ),
    )


@router.post("/events/{event_id}/desk/statement", dependencies=Unsafe)
def statement(
    request: Request,
    event_id: int,
    command_id: CommandForm,
    author: Name = "",
    author_role: Annotated[str, Form()] = "witness",
    text: ReasonForm = "",
    ruling: Annotated[int | None, Form()] = None,
) -> Response:
    db = request.app.state.db
    return _attempt(
        request,
        event_id,
        Action.statement,
        lambda name: appeals.add_statement(
            db, event_id, author, author_role, text, ruling=ruling, judge=name, command_id=command_id
        ),
    )
