"""Projections: what the entries mean for the tables people read.

:func:`apply` folds one entry into the projection tables. It decides nothing: the services
decided (with the engine) and wrote what happened into the entries; applying every entry of
an event in order to empty tables gives the tables again (``shinpan rebuild``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from shinpan import entries
from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.engine.event_rules import RoundState
from shinpan.guideline.search import normalize
from shinpan.romaji import search_forms, to_romaji
from shinpan.store.connection import Connection, Statement
from shinpan.store.entry import Entry

B = TypeVar("B", bound=entries.EntryBody)
_HANDLERS: dict[type[Any], Callable[[Connection, Entry, Any], None]] = {}

# The tables the entries project into (store.schema.PROJECTIONS, named here so that the
# projector runs without the schema's SQLAlchemy tables).
PROJECTION_TABLES = (
    "events", "judges", "players", "drafts", "rounds", "matches", "time_extensions", "duels", "rulings",
    "deadlines", "carried_losses", "statements", "appeals", "calls",
    "deck_rules", "decklists", "deck_checks",
)  # fmt: skip
_CLEAR = {t: Statement(f"DELETE FROM {t} WHERE event_id = :e") for t in PROJECTION_TABLES}


def handles(
    kind: type[B],
) -> Callable[[Callable[[Connection, Entry, B], None]], Callable[[Connection, Entry, B], None]]:
    """Register what an entry of this type does to the projections."""

    def register(fn: Callable[[Connection, Entry, B], None]) -> Callable[[Connection, Entry, B], None]:
        _HANDLERS[kind] = fn
        return fn

    return register


def apply(conn: Connection, entry: Entry) -> None:
    handler = _HANDLERS.get(type(entry.body))
    if handler is None:
        raise ValueError(f"entry {entry.seq}: no projection for {entry.kind!r}")
    handler(conn, entry, entry.body)


def clear(conn: Connection, event_id: int) -> None:
    """Empty every projection of one event (before applying its entries again)."""
    for statement in _CLEAR.values():
        statement.run(conn, {"e": event_id})


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


# -- the event and its people ---------------------------------------------------------

_INSERT_EVENT = Statement(
    "INSERT INTO events (event_id, uid, name, starts_on, ends_on, venue, rel, guideline_id, guideline_version, "
    "head_judge, confirmation_threshold, current_round, created_at, round_minutes, time_zone) VALUES (:e, :uid, "
    ":name, :starts_on, :ends_on, :venue, :rel, :gid, :gversion, :head, :threshold, 0, :at, :minutes, :zone)"
)
_INSERT_JUDGE = Statement(
    "INSERT INTO judges (event_id, name, level, role, account) VALUES (:e, :name, :level, :role, :account)"
)
_JUDGE = Statement("SELECT name FROM judges WHERE event_id = :e AND name = :name")
_SET_JUDGE = Statement("UPDATE judges SET level = :level, role = :role WHERE event_id = :e AND name = :name")
_CLAIM = Statement("UPDATE judges SET account = :account WHERE event_id = :e AND name = :name")
_INSERT_PLAYER = Statement(
    "INSERT INTO players (event_id, number, name, reading, club, status, status_ruling, search) "
    "VALUES (:e, :number, :name, :reading, :club, 'active', NULL, :search)"
)
_DROP = Statement(
    "UPDATE players SET status = 'dropped', status_ruling = NULL, dropped_round = :r "
    "WHERE event_id = :e AND number = :p"
)
_SET_STATUS = Statement(
    "UPDATE players SET status = :status, status_ruling = :cause WHERE event_id = :e AND number = :p"
)


_SET_FORMAT = Statement(
    "UPDATE events SET match_format = :f, time_out = :t, tiebreakers = :c, format_seed = :s WHERE event_id = :e"
)
_SET_PLAYOFF = Statement("UPDATE events SET playoff_round = :r WHERE event_id = :e AND playoff_round IS NULL")


@handles(entries.FormatSet)
def _format_set(conn: Connection, e: Entry, b: entries.FormatSet) -> None:
    """The format the event chose last (T7–T9), on its row."""
    _SET_FORMAT.run(
        conn, {"e": e.event_id, "f": b.match_format, "t": b.time_out, "c": b.tiebreakers, "s": b.seed}
    )


@handles(entries.PlayoffStarted)
def _playoff_started(conn: Connection, e: Entry, b: entries.PlayoffStarted) -> None:
    """The playoff's first round (T10), on the event's row; the bracket itself is read from
    its entry (:func:`shinpan.store.standings.playoff`), its rounds paired by their own entries."""
    _SET_PLAYOFF.run(conn, {"e": e.event_id, "r": b.round})


@handles(entries.EventPublished)
def _event_published(conn: Connection, e: Entry, b: entries.EventPublished) -> None:
    """Nothing to project: the players' pages read it from its entry (:mod:`shinpan.store.public`)."""


@handles(entries.EventImported)
def _event_imported(conn: Connection, e: Entry, b: entries.EventImported) -> None:
    """Nothing to project: the desk and the reports read it from its entry (:mod:`shinpan.store.imports`)."""


@handles(entries.WinnerReported)
def _winner_reported(conn: Connection, e: Entry, b: entries.WinnerReported) -> None:
    """Nothing to project: a winner's report waits in the ledger (:mod:`shinpan.store.winner_reports`)."""


@handles(entries.WinnerReportConfirmed)
def _winner_confirmed(conn: Connection, e: Entry, b: entries.WinnerReportConfirmed) -> None:
    """Nothing to project: the result entry that follows the confirmation is what counts."""


@handles(entries.EventCreated)
def _event_created(conn: Connection, e: Entry, b: entries.EventCreated) -> None:
    _INSERT_EVENT.run(
        conn,
        {
            "e": e.event_id,
            "uid": b.uid,
            "name": b.name,
            "starts_on": b.starts_on,
            "ends_on": b.ends_on,
            "venue": b.venue,
            "rel": b.rel,
            "gid": b.guideline.id,
            "gversion": b.guideline.version,
            "head": b.head_judge.name,
            "threshold": b.confirmation_threshold,
            "at": e.recorded_at,
            "minutes": b.round_minutes,
            "zone": b.time_zone or DEFAULT_TIME_ZONE,
        },
    )
    hj = b.head_judge
    _INSERT_JUDGE.run(
        conn,
        {"e": e.event_id, "name": hj.name, "level": hj.level, "role": "head_judge", "account": hj.account},
    )


@handles(entries.JudgeAdded)
def _judge_added(conn: Connection, e: Entry, b: entries.JudgeAdded) -> None:
    where = {"e": e.event_id, "name": b.name}
    if _JUDGE.first(conn, where):
        _SET_JUDGE.run(conn, {**where, "level": b.level, "role": b.role})
    else:
        _INSERT_JUDGE.run(conn, {**where, "level": b.level, "role": b.role, "account": b.account})


@handles(entries.JudgeClaimed)
def _judge_claimed(conn: Connection, e: Entry, b: entries.JudgeClaimed) -> None:
    """A seat made without an account, claimed with its one-time code."""
    _CLAIM.run(conn, {"e": e.event_id, "name": b.name, "account": b.account})


@handles(entries.JudgeSeated)
def _judge_seated(conn: Connection, e: Entry, b: entries.JudgeSeated) -> None:
    """An imported seat, given to the account the person importing named, or to none."""
    _CLAIM.run(conn, {"e": e.event_id, "name": b.name, "account": b.account})


_SEAL = Statement("UPDATE events SET sealed_entry = :s WHERE event_id = :e")
_REOPEN = Statement("UPDATE events SET sealed_entry = NULL, reopened_entry = :s WHERE event_id = :e")


@handles(entries.EventSealed)
def _event_sealed(conn: Connection, e: Entry, b: entries.EventSealed) -> None:
    """The seal in force, on the event's row: the event takes no command until it is
    reopened (what it signed is read from the ledger itself, :mod:`shinpan.store.heads`)."""
    _SEAL.run(conn, {"e": e.event_id, "s": e.seq})


@handles(entries.EventReopened)
def _event_reopened(conn: Connection, e: Entry, b: entries.EventReopened) -> None:
    _REOPEN.run(conn, {"e": e.event_id, "s": e.seq})


@handles(entries.PlayersImported)
def _players_imported(conn: Connection, e: Entry, b: entries.PlayersImported) -> None:
    _INSERT_PLAYER.run_many(
        conn,
        [
            {
                "e": e.event_id,
                "number": p.number,
                "name": p.name,
                "reading": p.reading or "",
                "club": p.club,
                "search": search_key(p.body()),
            }
            for p in b.players
        ],
    )


def search_key(p: dict[str, Any]) -> str:
    """What player search matches against: id, name and reading, normalised, and the romaji
    (Hepburn, and the one spelling of :func:`shinpan.romaji.search_forms`)."""
    reading = normalize(p.get("reading") or "")
    parts = [
        normalize(p["number"]),
        normalize(p["name"]),
        reading,
        to_romaji(reading),
        *search_forms(p.get("reading") or ""),
        normalize(p.get("club") or ""),
    ]
    return "\n".join(parts)


@handles(entries.PlayerDropped)
def _player_dropped(conn: Connection, e: Entry, b: entries.PlayerDropped) -> None:
    """The player left the event between rounds: never paired again."""
    _DROP.run(conn, {"e": e.event_id, "p": b.player, "r": b.round})


_CORRECT_PLAYER = Statement(
    "UPDATE players SET name = :name, reading = :reading, club = :club, search = :search "
    "WHERE event_id = :e AND number = :number"
)


@handles(entries.PlayerCorrected)
def _player_corrected(conn: Connection, e: Entry, b: entries.PlayerCorrected) -> None:
    fields = {"number": b.player, "name": b.name, "reading": b.reading, "club": b.club}
    _CORRECT_PLAYER.run(
        conn, {"e": e.event_id, **fields, "reading": b.reading or "", "search": search_key(fields)}
    )


@handles(entries.AttendanceMarked)
def _attendance_marked(conn: Connection, e: Entry, b: entries.AttendanceMarked) -> None:
    """Attendance before round 1 is read from the entries themselves
    (:func:`shinpan.store.roster.absent`): it projects into no table."""


@handles(entries.StatusChanged)
def _player_status(conn: Connection, e: Entry, b: entries.StatusChanged) -> None:
    _SET_STATUS.run(conn, {"e": e.event_id, "p": b.player, "status": str(b.status), "cause": b.cause_ruling})


# -- rounds, matches, duels -----------------------------------------------------------

_INSERT_MATCH = Statement(
    "INSERT INTO matches (event_id, round, table_no, player_a, player_b, result, ended_at, extensions) "
    "VALUES (:e, :r, :t, :a, :b, :result, :ended, 0)"
)
_DELETE_MATCHES = Statement(
    "DELETE FROM matches WHERE event_id = :e AND round = :r AND table_no IN (:tables)"
)
_INSERT_ROUND = Statement(
    f"INSERT INTO rounds (event_id, number, state, seed) VALUES (:e, :r, '{RoundState.paired}', :seed)"
)
_CURRENT_ROUND = Statement("UPDATE events SET current_round = :r WHERE event_id = :e")
_START = Statement(
    f"UPDATE rounds SET state = '{RoundState.started}', started_at = :at, minutes = :minutes "
    "WHERE event_id = :e AND number = :r"
)
_END = Statement(
    f"UPDATE rounds SET state = '{RoundState.ended}', ended_at = :at WHERE event_id = :e AND number = :r"
)
_INSERT_EXTENSION = Statement(
    "INSERT INTO time_extensions (event_id, entry_seq, round, table_no, minutes, reason, judge, given_at) "
    "VALUES (:e, :seq, :r, :t, :minutes, :reason, :judge, :at)"
)


def _insert_matches(conn: Connection, e: Entry, round_no: int, pairings: tuple[entries.Pairing, ...]) -> None:
    """New matches; a bye (no player b) is won by player a at once."""
    _INSERT_MATCH.run_many(
        conn,
        [
            {
                "e": e.event_id,
                "r": round_no,
                "t": p.table,
                "a": p.a,
                "b": p.b,
                "result": None if p.b else "a",
                "ended": None if p.b else e.recorded_at,
            }
            for p in pairings
        ],
    )


@handles(entries.RoundPaired)
def _round_paired(conn: Connection, e: Entry, b: entries.RoundPaired) -> None:
    _INSERT_ROUND.run(conn, {"e": e.event_id, "r": b.round, "seed": b.seed})
    _insert_matches(conn, e, b.round, b.pairings)
    _CURRENT_ROUND.run(conn, {"e": e.event_id, "r": b.round})


@handles(entries.PairingEdited)
def _pairing_edited(conn: Connection, e: Entry, b: entries.PairingEdited) -> None:
    """The head judge's new pairing of some tables of a round not started yet."""
    _DELETE_MATCHES.run(conn, {"e": e.event_id, "r": b.round, "tables": [p.table for p in b.pairings]})
    _insert_matches(conn, e, b.round, b.pairings)


@handles(entries.RoundStarted)
def _round_started(conn: Connection, e: Entry, b: entries.RoundStarted) -> None:
    _START.run(conn, {"e": e.event_id, "r": b.round, "at": e.recorded_at, "minutes": b.minutes})


@handles(entries.TimeExtended)
def _time_extended(conn: Connection, e: Entry, b: entries.TimeExtended) -> None:
    """Minutes a judge gave one table, with the reason."""
    _INSERT_EXTENSION.run(
        conn,
        {
            "e": e.event_id,
            "seq": e.seq,
            "r": b.round,
            "t": b.table,
            "minutes": b.minutes,
            "reason": b.reason,
            "judge": e.actor,
            "at": e.recorded_at,
        },
    )


@handles(entries.RoundEnded)
def _round_ended(conn: Connection, e: Entry, b: entries.RoundEnded) -> None:
    _END.run(conn, {"e": e.event_id, "r": b.round, "at": e.recorded_at})


# The entries every ruling makes run on the driver (see :class:`Statement`); ``e``, ``r``,
# ``t``, ``d`` are the event, round, table and duel.
_DELETE_DUEL = Statement(
    "DELETE FROM duels WHERE event_id = :e AND round = :r AND table_no = :t AND duel = :d"
)
_INSERT_DUEL = Statement(
    "INSERT INTO duels (event_id, round, table_no, duel, winner, cause_ruling) VALUES (:e, :r, :t, :d, :winner, :cause)"
)
_SET_RESULT = Statement(
    "UPDATE matches SET result = :outcome, result_ruling = :cause, ended_at = :ended "
    "WHERE event_id = :e AND round = :r AND table_no = :t"
)
_EXTEND = Statement(
    "UPDATE matches SET extensions = extensions + :delta WHERE event_id = :e AND round = :r AND table_no = :t"
)
_UNCARRY = Statement(
    "DELETE FROM carried_losses WHERE event_id = :e AND ruling = :ruling AND position = :position"
)
_CARRY = Statement(
    "INSERT INTO carried_losses (event_id, ruling, position, player, loss, state) "
    "VALUES (:e, :ruling, :position, :player, :loss, 'waiting')"
)


_SETTLE = Statement(
    "UPDATE carried_losses SET state = :state WHERE event_id = :e AND ruling = :ruling AND position = :position"
)


def _set_result(
    conn: Connection, e: Entry, round_no: int, table: int, result: str | None, cause: int | None
) -> None:
    _SET_RESULT.run(
        conn,
        {
            "e": e.event_id,
            "r": round_no,
            "t": table,
            "outcome": result,
            "cause": cause,
            "ended": e.recorded_at if result else None,
        },
    )


@handles(entries.DuelResult)
def _duel_result(conn: Connection, e: Entry, b: entries.DuelResult) -> None:
    where = {"e": e.event_id, "r": b.round, "t": b.table, "d": b.duel}
    _DELETE_DUEL.run(conn, where)
    if b.winner is not None:
        _INSERT_DUEL.run(conn, {**where, "winner": b.winner, "cause": b.cause_ruling})
    if b.decides:  # the service says whether this duel decided (or undid) the match
        _set_result(conn, e, b.round, b.table, b.match_result, None)


@handles(entries.MatchResult)
def _match_result(conn: Connection, e: Entry, b: entries.MatchResult) -> None:
    _set_result(conn, e, b.round, b.table, b.result, b.cause_ruling)


_CLEAR_HAND_DUELS = Statement(
    "DELETE FROM duels WHERE event_id = :e AND round = :r AND table_no = :t AND cause_ruling IS NULL"
)


@handles(entries.ResultReported)
def _result_reported(conn: Connection, e: Entry, b: entries.ResultReported) -> None:
    """The scorekeeper's report (T11): its duels (a drawn one has no winner), the result."""
    where = {"e": e.event_id, "r": b.round, "t": b.table}
    if b.whole:
        _CLEAR_HAND_DUELS.run(conn, where)
    for d in b.duels:
        _DELETE_DUEL.run(conn, {**where, "d": d.duel})
        _INSERT_DUEL.run(conn, {**where, "d": d.duel, "winner": d.winner, "cause": None})
    _set_result(conn, e, b.round, b.table, b.result, None)


@handles(entries.MatchExtended)
def _match_extended(conn: Connection, e: Entry, b: entries.MatchExtended) -> None:
    _EXTEND.run(conn, {"e": e.event_id, "r": b.round, "t": b.table, "delta": b.delta})


@handles(entries.LossCarried)
def _loss_carried(conn: Connection, e: Entry, b: entries.LossCarried) -> None:
    """A loss waiting for the player's next match; a deviation that keeps the loss carries it
    again under the same ruling and position (the earlier one was cancelled)."""
    where = {"e": e.event_id, "ruling": b.ruling, "position": b.position}
    _UNCARRY.run(conn, where)
    _CARRY.run(conn, {**where, "player": b.player, "loss": b.loss})


@handles(entries.LossSettled)
def _loss_settled(conn: Connection, e: Entry, b: entries.LossSettled) -> None:
    _SETTLE.run(conn, {"e": e.event_id, "ruling": b.ruling, "position": b.position, "state": b.state})


# The entries of rulings (their deadlines, statements, appeals), judge calls (T14), decklists
# and deck checks (T13) register their projections there.
from shinpan.store import projector_calls, projector_decks, projector_rulings  # noqa: E402, F401
