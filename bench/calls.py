"""Benchmark: judge calls (T14) on 127.0.0.1, on SQLite and on PostgreSQL.

    .venv/bin/python bench/calls.py [--db sqlite|postgres|both] [--seconds 20] [--calls 200]
                                    [--streams 150] [--judges 150] [--claims 100] [--rate 50]
                                    [--pg postgresql://postgres@127.0.0.1:5432/postgres]

One event whose round 1 is paired and running, with ``--calls`` calls open (one per table,
raised before the server starts), served by ``shinpan serve`` as ``bench/load.py`` serves it.
Against it, for ``--seconds``:

- ``--streams`` judges' phones hold the live stream (``/api/events/{id}/stream``), each from
  its own address, in a process of their own (``bench/load.py``'s open pages);
- ``--claims`` of the open calls are claimed, evenly over the run, each by a judge's phone
  (``POST /api/events/{id}/calls/{n}/claim``), and timed;
- the floor judges keep searching and recording at ``--rate`` requests/s between them, as in
  ``bench/load.py``, so that their record p99 can be compared with that bench's.

It prints p50/p99/max per kind of request and how long a claim takes to reach every judge's
stream (from when its request was sent to when the last stream heard of its entry). Targets:
0 errors, a claim on every stream within 200 ms (p99), the judges' record p99 < 50 ms (as
``bench/load.py``'s). Not collected by pytest; it stops only the server it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import tempfile
import time
import uuid
from pathlib import Path

from client import Connection
from figures import emit
from load import (
    P99_TARGET_MS,
    STREAM_TARGET_MS,
    Setup,
    Stats,
    judge,
    judge_address,
    open_pages,
    percentile,
    prepare,
    reach,
    serve,
    stop_server,
)


def open_calls(url: str, s: Setup, calls: int) -> list[int]:
    """Round 1 started, and ``calls`` tables calling (one call each): their numbers."""
    from shinpan.services import rounds
    from shinpan.services.calls import raise_call
    from shinpan.store.db import Database

    db = Database(url)
    try:
        rounds.start_round(db, s.event)
        return [raise_call(db, s.event, table, "rules")["call"] for table in range(1, calls + 1)]
    finally:
        db.close()


def claimed_entries(url: str, event: int) -> dict[int, int]:
    """Each claimed call's ``call.claimed`` entry, by call."""
    from shinpan.store.connection import Statement
    from shinpan.store.db import Database

    db = Database(url)
    try:
        with db.read() as conn:
            rows = Statement(
                "SELECT seq, body FROM entries WHERE event_id = :e AND kind = 'call.claimed'"
            ).all(conn, {"e": event})
        return {int(json.loads(body)["call"]): int(seq) for seq, body in rows}
    finally:
        db.close()


async def claimer(
    base: str, s: Setup, numbers: list[int], stop: float, stats: Stats, sent: dict[int, float]
) -> None:
    """Claims the calls one after another, evenly until ``stop``, each from a judge's phone."""
    gap = max(0.01, (stop - time.perf_counter()) / max(len(numbers), 1))
    phones = [Connection(base, who, local=judge_address(n)) for n, who in enumerate(s.judges)]
    try:
        for i, number in enumerate(numbers):
            http = phones[i % len(phones)]
            body = json.dumps({"command_id": uuid.uuid4().hex}).encode()
            started = time.perf_counter()
            status, _ = await http.request("POST", f"/api/events/{s.event}/calls/{number}/claim", body)
            stats.add("claim", started, status == 200)
            if status == 200:
                sent[number] = started
            await asyncio.sleep(max(0.0, started + gap - time.perf_counter()))
    finally:
        for http in phones:
            http.close()


async def run(
    base: str, s: Setup, numbers: list[int], args: argparse.Namespace
) -> tuple[Stats, dict[int, float], float]:
    stats, sent = Stats(), {}
    loop = asyncio.get_running_loop()
    spawn = multiprocessing.get_context("spawn")
    ours, theirs = spawn.Pipe()
    pages = spawn.Process(
        target=open_pages, args=(base, s, args.streams, 0, args.seconds, theirs), daemon=True
    )
    pages.start()
    try:
        await loop.run_in_executor(None, ours.recv)  # every stream is open
        await asyncio.sleep(0.5)
        stats.counting_from = time.perf_counter()
        ours.send(stats.counting_from)
        stop = stats.counting_from + args.seconds
        per_judge = args.rate / max(len(s.judges), 1) / 1.6
        tasks = [
            asyncio.create_task(judge(base, s, who, per_judge, stop, stats, n))
            for n, who in enumerate(s.judges)
        ]
        tasks.append(asyncio.create_task(claimer(base, s, numbers[: args.claims], stop, stats, sent)))
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - stats.counting_from
        await asyncio.sleep(1.5)  # the last claims reach the streams
        ours.send("stop")
        heard = await loop.run_in_executor(None, ours.recv)
    finally:
        pages.join(30)
        if pages.is_alive():
            pages.kill()  # the process this run started, by its own handle
    stats.heard, stats.stream_errors = heard["heard"], heard["stream_errors"]
    for kind, errors in heard["errors"].items():
        stats.errors[kind] += errors
    return stats, sent, elapsed


def one(label: str, url: str, workers: int, args: argparse.Namespace, tmp: Path) -> bool:
    print(f"\n{label}: preparing {args.calls} tables calling, {args.judges} judges …", flush=True)
    s = prepare(url, args.calls * 2, args.judges, 1)
    numbers = open_calls(url, s, args.calls)
    proc, base = serve(url, workers, tmp)
    try:
        stats, sent, elapsed = asyncio.run(run(base, s, numbers, args))
    finally:
        stop_server(proc)
    entries = claimed_entries(url, s.event)
    stats.sent = {entries[n]: started for n, started in sent.items() if n in entries}
    ok = True
    print(f"  {elapsed:.1f} s counted, {args.streams} streams")
    print(f"  {'kind':8} {'count':>6} {'p50':>8} {'p99':>8} {'max':>8} {'errors':>6}")
    for kind in ("claim", "record", "search"):
        lat = stats.latencies.get(kind, [])
        errors = stats.errors.get(kind, 0)
        ok &= errors == 0
        print(
            f"  {kind:8} {len(lat):6d} {percentile(lat, 50):6.1f}ms {percentile(lat, 99):6.1f}ms "
            f"{max(lat, default=float('nan')):6.1f}ms {errors:6d}"
        )
    record_p99 = percentile(stats.latencies.get("record", []), 99)
    ok &= not record_p99 >= P99_TARGET_MS
    reached = reach(stats)
    lost = sum(1 for r in reached if r == float("inf"))
    p99 = percentile([r for r in reached if r != float("inf")], 99)
    met = lost == 0 and p99 < STREAM_TARGET_MS and stats.stream_errors == 0
    ok &= met
    print(
        f"  claim on every judge's stream ({len(reached)} claims x {len(stats.heard)} streams): "
        f"p50 {percentile(reached, 50):.1f} ms, p99 {p99:.1f} ms, never heard {lost}, "
        f"stream errors {stats.stream_errors}  target p99 < {STREAM_TARGET_MS:g} ms: {'ok' if met else 'MISS'}"
    )
    print(f"  judges' record p99 {record_p99:.1f} ms (target < {P99_TARGET_MS:g} ms, as bench/load.py)")
    errors = sum(stats.errors.values()) + stats.stream_errors
    emit(
        **{
            label: {
                "claim_stream_p99_ms": round(p99, 1),
                "record_p99_ms": round(record_p99, 1),
                "errors": errors,
                "lost": lost,
            }
        }
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--calls", type=int, default=200, help="open calls, one per table")
    parser.add_argument("--streams", type=int, default=150, help="judges' phones holding the stream")
    parser.add_argument("--judges", type=int, default=150)
    parser.add_argument("--claims", type=int, default=100, help="calls claimed during the run")
    parser.add_argument("--rate", type=float, default=50.0, help="the judges' other requests/s")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="shinpan-calls-bench-") as directory:
        tmp = Path(directory)
        if args.db in ("sqlite", "both"):
            results["sqlite"] = one("SQLite", f"sqlite:///{tmp}/calls.sqlite3", 1, args, tmp)
        if args.db in ("postgres", "both"):
            import psycopg

            name = f"shinpan_calls_bench_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(args.pg, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            try:
                base = args.pg.rsplit("/", 1)[0]
                results["postgres"] = one("PostgreSQL", f"{base}/{name}", 2, args, tmp)
            finally:
                with psycopg.connect(args.pg, autocommit=True) as admin:
                    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print("\n" + ", ".join(f"{k}: {'ok' if v else 'MISS'}" for k, v in results.items()))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
