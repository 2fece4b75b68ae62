"""The head judge's desk (the scorekeeper's pages are in :mod:`shinpan.web.scorekeeper`).

The desk: the live feed of rulings (refreshed over server-sent events, no reload), the
confirmation queue (confirm in one tap; deviate or void with a reason), deadlines
counting down, appeals, and disqualification reports with statements.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import func, select

from shinpan.engine.event_rules import disqualifies
from shinpan.errors import ShinpanError
from shinpan.services import appeals, corrections, deadlines, queries
from shinpan.services.context import load_event
from shinpan.store.schema import appeals as appeals_table
from shinpan.store.schema import entries, statements
from shinpan.web import i18n
from shinpan.web.api import Penalties, csrf
from shinpan.web.auth import role_at
from shinpan.web.render import book, render

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]


def _event(request: Request, event_id: int) -> object:
    with request.app.state.db.read() as conn:
        return load_event(conn, event_id)


def _panels(request: Request, event_id: int) -> dict[str, Any]:
    db = request.app.state.db
    feed = queries.rulings_feed(db, event_id, limit=30)
    queue = queries.rulings_feed(db, event_id, state="pending", limit=200)
    due = deadlines.list_deadlines(db, event_id)
    with db.read() as conn:
        open_appeals = conn.execute(
            select(appeals_table)
            .where(appeals_table.c.event_id == event_id)
            .order_by(appeals_table.c.entry_seq)
        ).all()
        said = conn.execute(
            select(statements).where(statements.c.event_id == event_id).order_by(statements.c.entry_seq)
        ).all()
        head = (
            conn.execute(select(func.max(entries.c.seq)).where(entries.c.event_id == event_id)).scalar() or 0
        )
    dq = [
        r
        for r in queries.rulings_feed(db, event_id, limit=1000)
        if disqualifies(r["penalties"], voided=r["state"] == "voided")
    ]
    return {
        "feed": feed, "queue": queue, "deadlines": due, "appeals": open_appeals, "dq": dq,
        "statements": said, "components": book().guideline.components, "head": head,
    }  # fmt: skip


@router.get("/events/{event_id}/desk", response_class=HTMLResponse)
def desk(request: Request, event_id: int) -> Response:
    _, role = role_at(request, event_id, "read")
    return render(request, "desk.html", event_id=event_id, event=_event(request, event_id), role=role,
                  **_panels(request, event_id))  # fmt: skip


@router.get("/events/{event_id}/desk/panels", response_class=HTMLResponse)
def desk_panels(request: Request, event_id: int) -> Response:
    """Every panel of the desk, for the live refresh."""
    _, role = role_at(request, event_id, "read")
    return render(request, "_desk_panels.html", event_id=event_id, role=role, **_panels(request, event_id))


def _after(request: Request, event_id: int, error: str | None = None, status: int = 200) -> Response:
    _, role = role_at(request, event_id, "read")
    request.app.state.live.publish(event_id)
    return render(request, "_desk_panels.html", status=status, event_id=event_id, role=role, error=error,
                  **_panels(request, event_id))  # fmt: skip


def _attempt(request: Request, event_id: int, action: str, work: object) -> Response:
    user, _ = role_at(request, event_id, action)
    try:
        work(user.name)  # type: ignore[operator]
    except ShinpanError as e:
        return _after(request, event_id, e.render(i18n.gettext), e.status)
    return _after(request, event_id)


Cmd = Annotated[str, Form(min_length=8, max_length=100)]
Reason = Annotated[str, Form(max_length=5000)]


@router.post("/events/{event_id}/desk/confirm/{number}", dependencies=Unsafe)
def confirm(request: Request, event_id: int, number: int, command_id: Cmd) -> Response:
    db = request.app.state.db
    return _attempt(request, event_id, "confirm",
                    lambda name: corrections.confirm(db, event_id, [number], judge=name, command_id=command_id))  # fmt: skip


@router.post("/events/{event_id}/desk/deviate/{number}", dependencies=Unsafe)
def deviate(
    request: Request, event_id: int, number: int, command_id: Cmd, reason: Reason = "",
    penalties: Annotated[Penalties | None, Form()] = None,
) -> Response:  # fmt: skip
    db = request.app.state.db
    return _attempt(request, event_id, "deviate", lambda name: corrections.deviate(
        db, event_id, number, penalties or [], reason, judge=name, command_id=command_id))  # fmt: skip


@router.post("/events/{event_id}/desk/void/{number}", dependencies=Unsafe)
def void(request: Request, event_id: int, number: int, command_id: Cmd, reason: Reason = "") -> Response:
    db = request.app.state.db
    return _attempt(request, event_id, "void",
                    lambda name: corrections.void(db, event_id, number, reason, judge=name, command_id=command_id))  # fmt: skip


@router.post("/events/{event_id}/desk/deadline/{ruling}/{position}/{outcome}", dependencies=Unsafe)
def deadline(
    request: Request, event_id: int, ruling: int, position: int, outcome: Literal["done", "missed"],
    command_id: Cmd,
) -> Response:  # fmt: skip
    db = request.app.state.db

    def work(name: str) -> None:
        if outcome == "done":
            deadlines.mark_done(db, event_id, ruling, position, judge=name, command_id=command_id)
        else:  # "missed": the path allows nothing else
            deadlines.mark_missed(db, event_id, ruling, position, judge=name, command_id=command_id)

    return _attempt(request, event_id, "deadline", work)


@router.post("/events/{event_id}/desk/appeal/{appeal}", dependencies=Unsafe)
def decide(
    request: Request, event_id: int, appeal: int, command_id: Cmd, reason: Reason = "",
    outcome: Annotated[str, Form()] = "upheld", penalties: Annotated[Penalties | None, Form()] = None,
) -> Response:  # fmt: skip
    db = request.app.state.db
    return _attempt(request, event_id, "appeal", lambda name: appeals.decide_appeal(
        db, event_id, appeal, outcome, reason, penalties=penalties if outcome == "changed" else None,
        judge=name, command_id=command_id))  # fmt: skip


@router.post("/events/{event_id}/desk/statement", dependencies=Unsafe)
def statement(
    request: Request, event_id: int, command_id: Cmd, author: Annotated[str, Form(max_length=200)] = "",
    author_role: Annotated[str, Form()] = "witness", text: Reason = "", ruling: Annotated[int | None, Form()] = None,
) -> Response:  # fmt: skip
    db = request.app.state.db
    return _attempt(request, event_id, "statement", lambda name: appeals.add_statement(
        db, event_id, author, author_role, text, ruling=ruling, judge=name, command_id=command_id))  # fmt: skip
