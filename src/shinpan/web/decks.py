"""Decklists and deck checks on the web (T13).

- The Players page registers lists (a pasted text, a file, a batch of files or one CSV) and
  shows each player's state to the desk (missing, registered, illegal, locked); the head judge
  locks them. Every form posts and redirects back (post/redirect/get), as the page's others do.
- ``/events/<id>/deckcheck``: the deck check on a judge's phone. Tables picked for a round,
  a check started; each player's registered list by section, the counts found entered line by
  line (or "matches the list" per section) and cards found that the list lacks; the
  differences; the four findings and T13's proposal, each recorded in the usual flow citing the
  check; the table's extension confirmed; a deck marked corrected.
- ``/p/<token>/decklist``: a player submits their own list with their registration code,
  until the lock. Lists are never shown on the players' pages or the wall.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Annotated, Any
from urllib.parse import quote, unquote

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from shinpan.engine.event_rules import Action
from shinpan.entries import ListProblem
from shinpan.errors import InvalidInput, ShinpanError
from shinpan.files.decklists import MAX_BYTES, DecklistError, digest, parse, parse_batch
from shinpan.reports.decks import all_decklists, deck_checks_report, decklist_sheet, registration_slips
from shinpan.reports.formats import Report
from shinpan.reports.formats import render as render_report
from shinpan.services import deckchecks, decklists, rounds
from shinpan.services.context import load_event
from shinpan.store.decks import published_lists
from shinpan.tournament.decks import Card, Decklist, Problem, section_label
from shinpan.web import i18n
from shinpan.web.api import csrf
from shinpan.web.auth import readable, role_at
from shinpan.web.public import AddressLimit, _page, _refused, shown_event
from shinpan.web.render import render

router = APIRouter(include_in_schema=False)
Unsafe = [Depends(csrf)]
FLASH = "shinpan_players_flash"  # the Players page's own notice
CHECK_FLASH = "shinpan_deckcheck_flash"
Field = Annotated[str, Form(max_length=500)]
ListField = Annotated[str, Form(max_length=MAX_BYTES)]
SUBMISSIONS_PER_MINUTE = 10
_LOCK = threading.Lock()


def _players_page(event_id: int) -> str:
    return f"/events/{event_id}/players"


def _back(path: str, cookie: str, message: str, *, error: bool = False) -> Response:
    response = RedirectResponse(path, status_code=303)
    value = quote(("!" if error else "") + message, safe="")
    response.set_cookie(cookie, value, max_age=60, path=path.split("?")[0], httponly=True, samesite="strict")
    return response


def _said(e: ShinpanError) -> str:
    if isinstance(e, DecklistError):
        return e.text("ja" if i18n.current.get() == "ja" else "en")
    return e.render(i18n.gettext)


def _attempt(
    request: Request, event_id: int, action: Action, work: Callable[[str], str], path: str, cookie: str
) -> Response:
    user, _ = role_at(request, event_id, action)
    try:
        message = work(user.name)
    except ShinpanError as e:
        return _back(path, cookie, _said(e), error=True)
    return _back(path, cookie, message)


def _problems_note(problems: Sequence[ListProblem]) -> str:
    """Each problem of a registered list by line, in the reader's language."""
    if not problems:
        return ""
    ja = i18n.current.get() == "ja"
    lines = [Problem(p.line, p.ja, p.en).text("ja" if ja else "en") for p in problems]
    return "\n" + i18n.gettext("{n} problems:").format(n=len(problems)) + "\n" + "\n".join(lines)


# -- the Players page ------------------------------------------------------------------------


async def _file_bytes(upload: UploadFile | None) -> bytes | None:
    if upload is None or not upload.filename:
        return None
    data = await upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise InvalidInput("the file is over 1 MB", field="file")
    return data


@router.post("/events/{event_id}/decklists/submit", dependencies=Unsafe)
async def submit(
    request: Request,
    event_id: int,
    command_id: Field,
    player: Field = "",
    text: ListField = "",
    fmt: Field = "",
    file: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """One player's list, pasted or as a file."""
    data = await _file_bytes(file)
    source = file.filename if file is not None and file.filename else "paste"

    def work(actor: str) -> str:
        raw = data if data is not None else text.encode("utf-8")
        if not raw.strip():
            raise InvalidInput("paste the list or choose its file", field="text")
        deck, found = parse(raw, fmt or None, source=source[:200])
        done = decklists.submit(
            request.app.state.db, event_id, player.strip(), deck, fmt=found, source=source[:200], digest=digest(raw),
            judge=actor, command_id=command_id,
        )  # fmt: skip
        return i18n.gettext("Decklist of {player} registered").format(player=done.player) + _problems_note(
            done.problems
        )

    return _attempt(request, event_id, Action.decklist, work, _players_page(event_id), FLASH)


@router.post("/events/{event_id}/decklists/batch", dependencies=Unsafe)
async def batch(
    request: Request, event_id: int, command_id: Field, files: Annotated[list[UploadFile], File()]
) -> Response:
    """Many lists: one CSV (player, section, count, name), or files named by player id."""
    read: list[tuple[str, bytes]] = []
    for upload in files[:500]:
        data = await _file_bytes(upload)
        if data is not None:
            read.append((upload.filename or "", data))

    def work(actor: str) -> str:
        lists: dict[str, tuple[Decklist, str, str, str]] = {}
        if len(read) == 1 and read[0][0].lower().endswith(".csv"):
            name, data = read[0]
            for player, deck in parse_batch(data, name).items():
                lists[player] = (deck, "csv", name[:200], digest(data))
        else:
            for name, data in read:
                deck, found = parse(data, None, source=name[:200])
                lists[name.rsplit(".", 1)[0].strip()] = (deck, found, name[:200], digest(data))
        if not lists:
            raise InvalidInput("choose the files", field="files")
        done = decklists.import_lists(
            request.app.state.db, event_id, lists, judge=actor, command_id=command_id
        )
        illegal = sum(1 for d in done if d.problems)
        return i18n.gettext("{n} decklists registered, {m} with problems").format(n=len(done), m=illegal)

    return _attempt(request, event_id, Action.decklist, work, _players_page(event_id), FLASH)


@router.post("/events/{event_id}/decklists/lock", dependencies=Unsafe)
def lock(request: Request, event_id: int, command_id: Field) -> Response:
    def work(actor: str) -> str:
        decklists.lock(request.app.state.db, event_id, judge=actor, command_id=command_id)
        return i18n.gettext("Decklists locked")

    return _attempt(request, event_id, Action.manage, work, _players_page(event_id), FLASH)


# -- the deck check screen ---------------------------------------------------------------------


def _check_path(event_id: int, round_no: int | None = None, table: int | None = None) -> str:
    path = f"/events/{event_id}/deckcheck"
    if round_no is not None:
        path += f"?round={round_no}" + (f"&table={table}" if table is not None else "")
    return path


def _at_check(
    request: Request,
    event_id: int,
    action: Action,
    work: Callable[[str], str],
    round_no: int | None,
    table: int | None,
) -> Response:
    """A deck check's step, done by the judge at ``round_no``'s ``table``: back to that check's screen."""
    return _attempt(request, event_id, action, work, _check_path(event_id, round_no, table), CHECK_FLASH)


def _whole(value: str) -> int | None:
    value = value.strip()
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 10 else None


def _check_at(round_no: Field = "", table: Field = "") -> tuple[int | None, int | None]:
    """The round and the table a deck check's form names (None: not a whole number)."""
    return _whole(round_no), _whole(table)


CheckAt = Annotated[tuple[int | None, int | None], Depends(_check_at)]


def _named_table(round_no: int | None, table: int | None) -> tuple[int, int]:
    """A deck check's step needs its round and its table."""
    if round_no is None or table is None:
        raise InvalidInput("name the round and the table", field="table")
    return round_no, table


@router.get("/events/{event_id}/deckcheck", response_class=HTMLResponse)
def check_page(
    request: Request, event_id: int, round: str = "", table: str = "", tables: str = "", top: str = ""
) -> Response:
    _, role = role_at(request, event_id, Action.deckcheck)
    db = request.app.state.db
    with db.read() as conn:
        event = load_event(conn, event_id)
    round_no = _whole(round[:10]) or event.current_round or 1
    table_no = _whole(table[:10])
    picked, pick_error = None, None
    if tables:
        try:
            picked = deckchecks.pick(db, event_id, round_no, tables=_whole(tables[:3]) or 2, top=top == "1")
        except ShinpanError as e:
            pick_error = _said(e)
    shown = None
    if table_no is not None:
        try:
            shown = deckchecks.check_view(db, event_id, round_no, table_no)
        except ShinpanError:
            shown = None
    done = deckchecks.checks(db, event_id, round_no)
    flash = unquote(request.cookies.get(CHECK_FLASH, ""))
    error, notice = (flash[1:], None) if flash.startswith("!") else (None, flash or None)
    response = render(
        request,
        "deckcheck.html",
        event_id=event_id,
        event=event,
        role=role,
        round_no=round_no,
        table_no=table_no,
        picked=picked,
        pick_error=pick_error,
        check=shown,
        done=done,
        error=error,
        notice=notice,
        label=section_label,
    )
    if flash:
        response.delete_cookie(CHECK_FLASH, path=_check_path(event_id))
    return response


@router.post("/events/{event_id}/deckcheck/start", dependencies=Unsafe)
def start(request: Request, event_id: int, command_id: Field, at: CheckAt) -> Response:
    def work(actor: str) -> str:
        number, table_no = _named_table(*at)
        deckchecks.start(request.app.state.db, event_id, number, table_no, judge=actor, command_id=command_id)
        return i18n.gettext("Deck check of table {table} started").format(table=table_no)

    return _at_check(request, event_id, Action.deckcheck, work, *at)


@router.post("/events/{event_id}/deckcheck/count", dependencies=Unsafe)
async def count(request: Request, event_id: int) -> Response:
    """The counts found in one player's deck: each listed line's count (or the whole section
    as listed), and cards found that the list lacks."""
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    at = _check_at(values.get("round_no", ""), values.get("table", ""))
    player = values.get("player", "").strip()
    command_id = values.get("command_id", "")[:100]

    def work(actor: str) -> str:
        number, table_no = _named_table(*at)
        view = deckchecks.check_view(request.app.state.db, event_id, number, table_no)
        listed = view.get("lists", {}).get(player, {})
        sections: dict[str, list[Card]] = {}
        for section, cards in listed.items():
            whole = values.get(f"matches_{section}") == "1"
            for i, card in enumerate(cards):
                raw = values.get(f"c_{section}_{i}", "").strip()
                found = card["count"] if whole or raw == "" else _whole(raw[:4])
                if found is None and raw != "0":
                    raise InvalidInput("a count is a whole number: {value}", value=raw[:20], field="count")
                if found:
                    sections.setdefault(section, []).append(Card(found, card["name"]))
        for section in listed:
            extra = values.get(f"extra_{section}", "").strip()
            if extra:
                more, _ = parse(("メイン\n" + extra).encode("utf-8"), "text", source=section)
                sections.setdefault(section, []).extend(more.sections.get("main", ()))
        deck = Decklist({s: tuple(c) for s, c in sections.items()})
        deckchecks.count(
            request.app.state.db, event_id, number, table_no, player, deck, judge=actor, command_id=command_id
        )
        return i18n.gettext("Counts of {player} saved").format(player=player)

    return _at_check(request, event_id, Action.deckcheck, work, *at)


@router.post("/events/{event_id}/deckcheck/end", dependencies=Unsafe)
async def end(request: Request, event_id: int) -> Response:
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    at = _check_at(values.get("round_no", ""), values.get("table", ""))
    command_id = values.get("command_id", "")[:100]
    writers = {
        k.removeprefix("recorded_by_"): v.strip()[:200]
        for k, v in values.items()
        if k.startswith("recorded_by_") and v.strip()
    }

    def work(actor: str) -> str:
        number, table_no = _named_table(*at)
        done = deckchecks.end(
            request.app.state.db,
            event_id,
            number,
            table_no,
            recorded_by=writers,
            judge=actor,
            command_id=command_id,
        )
        return i18n.gettext("Deck check ended: {minutes} min").format(minutes=done["minutes"])

    return _at_check(request, event_id, Action.deckcheck, work, *at)


@router.post("/events/{event_id}/deckcheck/extend", dependencies=Unsafe)
def extend(
    request: Request,
    event_id: int,
    command_id: Field,
    at: CheckAt,
    minutes: Field = "",
) -> Response:
    """The judge confirms the table's extension: the check's minutes on the clock (T5)."""
    (number, table_no), given = at, _whole(minutes)

    def work(actor: str) -> str:
        if number is None or table_no is None or given is None:
            raise InvalidInput("name the round, the table and the minutes", field="minutes")
        rounds.give_time(
            request.app.state.db, event_id, table_no, given, deckchecks.EXTENSION_REASON, round_no=number,
            judge=actor, command_id=command_id,
        )  # fmt: skip
        return i18n.gettext("Table {table}: +{minutes} min").format(table=table_no, minutes=given)

    return _at_check(request, event_id, Action.extend, work, *at)


@router.post("/events/{event_id}/deckcheck/corrected", dependencies=Unsafe)
def corrected(
    request: Request,
    event_id: int,
    command_id: Field,
    at: CheckAt,
    player: Field = "",
) -> Response:
    def work(actor: str) -> str:
        number, table_no = _named_table(*at)
        deckchecks.deck_corrected(
            request.app.state.db,
            event_id,
            number,
            table_no,
            player.strip(),
            judge=actor,
            command_id=command_id,
        )
        return i18n.gettext("Deck of {player} marked corrected").format(player=player.strip())

    return _at_check(request, event_id, Action.deckcheck, work, *at)


# -- a player's own list on the players' pages -------------------------------------------------


def _limit(request: Request) -> bool:
    with _LOCK:
        found = getattr(request.app.state, "decklist_limit", None)
        if not isinstance(found, AddressLimit):
            found = request.app.state.decklist_limit = AddressLimit(SUBMISSIONS_PER_MINUTE)
    return found.allow(request.client.host if request.client else "?")


@router.get("/p/{token}/decklist", response_class=HTMLResponse)
def own_list_form(request: Request, token: str) -> Response:
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    return _page(request, "public_decklist.html", event=event, token=token, base=f"/p/{token}")


@router.post("/p/{token}/decklist", response_class=HTMLResponse)
async def own_list(
    request: Request,
    token: str,
    command_id: Annotated[str, Form(max_length=100)] = "",
    player: Annotated[str, Form(max_length=100)] = "",
    code: Annotated[str, Form(max_length=100)] = "",
    text: ListField = "",
    file: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """A player's own list with their registration code, until the lock. The list is not shown back."""
    if not _limit(request):
        return _refused(request, 429)
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    context: dict[str, Any] = {"event": event, "token": token, "base": f"/p/{token}", "player": player}
    try:
        data = await _file_bytes(file)
        raw = data if data is not None else text.encode("utf-8")
        if not raw.strip():
            raise InvalidInput("paste the list or choose its file", field="text")
        deck, found = parse(raw, None, source="player")
        done = decklists.submit_by_player(
            event.db, event.event_id, player.strip(), code.strip(), deck, fmt=found,
            source=(file.filename if file is not None and file.filename else "paste")[:200], digest=digest(raw),
            command_id=command_id or None,
        )  # fmt: skip
    except ShinpanError as e:
        return _page(request, "public_decklist.html", 422, error=_said(e), **context)
    return _page(request, "public_decklist.html", sent=done, **context)


# -- the reports (T13), as files from the Reports page -----------------------------------------


def _report_file(report: Report, fmt: str, lang: str = "both") -> Response:
    if fmt not in ("csv", "json", "html", "pdf"):
        raise InvalidInput("the format is csv, json, html or pdf", field="format")
    out = render_report(report, fmt, stylesheet="/reports/print.css", lang=lang)
    disposition = "attachment" if fmt == "csv" else "inline"
    return Response(
        out.content,
        media_type=out.media_type,
        headers={"Content-Disposition": f'{disposition}; filename="{out.filename}"'},
    )


@router.get("/events/{event_id}/reports/deckchecks")
def deck_checks_file(request: Request, event_id: int, format: str = "pdf", round: str = "") -> Response:
    """The deck checks (of a round): who, when, how long, what was found, the rulings."""
    role_at(request, event_id, Action.report)
    return _report_file(deck_checks_report(request.app.state.db, event_id, _whole(round[:10])), format[:5])


@router.get("/events/{event_id}/reports/decklists")
def decklists_file(request: Request, event_id: int, format: str = "csv") -> Response:
    """Every player's current list, as CSV or JSON (judges only)."""
    role_at(request, event_id, Action.report)
    return _report_file(all_decklists(request.app.state.db, event_id), format[:5])


@router.get("/events/{event_id}/reports/decklist/{player}")
def decklist_file(request: Request, event_id: int, player: str, format: str = "pdf") -> Response:
    """A player's list on one A4 page, in Japanese, with the judges' box."""
    return _report_file(decklist_sheet(readable(request, event_id), event_id, player[:64]), format[:5], "ja")


@router.get("/events/{event_id}/reports/codes")
def codes_file(request: Request, event_id: int, format: str = "pdf") -> Response:
    """Each player's registration code on a slip, for their own decklist."""
    role_at(request, event_id, Action.roster)
    base = str(request.base_url).rstrip("/")
    return _report_file(registration_slips(request.app.state.db, event_id, base), format[:5])


@router.get("/p/{token}/decklists", response_class=HTMLResponse)
def published_lists_page(request: Request, token: str) -> Response:
    """The lists of the final top N, once the head judge published them after the event;
    nothing before (T13)."""
    event = shown_event(request, token)
    if isinstance(event, Response):
        return event
    with event.db.read() as conn:
        found = published_lists(conn, event.event_id)
    if found is None:
        return _refused(request, 404)
    top, players = found
    shown = []
    for place, player in enumerate(players, start=1):
        who = event.shown(player)
        listed = decklists.show(event.db, event.event_id, player)
        shown.append((place, who.label if who is not None else "", listed["sections"]))
    return _page(request, "public_decklists.html", event=event, token=token, base=f"/p/{token}", top=top,
                 shown=shown, label=section_label)  # fmt: skip
