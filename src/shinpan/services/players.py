"""The players of an event as the head judge and the scorekeeper keep them: a CSV file
previewed before it is imported (read by the CLI's reader, all or nothing), a late entrant,
a name or reading corrected, attendance before round 1, a drop. Every change is an entry.

A player typed into a form is read as a one-line CSV file by the same reader
(:func:`shinpan.files.csvio.parse_players`): a name, a reading in kana, a club and an id are
checked alike wherever they come from.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Unpack

from shinpan.engine.event_rules import Action, Status, may_mark_attendance
from shinpan.engine.participants import normalize_id
from shinpan.entries import AttendanceMarked, PlayerCorrected
from shinpan.errors import InvalidInput, NotFound, Refused
from shinpan.files.csvio import CsvError, CsvProblem, PlayerRow, decode, parse_players
from shinpan.services import events
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import Event, load_event
from shinpan.services.shapes import (
    AttendanceJson,
    PlayerCorrectedJson,
    attendance_json,
    player_corrected_json,
)
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender
from shinpan.store.players import PlayerRecord, player
from shinpan.store.public import handles
from shinpan.store.registration import absent, every_player
from shinpan.store.roster import statuses

__all__ = [
    "FORM_COLUMNS",
    "Preview",
    "Registry",
    "add_player",
    "correct_player",
    "event_of",
    "form_row",
    "import_file",
    "mark_attendance",
    "preview_import",
    "registry",
]


@dataclass(frozen=True)
class Preview:
    """What importing a file would add, or every problem with it (nothing is written)."""

    rows: tuple[PlayerRow, ...]
    problems: tuple[CsvProblem, ...]
    total: int  # problems, counting those not listed
    encoding: str | None  # "utf-8", "utf-8-sig" or "cp932"; None: not read

    @property
    def ok(self) -> bool:
        return not self.problems


def _registered(db: Database, event_id: int) -> set[str]:
    with db.read() as conn:
        load_event(conn, event_id)
        return set(statuses(conn, event_id))


def preview_import(db: Database, event_id: int, data: bytes) -> Preview:
    """The rows of ``data`` as they would be imported, or every problem by line (an id
    already registered at the event included). Writes nothing."""
    taken = _registered(db, event_id)
    try:
        _, encoding = decode(data)
        rows = parse_players(data, taken)
    except CsvError as e:
        return Preview((), tuple(e.problems), e.total, None)
    return Preview(tuple(rows), (), 0, encoding)


def import_file(
    db: Database,
    event_id: int,
    data: bytes,
    **asked: Unpack[Asked],
) -> int:
    """Import the players of ``data``: all of them, or none (CsvError: every problem of the
    file; Conflict: one of them is registered already). A command sent again returns what it
    did the first time."""
    return events.import_players(db, event_id, parse_players(data), **asked)


# The columns of a player typed into a form, as a one-line CSV file names them.
FORM_COLUMNS = ("番号", "名前", "フリガナ", "所属", "ハンドル")


def form_row(number: str, name: str, reading: str, club: str, handle: str = "") -> PlayerRow:
    """A player typed into a form, checked as a CSV row is (CsvError naming the column); a late
    entrant's handle too, shown on the players' pages of an event that shows handles (T12)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerows([FORM_COLUMNS, (number, name, reading, club, handle)])
    return parse_players(out.getvalue().encode("utf-8"))[0]


def add_player(
    db: Database,
    event_id: int,
    row: PlayerRow,
    **asked: Unpack[Asked],
) -> None:
    """A late entrant: registered like an imported player (one entry), paired from the
    next round paired."""
    events.import_players(db, event_id, [row], **asked)


def _found(conn: Connection, event_id: int, number: str) -> PlayerRecord:
    found = player(conn, event_id, number)
    if found is None:
        raise NotFound("no player {player} in event {event}", field="player", player=number, event=event_id)
    return found


def correct_player(
    db: Database,
    event_id: int,
    row: PlayerRow,
    **asked: Unpack[Asked],
) -> PlayerCorrectedJson:
    """The player ``row.number``'s name, reading and club as ``row`` writes them."""
    number = normalize_id(row.number)
    corrected = PlayerCorrected(number, row.name, row.reading or None, row.club, row.handle or None)

    def act(conn: Connection, ap: Appender) -> PlayerCorrectedJson:
        was = _found(conn, event_id, number)
        same_handle = row.handle is None or row.handle == handles(conn, event_id).get(number)
        if same_handle and (was.name, was.reading or None, was.club) == (
            row.name,
            row.reading or None,
            row.club,
        ):
            raise InvalidInput("nothing was changed", field="name")
        ap.append(corrected)
        return player_corrected_json(corrected)

    return run_asked(
        db,
        event_id,
        Action.roster,
        corrected.body(),
        act,
        lambda _conn, entry: player_corrected_json(entry.of(PlayerCorrected)),
        **asked,
    )


def mark_attendance(
    db: Database,
    event_id: int,
    number: str,
    present: bool,
    **asked: Unpack[Asked],
) -> AttendanceJson:
    """Before round 1: the player is here, or not (not paired; still absent when round 1
    is paired, they drop before it)."""
    number = normalize_id(number)
    marked = AttendanceMarked(number, present)

    def act(conn: Connection, ap: Appender) -> AttendanceJson:
        event = load_event(conn, event_id)
        if not may_mark_attendance(event.current_round):
            raise Refused("attendance is taken before round 1 is paired", field="player")
        found = _found(conn, event_id, number)
        if Status(found.status) is not Status.active:
            raise Refused("{player} is no longer in the event", field="player", player=number)
        ap.append(marked)
        return attendance_json(marked)

    return run_asked(
        db,
        event_id,
        Action.roster,
        marked.body(),
        act,
        lambda _conn, entry: attendance_json(entry.of(AttendanceMarked)),
        **asked,
    )


@dataclass(frozen=True)
class Registry:
    """The players page's read: the event, every player, who is marked absent."""

    event: Event
    players: list[PlayerRecord]
    absent: set[str]
    handles: dict[str, str] = field(default_factory=dict)  # each player's handle, where registered

    @property
    def attendance_open(self) -> bool:
        return may_mark_attendance(self.event.current_round)


def registry(db: Database, event_id: int) -> Registry:
    with db.read() as conn:
        event = load_event(conn, event_id)
        return Registry(event, every_player(conn, event_id), absent(conn, event_id), handles(conn, event_id))


def named(db: Database, event_id: int, number: str) -> str:
    """How a message names a player: by name, with the number from the entry list
    ("山田 太郎 (1005)"); the number alone for one not registered."""
    with db.read() as conn:
        found = player(conn, event_id, normalize_id(number))
    return f"{found.name} ({found.number})" if found is not None else number


def event_of(db: Database, event_id: int) -> Event:
    """The event (its name, its round) for a page about it."""
    with db.read() as conn:
        return load_event(conn, event_id)
