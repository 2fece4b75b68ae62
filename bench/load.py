"""Benchmark: a big event's load on 127.0.0.1, on SQLite and on PostgreSQL.

    .venv/bin/python bench/load.py [--db sqlite|postgres|both] [--seconds 30] [--warmup 0] [--rate 100]
                                   [--players 2000] [--judges 150] [--streams 150] [--desks 12]
                                   [--phones 2000] [--pair-at 2] [--window 10]
                                   [--pg postgresql://postgres@127.0.0.1:5432/postgres]

One event of ``--players`` players (names with readings, published to its players), served by
``shinpan serve`` (SQLite: one process; PostgreSQL: ``--workers 2``, in a database made for
the run and dropped after it). Against it, for ``--seconds`` (after ``--warmup`` seconds not
counted, none by default):

- ``--judges`` floor judges, each signed in on their own phone (a keep-alive connection),
  sending about ``--rate`` requests/s between them (Poisson): 70 % player searches as a
  judge types a name (two or three keystrokes, one request each), 30 % records of a ruling;
- ``--streams`` open live streams (``/api/events/{id}/stream``), of which ``--desks`` are
  head judge desks: on every change a desk fetches its panels (``/desk/panels``), one
  refresh at a time, as desk.js does;
- ``--phones`` players' phones (``bench/phones.py``): ``--pair-at`` seconds into the counted
  part the head judge pairs round 1 (``POST /api/events/{id}/rounds``), and within
  ``--window`` seconds of its answer every phone opens the players' page from the QR code
  and asks for its table (by player id, reading or name), each from an address of its own.
  With ``--phones 0`` round 1 is paired before the server starts, as before the phones.

It prints throughput, p50/p99/max per kind of request, errors, and how long a recorded
ruling takes to reach every open stream (from when its request was sent to when the last
stream heard of an entry at or past it), and the CPU time (user+sys) the server's processes
spent meanwhile: a figure the machine's other work changes far less than the latencies
(compare it before and after a change, in the same sitting). Targets: 0 errors, p99 <
50 ms for records and searches, p99 < 100 ms for the phones' two requests (each answer
showing the player's table), a ruling on every stream within 200 ms (p99). The run stops by itself; it stops
only the server it started, by its process id (and that process's group).

By default every request counts, from the server's first. ``--warmup`` sends the same load
first without counting it, to study a server that has served for a while (as one has when
a round starts): its first seconds fill what it keeps in memory (each worker's player
index, the desk's drawn rows, its connections). What the warm-up gave is printed too, and
the errors of both parts are counted.

Not collected by pytest: ``bench/`` is outside ``testpaths``. The load generator shares
the machine's 2 cores with the server: its figures are what a server on a busy laptop gives.
So that it leaves the server a core, the load goes through a lean HTTP/1.1 client on asyncio
streams (``bench/client.py``), not httpx, which took the generator most of a core. The open
pages (streams and desks) run in a second process: a judge's phone does not read 150
streams, and the judges' requests timed here do not wait behind their messages; the
players' phones run in a third.

Each device connects from an address of its own on loopback (judges 127.2.x.y, desks
127.3.x.y, phones 127.1.x.y; the server listens on 127.0.0.1 only), as at a venue where
every phone has its address on the Wi-Fi: the server's limits per address (64 connections
waiting for a request, 120 players' pages a minute) then hold as they would there. The
judges' PINs are hashed with argon2's least work: the bench never signs in with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as PipeEnd
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx

from client import FAILURES, Connection, lines
from figures import emit
from phones import KINDS as PHONE_KINDS
from phones import PHONE_TARGET_MS, Plan, run_phones

SHINPAN = Path(sys.executable).with_name("shinpan")  # beside the interpreter, in its venv
P99_TARGET_MS, STREAM_TARGET_MS = 50.0, 200.0
DESK_SPACING = 1.0  # seconds between two refreshes of a desk (desk.js's SPACING_MS)
PANELS = ("queue", "appeals", "deadlines", "feed", "dq")
DRAWN_AT = re.compile(r'<section class="card" id="(\w+)" data-head="(\d+)"')
FAMILY = [("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"), ("田中", "たなか"), ("伊藤", "いとう"),
          ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら"), ("小林", "こばやし"), ("加藤", "かとう")]  # fmt: skip
GIVEN = [("翔太", "しょうた"), ("美咲", "みさき"), ("大輔", "だいすけ"), ("陽菜", "ひな"), ("蓮", "れん")]
INFRACTIONS = ("ingame.cards-off-table", "ingame.misapplied-card-text", "ingame.looking-at-extra-cards",
               "ingame.slow-play", "pregame.insufficient-shuffle")  # fmt: skip


@dataclass
class Setup:
    url: str
    event: int
    players: list[tuple[str, str]]  # number, reading
    judges: list[dict[str, str]]  # cookies (session, csrf) and the CSRF token
    desks: list[dict[str, str]]
    names: list[str] = field(default_factory=list)  # each player's name, as ``players``
    token: str = ""  # the players' pages: /p/<token>


def prepare(url: str, players: int, judges: int, desks: int, paired: bool = True) -> Setup:
    """The event, published to its players, with round 1 paired if ``paired``, and signed-in
    sessions (cookies as the server signs them) for everyone."""
    from argon2 import PasswordHasher

    from shinpan.engine.event_rules import Role
    from shinpan.files.csvio import PairingRow, PlayerRow
    from shinpan.services import accounts, events, publish
    from shinpan.store.db import Database
    from shinpan.web.auth import CSRF_COOKIE, SESSION_COOKIE, Signer, new_csrf_token

    # The judges' PINs are hashed with argon2's least work: the bench never signs in with
    # them (its sessions are signed directly), and 150 full hashes took minutes on a busy machine.
    accounts._HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # type: ignore[attr-defined]
    db = Database(url)
    try:
        rows = []
        for i in range(players):
            (f, fk), (g, gk) = FAMILY[i % len(FAMILY)], GIVEN[(i // len(FAMILY)) % len(GIVEN)]
            rows.append(PlayerRow(f"P{i + 1:04d}", f"{f} {g}", f"{fk} {gk}", None))
        head = accounts.add_user(db, "本部 一郎", "load-password", 2)
        event = events.create_event(
            db, name="大型大会", head_judge="本部 一郎", head_judge_level=2, head_judge_account=head.uid
        )
        events.import_players(db, event, rows)
        if paired:
            pairs = [
                PairingRow(t + 1, rows[2 * t].number, rows[2 * t + 1].number) for t in range(players // 2)
            ]
            events.import_pairings(db, event, 1, pairs)
        token = publish.publish(db, event, names="names").token or ""
        signer = Signer.for_db(db)

        def session(user: accounts.User) -> dict[str, str]:
            token = new_csrf_token()
            return {
                SESSION_COOKIE: signer.session(user, accounts.open_session(db, user)),
                CSRF_COOKIE: signer.csrf_cookie(token),
                "token": token,
            }

        def joined(j: int) -> dict[str, str]:  # an account per judge, as the join codes make them
            code = accounts.invite(db, event, Role.floor_judge, "本部 一郎")
            return session(accounts.join(db, code, f"フロア {j:03d}", "246813"))

        with ThreadPoolExecutor(4) as pool:  # argon2 lets go of the GIL while it hashes
            floor = list(pool.map(joined, range(judges)))
        heads = [session(head) for _ in range(desks)]
    finally:
        db.close()
    return Setup(
        url, event, [(r.number, r.reading) for r in rows], floor, heads, [r.name for r in rows], token
    )


def judge_address(n: int) -> str:
    """The ``n``-th judge's phone on the venue's network (and that judge's open page): each
    device its own address, as the server's limits per address expect (64 connections
    waiting for a request, ``shinpan.web.protocol``); all on loopback."""
    return f"127.2.{n // 254}.{n % 254 + 1}"


def desk_address(n: int) -> str:
    """The ``n``-th head judge desk's machine."""
    return f"127.3.{n // 254}.{n % 254 + 1}"


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    sent: dict[int, float] = field(default_factory=dict)  # ruling's entry -> when its request was sent
    heard: list[list[tuple[float, int]]] = field(default_factory=list)  # per stream: (when, newest entry)
    stream_errors: int = 0
    counting_from: float = float("inf")  # the warm-up's end (perf_counter); opening a stream always counts
    warm: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    refused: int = 0  # the phones' answers 429 (past the limit per address)
    wrong: int = 0  # the phones' answers without the player's table
    failed: dict[int, int] = field(default_factory=dict)  # the phones' failures by status (0: no answer)

    def counts(self, started: float) -> bool:
        return started >= self.counting_from

    def add(self, kind: str, started: float, ok: bool) -> None:
        taken = (time.perf_counter() - started) * 1000
        counted = kind == "stream open" or self.counts(started)
        (self.latencies if counted else self.warm)[kind].append(taken)
        if not ok:
            self.errors[kind] += 1


async def judge(
    base: str, s: Setup, who: dict[str, str], rate: float, stop: float, stats: Stats, seed: int
) -> None:
    """One floor judge's phone: searches as they type, and records."""
    rng = random.Random(seed)
    async with Connection(base, who, local=judge_address(seed)) as http:
        while True:
            await asyncio.sleep(min(rng.expovariate(rate), max(0.0, stop - time.perf_counter())))
            if time.perf_counter() >= stop:
                return
            number, reading = s.players[rng.randrange(len(s.players))]
            if rng.random() < 0.7:
                family = reading.split()[0]
                for typed in (family[:2], family, reading)[: rng.choice((2, 3))]:
                    started = time.perf_counter()
                    status, _ = await http.request("GET", f"/api/events/{s.event}/players?q={quote(typed)}")
                    stats.add("search", started, status == 200)
            else:
                body = {
                    "command_id": uuid.uuid4().hex,
                    "player": number,
                    "infraction": rng.choice(INFRACTIONS),
                }
                payload = json.dumps(body).encode()
                started = time.perf_counter()
                status, answer = await http.request("POST", f"/api/events/{s.event}/rulings", payload)
                stats.add("record", started, status == 201)
                if status == 201 and stats.counts(started):
                    stats.sent[int(json.loads(answer)["entry"])] = started


async def stream(
    base: str,
    s: Setup,
    who: dict[str, str],
    desk: bool,
    stop: float,
    stats: Stats,
    opened: asyncio.Event,
    count: list[int],
    local: str,
) -> None:
    """An open page: hears every change; a desk fetches the panels a change touched, one
    refresh at a time and at most one a second, taking any drawing newer than what it
    shows and asking again for what is still older than the change that touched it, as
    desk.js does."""
    heard: list[tuple[float, int]] = []
    stats.heard.append(heard)
    refresh = asyncio.Event()
    wanted: set[str] = set()
    drawn: dict[str, int] = {}  # per panel: the entry it was drawn at
    needed: dict[str, int] = {}  # per panel: the newest change that touched it

    async def refresher(http: Connection) -> None:
        last = -DESK_SPACING
        while True:
            await refresh.wait()
            await asyncio.sleep(max(0.0, last + DESK_SPACING - time.perf_counter()))
            refresh.clear()
            names = sorted(PANELS if "*" in wanted else wanted)
            wanted.clear()
            if not names:
                continue
            since = min(drawn.get(n, 0) for n in names) + 1
            started = last = time.perf_counter()
            status, answer = await http.request(
                "GET", f"/events/{s.event}/desk/panels?only={','.join(names)}&since={since}"
            )
            stats.add("desk panels", started, status == 200)
            for panel, head in DRAWN_AT.findall(answer.decode() if status == 200 else ""):
                drawn[panel] = max(drawn.get(panel, 0), int(head))
            behind = {n for n in names if drawn.get(n, 0) < needed.get(n, 0)}
            if behind:
                wanted.update(behind)
                refresh.set()

    async with Connection(base, who, local=local) as live, Connection(base, who, local=local) as panels:
        task = asyncio.create_task(refresher(panels)) if desk else None
        try:
            started = time.perf_counter()
            status, body = await live.open("GET", f"/api/events/{s.event}/stream")
            stats.add("stream open", started, status == 200)
            kind = ""
            async for line in lines(body):
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:") and not line[5:].strip().isdigit():
                    if desk and kind == "changed":  # a change's second line: the panels it touched
                        touched = line[5:].split() or list(PANELS)
                        wanted.update(touched)
                        for panel in touched:
                            needed[panel] = max(needed.get(panel, 0), heard[-1][1] if heard else 0)
                        refresh.set()
                elif line.startswith("data:"):
                    if kind == "ready":
                        count[0] += 1
                        if count[0] == len(s.judges[: len(stats.heard)]) or count[0] >= len(stats.heard):
                            opened.set()
                    elif kind == "changed":
                        heard.append((time.perf_counter(), int(line[5:].strip())))
                if time.perf_counter() >= stop:
                    return
        except FAILURES:
            stats.stream_errors += 1
        finally:
            if task is not None:
                task.cancel()


async def pair_round(base: str, s: Setup, at: float, stats: Stats, phones: PipeEnd) -> None:
    """The head judge pairs round 1 at ``at``; then the phones are told where everyone sits."""
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    body = json.dumps({"command_id": uuid.uuid4().hex, "seed": 2026}).encode()
    async with Connection(base, s.desks[0], local=desk_address(0)) as http:
        started = time.perf_counter()
        status, answer = await http.request("POST", f"/api/events/{s.event}/rounds", body)
    stats.add("pairing", started, status == 201)
    pairings = json.loads(answer)["pairings"] if status == 201 else []
    tables = {p[side]: p["table"] for p in pairings for side in ("a", "b") if p[side] and p["table"]}
    phones.send((time.perf_counter(), tables))


def open_pages(base: str, s: Setup, streams: int, desks: int, seconds: float, pipe: PipeEnd) -> None:
    """In a process of its own: every open page (live streams, desks). The judges' phones,
    timed in the first process, then do not wait behind 150 streams' messages, as a
    judge's phone does not (``perf_counter`` is the machine's monotonic clock on Linux:
    one clock for both processes)."""
    stats = asyncio.run(_pages(base, s, streams, desks, seconds, pipe))
    pipe.send(
        {
            "latencies": dict(stats.latencies),
            "warm": dict(stats.warm),
            "errors": dict(stats.errors),
            "heard": stats.heard,
            "stream_errors": stats.stream_errors,
        }
    )


async def _pages(base: str, s: Setup, streams: int, desks: int, seconds: float, pipe: PipeEnd) -> Stats:
    stats = Stats()
    count = [0]
    opened = asyncio.Event()
    far = time.perf_counter() + seconds + 120
    viewers = [
        (s.desks[i % len(s.desks)], True, desk_address(i))
        if i < desks
        else (s.judges[i % len(s.judges)], False, judge_address(i % len(s.judges)))
        for i in range(streams)
    ]
    tasks = [
        asyncio.create_task(stream(base, s, who, desk, far, stats, opened, count, local))
        for who, desk, local in viewers
    ]
    try:
        await asyncio.wait_for(opened.wait(), 60)
    except TimeoutError:
        print(f"  only {count[0]} of {streams} streams opened in 60 s")
    pipe.send("opened")
    stats.counting_from = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # the judges are done
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


async def run_load(base: str, s: Setup, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    loop = asyncio.get_running_loop()
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    pages = multiprocessing.get_context("spawn").Process(
        target=open_pages, args=(base, s, args.streams, args.desks, args.seconds, theirs), daemon=True
    )
    pages.start()
    phones, ours_phones = None, None
    if args.phones:
        ours_phones, theirs_phones = multiprocessing.get_context("spawn").Pipe()
        plan = Plan(
            base,
            s.token,
            list(zip([n for n, _ in s.players], s.names, [r for _, r in s.players], strict=True))[
                : args.phones
            ],
            args.window,
        )
        phones = multiprocessing.get_context("spawn").Process(
            target=run_phones, args=(plan, theirs_phones), daemon=True
        )
        phones.start()
    try:
        await loop.run_in_executor(None, ours.recv)  # the pages are open
        if ours_phones is not None:
            await loop.run_in_executor(None, ours_phones.recv)  # the phones wait for the pairing
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        stats.counting_from = started + args.warmup
        ours.send(stats.counting_from)
        stop = stats.counting_from + args.seconds
        per_judge = args.rate / args.judges / 1.6  # a search is 2–3 requests: about 1.6 requests an action
        judges = [
            asyncio.create_task(judge(base, s, who, per_judge, stop, stats, n))
            for n, who in enumerate(s.judges)
        ]
        if ours_phones is not None:
            judges.append(
                asyncio.create_task(
                    pair_round(base, s, stats.counting_from + args.pair_at, stats, ours_phones)
                )
            )
        await asyncio.gather(*judges, return_exceptions=True)
        elapsed = time.perf_counter() - stats.counting_from
        await asyncio.sleep(1.5)  # the last rulings reach the streams
        ours.send("stop")
        heard = await loop.run_in_executor(None, ours.recv)
        if ours_phones is not None:
            asked = await loop.run_in_executor(None, ours_phones.recv)
            for kind, values in asked["latencies"].items():
                stats.latencies[kind].extend(values)
            for kind, errors in asked["errors"].items():
                stats.errors[kind] += errors
            stats.refused, stats.wrong, stats.failed = asked["refused"], asked["wrong"], asked["failed"]
    finally:
        for process in (pages, phones):  # the processes this run started, by their own handles
            if process is not None:
                process.join(30)
                if process.is_alive():
                    process.kill()
    for kind, values in heard["latencies"].items():
        stats.latencies[kind].extend(values)
    for kind, values in heard["warm"].items():
        stats.warm[kind].extend(values)
    for kind, errors in heard["errors"].items():
        stats.errors[kind] += errors
    stats.heard, stats.stream_errors = heard["heard"], heard["stream_errors"]
    return stats, elapsed


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else float("nan")


def reach(stats: Stats) -> list[float]:
    """For each recorded ruling: ms from its request to the last stream hearing of it."""
    out = []
    for seq, sent in stats.sent.items():
        last = 0.0
        for heard in stats.heard:
            when = next((t for t, head in heard if head >= seq), None)
            if when is None:
                last = float("inf")
                break
            last = max(last, when)
        out.append((last - sent) * 1000)
    return out


def report(
    label: str, stats: Stats, elapsed: float, args: argparse.Namespace, cpu: float | None = None
) -> bool:
    total = sum(len(v) for k, v in stats.latencies.items() if k != "stream open")
    print(
        f"\n== {label}: {total} requests in {elapsed:.1f} s ({total / elapsed:.0f} req/s) after "
        f"{args.warmup:g} s of warm-up, {args.streams} streams"
    )
    warm = ", ".join(
        f"{kind} p99 {percentile(stats.warm[kind], 99):.1f} ms (max {max(stats.warm[kind]):.1f})"
        for kind in ("record", "search", "desk panels")
        if stats.warm.get(kind)
    )
    print(f"  warm-up, not counted: {warm or 'no requests'}")
    print(f"  {'kind':14} {'count':>6} {'req/s':>6} {'p50':>8} {'p99':>8} {'max':>8} {'errors':>6}  target")
    ok = True
    figures: dict[str, float] = {}
    phones = (*PHONE_KINDS, "pairing") if args.phones else ()
    for kind in ("record", "search", "desk panels", "stream open", *phones):
        lat = stats.latencies.get(kind, [])
        errors = stats.errors.get(kind, 0)
        p99 = percentile(lat, 99)
        verdict = ""
        target = {"record": P99_TARGET_MS, "search": P99_TARGET_MS}.get(kind)
        target = PHONE_TARGET_MS if kind in PHONE_KINDS else target
        if target is not None:
            met = p99 < target and errors == 0 and len(lat) > 0
            ok &= met
            verdict = f"p99 < {target:g} ms, 0 errors: {'ok' if met else 'MISS'}"
        ok &= errors == 0
        figures[f"{kind} p99 ms"] = round(p99, 1)
        figures["errors"] = figures.get("errors", 0) + errors
        print(
            f"  {kind:14} {len(lat):6d} {len(lat) / elapsed:6.1f} {percentile(lat, 50):6.1f}ms {p99:6.1f}ms "
            f"{max(lat, default=float('nan')):6.1f}ms {errors:6d}  {verdict}"
        )
    reached = reach(stats)
    lost = sum(1 for r in reached if r == float("inf"))
    p99 = percentile([r for r in reached if r != float("inf")], 99)
    met = lost == 0 and p99 < STREAM_TARGET_MS and stats.stream_errors == 0
    ok &= met
    figures["stream p99 ms"] = round(p99, 1)
    figures["errors"] += stats.stream_errors + lost
    print(
        f"  ruling on every stream ({len(reached)} rulings x {len(stats.heard)} streams): "
        f"p50 {percentile(reached, 50):.1f} ms, p99 {p99:.1f} ms, max {max(reached, default=0):.1f} ms, "
        f"never heard {lost}, stream errors {stats.stream_errors}  "
        f"target p99 < {STREAM_TARGET_MS:g} ms: {'ok' if met else 'MISS'}"
    )
    if args.phones:
        asked = len(stats.latencies.get("phone table", []))
        print(
            f"  phones: {asked} of {args.phones} asked for their table within {args.window:g} s of round 1's "
            f"pairing ({args.pair_at:g} s into the counted part); refused (429) {stats.refused}, "
            f"answers without the player's table {stats.wrong}"
            + (f"; failures by status (0: none came) {stats.failed}" if stats.failed else "")
        )
        figures["phones answered"] = asked
        figures["errors"] += stats.refused + stats.wrong
    if cpu is not None:  # what the server spent, whatever else the machine runs meanwhile
        served = sum(len(v) for v in stats.latencies.values()) + sum(len(v) for v in stats.warm.values())
        print(
            f"  server CPU (user+sys of its processes, warm-up and counted part): {cpu:.2f} s, "
            f"{1000 * cpu / max(served, 1):.2f} ms a request ({served} requests; the streams' messages are in the CPU)"
        )
        figures["server cpu s"] = round(cpu, 2)
    emit(**{label: figures})
    return ok


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(url: str, workers: int, tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (tmp / f"server-{port}.log").open("wb")
    command = [str(SHINPAN), "serve", "--port", str(port), "--db", url]
    if workers > 1:
        command += ["--workers", str(workers)]
    proc = subprocess.Popen(
        command,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "SHINPAN_HOME": str(tmp)},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(base + "/login", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_server(proc)
            raise SystemExit("the server did not start:\n" + (tmp / f"server-{port}.log").read_text())
        time.sleep(0.2)


def server_cpu(pid: int) -> float:
    """CPU seconds (user+sys) of the server's processes so far: its process group (the
    server and its workers), from ``/proc``; what the machine's other work does to the
    latencies does not count here."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # a process gone meanwhile
            continue
        if int(fields[2]) == pid:  # its process group (field 5); utime and stime are fields 14, 15
            total += int(fields[11]) + int(fields[12])
    return total / tick


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """The server this run started, and its workers: its process group, by its pid."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def one(label: str, url: str, workers: int, args: argparse.Namespace, tmp: Path) -> bool:
    print(
        f"\n{label}: preparing {args.players} players, {args.judges} judges, {args.desks} desks …", flush=True
    )
    made = time.perf_counter()
    s = prepare(url, args.players, args.judges, args.desks, paired=not args.phones)
    print(f"  prepared in {time.perf_counter() - made:.0f} s; serving with {workers} worker(s)", flush=True)
    proc, base = serve(url, workers, tmp)
    try:
        started = server_cpu(proc.pid)
        stats, elapsed = asyncio.run(run_load(base, s, args))
        cpu = server_cpu(proc.pid) - started
    finally:
        stop_server(proc)
    log = next(tmp.glob(f"server-{urlsplit(base).port}.log")).read_text(errors="replace")
    if "Traceback" in log:
        print("  the server's log ends:\n" + "\n".join(log.splitlines()[-30:]))
    return report(label, stats, elapsed, args, cpu)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=30.0, help="counted, after the warm-up")
    parser.add_argument("--warmup", type=float, default=0.0, help="seconds of the same load, not counted")
    parser.add_argument("--rate", type=float, default=100.0, help="requests/s from all judges together")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--judges", type=int, default=150)
    parser.add_argument("--streams", type=int, default=150)
    parser.add_argument("--desks", type=int, default=12)
    parser.add_argument(
        "--phones", type=int, default=2000, help="players' phones (at most --players; 0: none)"
    )
    parser.add_argument("--pair-at", type=float, default=2.0, help="seconds into the counted part")
    parser.add_argument(
        "--window", type=float, default=10.0, help="seconds after the pairing the phones ask in"
    )
    parser.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL server where a database may be made for the run",
    )
    args = parser.parse_args()
    args.phones = min(args.phones, args.players)
    if args.phones:  # the pairing and the phones' window within the judges' counted seconds
        args.pair_at = min(args.pair_at, args.seconds * 0.2)
        args.window = min(args.window, max(0.5, args.seconds - args.pair_at - 1))
    results = {}
    with tempfile.TemporaryDirectory(prefix="shinpan-load-") as name:
        tmp = Path(name)
        if args.db in ("sqlite", "both"):
            results["SQLite"] = one("SQLite, one process", f"sqlite:///{tmp / 'load.sqlite3'}", 1, args, tmp)
        if args.db in ("postgres", "both"):
            import psycopg

            dbname = f"shinpan_load_{os.getpid()}"
            with psycopg.connect(args.pg, autocommit=True) as admin:
                admin.execute(f"CREATE DATABASE {dbname}")
            try:
                url = args.pg.rsplit("/", 1)[0] + f"/{dbname}"
                results["PostgreSQL"] = one("PostgreSQL, --workers 2", url, 2, args, tmp)
            finally:
                with psycopg.connect(args.pg, autocommit=True) as admin:
                    admin.execute(f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)")
    print("\n" + ", ".join(f"{k}: {'all targets met' if v else 'MISSED'}" for k, v in results.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
