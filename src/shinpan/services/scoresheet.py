"""The scorekeeper's sheet of one round: who plays whom (names and readings), each duel and
result with the ruling behind it, the round's clock and each table's time, what waits for
the head judge (D17), and the standings — read in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from shinpan.engine.event_rules import AWAITS_CONFIRMATION, RoundState
from shinpan.services.context import Event, load_event, parse_stamp, stamp
from shinpan.services.formats import read_format
from shinpan.services.rounds import RoundClock, TableClock, read_clock
from shinpan.services.winner_reports import WinnerReport, pending_reports
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.roster import active_players, names
from shinpan.store.rounds import round_duels, round_matches
from shinpan.store.rulings import Cause, awaiting_confirmation, causes
from shinpan.store.standings import playoff_round
from shinpan.tournament import recommended_rounds
from shinpan.tournament.formats import AtTime, MatchFormat, offered_scores
from shinpan.tournament.results import Duel as SeatDuel
from shinpan.tournament.results import Table as SeatTable
from shinpan.tournament.rounds import OpenTable, choices_at_end
from shinpan.views.standings import Table, read_standings


@dataclass(frozen=True)
class Person:
    number: str
    name: str
    reading: str
    pending: tuple[str, ...] = ()  # ejection/disqualification waiting for the head judge (D17)


@dataclass(frozen=True)
class Duel:
    number: int
    winner: Person | None  # None: a drawn duel
    cause: Cause | None  # a penalty's duel loss


@dataclass(frozen=True)
class Row:
    table: int
    a: Person
    b: Person | None  # None: the bye
    duels: list[Duel]
    result: str | None  # a | b | draw | None while playing
    cause: Cause | None  # the ruling that decided the result (a match loss, leaving, a draw)
    clock: TableClock | None

    @property
    def winner(self) -> Person | None:
        return self.a if self.result == "a" else self.b if self.result == "b" else None

    @property
    def shown(self) -> str | None:
        """The result as a scorekeeper reads it and names it to correct it (T11): the score
        (2-1, 1-1-1) when the match has duels, else a, b or draw; None while it is played."""
        seats = {self.a.number: "a", self.b.number if self.b else "": "b"}
        duels = {d.number: SeatDuel(seats.get(d.winner.number) if d.winner else None) for d in self.duels}
        return SeatTable(duels, self.result).shown()


@dataclass(frozen=True)
class Sheet:
    event: Event
    round: int
    current_round: int
    rows: list[Row]
    clock: RoundClock
    standings: Table
    people: dict[str, Person]
    active: list[Person]  # who may still drop
    recommended_rounds: int
    pending: list[Person] = field(default_factory=list)
    winner_reports: list[WinnerReport] = field(default_factory=list)  # waiting for confirmation (T11)
    playoff_round: int | None = None  # the playoff's first round (T10), once started
    match_format: MatchFormat = MatchFormat.bo3  # T7: the scores a slip can say
    at_time: AtTime = AtTime.duels  # T8: what a match at time is

    @property
    def end_choices(self) -> tuple[OpenTable, ...]:
        """What a table still without a result may become when the round ends (T5, T8, T10)."""
        playoff = self.playoff_round is not None and self.round >= self.playoff_round
        return choices_at_end(self.at_time, playoff=playoff)

    @property
    def final_scores(self) -> tuple[str, ...]:
        """The finished matches' scores, one tap each on the page (T7; a playoff's, T10)."""
        playoff = self.playoff_round is not None and self.round >= self.playoff_round
        return tuple(o.score for o in offered_scores(self.match_format, playoff=playoff, at_time=False))


def _pending_statuses(conn: Connection, event: Event) -> dict[str, tuple[str, ...]]:
    """D17: ejections and disqualifications recorded but not yet confirmed, by player: what
    they do (``ejection``, ``disqualification``), whatever the event's guideline calls them."""
    out: dict[str, tuple[str, ...]] = {}
    book = event.book
    for r in awaiting_confirmation(conn, event.id):
        codes = [a for a in book.acts(r.components) if a in AWAITS_CONFIRMATION]
        if codes:
            out[r.player] = tuple(sorted({*out.get(r.player, ()), *codes}))
    return out


def read_sheet(conn: Connection, event_id: int, round_no: int | None, now: datetime) -> Sheet:
    """The sheet of round ``round_no`` (None, or a round outside 1 to the current one: the
    current round)."""
    event = load_event(conn, event_id)
    if round_no is not None and not 1 <= round_no <= max(event.current_round, 1):
        round_no = None
    number = round_no or event.current_round
    pending = _pending_statuses(conn, event)
    people = {n: Person(n, p.name, p.reading, pending.get(n, ())) for n, p in names(conn, event_id).items()}
    ds = round_duels(conn, event_id, number)
    ms = round_matches(conn, event_id, number, ds)
    wanted = {d.cause for d in ds if d.cause} | {m.result_ruling for m in ms if m.result_ruling}
    found = causes(conn, event_id, wanted)
    clock = read_clock(conn, event_id, number, now, ms)
    clocks = {t.table: t for t in clock.tables}

    def person(n: str) -> Person:
        return people.get(n) or Person(n, n, "")

    rows = []
    for m in ms:
        own = [
            Duel(d.duel, person(d.winner) if d.winner else None, found.get(d.cause) if d.cause else None)
            for d in ds
            if d.table == m.table
        ]
        rows.append(
            Row(
                m.table,
                person(m.a),
                person(m.b) if m.b else None,
                own,
                m.result,
                found.get(m.result_ruling) if m.result_ruling else None,
                clocks.get(m.table),
            )
        )
    active = sorted(
        (person(n) for n in active_players(conn, event_id)), key=lambda p: (p.reading or p.name, p.number)
    )
    # T6: on the current round, the standings now (every status as it stands now); on an
    # earlier one, the standings after it. A round only paired has nothing played: the
    # standings after the one before.
    table = (
        read_standings(conn, event_id)
        if number == event.current_round
        else read_standings(
            conn,
            event_id,
            number if clock.state in (RoundState.started, RoundState.ended) else max(number - 1, 0),
        )
    )
    chosen = read_format(conn, event_id)
    return Sheet(
        event,
        number,
        event.current_round,
        rows,
        clock,
        table,
        people,
        active,
        recommended_rounds(len(active)),
        [people[p] for p in sorted(pending) if p in people],
        pending_reports(conn, event_id, number) if number else [],
        playoff_round(conn, event_id),
        chosen.match_format,
        chosen.at_time,
    )


def round_sheet(
    db: Database, event_id: int, round_no: int | None = None, *, now: datetime | None = None
) -> Sheet:
    """The sheet of round ``round_no`` (default: the current round), read in one transaction."""
    with db.read() as conn:
        return read_sheet(conn, event_id, round_no, parse_stamp(stamp(now)))
