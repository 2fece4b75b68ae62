"""The scorekeeper's sheet of one round: who plays whom (names and readings), each duel and
result with the ruling behind it, the round's clock and each table's time, what waits for
the head judge (D17), and the standings — read in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, select

from shinpan.engine.event_rules import AWAITS_CONFIRMATION
from shinpan.services.context import load_event, parse_stamp, stamp
from shinpan.services.rounds import RoundClock, TableClock, names, read_clock
from shinpan.services.standings import Table, read_standings
from shinpan.store.db import Database
from shinpan.store.schema import duels, matches, players, rulings
from shinpan.tournament import recommended_rounds


@dataclass(frozen=True)
class Person:
    number: str
    name: str
    reading: str
    pending: tuple[str, ...] = ()  # ejection/disqualification waiting for the head judge (D17)


@dataclass(frozen=True)
class Cause:
    """The ruling behind a duel or a result."""

    ruling: int
    rule: str
    penalties: tuple[str, ...]


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


@dataclass(frozen=True)
class Sheet:
    round: int
    current_round: int
    rows: list[Row]
    clock: RoundClock
    standings: Table
    people: dict[str, Person]
    active: list[Person]  # who may still drop
    recommended_rounds: int
    pending: list[Person] = field(default_factory=list)


def _pending_statuses(conn: Connection, event_id: int) -> dict[str, tuple[str, ...]]:
    """D17: ejections and disqualifications recorded but not yet confirmed, by player."""
    out: dict[str, tuple[str, ...]] = {}
    for r in conn.execute(
        select(rulings.c.player, rulings.c.penalties, rulings.c.effects).where(
            rulings.c.event_id == event_id, rulings.c.state == "pending"
        )
    ):
        codes = [c for c in (*json.loads(r.penalties), *json.loads(r.effects)) if c in AWAITS_CONFIRMATION]
        if codes:
            out[r.player] = tuple(sorted({*out.get(r.player, ()), *codes}))
    return out


def _causes(conn: Connection, event_id: int, numbers: set[int]) -> dict[int, Cause]:
    if not numbers:
        return {}
    rows = conn.execute(
        select(rulings.c.number, rulings.c.rule, rulings.c.penalties).where(
            rulings.c.event_id == event_id, rulings.c.number.in_(sorted(numbers))
        )
    )
    return {r.number: Cause(r.number, r.rule, tuple(json.loads(r.penalties))) for r in rows}


def read_sheet(conn: Connection, event_id: int, round_no: int | None, now: datetime) -> Sheet:
    event = load_event(conn, event_id)
    number = round_no or event.current_round
    pending = _pending_statuses(conn, event_id)
    people = {
        n: Person(n, name, reading, pending.get(n, ()))
        for n, (name, reading) in names(conn, event_id).items()
    }
    ms = conn.execute(
        select(matches)
        .where(matches.c.event_id == event_id, matches.c.round == number)
        .order_by(matches.c.table_no)
    ).all()
    ds = conn.execute(
        select(duels).where(duels.c.event_id == event_id, duels.c.round == number).order_by(duels.c.duel)
    ).all()
    wanted = {d.cause_ruling for d in ds if d.cause_ruling} | {m.result_ruling for m in ms if m.result_ruling}
    causes = _causes(conn, event_id, wanted)
    clock = read_clock(conn, event_id, number, now)
    clocks = {t.table: t for t in clock.tables}

    def person(n: str) -> Person:
        return people.get(n) or Person(n, n, "")

    rows = []
    for m in ms:
        own = [
            Duel(d.duel, person(d.winner) if d.winner else None, causes.get(d.cause_ruling))
            for d in ds
            if d.table_no == m.table_no
        ]
        rows.append(
            Row(m.table_no, person(m.player_a), person(m.player_b) if m.player_b else None, own, m.result,
                causes.get(m.result_ruling) if m.result_ruling else None, clocks.get(m.table_no))
        )  # fmt: skip
    active_numbers = conn.execute(
        select(players.c.number).where(players.c.event_id == event_id, players.c.status == "active")
    ).scalars()
    active = sorted((person(n) for n in active_numbers), key=lambda p: (p.reading or p.name, p.number))
    table = read_standings(conn, event_id, number if number <= event.current_round else None)
    return Sheet(
        number, event.current_round, rows, clock, table, people, active, recommended_rounds(len(active)),
        [people[p] for p in sorted(pending) if p in people],
    )  # fmt: skip


def round_sheet(
    db: Database, event_id: int, round_no: int | None = None, *, now: datetime | None = None
) -> Sheet:
    with db.read() as conn:
        return read_sheet(conn, event_id, round_no, parse_stamp(stamp(now)))
