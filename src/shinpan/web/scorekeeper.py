"""The scorekeeper's page: the round's pairings with names and readings, the clock with each
table's own end time, results in words, drops, the head judge's changes to a pairing, and
the standings.

Every form posts and then redirects to the page (post/redirect/get): a reload shows the page
again and never sends the form twice. What happened (or what was wrong) travels to the page
in a short-lived cookie.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, overload
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.engine.event_rules import Action, RoundState
from shinpan.errors import InvalidInput, ShinpanError
from shinpan.files.csvio import parse_pairings
from shinpan.reports.common import local_time
from shinpan.reports.venue import venue_bracket
from shinpan.services import events, players, playoff, results, rounds, swiss, winner_reports
from shinpan.services.closed import seal_state_of
from shinpan.services.formats import SEED_LIMIT
from shinpan.services.scoresheet import Sheet, round_sheet
from shinpan.tournament.playoff import SIZES
from shinpan.tournament.rounds import parse_open_table
from shinpan.views.standings import chain_cells
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import role_at
from shinpan.web.i18n import N_
from shinpan.web.render import render
from shinpan.web.uploads import parse_upload

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]
FLASH = "shinpan_flash"
Field = Annotated[str, Form(max_length=5000)]

# Values the page shows through ``_(value)``: listed so that extraction finds them.
WORDS = (
    N_("dropped"), N_("extend"), N_("edit_pairings"), N_("paired"), N_("started"), N_("ended"),
    N_("ejection"), N_("disqualification"),
)  # fmt: skip


def _state_words() -> dict[RoundState, str]:
    """A round's state in words (T5): paired, started and ended told apart."""
    return {
        RoundState.paired: i18n.gettext("paired, not started"),
        RoundState.started: i18n.gettext("started, being played"),
        RoundState.ended: i18n.gettext("ended"),
    }


def _page(event_id: int, round_no: int | None = None) -> str:
    return f"/events/{event_id}/scorekeeper" + (f"?round={round_no}" if round_no else "")


def _back(event_id: int, message: str, *, error: bool = False, round_no: int | None = None) -> Response:
    """Post/redirect/get: to the page, with what happened in a cookie the page reads once."""
    response = RedirectResponse(_page(event_id, round_no), status_code=303)
    value = quote(("!" if error else "") + message, safe="")
    response.set_cookie(
        FLASH, value, max_age=60, path=f"/events/{event_id}/scorekeeper", httponly=True, samesite="strict"
    )
    return response


@overload
def _number(value: str, field: str) -> int: ...
@overload
def _number(value: str, field: str, *, optional: bool) -> int | None: ...
def _number(value: str, field: str, *, optional: bool = False) -> int | None:
    """A whole number typed in a form, 1 and up; None only for an optional one left empty."""
    value = value.strip()
    if not value and optional:
        return None
    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= 2**31 - 1:
        raise InvalidInput("{field} is not a whole number from 1", field=field)
    return int(value)


def _attempt(
    request: Request, event_id: int, action: Action, work: Callable[[str], str], round_no: int | None = None
) -> Response:
    """Run ``work`` as the signed-in person (their role allowing ``action``), then back to the page."""
    user, _ = role_at(request, event_id, action)
    try:
        message = work(user.name)
    except ShinpanError as e:
        return _back(event_id, e.render(i18n.gettext), error=True, round_no=round_no)
    return _back(event_id, message, round_no=round_no)


@router.get("/events/{event_id}/scorekeeper", response_class=HTMLResponse)
def scorekeeper(request: Request, event_id: int, round: int | None = None) -> Response:
    _, role = role_at(request, event_id, Action.read)
    sheet = round_sheet(request.app.state.db, event_id, round)  # one read for the whole page
    bracket = venue_bracket(request.app.state.db, event_id) if sheet.playoff_round else None
    flash = unquote(request.cookies.get(FLASH, ""))
    error, notice = (flash[1:], None) if flash.startswith("!") else (None, flash or None)
    response = render(
        request, "scorekeeper.html", event_id=event_id, event=sheet.event, role=role, sheet=sheet,
        error=error, notice=notice, local=lambda s: local_time(s, sheet.event.time_zone, style="clock"),
        chain_cells=chain_cells, state_words=_state_words(), bracket=bracket,
        winner_reports=_waiting(sheet), playoff_sizes=SIZES,
        seal_state=seal_state_of(request.app.state.db, event_id),
    )  # fmt: skip
    if flash:
        response.delete_cookie(FLASH, path=f"/events/{event_id}/scorekeeper")
    return response


def _waiting(sheet: Sheet) -> list[dict[str, Any]]:
    """The winners' reports waiting, each with its table's row and the winner it names."""
    rows = {row.table: row for row in sheet.rows}
    out = []
    for report in sheet.winner_reports:
        row = rows.get(report.table)
        if row is None:
            continue
        won_a, won_b = (int(n) for n in report.score.split("-")[:2])
        winner = row.a if won_a > won_b else row.b if won_b > won_a else None
        out.append({"report": report, "row": row, "winner": winner})
    return out


@router.post("/events/{event_id}/scorekeeper/confirm", dependencies=Unsafe)
def confirm(
    request: Request, event_id: int, command_id: Field, report: Field, round_no: Field = ""
) -> Response:
    """One tap: the winner's report becomes the table's result (T11: refused, saying which
    result stands, when one already does)."""
    number = _number(round_no, "round", optional=True)

    def work(name: str) -> str:
        seq = _number(report, "report")
        assert seq is not None
        done = winner_reports.confirm_report(
            request.app.state.db, event_id, seq, actor=name, command_id=command_id
        )
        return i18n.gettext("table {table}: result recorded").format(table=done["table"])

    return _attempt(request, event_id, Action.results, work, number)


@router.post("/events/{event_id}/scorekeeper/pairings", dependencies=Unsafe)
def import_pairings(
    request: Request, event_id: int, command_id: Field, round_no: Field, file: Annotated[UploadFile, File()]
) -> Response:
    def work(name: str) -> str:
        number = _number(round_no, "round")
        assert number is not None
        rows = parse_upload(file, parse_pairings)
        n = events.import_pairings(
            request.app.state.db, event_id, number, rows, actor=name, command_id=command_id
        )
        return i18n.gettext("round {round}: {n} matches imported").format(round=number, n=n)

    return _attempt(request, event_id, Action.results, work)


@router.post("/events/{event_id}/scorekeeper/pair", dependencies=Unsafe)
def pair(request: Request, event_id: int, command_id: Field, seed: Field = "") -> Response:
    def work(name: str) -> str:
        given = seed.strip()
        chosen = int(given) if given.isascii() and given.isdigit() and len(given) < 11 else None
        if seed.strip() and chosen is None:
            raise InvalidInput(
                "a seed is a whole number from 0 to {highest}", field="seed", highest=SEED_LIMIT - 1
            )
        db = request.app.state.db
        if playoff.event_bracket(db, event_id) is not None:  # T10: the bracket's next round
            bout = playoff.pair_playoff_round(db, event_id, actor=name, command_id=command_id)
            return i18n.gettext("round {round} is paired").format(round=bout.round)
        made = swiss.pair_next_round(db, event_id, seed=chosen, actor=name, command_id=command_id)
        return i18n.gettext("round {round} is paired").format(round=made.round)

    return _attempt(request, event_id, Action.results, work)


@router.post("/events/{event_id}/scorekeeper/playoff", dependencies=Unsafe)
def start_playoff(
    request: Request, event_id: int, command_id: Field, size: Field = "", third_place: Field = ""
) -> Response:
    """T10: the playoff's first round, seeded from the standings after the last Swiss round."""

    def work(name: str) -> str:
        chosen = _number(size, "size")  # a size that is no bracket: the core refuses it (T10)
        made = playoff.start_playoff(
            request.app.state.db, event_id, chosen, third_place=bool(third_place),
            actor=name, command_id=command_id,
        )  # fmt: skip
        return i18n.gettext("the playoff of {size} has started: round {round} is paired").format(
            size=chosen, round=made.round
        )

    return _attempt(request, event_id, Action.results, work)


@router.post("/events/{event_id}/scorekeeper/start", dependencies=Unsafe)
def start(request: Request, event_id: int, command_id: Field, minutes: Field = "") -> Response:
    def work(name: str) -> str:
        length = _number(minutes, "minutes", optional=True)
        done = rounds.start_round(
            request.app.state.db, event_id, minutes=length, actor=name, command_id=command_id
        )
        return i18n.gettext("round {round} has started: {minutes} minutes").format(
            round=done["round"], minutes=done["minutes"]
        )

    return _attempt(request, event_id, Action.results, work)


@router.post("/events/{event_id}/scorekeeper/end", dependencies=Unsafe)
def end(
    request: Request, event_id: int, command_id: Field, open_table: Annotated[list[str] | None, Form()] = None
) -> Response:
    """End the round; each table still without a result has what it becomes chosen (T5, T8)."""

    def work(name: str) -> str:
        chosen = dict(parse_open_table(t) for t in open_table or [] if t.strip())
        number = events.end_round(
            request.app.state.db, event_id, actor=name, command_id=command_id, open_tables=chosen
        )
        return i18n.gettext("round {round} has ended").format(round=number)

    return _attempt(request, event_id, Action.results, work)


@router.post("/events/{event_id}/scorekeeper/result", dependencies=Unsafe)
def result(
    request: Request,
    event_id: int,
    command_id: Field,
    round_no: Field,
    table: Field,
    winner: Field = "",
    outcome: Field = "",
    score: Field = "",
    draw: Field = "",
    time: Field = "",
    replaces: Field = "",
    reason: Field = "",
) -> Response:
    """The next duel's winner (or a drawn duel), the slip's score, or the match's result; a
    correction names what it replaces and why (T11). The page's script sends the same to
    the JSON API without reloading; this is the form without the script."""
    number = _number(round_no, "round", optional=True)

    def work(name: str) -> str:
        where = _number(table, "table")
        assert number is not None and where is not None
        wanted = results.Wanted(
            winner=winner or None,
            draw=bool(draw) and not winner,
            match=outcome or None,
            score=score or None,
            at_time=bool(time),
            replaces=replaces or None,
            reason=reason or None,
        )
        results.report_result(
            request.app.state.db, event_id, number, where, wanted, actor=name, command_id=command_id
        )
        return i18n.gettext("table {table}: result recorded").format(table=where)

    if number is None:
        return _back(event_id, i18n.gettext("which round?"), error=True)
    return _attempt(request, event_id, Action.results, work, number)


@router.post("/events/{event_id}/scorekeeper/time", dependencies=Unsafe)
def give_time(
    request: Request, event_id: int, command_id: Field, table: Field, minutes: Field, reason: Field = ""
) -> Response:
    def work(name: str) -> str:
        where, length = _number(table, "table"), _number(minutes, "minutes")
        assert where is not None and length is not None
        rounds.give_time(
            request.app.state.db, event_id, where, length, reason, judge=name, command_id=command_id
        )
        return i18n.gettext("table {table}: {minutes} more minutes").format(table=where, minutes=length)

    return _attempt(request, event_id, Action.extend, work)


@router.post("/events/{event_id}/scorekeeper/edit", dependencies=Unsafe)
def edit(
    request: Request, event_id: int, command_id: Field, reason: Field = "", lines: Field = ""
) -> Response:
    """The head judge's new pairing of some tables: one ``TABLE A B`` per line (no B: a bye)."""

    def work(name: str) -> str:
        changes = []
        for line in lines.splitlines():
            parts = line.replace(",", " ").replace("=", " ").split()
            if not parts:
                continue
            where = _number(parts[0], "table")
            if len(parts) not in (2, 3) or where is None:
                raise InvalidInput(
                    "write each table as: table, player A, player B (no B: a bye)", field="lines"
                )
            changes.append(swiss.TableChange(where, parts[1], parts[2] if len(parts) == 3 else None))
        done = swiss.edit_pairings(
            request.app.state.db, event_id, changes, reason, actor=name, command_id=command_id
        )
        return i18n.gettext("the pairing of tables {tables} was changed").format(
            tables=", ".join(str(p["table"]) for p in done)
        )

    return _attempt(request, event_id, Action.edit_pairings, work)


@router.post("/events/{event_id}/scorekeeper/drop", dependencies=Unsafe)
def drop(request: Request, event_id: int, command_id: Field, player: Field = "") -> Response:
    def work(name: str) -> str:
        if not player.strip():
            raise InvalidInput("choose the player who drops", field="player")
        swiss.drop_player(request.app.state.db, event_id, player, actor=name, command_id=command_id)
        return i18n.gettext("{player} has dropped").format(
            player=players.named(request.app.state.db, event_id, player)
        )

    return _attempt(request, event_id, Action.results, work)
