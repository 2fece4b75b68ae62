"""Two judges at once: two processes record as fast as they can against the same players.

Counting a player's offences and appending the ruling happen in one transaction, serialised
per event (SQLite ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so no offence number is
given twice or skipped, and the ledger holds.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import defaultdict
from collections.abc import Callable

from sqlalchemy import select

from conftest import Backend, EventSetup, Recorder, make_event
from shinpan.entries import RulingsRecorded
from shinpan.services import integrity
from shinpan.store.db import Database
from shinpan.store.ledger import read_entries
from shinpan.store.schema import rulings

PER_PROCESS = 200
TIMEOUT = 120  # seconds for both processes together; normally a few seconds


def offences(db: Database, event_id: int) -> dict[tuple[str, str], list[int]]:
    """Offence numbers per (player, rule): the counted rulings, follow-ups aside."""
    found: dict[tuple[str, str], list[int]] = defaultdict(list)
    with db.read() as conn:
        rows = conn.execute(
            select(rulings.c.player, rulings.c.rule, rulings.c.offense, rulings.c.follow_up)
            .where(rulings.c.event_id == event_id)
            .order_by(rulings.c.number)
        )
        for r in rows:
            if r.offense is not None and not r.follow_up:
                found[(r.player, r.rule)].append(r.offense)
    return found


def test_two_processes_recording_at_once_never_share_or_skip_an_offence_number(
    db: Database, backend: Backend, recorders: Callable[..., Recorder]
) -> None:
    ev: EventSetup = make_event(db, players=6)
    few = ev.players[:3]  # the same few players, so the two processes contend for their counts
    started = time.monotonic()
    judges = [
        recorders(backend.url, ev.id, name, PER_PROCESS, seed, few) for name, seed in (("a", 1), ("b", 2))
    ]
    for judge in judges:
        judge.wait_ready()
    for judge in judges:
        judge.go()
    reports = [judge.finish(TIMEOUT - (time.monotonic() - started)) for judge in judges]
    for judge in judges:
        assert judge.proc.returncode == 0, judge.stderr()
    assert [len(r) for r in reports] == [PER_PROCESS, PER_PROCESS]

    # every ruling either process was told about is there, under the number it was told
    told = {n: cid for report in reports for numbers, cid in report for n in numbers}
    with db.read() as conn:
        numbers = sorted(conn.execute(select(rulings.c.number).where(rulings.c.event_id == ev.id)).scalars())
        by_command = {e.command_id: e for e in read_entries(conn, ev.id) if e.command_id}
    assert numbers == list(range(1, len(numbers) + 1))  # unique and gapless
    assert set(told) <= set(numbers)
    for number, command_id in told.items():
        entry = by_command[command_id]
        assert number in [r.number for r in entry.of(RulingsRecorded).rulings]
    assert len([cid for cid in by_command if cid.startswith(("a-", "b-"))]) == 2 * PER_PROCESS

    # the offence numbers of each (player, rule) are exactly 1..n
    counted = offences(db, ev.id)
    assert sum(len(v) for v in counted.values()) >= 2 * PER_PROCESS
    for key, values in counted.items():
        assert values == list(range(1, len(values) + 1)), (key, values)

    # Both started at once and both wrote. PostgreSQL's advisory lock queues the waiters, so
    # the two alternate; SQLite's busy handler polls, so the process that holds the lock in a
    # tight loop usually keeps it and the other waits (its first BEGIN IMMEDIATE is the contention).
    with db.read() as conn:
        order = [
            e.command_id[0]
            for e in read_entries(conn, ev.id)
            if e.command_id and e.command_id[:2] in ("a-", "b-")
        ]
    switches = sum(1 for x, y in itertools.pairwise(order) if x != y)
    assert switches >= (PER_PROCESS if backend.is_postgres else 1), switches

    result = integrity.verify(db)
    assert result.ok, (result.breaks, result.differences[:5])
    assert integrity.rebuild(db, check_only=True) == []
    assert time.monotonic() - started < TIMEOUT


def test_two_events_are_written_independently(
    db: Database, backend: Backend, recorders: Callable[..., Recorder]
) -> None:
    one, two = make_event(db, players=2), make_event(db, players=2, name="other")
    judges = [
        recorders(backend.url, one.id, "x", 40, 3, one.players),
        recorders(backend.url, two.id, "y", 40, 4, two.players),
    ]
    for judge in judges:
        judge.wait_ready()
    for judge in judges:
        judge.go()
    for judge in judges:
        judge.finish(TIMEOUT)
        assert judge.proc.returncode == 0, judge.stderr()
    for ev in (one, two):
        for key, values in offences(db, ev.id).items():
            assert values == list(range(1, len(values) + 1)), (key, values)
    result = integrity.verify(db)
    assert result.ok and result.events == 2
    assert json.dumps(sorted(result.heads)) == json.dumps([one.id, two.id])
