"""Winners' reports (T11, T12): where the event allows it, the winner of a match enters its
score on the players' pages with the code printed on the table's slip; the report waits on
the scorekeeper's page until one tap confirms it, and only then is it the table's result,
through the same checks as any report (:func:`shinpan.services.results.record_report`).

A player has no account: a report is written in the ledger by :data:`PLAYERS_PAGE`, and is
taken only with the right code, for a table of the round being played that has no result
yet, with a score the event's format allows. A wrong code changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import ResultReported, WinnerReportConfirmed, WinnerReported
from shinpan.errors import Conflict, InvalidInput, NotFound, Refused
from shinpan.services.asked import Asked, run_asked
from shinpan.services.codes import code_is_right
from shinpan.services.commands import run_apart
from shinpan.services.context import load_event
from shinpan.services.formats import read_format
from shinpan.services.results import (
    ResultJson,
    Wanted,
    check_score,
    record_report,
    replayed_result,
    reported_match,
)
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry, read_entries
from shinpan.store.public import published
from shinpan.store.rounds import unfinished_tables
from shinpan.store.standings import playoff_round
from shinpan.store.winner_reports import WinnerReport, winner_report, winner_reports
from shinpan.tournament.formats import ScoreOrder, offered_scores
from shinpan.tournament.results import parse_score

PLAYERS_PAGE = "選手(報告)"  # who wrote a winner's report in the ledger: a player, without an account
MAX_CODE = 40
MAX_SCORE = 20

__all__ = [
    "PLAYERS_PAGE",
    "WinnerReport",
    "confirm_report",
    "pending_reports",
    "report_address",
    "report_page",
    "report_win",
    "takes_reports",
]


def takes_reports(conn: Connection, event_id: int) -> bool:
    """Whether the event is published with winners' reports allowed."""
    found = published(conn, event_id)
    return found is not None and found.token is not None and found.winner_report


def report_win(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    code: str,
    score: str,
    *,
    at_time: bool = False,
    command_id: str | None = None,
    now: datetime | None = None,
) -> WinnerReport:
    """A winner's report of the match at ``table`` in round ``round_no``, with the code on
    its slip; it waits for the scorekeeper (:func:`confirm_report`)."""
    if len(code) > MAX_CODE:
        raise InvalidInput(
            "the code is not the one on this table's slip: check it and type it again", field="code"
        )
    if len(score) > MAX_SCORE:
        raise InvalidInput("write the score as on the slip: 2-0, 2-1, 1-1-1", field="score")
    shown = parse_score(score).shown()

    def open_to_reports(conn: Connection) -> None:
        if not takes_reports(conn, event_id):
            raise Refused("this event takes results at the scorekeeper's desk, not here")

    def act(conn: Connection, ap: Appender) -> WinnerReport:
        if round_no != load_event(conn, event_id).current_round:
            raise Refused("round {round} is not the round being played", round=round_no)
        m = reported_match(conn, event_id, round_no, table)
        if not code_is_right(db, conn, event_id, round_no, table, code):
            raise Refused(
                "the code is not the one on this table's slip: check it and type it again", field="code"
            )
        if m.result is not None:
            raise Conflict("table {table} already has a result: ask the scorekeeper's desk", table=table)
        check_score(conn, event_id, m, Wanted(score=shown, at_time=at_time))
        return _report_of(conn, event_id, ap.append(WinnerReported(round_no, table, shown, at_time)))

    return run_apart(
        db,
        event_id,
        PLAYERS_PAGE,
        "winner_report",
        command_id,
        {"round": round_no, "table": table, "score": shown, "at_time": at_time},
        act,
        now,
        lambda conn, earlier: _report_of(conn, event_id, earlier),
        check=open_to_reports,
    )


def _report_of(conn: Connection, event_id: int, entry: Entry) -> WinnerReport:
    found = winner_report(conn, event_id, entry.seq)
    if found is None:
        raise Conflict("command {id} was already used for something else", id=entry.command_id or "")
    return found


def pending_reports(conn: Connection, event_id: int, round_no: int) -> list[WinnerReport]:
    """The round's winners' reports waiting for the scorekeeper: not confirmed, for a table
    that has no result yet (the latest report of a table first in its place)."""
    open_tables = set(unfinished_tables(conn, event_id, round_no))
    return [r for r in winner_reports(conn, event_id, round_no) if not r.confirmed and r.table in open_tables]


class ConfirmedJson(ResultJson):
    """The result a confirmed winner's report made, and the report."""

    report: int


def confirm_report(
    db: Database,
    event_id: int,
    report: int,
    **asked: Unpack[Asked],
) -> ConfirmedJson:
    """The scorekeeper confirms a winner's report in one tap: it becomes the table's result
    (T11: refused, saying which result stands, when one already does)."""

    def act(conn: Connection, ap: Appender) -> ConfirmedJson:
        found = winner_report(conn, event_id, report)
        if found is None:
            raise NotFound("no winner's report {report}", report=report)
        if found.confirmed:
            raise Conflict("this winner's report is already confirmed")
        ap.append(WinnerReportConfirmed(report))
        wanted = Wanted(score=found.score, at_time=found.at_time)
        return {**record_report(conn, ap, event_id, found.round, found.table, wanted), "report": report}

    return run_asked(
        db,
        event_id,
        Action.results,
        {"confirm": report},
        act,
        lambda conn, entry: _confirmed_again(conn, event_id, report, entry),
        **asked,
    )


def _confirmed_again(conn: Connection, event_id: int, report: int, confirmed: Entry) -> ConfirmedJson:
    """A retried confirmation: the result it recorded the first time (the entry after it)."""
    for later in read_entries(conn, event_id, after=confirmed.seq):
        if isinstance(later.body, ResultReported):
            return {**replayed_result(conn, later), "report": report}
    raise NotFound("no winner's report {report}", report=report)


def report_page(
    db: Database, event_id: int, round_no: int | None = None
) -> tuple[bool, list[tuple[str, bool]]]:
    """What the players' report page needs: whether the event takes winners' reports, and
    the scores its format offers for round ``round_no`` (a playoff's: only those with a winner)."""
    with db.read() as conn:
        first_playoff = playoff_round(conn, event_id)
        in_playoff = first_playoff is not None and round_no is not None and round_no >= first_playoff
        chosen = read_format(conn, event_id).match_format
        offered = offered_scores(chosen, playoff=in_playoff, order=ScoreOrder.by_winner)
        return takes_reports(conn, event_id), [(o.score, o.at_time) for o in offered]


def report_address(db: Database, event_id: int, round_no: int, table: int, code: str) -> str | None:
    """The players' pages' token of an event that takes winners' reports, once ``code`` is
    the one on that table's slip (the slip's QR code goes through here; None: not so)."""
    with db.read() as conn:
        found = published(conn, event_id)
        if found is None or found.token is None or not found.winner_report or len(code) > MAX_CODE:
            return None
        return found.token if code_is_right(db, conn, event_id, round_no, table, code) else None
