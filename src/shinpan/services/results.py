"""The scorekeeper's results and their corrections (T5, T7, T8, T11): one report of a
table (a duel, a slip's score, a result without duels), decided by
:mod:`shinpan.tournament.results`, appended in one transaction under the event's lock, so
that of two results sent at once for one table exactly one stands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, Unpack

from shinpan.engine.effects import Match
from shinpan.engine.event_rules import Action, Role, RoundState, next_duel
from shinpan.engine.participants import normalize_id
from shinpan.entries import ReportedDuel, ResultReported
from shinpan.errors import N_, Conflict, Forbidden, InvalidInput, NotFound, Refused, ResultStands
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import check_reason, paired_round, role_of
from shinpan.services.formats import read_format
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry
from shinpan.store.results import table_results
from shinpan.store.roster import names
from shinpan.store.rounds import paired_after, round_duels, unfinished_tables
from shinpan.store.snapshots import match_at
from shinpan.store.standings import playoff_round
from shinpan.tournament.formats import AtTime
from shinpan.tournament.playoff import check_result
from shinpan.tournament.results import (
    Duel,
    DuelReport,
    MatchReport,
    Outcome,
    Report,
    Score,
    ScoreReport,
    Table,
    Verdict,
    outcome,
    parse_score,
    standing,
    verdict,
)
from shinpan.tournament.rounds import EndRefused, OpenTable, choices_at_end, why_no_end

# The messages, as a judge reads them (translated in the web's catalogue).
STANDS_WON = N_(
    "round {round}, table {table} already has a result: {shown} ({winner} won). To correct it, "
    "say which result it replaces ({shown}) and why"
)
STANDS_DRAW = N_(
    "round {round}, table {table} already has a result: {shown} (a draw). To correct it, "
    "say which result it replaces ({shown}) and why"
)
STANDS_BY_RULING = N_(
    "round {round}, table {table}: the result {shown} was decided by ruling #{ruling}; "
    "void or change the ruling instead"
)


@dataclass(frozen=True)
class Wanted:
    """What the scorekeeper reports for one table (exactly one of duel, match, score)."""

    duel: int | None = None
    winner: str | None = None  # a player id (the duel's winner)
    draw: bool = False  # the duel was drawn
    match: str | None = None  # a | b | draw, without duels
    score: str | None = None  # 2-1, 1-1-1
    at_time: bool = False
    replaces: str | None = None  # the result that stands, as shown
    replaces_entry: int | None = None  # or its ledger entry
    reason: str | None = None

    def payload(self) -> WantedJson:
        """The report as the command's fingerprint covers it."""
        return {
            "duel": self.duel,
            "winner": self.winner,
            "draw": self.draw,
            "match": self.match,
            "score": self.score,
            "at_time": self.at_time,
            "replaces": self.replaces,
            "replaces_entry": self.replaces_entry,
            "reason": self.reason,
        }


class WantedJson(TypedDict):
    duel: int | None
    winner: str | None
    draw: bool
    match: str | None
    score: str | None
    at_time: bool
    replaces: str | None
    replaces_entry: int | None
    reason: str | None


class StandingDuel(TypedDict):
    duel: int
    winner: str | None
    drawn: bool
    penalty: bool


class ResultThatStands(TypedDict):
    """The result that stands at a table, as a 409 tells it: shown, who won, its entry, who
    and when, the ruling that decided it."""

    round: int
    table: int
    result: str | None
    shown: str | None
    winner: str | None
    winner_name: str | None
    duels: list[StandingDuel]
    entry: int | None
    by: str | None
    at: str | None
    ruling: int | None


class ResultJson(TypedDict):
    """A table's result as it was recorded (``replayed``: only for a retry)."""

    round: int
    table: int
    result: str | None
    shown: str | None
    at_time: bool
    entry: int
    corrects: int | None
    correction: bool
    replayed: NotRequired[bool]


def _report(w: Wanted, m: Match) -> Report:
    if (w.winner is not None or w.draw) and (w.match is not None or w.score is not None):
        raise InvalidInput(
            "give one of: a duel and its winner (or a draw), a match result, a score", field="result"
        )
    duel = w.duel
    if duel is None and (w.winner is not None or w.draw) and w.match is None and w.score is None:
        duel = next_duel(m.taken)  # the match's next duel (D10)
    given = sum(x is not None for x in (duel, w.match, w.score))
    if given != 1:
        raise InvalidInput(
            "give one of: a duel and its winner (or a draw), a match result, a score", field="result"
        )
    if w.at_time and w.score is None:
        raise InvalidInput("time goes with a score: the duels as they stood", field="time")
    if duel is not None:
        if (w.winner is None) == (not w.draw):
            raise InvalidInput("give the duel's winner, or say it was drawn", field="winner")
        if w.draw:
            return DuelReport(duel, None)
        player = normalize_id(w.winner or "")
        if player not in (m.a, m.b):
            raise InvalidInput("the winner must be one of the match's players", field="winner")
        return DuelReport(duel, m.side(player))
    if w.match is not None:
        return MatchReport(w.match)
    return ScoreReport(parse_score(w.score or "", at_time=w.at_time), w.at_time)


def _table(m: Match, causes: dict[int, int | None], drawn: frozenset[int]) -> Table:
    duels = {n: Duel(m.side(p), causes.get(n) is not None) for n, p in m.duels.items()}
    duels.update({n: Duel(None, False) for n in drawn})
    return Table(dict(sorted(duels.items())), m.result, m.result_ruling is not None)


def stands_details(
    conn: Connection, event_id: int, m: Match, table: Table, shown: str | None, entry: Any
) -> ResultThatStands:
    """The result that stands, as the 409 tells it: shown, who won, its entry, who and when."""
    who = names(conn, event_id)
    winner = m.a if table.result == "a" else m.b if table.result == "b" else None
    return {
        "round": m.round,
        "table": m.table,
        "result": table.result,
        "shown": shown,
        "winner": winner,
        "winner_name": who[winner].name if winner in who else winner,
        "duels": [
            {
                "duel": n,
                "winner": (m.a if d.winner == "a" else m.b if d.winner == "b" else None),
                "drawn": d.winner is None,
                "penalty": d.penalty,
            }
            for n, d in table.duels.items()
        ],
        "entry": entry.seq if entry else None,
        "by": entry.actor if entry else None,
        "at": entry.recorded_at if entry else None,
        "ruling": m.result_ruling,
    }


def _refuse(found: Verdict, details: ResultThatStands) -> None:
    params: dict[str, Any] = {"round": details["round"], "table": details["table"], "shown": details["shown"]}
    if found is Verdict.by_ruling:
        raise ResultStands(STANDS_BY_RULING, details=details, ruling=details["ruling"], **params)
    if found is Verdict.stands:
        if details["result"] == "draw":
            raise ResultStands(STANDS_DRAW, details=details, field="replaces", **params)
        raise ResultStands(
            STANDS_WON, details=details, field="replaces", winner=details["winner_name"], **params
        )
    if found is Verdict.nothing_stands:
        raise ResultStands(
            N_("round {round}, table {table} has no result to replace"),
            details=details,
            field="replaces",
            **params,
        )
    if found is Verdict.unchanged:
        raise InvalidInput(
            "round {round}, table {table} already stands at {shown}: the correction changes nothing",
            field="score",
            **params,
        )
    if found is Verdict.reason_missing:
        raise InvalidInput("say why the result is corrected", field="reason")
    if found is Verdict.head_judge_only:
        raise Forbidden(
            "the next round is paired: only the head judge corrects a result of round {round}",
            round=details["round"],
        )


def report_result(
    db: Database,
    event_id: int,
    round_no: int,
    table: int,
    wanted: Wanted,
    **asked: Unpack[Asked],
) -> ResultJson:
    """One table's result (T11): the first for its match, or a correction naming the
    result that stands and why; refused for a round not started (T5)."""
    check_reason((wanted.reason or "").strip() or None)
    return run_asked(
        db,
        event_id,
        Action.results,
        {"result": wanted.payload(), "round": round_no, "table": table},
        lambda conn, ap: record_report(conn, ap, event_id, round_no, table, wanted),
        replayed_result,
        **asked,
    )


def reported_match(conn: Connection, event_id: int, round_no: int, table: int) -> Match:
    """The match a report is for, once its round has started (T5) and it is not a bye."""
    row = paired_round(conn, event_id, round_no)
    if row.state is RoundState.paired:
        raise Conflict(
            "round {round} has not started: results are taken once its clock starts "
            "(or once the head judge ends it)",
            round=round_no,
        )
    m = match_at(conn, event_id, round_no, table)
    if m is None:
        raise NotFound("no match at table {table} in round {round}", table=table, round=round_no)
    if m.b is None:
        raise Refused("table {table} is a bye: it has no result to report", table=table)
    return m


def _outcome(conn: Connection, event_id: int, round_no: int, now_table: Table, report: Report) -> Outcome:
    """What the report makes of the match by the event's format (T7, T8; T10 in a playoff)."""
    chosen = read_format(conn, event_id)
    first_playoff = playoff_round(conn, event_id)
    in_playoff = first_playoff is not None and round_no >= first_playoff
    rule = AtTime.duels if in_playoff else chosen.at_time  # a playoff's scorekeeper reports its winner (T10)
    done = outcome(now_table, report, chosen.match_format, rule)
    if done.result is not None:
        check_result(first_playoff, round_no, done.result)
    return done


def check_score(conn: Connection, event_id: int, m: Match, wanted: Wanted) -> None:
    """Refuses a slip's score that cannot be this match's result by the event's format,
    before anything is written (a winner's report, T11)."""
    causes = {d.duel: d.cause for d in round_duels(conn, event_id, m.round) if d.table == m.table}
    _outcome(conn, event_id, m.round, _table(m, causes, m.drawn), _report(wanted, m))


def record_report(
    conn: Connection, ap: Appender, event_id: int, round_no: int, table: int, wanted: Wanted
) -> ResultJson:
    """Appends one table's report in the caller's command, after the checks of T5, T7–T8,
    T10 and T11; refused with the result that stands when one does."""
    reason = (wanted.reason or "").strip() or None
    m = reported_match(conn, event_id, round_no, table)
    causes = {d.duel: d.cause for d in round_duels(conn, event_id, round_no) if d.table == table}
    now_table = _table(m, causes, m.drawn)
    report = _report(wanted, m)
    history = table_results(conn, event_id, round_no, table)
    last = history[-1] if history else None
    found = verdict(
        now_table,
        report,
        replaces=wanted.replaces,
        replaces_entry=wanted.replaces_entry,
        standing_entry=last.seq if last else None,
        reason=reason,
        next_round_paired=paired_after(conn, event_id, round_no),
        head_judge=role_of(conn, event_id, ap.actor) is Role.head_judge,
    )
    if found not in (Verdict.first, Verdict.correction):
        _refuse(found, stands_details(conn, event_id, m, now_table, standing(now_table, report), last))
    done = _outcome(conn, event_id, round_no, now_table, report)
    seat = {"a": m.a, "b": m.b}
    shown = report.score.shown() if isinstance(report, ScoreReport) else None
    if isinstance(report, MatchReport):
        shown = report.result
    correction = found is Verdict.correction
    entry = ap.append(
        ResultReported(
            round_no,
            table,
            tuple(ReportedDuel(n, seat[w] if w else None) for n, w in done.duels),
            done.whole,
            done.result,
            done.at_time,
            shown,
            last.seq if correction and last else None,
            reason if correction else None,
        )
    )
    after = match_at(conn, event_id, round_no, table)
    assert after is not None
    causes = {d.duel: d.cause for d in round_duels(conn, event_id, round_no) if d.table == table}
    now_shown = _table(after, causes, after.drawn).shown()
    return {
        "round": round_no,
        "table": table,
        "result": done.result,
        "shown": now_shown,
        "at_time": done.at_time,
        "entry": entry.seq,
        "corrects": last.seq if correction and last else None,
        "correction": correction,
    }


def replayed_result(conn: Connection, entry: Entry) -> ResultJson:
    """A retry of a report already recorded: what it recorded."""
    b = entry.of(ResultReported)
    return {
        "round": b.round,
        "table": b.table,
        "result": b.result,
        "shown": b.shown,
        "at_time": b.at_time,
        "entry": entry.seq,
        "corrects": b.corrects,
        "correction": b.corrects is not None,
        "replayed": True,
    }


def table_state(db: Database, event_id: int, round_no: int, table: int) -> ResultThatStands | None:
    """The result that stands at a table (None while it is being played), as a 409 tells it."""
    with db.read() as conn:
        m = match_at(conn, event_id, round_no, table)
        if m is None or m.result is None:
            return None
        causes = {d.duel: d.cause for d in round_duels(conn, event_id, round_no) if d.table == table}
        t = _table(m, causes, m.drawn)
        history = table_results(conn, event_id, round_no, table)
        return stands_details(conn, event_id, m, t, t.shown(), history[-1] if history else None)


__all__ = ["Score", "Wanted", "check_score", "record_report", "report_result", "table_state"]


def end_open_tables(
    conn: Connection, ap: Appender, event_id: int, round_no: int, chosen: Mapping[int, OpenTable]
) -> list[int]:
    """Before a started round ends (T5, T8): every table still without a result has what it
    becomes said (``chosen``: a draw, or a loss for both where the format counts one), each
    recorded as its result in the same command; refused otherwise (:func:`why_no_end`), so
    that the next round can always be paired. The tables resolved, in order."""
    first_playoff = playoff_round(conn, event_id)
    playoff = first_playoff is not None and round_no >= first_playoff
    allowed = choices_at_end(read_format(conn, event_id).at_time, playoff=playoff)
    still = unfinished_tables(conn, event_id, round_no)
    refused = why_no_end(still, chosen, allowed)
    if refused is not None:
        tables = ", ".join(str(t) for t in refused.tables[:20])
        if refused.why is EndRefused.not_open:
            raise Conflict(
                "round {round} has no open match at tables {tables}", round=round_no, tables=tables
            )
        if refused.why is EndRefused.not_in_format:
            raise Conflict(
                "tables {tables}: this event's format gives no such result to a match still being "
                "played when its round ends (a loss for both only where a match at time counts so; "
                "none in a playoff, whose matches are won)",
                tables=tables,
            )
        raise Conflict(
            "round {round} still has matches without a result (tables {tables}): report them, "
            "or say for each what it becomes when the round ends",
            round=round_no,
            tables=tables,
        )
    for table in still:
        m = reported_match(conn, event_id, round_no, table)
        causes = {d.duel: d.cause for d in round_duels(conn, event_id, round_no) if d.table == table}
        if chosen[table] is OpenTable.both_lose:  # the duels as they stand, at time (T8)
            wanted = Wanted(score=_table(m, causes, m.drawn).score().shown(), at_time=True)
        else:
            wanted = Wanted(match="draw")
        record_report(conn, ap, event_id, round_no, table, wanted)
    return still
