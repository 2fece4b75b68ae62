"""A crash mid-write loses nothing that was reported saved and leaves nothing half-written.

A process records in a loop, printing each ruling only after ``record()`` returned, and is
killed with SIGKILL at a random moment (seeded), several times over the same database.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from sqlalchemy import select

from conftest import Backend, Recorder, make_event
from shinpan.entries import RulingsRecorded
from shinpan.services import integrity
from shinpan.store.db import Database
from shinpan.store.ledger import read_entries
from shinpan.store.schema import rulings

RUNS = 5
SEED = 1998


def test_killing_a_recording_process_loses_nothing_it_reported_and_half_writes_nothing(
    db: Database, backend: Backend, recorders: Callable[..., Recorder]
) -> None:
    ev = make_event(db, players=8)
    rng = random.Random(f"{SEED}-{backend.name}")
    reported: dict[str, list[int]] = {}
    for run in range(RUNS):
        judge = recorders(backend.url, ev.id, f"run{run}", 0, rng.randrange(1 << 30), ev.players)
        judge.wait_ready()
        judge.go()
        judge.wait_saved(1)  # recording is under way (a slow machine may take a moment)
        time.sleep(rng.uniform(0.2, 1.5))
        judge.kill()
        assert judge.proc.returncode == -9, judge.stderr()
        saved = judge.finish(30)
        assert saved, f"run {run}: nothing was recorded before the kill"
        reported.update({command_id: numbers for numbers, command_id in saved})

        with db.read() as conn:
            stored = {
                r.number: r.entry_seq
                for r in conn.execute(
                    select(rulings.c.number, rulings.c.entry_seq).where(rulings.c.event_id == ev.id)
                )
            }
            chain = list(read_entries(conn, ev.id))
        by_command = {e.command_id: e for e in chain if e.command_id}
        # every ruling the process said was saved is there, in the entry of its command
        for command_id, numbers in reported.items():
            assert command_id in by_command, f"run {run}: {command_id} was reported saved but is lost"
            entry = by_command[command_id]
            assert [r.number for r in entry.of(RulingsRecorded).rulings] == numbers
            for n in numbers:
                assert stored[n] == entry.seq
        # nothing half-written: each recorded entry has its rulings, and every ruling its entry
        recorded = [e for e in chain if e.kind == "ruling.recorded"]
        from_entries = {r.number: e.seq for e in recorded for r in e.of(RulingsRecorded).rulings}
        assert from_entries == stored
        # at most the one record in flight at the kill may be saved without being reported
        unreported = [cid for cid in by_command if cid.startswith(f"run{run}-") and cid not in reported]
        assert len(unreported) <= 1, unreported
        result = integrity.verify(db)
        assert result.ok, (run, result.breaks, result.differences[:5])
        assert integrity.rebuild(db, check_only=True) == []
    assert len(reported) >= RUNS
