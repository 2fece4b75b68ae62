"""Benchmark: recording rulings through the ledger, against raw SQLite, and as an event grows.

    .venv/bin/python bench/ledger.py [--rulings 500] [--samples 200] [--big 100000] [--dir DIR]
                                     [--seed 1998] [--profile]

(1) Throughput: rulings recorded per second through ``shinpan.services.recording.record`` on a
    SQLite file (the Database's own settings: WAL, synchronous=FULL), one command and one
    transaction each, against raw ``sqlite3`` INSERT + COMMIT of a row of the same size (the
    body of a real ``ruling.recorded`` entry) with the same durability (WAL, synchronous=FULL).
    The two run in alternating batches of 10, so a busy machine slows both alike.
    Target: the service reaches at least 0.5 of the raw rate.
(2) Growth: the median cost of one recording (of ``--samples``) in an event that already has
    100 rulings and in one that has ``--big`` (100,000), sampled in turns. The big event is
    built quickly but validly: the same service steps (engine decision, ``append_rulings``
    through the ledger's Appender, effects) in one transaction instead of one per ruling;
    ``integrity.verify`` checks it afterwards. Target: the big event's median within 1.3x of
    the small one's.

``--profile`` prints where the time of (1) goes (cProfile, top functions by own time).
Not collected by pytest: ``bench/`` is outside ``testpaths``. Databases are written under
``--dir`` (default: a new temporary directory, removed afterwards); use a real disk, since
what (1) measures is mostly the cost of a durable commit.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figures import emit
from shinpan.engine import Record, decide
from shinpan.engine.event_rules import Role
from shinpan.entries import GuidelineRef, RulingsRecorded
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.services import events, integrity, recording
from shinpan.services.commands import new_command_id
from shinpan.services.context import load_event, stamp
from shinpan.store.chain import fingerprint
from shinpan.store.connection import Statement
from shinpan.store.db import Database
from shinpan.store.ledger import Appender
from shinpan.store.snapshots import current_match

THROUGHPUT_TARGET = 0.5
GROWTH_TARGET = 1.3
# What floor judges record most, none of which needs facts (see bench/replay.py for the weights).
INFRACTIONS = (
    "ingame.slow-play",
    "ingame.looking-at-extra-cards",
    "ingame.extra-cards-drawn",
    "pregame.tardiness",
    "ingame.cards-off-table",
    "pregame.insufficient-shuffle",
)


def new_event(db: Database, players: int) -> tuple[int, list[str]]:
    """An event with a floor judge and ``players`` players, round 1 paired."""
    event_id = events.create_event(db, name="bench", head_judge="HJ", head_judge_level=2)
    events.add_judge(db, event_id, name="FJ", level=1, role=Role.floor_judge)
    numbers = [f"P{i:05d}" for i in range(1, players + 1)]
    events.import_players(db, event_id, [PlayerRow(n, f"選手 {n}", "せんしゅ", None) for n in numbers])
    pairs = [PairingRow(t + 1, numbers[2 * t], numbers[2 * t + 1]) for t in range(players // 2)]
    events.import_pairings(db, event_id, 1, pairs)
    return event_id, numbers


def record_one(db: Database, event_id: int, rng: random.Random, players: list[str]) -> None:
    inp = recording.RecordInput(player=rng.choice(players), infraction=rng.choice(INFRACTIONS))
    recording.record(db, event_id, inp, judge="FJ")


# -- (1) throughput ------------------------------------------------------------------------------

BATCH = 10  # both sides run in alternating batches, so a busy disk or CPU slows both alike


def typical_body(db: Database, event_id: int) -> str:
    """The body of a median-sized ``ruling.recorded`` entry: the raw side's row."""
    with db.read() as conn:
        bodies: list[str] = Statement(
            "SELECT body FROM entries WHERE event_id = :e AND kind = 'ruling.recorded'"
        ).scalars(conn, {"e": event_id})
    return sorted(bodies, key=len)[len(bodies) // 2]


class RawSqlite:
    """One INSERT and one COMMIT per row, WAL and synchronous=FULL, a table shaped like entries."""

    def __init__(self, path: Path, body: str) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = FULL")
        self.conn.execute(
            "CREATE TABLE entries (id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
            "kind TEXT NOT NULL, command_id TEXT, command_hash TEXT, actor TEXT NOT NULL, "
            "recorded_at TEXT NOT NULL, refs TEXT NOT NULL, body TEXT NOT NULL, prev_hash TEXT NOT NULL, "
            "hash TEXT NOT NULL, UNIQUE (event_id, seq), UNIQUE (event_id, command_id))"
        )
        self.body, self.seq = body, 0

    def insert(self) -> None:
        self.seq += 1
        digest = "0" * 64
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "INSERT INTO entries (event_id, seq, kind, command_id, command_hash, actor, recorded_at, refs, "
            "body, prev_hash, hash) VALUES (1, ?, 'ruling.recorded', ?, ?, 'FJ', ?, '[]', ?, ?, ?)",
            (self.seq, new_command_id(), digest, stamp(), self.body, digest, digest),
        )
        self.conn.execute("COMMIT")


def throughput(workdir: Path, n: int, seed: int, profile: bool) -> tuple[float, float, int]:
    """(rulings/s through the service, rows/s raw, the raw row's size)."""
    db = Database(str(workdir / "service.sqlite3"))
    event_id, players = new_event(db, 400)
    rng = random.Random(seed)
    for _ in range(20):  # warm up: the guideline, statement caches, the file
        record_one(db, event_id, rng, players)
    raw = RawSqlite(workdir / "raw.sqlite3", typical_body(db, event_id))
    for _ in range(20):
        raw.insert()
    profiler = cProfile.Profile()
    service_time = raw_time = 0.0
    for _ in range(max(1, n // BATCH)):
        if profile:
            profiler.enable()
        started = time.perf_counter()
        for _ in range(BATCH):
            record_one(db, event_id, rng, players)
        service_time += time.perf_counter() - started
        if profile:
            profiler.disable()
        started = time.perf_counter()
        for _ in range(BATCH):
            raw.insert()
        raw_time += time.perf_counter() - started
    if profile:
        print("\n(1) where the service's time goes (top 25 by own time):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    done = max(1, n // BATCH) * BATCH
    raw.conn.close()
    db.close()
    return done / service_time, done / raw_time, len(raw.body)


# -- (2) growth --------------------------------------------------------------------------------------


def bulk_record(db: Database, event_id: int, players: list[str], n: int, seed: int) -> None:
    """``n`` rulings as ``record`` makes them, in one transaction: a valid, hash-chained ledger."""
    rng = random.Random(seed)
    with db.write(event_id) as conn:
        event = load_event(conn, event_id)
        book = event.book
        guideline = GuidelineRef(event.guideline_id, event.guideline_version)
        participants = set(players)
        done = 0
        while done < n:
            inp = recording.RecordInput(player=rng.choice(players), infraction=rng.choice(INFRACTIONS))
            payload = inp.payload()
            ap = Appender(
                conn,
                event_id,
                "FJ",
                stamp(),
                command_id=new_command_id(),
                command_hash=fingerprint({"action": "record", "payload": payload}),
            )
            history = {inp.player: recording.live_history(conn, event_id, inp.player)}
            decided = decide(
                book,
                Record(player=inp.player, infraction=inp.infraction),
                history,
                participants,
                first_number=recording.next_number(conn, event_id),
            )
            m = current_match(conn, event_id, inp.player)
            where = (m.round, m.table) if m is not None else (event.current_round or None, None)
            why = RulingsRecorded((), record=inp.asked(), guideline=guideline)
            made = recording.append_rulings(ap, event, decided, why, *where)
            done += len(made)


@dataclass
class Built:
    """An event with ``earlier`` rulings, ready to record in."""

    db: Database
    event_id: int
    players: list[str]
    earlier: int
    seconds: float
    megabytes: float


def build(workdir: Path, earlier: int, players: int, seed: int) -> Built:
    path = workdir / f"event-{earlier}.sqlite3"
    db = Database(str(path))
    event_id, numbers = new_event(db, players)
    started = time.perf_counter()
    bulk_record(db, event_id, numbers, earlier, seed)
    seconds = time.perf_counter() - started
    check = integrity.verify(db, event_id)
    if not check.ok:
        raise SystemExit(f"the bulk-built ledger does not verify: {check.breaks or check.differences[:3]}")
    size = sum(p.stat().st_size for p in workdir.glob(f"{path.name}*")) / 1e6
    return Built(db, event_id, numbers, earlier, seconds, size)


def medians(built: list[Built], samples: int, seed: int) -> list[float]:
    """The median time of one recording in each event, sampled in turn (so load hits all alike)."""
    rngs = [random.Random(seed + n) for n in range(len(built))]
    for b, rng in zip(built, rngs, strict=True):
        for _ in range(10):
            record_one(b.db, b.event_id, rng, b.players)
    costs: list[list[float]] = [[] for _ in built]
    for i in range(samples):
        turn = list(range(len(built)))
        for n in turn if i % 2 == 0 else reversed(turn):
            started = time.perf_counter()
            record_one(built[n].db, built[n].event_id, rngs[n], built[n].players)
            costs[n].append(time.perf_counter() - started)
    return [statistics.median(c) for c in costs]


# -- running it ----------------------------------------------------------------------------------------


def timed(label: str, fn: Callable[[], Any]) -> Any:
    print(f"  {label} …", end="", flush=True)
    started = time.perf_counter()
    result = fn()
    print(f" {time.perf_counter() - started:.1f} s", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rulings", type=int, default=500, help="rulings timed in (1)")
    parser.add_argument("--samples", type=int, default=200, help="recordings timed in (2)")
    parser.add_argument("--big", type=int, default=100_000, help="earlier rulings of the big event in (2)")
    parser.add_argument("--small", type=int, default=100, help="earlier rulings of the small event in (2)")
    parser.add_argument("--dir", type=Path, default=None, help="where to write the databases")
    parser.add_argument("--seed", type=int, default=1998)
    parser.add_argument("--profile", action="store_true", help="profile the service in (1)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="shinpan-bench-", dir=args.dir))
    try:
        print(f"shinpan ledger benchmark, databases in {workdir}")
        print("(1) throughput")
        service, raw, size = timed(
            f"{args.rulings} rulings through recording.record and {args.rulings} raw INSERT+COMMIT, "
            f"in turns of {BATCH}",
            lambda: throughput(workdir, args.rulings, args.seed, args.profile),
        )
        ratio = service / raw
        print(f"    service: {service:8.1f} rulings/s  ({1000 / service:.2f} ms each)")
        print(
            f"    raw:     {raw:8.1f} rows/s     ({1000 / raw:.2f} ms each, {size}-byte rows: mostly the commit)"
        )
        print(
            f"    the service's work above one durable commit: {1000 / service - 1000 / raw:.2f} ms a ruling"
        )
        verdict = "met" if ratio >= THROUGHPUT_TARGET else "MISSED"
        print(f"    ratio:   {ratio:8.2f}   (target >= {THROUGHPUT_TARGET}: {verdict})")

        print("(2) one recording as the event grows")
        small = timed(
            f"event with {args.small} rulings (400 players)",
            lambda: build(workdir, args.small, 400, args.seed),
        )
        players_big = max(400, args.big // 10)
        big = timed(
            f"event with {args.big} rulings ({players_big} players), built in one transaction",
            lambda: build(workdir, args.big, players_big, args.seed),
        )
        print(
            f"    built in {big.seconds:.1f} s ({args.big / big.seconds:.0f} rulings/s); the file is {big.megabytes:.0f} MB"
        )
        small_cost, big_cost = timed(
            f"{args.samples} recordings in each, in turns",
            lambda: medians([small, big], args.samples, args.seed + 1),
        )
        small.db.close()
        big.db.close()
        slower = big_cost / small_cost
        print(f"    median with {args.small:>7}: {small_cost * 1000:7.2f} ms")
        print(f"    median with {args.big:>7}: {big_cost * 1000:7.2f} ms")
        verdict = "met" if slower <= GROWTH_TARGET else "MISSED"
        print(f"    ratio:   {slower:8.2f}   (target <= {GROWTH_TARGET}: {verdict})")
        emit(
            service_per_s=round(service, 1),
            raw_per_s=round(raw, 1),
            throughput_ratio=round(ratio, 3),
            median_small_ms=round(small_cost * 1000, 3),
            median_big_ms=round(big_cost * 1000, 3),
            growth_ratio=round(slower, 3),
        )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
