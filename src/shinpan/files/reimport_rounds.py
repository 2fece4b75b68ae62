"""The replays of the round and result commands for an import (the format, the playoff, the
pairings and their edits, a round's start, time and end, results, a drop): each first entry
handed to its live service, which decides again (registered with
:func:`shinpan.files.reimport.replays`; imported by that module)."""

from __future__ import annotations

from collections.abc import Sequence

from shinpan import entries
from shinpan.engine.effects import plan_reported_duel
from shinpan.engine.event_rules import Action
from shinpan.errors import InvalidInput, NotFound
from shinpan.files.csvio import PairingRow
from shinpan.files.reimport import _as, _by, _NotACommand, replays
from shinpan.services import calls as judge_calls
from shinpan.services import (
    events,
    formats,
    playoff,
    rounds,
    self_service,
    swiss,
)
from shinpan.services.codes import player_codes
from shinpan.services.commands import no_answer, run_command
from shinpan.services.context import parse_stamp
from shinpan.services.effects import append_effects
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry, read_entries
from shinpan.store.snapshots import match_at
from shinpan.store.standings import playoff as playoff_of


@replays(entries.FormatSet)
def _format(db: Database, e: int, entry: Entry, b: entries.FormatSet, _: Sequence[Entry]) -> None:
    formats.set_format(
        db,
        e,
        match_format=b.match_format,
        time_out=b.time_out,
        tiebreakers=b.tiebreakers,
        seed=b.seed,
        **_as(entry),
    )


@replays(entries.PlayoffStarted)
def _playoff(db: Database, e: int, entry: Entry, b: entries.PlayoffStarted, _: Sequence[Entry]) -> None:
    playoff.start_playoff(db, e, b.size, third_place=b.third_place, seed=b.seed, **_as(entry))


@replays(entries.RoundPaired)
def _paired(db: Database, e: int, entry: Entry, b: entries.RoundPaired, _: Sequence[Entry]) -> None:
    with db.read() as conn:
        started = playoff_of(conn, e)
    if started is not None and b.round > started.round:  # the playoff's next round, from its bracket
        playoff.pair_playoff_round(db, e, **_as(entry))
    elif b.seed is not None:  # paired by shinpan's Swiss pairing, with this seed
        swiss.pair_next_round(db, e, seed=b.seed, **_as(entry))
    else:
        rows = [PairingRow(p.table, p.a, p.b) for p in b.pairings]
        events.import_pairings(db, e, b.round, rows, **_as(entry))


@replays(entries.PairingEdited)
def _edited(db: Database, e: int, entry: Entry, b: entries.PairingEdited, _: Sequence[Entry]) -> None:
    tables = [swiss.TableChange(p.table, p.a, p.b) for p in b.pairings]
    swiss.edit_pairings(db, e, tables, b.reason, **_as(entry))


@replays(entries.RoundStarted)
def _started(db: Database, e: int, entry: Entry, b: entries.RoundStarted, _: Sequence[Entry]) -> None:
    rounds.start_round(db, e, minutes=b.minutes, **_as(entry))


@replays(entries.TimeExtended)
def _time(db: Database, e: int, entry: Entry, b: entries.TimeExtended, _: Sequence[Entry]) -> None:
    rounds.give_time(db, e, b.table, b.minutes, b.reason, round_no=b.round, **_by(entry))


@replays(entries.RoundEnded)
def _ended(db: Database, e: int, entry: Entry, b: entries.RoundEnded, _: Sequence[Entry]) -> None:
    # The tables an end resolved are results of their own, replayed before it; a ledger from
    # before that rule ended rounds with tables open, and keeps them so.
    events.end_round(db, e, b.round, before_t5=_before_t5(db, e), keep_open=True, **_as(entry))


def _before_t5(db: Database, e: int) -> bool:
    """Whether the event was recorded by a shinpan older than T5: it holds results reported by
    hand as ``duel.result`` or ``match.result`` (a newer one writes ``result.reported``)."""
    with db.read() as conn:
        for found in read_entries(conn, e):
            body = found.body
            if isinstance(body, entries.MatchResult) and body.by_hand:
                return True
            if isinstance(body, entries.DuelResult) and body.cause_ruling is None and body.winner is not None:
                return True
    return False


# Events recorded before ``result.reported`` kept a hand-reported duel as ``duel.result`` and a
# result without duels as ``match.result``, without T5's and T11's checks (they were not
# rules yet): such an entry is decided again as shinpan decided it then (D10's planner).


def _legacy(db: Database, e: int, entry: Entry, b: entries.DuelResult | entries.MatchResult) -> None:
    def act(conn: Connection, ap: Appender) -> None:
        m = match_at(conn, e, b.round, b.table)
        if m is None or m.b is None:
            raise NotFound("no match at table {table} in round {round}", table=b.table, round=b.round)
        if isinstance(b, entries.MatchResult):
            ap.append(entries.MatchResult(b.round, b.table, b.result, by_hand=True))
        elif b.winner is not None and b.winner in (m.a, m.b):
            append_effects(ap, [plan_reported_duel(m, b.duel, b.winner)])
        else:
            raise InvalidInput("the winner must be one of the match's players", field="winner")

    payload = {"legacy": entry.kind, "round": b.round, "table": b.table}
    run_command(
        db,
        e,
        Action.results,
        entry.actor,
        entry.command_id,
        payload,
        act,
        parse_stamp(entry.recorded_at),
        no_answer,
    )


@replays(entries.DuelResult)
def _duel(db: Database, e: int, entry: Entry, b: entries.DuelResult, _: Sequence[Entry]) -> None:
    if b.cause_ruling is not None or b.winner is None:
        raise _NotACommand()  # a ruling's effect, or its undoing
    _legacy(db, e, entry, b)


@replays(entries.MatchResult)
def _match(db: Database, e: int, entry: Entry, b: entries.MatchResult, _: Sequence[Entry]) -> None:
    if not b.by_hand:
        raise _NotACommand()
    _legacy(db, e, entry, b)


@replays(entries.PlayerDropped)
def _dropped(db: Database, e: int, entry: Entry, b: entries.PlayerDropped, _: Sequence[Entry]) -> None:
    if entry.actor == judge_calls.PLAYER:  # the player's own, with the code their id gives
        with db.read() as conn:
            code = player_codes(db, conn, e, [b.player])[b.player]
        at = parse_stamp(entry.recorded_at)
        self_service.drop_myself(db, e, b.player, code, command_id=entry.command_id, now=at)
        return
    swiss.drop_player(db, e, b.player, **_as(entry))
