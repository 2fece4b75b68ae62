"""An export decided again: every command of an exported event replayed through the live
services into a new event, and what they append compared with the export.

A hash chain proves that a file was not changed after it was made, not that what it says
was decided by shinpan: whoever rewrites a ruling can recompute every hash. So an import
keeps no entry as the file says it. Each command the file holds (the entry that carries its
command id, or the event's creation) is run again by the service a judge's command runs
through, with the file's actor, time and command id, into the new event: the engine decides
the rulings, plans their effects and re-derives corrections as it did live. What the
service appends must be the file's entries, field by field, hash for hash; the first
difference refuses the import, naming the entry and the field (:class:`Differs`).

Which service replays which command is :data:`COMMANDS`, keyed by the type of the
command's first entry: one line per command, each handing the entry's fields to the live
service. An entry that only follows from a command (a status changed, a loss carried, an
effect of a ruling) has no line: found where a command should begin, it is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, TypedDict, TypeVar

from shinpan import entries
from shinpan.engine.event_rules import Role
from shinpan.errors import InvalidInput, NotFound, ShinpanError, StorageError
from shinpan.files.csvio import PlayerRow
from shinpan.files.guidelines import held_guideline
from shinpan.services import calls as judge_calls
from shinpan.services import (
    events,
    formats,
    players,
    publish,
    reopen,
    results,
    winner_reports,
)
from shinpan.services.closed import IMPORTING
from shinpan.services.codes import match_codes
from shinpan.services.commands import REPLAYED_HASH
from shinpan.services.context import parse_stamp
from shinpan.store.connection import IntegrityViolation
from shinpan.store.db import Database
from shinpan.store.events import judge_seat
from shinpan.store.ledger import Appender, Entry, read_entries
from shinpan.store.public import published
from shinpan.tournament.formats import parse_format

Replay = Callable[[Database, int, Entry, Sequence[Entry]], object]


class Differs(InvalidInput):
    """The export says something shinpan does not decide: refused, nothing imported."""


_DIFFERS = (
    "取り込めません: {n}番目の記録 ({kind}) の {part} が、shinpan が判定し直した結果と違います"
    "(ファイル: {found}、判定し直し: {decided})。ファイルは書き換えられています / "
    "import refused: entry {n} ({kind}) differs in {part} from what shinpan decides again "
    "(in the file: {found}; decided again: {decided}); the file was altered"
)
_UNDECIDABLE = (
    "取り込めません: {n}番目の記録 ({kind}) を判定し直せません: {problem} / "
    "import refused: entry {n} ({kind}) cannot be decided again: {problem}"
)
_NOT_A_COMMAND = (
    "取り込めません: {n}番目の記録 ({kind}) は、どの操作も最初に書く記録ではありません / "
    "import refused: entry {n} ({kind}) is not what any command writes first"
)
_WROTE_NOTHING = "その操作の ID は前に使われています / its command id was used before"
_MISSING = (
    "取り込めません: 判定し直すと {n}番目に記録 ({kind}) が続きますが、ファイルはその前で終わっています / "
    "import refused: deciding again adds entry {n} ({kind}), which the file lacks"
)


# -- one function per command: the entry's fields handed to the live service -----------------

COMMANDS: dict[type[Any], Replay] = {}
# The kinds no command writes first: they only follow from one (a ruling's effects, their undoing).
FOLLOWS_ONLY = frozenset({"player.status", "match.extended", "loss.carried", "loss.settled"})
K = TypeVar("K", bound=entries.EntryBody)


def replays(kind: type[K]) -> Callable[[Callable[[Database, int, Entry, K, Sequence[Entry]], object]], None]:
    """Registers the replay of the command whose first entry is a ``kind``."""

    def register(replay: Callable[[Database, int, Entry, K, Sequence[Entry]], object]) -> None:
        COMMANDS[kind] = lambda db, e, entry, following: replay(db, e, entry, entry.of(kind), following)

    return register


class Acting(TypedDict):
    """Who acted, with which command id and when: what a replayed command passes on."""

    actor: str
    command_id: str | None
    now: datetime


class Judging(TypedDict):
    judge: str
    command_id: str | None
    now: datetime


def _as(entry: Entry) -> Acting:
    """The acting judge, the command id and the time, for the services that say ``actor``."""
    return {"actor": entry.actor, "command_id": entry.command_id, "now": parse_stamp(entry.recorded_at)}


def _by(entry: Entry) -> Judging:
    """The same, for the services that say ``judge``."""
    return {"judge": entry.actor, "command_id": entry.command_id, "now": parse_stamp(entry.recorded_at)}


@replays(entries.EventCreated)
def _created(db: Database, e: int, entry: Entry, b: entries.EventCreated, following: Sequence[Entry]) -> None:
    made = events.new_event(
        name=b.name,
        head_judge=b.head_judge.name,
        head_judge_level=b.head_judge.level,
        head_judge_account=b.head_judge.account,
        starts_on=b.starts_on,
        ends_on=b.ends_on,
        venue=b.venue,
        rel=b.rel,
        confirmation_threshold=b.confirmation_threshold,
        round_minutes=b.round_minutes,
        time_zone=b.time_zone,
        uid=b.uid,
        guideline=held_guideline(b.guideline.id, b.guideline.version, b.guideline.sha256),
    )
    made = replace(made, guideline=b.guideline)  # as written (an old entry keeps no hash)
    if b.time_zone is None:  # an event made before time zones: the default zone, said by leaving it out
        made = replace(made, time_zone=None)
    with db.write(None) as conn:
        opened = events.open_event(conn, e, made, entry.recorded_at)
        chosen = following[0].body if following and following[0].command_id is None else None
        if isinstance(chosen, entries.FormatSet):  # the format chosen at creation, in the same write
            parsed = parse_format(chosen.match_format, chosen.time_out, chosen.tiebreakers)
            formats.open_format(conn, e, opened, parsed, chosen.seed)


@replays(entries.JudgeAdded)
def _judge(db: Database, e: int, entry: Entry, b: entries.JudgeAdded, _: Sequence[Entry]) -> None:
    events.add_judge(db, e, name=b.name, level=b.level, role=Role(b.role), account=b.account, **_as(entry))


@replays(entries.JudgeClaimed)
def _claimed(db: Database, e: int, entry: Entry, b: entries.JudgeClaimed, _: Sequence[Entry]) -> None:
    at = parse_stamp(entry.recorded_at)
    events.claim_seat(db, e, b.name, b.account, command_id=entry.command_id, now=at)


@replays(entries.JudgeSeated)
def _seated(db: Database, e: int, entry: Entry, b: entries.JudgeSeated, _: Sequence[Entry]) -> None:
    """An earlier import's binding of a seat: kept in the chain as it was; what this
    import binds is appended after the whole file (:func:`shinpan.files.transfer.import_event`)."""
    with db.write(e) as conn:
        if judge_seat(conn, e, b.name) is None:
            raise NotFound("{judge} is not a judge of event {event}", judge=b.name, event=e)
        Appender(conn, e, entry.actor, entry.recorded_at).append(b, refs=entry.refs)  # as the import wrote it


@replays(entries.PlayersImported)
def _players(db: Database, e: int, entry: Entry, b: entries.PlayersImported, _: Sequence[Entry]) -> None:
    rows = [PlayerRow(p.number, p.name, p.reading or "", p.club, p.handle) for p in b.players]
    events.import_players(db, e, rows, **_as(entry))


@replays(entries.ResultReported)
def _result(db: Database, e: int, entry: Entry, b: entries.ResultReported, _: Sequence[Entry]) -> None:
    """The report as the scorekeeper gave it: a slip's score, a result without duels, or one duel."""
    if b.shown is not None and "-" in b.shown:
        wanted = results.Wanted(score=b.shown, at_time=b.at_time)
    elif b.shown is not None:
        wanted = results.Wanted(match=b.shown)
    elif len(b.duels) == 1:
        duel = b.duels[0]
        wanted = results.Wanted(duel=duel.duel, winner=duel.winner, draw=duel.winner is None)
    else:
        raise InvalidInput("a result entry that no report makes", field="result")
    wanted = replace(wanted, replaces_entry=b.corrects, reason=b.reason)
    results.report_result(db, e, b.round, b.table, wanted, **_as(entry))


@replays(entries.WinnerReported)
def _winner_reported(
    db: Database, e: int, entry: Entry, b: entries.WinnerReported, _: Sequence[Entry]
) -> None:
    """With the code the event's secret gives the table (the file holds no code)."""
    with db.read() as conn:
        code = match_codes(db, conn, e, b.round, [b.table])[b.table]
    at = parse_stamp(entry.recorded_at)
    winner_reports.report_win(
        db, e, b.round, b.table, code, b.score, at_time=b.at_time, command_id=entry.command_id, now=at
    )


@replays(entries.WinnerReportConfirmed)
def _winner_confirmed(
    db: Database, e: int, entry: Entry, b: entries.WinnerReportConfirmed, _: Sequence[Entry]
) -> None:
    winner_reports.confirm_report(db, e, b.report, **_as(entry))


@replays(entries.EventPublished)
def _published(db: Database, e: int, entry: Entry, b: entries.EventPublished, _: Sequence[Entry]) -> None:
    """The head judge's publishing; or, without a command, an earlier import closing the
    event to its players (:func:`shinpan.files.transfer.import_event`): kept as the file
    says when the event is published (closing it grants nothing)."""
    if entry.command_id is None and b.token is None and not b.winner_report:
        with db.write(e) as conn:
            now = published(conn, e)
            if now is None or now.token is None or now.names != b.names:
                raise InvalidInput("an unpublishing that follows no publication", field="token")
            Appender(conn, e, entry.actor, entry.recorded_at).append(b, refs=[])
        return
    publish.publish(
        db, e, names=b.names, off=b.token is None, winner_report=b.winner_report, token=b.token, **_as(entry)
    )


@replays(entries.EventSealed)
def _sealed(db: Database, e: int, entry: Entry, b: entries.EventSealed, _: Sequence[Entry]) -> None:
    """A seal is signed by the installation that made it, with its key: it cannot be made
    again here. The import checked it against the entries before it (``seals.check_export``);
    it is kept as the file says, where the file has it."""
    with db.write(e) as conn:
        appender = Appender(
            conn,
            e,
            entry.actor,
            entry.recorded_at,
            command_id=entry.command_id,
            command_hash=entry.command_hash,
        )
        appender.append(b, refs=entry.refs)


@replays(entries.EventReopened)
def _reopened(db: Database, e: int, entry: Entry, b: entries.EventReopened, _: Sequence[Entry]) -> None:
    reopen.reopen_event(db, e, b.reason, **_as(entry))


@replays(entries.EventImported)
def _imported(db: Database, e: int, entry: Entry, b: entries.EventImported, _: Sequence[Entry]) -> None:
    """An earlier import's note of its file: kept as the file says (it decides nothing; this
    import appends its own note after the whole file, which the desk and reports read)."""
    with db.write(e) as conn:
        Appender(conn, e, entry.actor, entry.recorded_at).append(b, refs=[])


@replays(entries.CallRaised)
def _call_raised(db: Database, e: int, entry: Entry, b: entries.CallRaised, _: Sequence[Entry]) -> None:
    if entry.actor == judge_calls.PLAYER:
        at = parse_stamp(entry.recorded_at)
        judge_calls.raise_call_as_player(db, e, b.table, b.reason, command_id=entry.command_id, now=at)
        return
    judge_calls.raise_call(db, e, b.table, b.reason, **_by(entry))


@replays(entries.CallClaimed)
def _call_claimed(db: Database, e: int, entry: Entry, b: entries.CallClaimed, _: Sequence[Entry]) -> None:
    judge_calls.claim_call(db, e, b.call, **_by(entry))


@replays(entries.CallEscalated)
def _call_escalated(db: Database, e: int, entry: Entry, b: entries.CallEscalated, _: Sequence[Entry]) -> None:
    judge_calls.escalate_call(db, e, b.call, **_by(entry))


@replays(entries.CallResolved)
def _call_resolved(db: Database, e: int, entry: Entry, b: entries.CallResolved, _: Sequence[Entry]) -> None:
    """The minutes as given (the proposal then is what the file says was confirmed)."""
    resolution = judge_calls.Resolution(b.outcome, b.rulings, b.minutes, b.reason, seen=b.minutes)
    judge_calls.resolve_call(db, e, b.call, resolution, **_by(entry))


@replays(entries.PlayerCorrected)
def _corrected(db: Database, e: int, entry: Entry, b: entries.PlayerCorrected, _: Sequence[Entry]) -> None:
    players.correct_player(
        db, e, PlayerRow(b.player, b.name, b.reading or "", b.club, b.handle), **_as(entry)
    )


@replays(entries.AttendanceMarked)
def _attendance(db: Database, e: int, entry: Entry, b: entries.AttendanceMarked, _: Sequence[Entry]) -> None:
    players.mark_attendance(db, e, b.player, b.present, **_as(entry))


# -- the replay and the comparison ------------------------------------------------------------


class _NotACommand(Exception):
    """This entry only follows from a command; no command writes it first."""


def replay_export(db: Database, event_id: int, exported: Sequence[Entry]) -> None:
    """Run every command of ``exported`` (its hashes checked already) again into the new
    event ``event_id`` through ``db`` (one transaction: :class:`~shinpan.store.held.HeldTransaction`);
    :class:`Differs` at the first entry that is not what the services append."""
    done = 0
    while done < len(exported):
        entry = exported[done]
        _run(db, event_id, entry, exported[done + 1 :], done + 1)
        with db.read() as conn:
            made = list(read_entries(conn, event_id, after=done))
        if not made:  # a command id used before: the service answers with the first use
            raise Differs(_UNDECIDABLE, n=done + 1, kind=entry.kind, problem=_WROTE_NOTHING)
        for k, ours in enumerate(made):
            n = done + k + 1
            if n > len(exported):
                raise Differs(_MISSING, n=n, kind=ours.kind)
            _compare(n, exported[n - 1], ours)
        done += len(made)


def _run(db: Database, event_id: int, entry: Entry, following: Sequence[Entry], n: int) -> None:
    replay = COMMANDS.get(type(entry.body))
    if replay is None:
        raise Differs(_NOT_A_COMMAND, n=n, kind=entry.kind)
    with db.write(event_id) as conn:
        if entry.command_hash is not None:
            conn.info[REPLAYED_HASH] = entry.command_hash
        conn.info[IMPORTING] = True  # what the file holds after a seal is restored too
        try:
            replay(db, event_id, entry, following)
        except _NotACommand:
            raise Differs(_NOT_A_COMMAND, n=n, kind=entry.kind) from None
        except StorageError:
            raise
        except (
            ShinpanError,
            IntegrityViolation,  # a key the database holds once, used twice
            ValueError,
            TypeError,
            KeyError,
            IndexError,
            AttributeError,
            AssertionError,
        ) as e:
            problem = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise Differs(_UNDECIDABLE, n=n, kind=entry.kind, problem=problem) from None
        finally:
            conn.info.pop(REPLAYED_HASH, None)
            conn.info.pop(IMPORTING, None)


_ENVELOPE = ("seq", "actor", "recorded_at", "refs", "command_id", "command_hash", "prev_hash", "hash")


def _compare(n: int, exported: Entry, ours: Entry) -> None:
    """The first field where the file's entry is not the one deciding again made."""
    if exported.kind != ours.kind:
        raise Differs(_DIFFERS, n=n, kind=exported.kind, part="kind", found=exported.kind, decided=ours.kind)
    where = _first_difference(exported.written, ours.written, "")
    if where is not None:
        path, found, decided = where
        raise Differs(
            _DIFFERS,
            n=n,
            kind=exported.kind,
            part=path or "body",
            found=_shown(found),
            decided=_shown(decided),
        )
    for name in _ENVELOPE:
        found, decided = getattr(exported, name), getattr(ours, name)
        if found != decided:
            raise Differs(
                _DIFFERS, n=n, kind=exported.kind, part=name, found=_shown(found), decided=_shown(decided)
            )


_ABSENT = object()


def _first_difference(found: Any, decided: Any, path: str) -> tuple[str, Any, Any] | None:
    """Where two JSON values first differ, as a path (``rulings[0].penalties``), with both values."""
    if isinstance(found, dict) and isinstance(decided, dict):
        for key in sorted(set(found) | set(decided)):
            inner = f"{path}.{key}" if path else key
            a, b = found.get(key, _ABSENT), decided.get(key, _ABSENT)
            if a is _ABSENT or b is _ABSENT:
                return (inner, a, b)
            where = _first_difference(a, b, inner)
            if where is not None:
                return where
        return None
    if isinstance(found, list) and isinstance(decided, list):
        for i, (a, b) in enumerate(zip(found, decided, strict=False)):
            where = _first_difference(a, b, f"{path}[{i}]")
            if where is not None:
                return where
        if len(found) != len(decided):
            return (path, found, decided)
        return None
    same = found == decided and type(found) is type(decided)
    return None if same else (path, found, decided)


def _shown(value: Any) -> str:
    if value is _ABSENT:
        return "(なし / none)"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True) if not isinstance(value, str) else value
    return text if len(text) <= 120 else text[:117] + "..."


# The round and result commands, the ruling commands, and the decklist and deck-check
# commands (T13) register their replays there.
from shinpan.files import reimport_decks, reimport_rounds, reimport_rulings  # noqa: E402, F401
