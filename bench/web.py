"""Benchmark: the web app's record endpoint and player search against a bare endpoint.

    .venv/bin/python bench/web.py [--seconds 5] [--connections 16] [--rate 100] [--steady 10]
                                  [--players 1024] [--loader auto|wrk|python]

One uvicorn process (as ``shinpan serve`` runs it) on 127.0.0.1 serves a fresh SQLite file
holding a generated event (``--players`` players, round 1 paired) and, in the same server,
a bare Starlette endpoint returning a small JSON document: the floor of this machine,
this Python and this server. Then, in one run:

1. throughput (requests/s, ``--seconds`` each, ``--connections`` open connections) of the
   bare endpoint, of the player search ``GET /api/events/{id}/players?q=…`` and of the
   record endpoint ``POST /api/events/{id}/rulings`` (signed in as the floor judge, with the
   CSRF header and a fresh command id each time), with ``wrk`` when it is installed and
   Python threads otherwise; targets: search at least 0.3 of the bare endpoint, record at
   least 0.5 of the services' own rate (rulings recorded one after another through
   ``recording.record`` on the same database, measured in the same run);
2. latency at a steady ``--rate`` requests/s for ``--steady`` seconds (open loop: measured
   from when each request was due) on the record endpoint and the search; target p99 < 20 ms;
3. the record page in Chromium (Playwright): the bytes transferred for the page and
   everything it loads (gzip on), target < 100 KB, and requests to anything but the server,
   which must be none.

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from figures import emit

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
HEAD_JUDGE = ("山田 一郎", "bench-password", 2)
FLOOR_JUDGE = ("佐藤 花子", "246813")
INFRACTIONS = ("ingame.cards-off-table", "ingame.misapplied-card-text", "ingame.looking-at-extra-cards")
SEARCHES = ("たなか", "さとう しょうた", "P0042", "t12", "suzuki", "高橋")
RATIO_TARGET, RECORD_TARGET, P99_TARGET_MS, PAGE_TARGET_KB = 0.3, 0.5, 20.0, 100.0


# -- the server (run in its own process: ``bench/web.py --serve PORT URL``) -------------------


def serve(port: int, url: str) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.types import Receive, Scope, Send

    from shinpan.web.app import create_app
    from shinpan.web.protocol import VenueHttp

    app = create_app(url, serving=True)  # as `shinpan serve` makes it

    # Where the time goes: the app's middleware and routing with no work, in a worker thread
    # (as every shinpan endpoint runs) and on the event loop.
    def noop_sync() -> dict[str, bool]:
        return {"ok": True}

    async def noop_async() -> dict[str, bool]:
        return {"ok": True}

    app.add_api_route("/bench/noop-sync", noop_sync)
    app.add_api_route("/bench/noop-async", noop_async)

    async def bare_endpoint(request: Request) -> JSONResponse:
        return JSONResponse({"number": "P0001", "name": "佐藤 翔太", "reading": "さとう しょうた"})

    bare = Starlette(routes=[Route("/bare", bare_endpoint)])

    async def server(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/bare":
            await bare(scope, receive, send)
        else:
            await app(scope, receive, send)

    # As ``shinpan serve`` runs it: its HTTP protocol too.
    uvicorn.run(server, host="127.0.0.1", port=port, log_level="warning", access_log=False, http=VenueHttp)


# -- setting up ------------------------------------------------------------------------------


def make_event(url: str, players: int) -> tuple[int, list[tuple[str, str]]]:
    """A fresh database with an REL 3 event: players (number, reading), round 1 paired."""
    from shinpan.engine.event_rules import Role
    from shinpan.files.csvio import PairingRow, PlayerRow
    from shinpan.services import accounts, events
    from shinpan.store.db import Database

    family = [("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"), ("田中", "たなか"),
              ("伊藤", "いとう"), ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら")]  # fmt: skip
    given = [("翔太", "しょうた"), ("美咲", "みさき"), ("大輔", "だいすけ"), ("陽菜", "ひな")]
    rows = []
    for i in range(players):
        (f, fk), (g, gk) = family[i % len(family)], given[(i // len(family)) % len(given)]
        rows.append(PlayerRow(f"P{i + 1:04d}", f"{f} {g}", f"{fk} {gk}", None))
    db = Database(url)
    try:
        head = accounts.add_user(db, *HEAD_JUDGE)
        event = events.create_event(
            db,
            name="ベンチマーク大会",
            head_judge=HEAD_JUDGE[0],
            head_judge_level=HEAD_JUDGE[2],
            head_judge_account=head.uid,
        )
        events.import_players(db, event, rows)
        pairs = [PairingRow(t + 1, rows[2 * t].number, rows[2 * t + 1].number) for t in range(players // 2)]
        events.import_pairings(db, event, 1, pairs)
        code = accounts.invite(db, event, Role.floor_judge, HEAD_JUDGE[0])
        accounts.join(db, code, *FLOOR_JUDGE)
    finally:
        db.close()
    return event, [(r.number, r.reading) for r in rows]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Session:
    base: str
    cookies: dict[str, str]
    csrf: str

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.base, cookies=self.cookies, headers={"X-CSRF-Token": self.csrf}, timeout=30
        )


def sign_in(base: str, name: str, password: str) -> Session:
    with httpx.Client(base_url=base, timeout=30) as http:
        token = re.findall(r'name="csrf_token" value="([^"]+)"', http.get("/login").text)[0]
        done = http.post("/login", data={"name": name, "password": password, "csrf_token": token})
        assert done.status_code == 303 and "shinpan_session" in http.cookies, done.text[:300]
        token = re.findall(r'name="csrf_token" value="([^"]+)"', http.get("/login").text)[0]  # renewed
        return Session(base, dict(http.cookies.items()), token)


# -- load ------------------------------------------------------------------------------------


@dataclass
class Target:
    """What to hit: a GET, or a POST whose body is made fresh for each request."""

    name: str
    method: str
    path: str
    body: Callable[[int], dict[str, Any]] | None = None
    paths: tuple[str, ...] = ()  # GET paths to cycle through (wrk uses the first)


@dataclass
class Throughput:
    requests: int
    seconds: float
    errors: int
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def python_load(session: Session, target: Target, seconds: float, connections: int, cap: int) -> Throughput:
    """Closed loop: ``connections`` threads, each with its own keep-alive client, until time or cap."""
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    counter = iter(range(cap))
    statuses: dict[int, int] = {}

    def worker() -> None:
        with session.client() as http:
            while time.monotonic() < stop:
                with lock:
                    n = next(counter, None)
                if n is None:
                    return
                if target.method == "GET":
                    paths = target.paths or (target.path,)
                    code = http.get(paths[n % len(paths)]).status_code
                else:
                    assert target.body is not None
                    code = http.post(target.path, json=target.body(n)).status_code
                with lock:
                    statuses[code] = statuses.get(code, 0) + 1

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    elapsed = time.monotonic() - started
    done = sum(statuses.values())
    errors = sum(v for k, v in statuses.items() if k >= 400)
    return Throughput(done, elapsed, errors, statuses)


_WRK_POST = """
local run, players, infractions = "%(run)s", {%(players)s}, {%(infractions)s}
local counter, threads = 0, 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function request()
  counter = counter + 1
  local body = string.format('{"command_id":"%%s-%%d-%%d","player":"%%s","infraction":"%%s"}', run, tid, counter,
    players[(counter * 7 + tid) %% #players + 1], infractions[counter %% #infractions + 1])
  return wrk.format("POST", "%(path)s", nil, body)
end
"""


def wrk_load(
    session: Session, target: Target, seconds: float, connections: int, players: list[str]
) -> Throughput:
    threads = max(1, min(2, connections))
    headers = ["-H", f"Cookie: {session.cookie_header}", "-H", f"X-CSRF-Token: {session.csrf}"]
    script = []
    if target.method == "POST":
        headers += ["-H", "Content-Type: application/json"]
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
            lua.write(
                _WRK_POST
                % {
                    "run": f"wrk-{uuid.uuid4().hex[:8]}",
                    "path": target.path,
                    "players": ",".join(json.dumps(p) for p in players),
                    "infractions": ",".join(json.dumps(i) for i in INFRACTIONS),
                }
            )
        script = ["-s", lua.name]
    path = target.paths[0] if target.paths else target.path
    command = [
        "wrk",
        f"-t{threads}",
        f"-c{connections}",
        f"-d{max(1, round(seconds))}s",
        "--timeout",
        "10s",
        *headers,
        *script,
        session.base + path,
    ]
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60).stdout
    if script:
        os.unlink(script[1])
    done = re.search(r"(\d+) requests in ([\d.]+)(m?s)", out)
    if done is None:
        raise SystemExit(f"wrk said:\n{out}")
    elapsed = float(done[2]) / (1000 if done[3] == "ms" else 1)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = int(bad[1]) if bad else 0
    socket_errors = re.search(r"Socket errors: .*", out)
    if socket_errors:
        print(f"    wrk: {socket_errors[0]}")
    return Throughput(int(done[1]), elapsed, errors)


@dataclass
class Steady:
    latencies_ms: list[float]
    errors: int
    late_starts: int

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))] if ordered else float("nan")


def steady_load(session: Session, target: Target, rate: float, seconds: float, workers: int = 8) -> Steady:
    """Open loop: request n is due at start + n/rate and its latency counts from then, so a
    stall delays the requests behind it too. ``workers`` threads with warm connections send."""
    jobs: queue.Queue[tuple[int, float] | None] = queue.Queue()
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    clients = [session.client() for _ in range(workers)]
    for http in clients:  # open every connection before the clock starts
        http.get("/bare")

    def worker(http: httpx.Client) -> None:
        nonlocal errors
        while (job := jobs.get()) is not None:
            n, due = job
            if target.method == "GET":
                paths = target.paths or (target.path,)
                code = http.get(paths[n % len(paths)]).status_code
            else:
                assert target.body is not None
                code = http.post(target.path, json=target.body(n)).status_code
            spent = (time.perf_counter() - due) * 1000
            with lock:
                latencies.append(spent)
                errors += code >= 400

    threads = [threading.Thread(target=worker, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    late = 0
    start = time.perf_counter() + 0.05
    for n in range(int(rate * seconds)):
        due = start + n / rate
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        elif wait < -0.002:
            late += 1
        jobs.put((n, due))
    for _ in threads:
        jobs.put(None)
    for t in threads:
        t.join(60)
    for http in clients:
        http.close()
    return Steady(latencies, errors, late)


# -- the page --------------------------------------------------------------------------------


def page_weight(session: Session, event: int) -> tuple[int, list[str], list[tuple[str, int]]]:
    """(bytes transferred, requests elsewhere, [(url, bytes)]) loading the record page in a
    new browser context (empty cache), signed in as the floor judge."""
    from playwright.sync_api import sync_playwright

    base = session.base
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=base)
            context.add_cookies([{"name": k, "value": v, "url": base} for k, v in session.cookies.items()])
            page = context.new_page()
            asked: list[str] = []
            done: list[Any] = []
            page.on("request", lambda r: asked.append(r.url))
            page.on("requestfinished", lambda r: done.append(r))
            page.goto(f"/events/{event}/record", wait_until="networkidle")
            assert "/record" in page.url, page.url
            sizes = [(r.url, int(r.sizes()["responseBodySize"])) for r in done]
        finally:
            browser.close()
    elsewhere = [u for u in asked if not u.startswith((base + "/", "data:"))]
    return sum(max(0, size) for _, size in sizes), elsewhere, sizes


# -- the run ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description="shinpan web benchmark")
    parser.add_argument("--seconds", type=float, default=5.0, help="each throughput run (5)")
    parser.add_argument("--connections", type=int, default=16, help="open connections for throughput (16)")
    parser.add_argument("--rate", type=float, default=100.0, help="steady requests/s for latency (100)")
    parser.add_argument("--steady", type=float, default=10.0, help="seconds at the steady rate (10)")
    parser.add_argument("--players", type=int, default=1024, help="players in the generated event (1024)")
    parser.add_argument("--cap", type=int, default=50_000, help="most requests per Python throughput run")
    parser.add_argument("--loader", choices=["auto", "wrk", "python"], default="auto")
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return
    loader = args.loader if args.loader != "auto" else ("wrk" if shutil.which("wrk") else "python")

    with tempfile.TemporaryDirectory(prefix="shinpan-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        event, players = make_event(url, args.players)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = (Path(tmp) / "server.log").open("w")
        server = subprocess.Popen(
            [str(PYTHON), __file__, "--serve", str(port), url],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "SHINPAN_HOME": tmp},
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/bare", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start:\n" + (Path(tmp) / "server.log").read_text())
                time.sleep(0.1)
            run(args, loader, base, event, players, url)
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()


def services_rate(url: str, event: int, numbers: list[str], seconds: float) -> float:
    """Rulings recorded per second through the services themselves, one after another, on
    the same database while the server is idle: what the record endpoint is held against."""
    from shinpan.services import recording
    from shinpan.store.db import Database

    db = Database(url)
    prefix = f"services-{uuid.uuid4().hex[:8]}"
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        inp = recording.RecordInput(numbers[(done * 11) % len(numbers)], INFRACTIONS[done % len(INFRACTIONS)])
        recording.record(db, event, inp, command_id=f"{prefix}-{done}")
        done += 1
    rate = done / (time.perf_counter() - started)
    db.close()
    return rate


def run(
    args: argparse.Namespace, loader: str, base: str, event: int, players: list[tuple[str, str]], url: str
) -> None:
    session = sign_in(base, *FLOOR_JUDGE)
    numbers = [n for n, _ in players]
    rng = random.Random(1998)
    prefix = f"bench-{uuid.uuid4().hex[:8]}"

    def record_body(n: int) -> dict[str, Any]:
        return {
            "command_id": f"{prefix}-{n}-{rng.randrange(1 << 30)}",
            "player": numbers[(n * 7) % len(numbers)],
            "infraction": INFRACTIONS[n % len(INFRACTIONS)],
        }

    search_paths = tuple(f"/api/events/{event}/players?q={quote(q)}" for q in SEARCHES)
    bare = Target("bare Starlette JSON", "GET", "/bare")
    noop_async = Target("  app stack, async no-op", "GET", "/bench/noop-async")
    noop_sync = Target("  app stack, sync no-op", "GET", "/bench/noop-sync")
    search = Target("player search (GET)", "GET", search_paths[0], paths=search_paths)
    record = Target("record (POST)", "POST", f"/api/events/{event}/rulings", body=record_body)

    print(
        f"shinpan web benchmark: one uvicorn process, SQLite file, {len(players)} players, "
        f"load from {loader} on 127.0.0.1 ({args.connections} connections, {args.seconds:g} s each)"
    )
    for warm in (bare, search, record):  # first requests compile templates, open connections
        python_load(session, warm, 1.0, 2, 50)
    own = services_rate(url, event, numbers, args.seconds)
    results: dict[str, Throughput] = {}
    for target in (bare, noop_async, noop_sync, search, record):
        if loader == "wrk":
            results[target.name] = wrk_load(session, target, args.seconds, args.connections, numbers)
        else:
            results[target.name] = python_load(session, target, args.seconds, args.connections, args.cap)
    floor = results[bare.name].rate
    print(f"\n{'throughput':32} {'req/s':>9} {'of bare':>8} {'errors':>7}  target")
    for name, r in results.items():
        ratio = r.rate / floor if floor else 0.0
        verdict = (
            ""
            if name.startswith((bare.name, " ")) or name == record.name
            else f"≥ {RATIO_TARGET:.1f}  {'ok' if ratio >= RATIO_TARGET else 'MISS'}"
        )
        print(f"  {name:30} {r.rate:9.1f} {ratio:8.2f} {r.errors:7d}  {verdict}")
    of_own = results[record.name].rate / own if own else 0.0
    print(
        f"  {'the services themselves':30} {own:9.1f}   record endpoint / services: {of_own:.2f}  "
        f"≥ {RECORD_TARGET:.1f}  {'ok' if of_own >= RECORD_TARGET else 'MISS'}"
    )
    if loader == "python":
        print("  (Python threads cannot load the bare endpoint fully: its figure is low and the ratios")
        print("   are upper bounds; install wrk for the real floor)")

    figures: dict[str, float] = {
        "search_of_bare": round(results[search.name].rate / floor, 3) if floor else 0.0,
        "record_of_services": round(of_own, 3),
    }
    title = f"latency at a steady {args.rate:g} req/s for {args.steady:g} s"
    print(f"\n{title:40} {'p50':>8} {'p99':>8} {'max':>8} {'errors':>7}  target")
    for target in (record, search):
        s = steady_load(session, target, args.rate, args.steady)
        p99 = s.percentile(99)
        figures[f"{'record' if target is record else 'search'}_p99_ms"] = round(p99, 1)
        late = f" ({s.late_starts} sent late)" if s.late_starts else ""
        print(
            f"  {target.name:38} {s.percentile(50):6.1f}ms {p99:6.1f}ms {max(s.latencies_ms):6.1f}ms "
            f"{s.errors:7d}  p99 < {P99_TARGET_MS:g} ms  {'ok' if p99 < P99_TARGET_MS else 'MISS'}{late}"
        )

    total, elsewhere, sizes = page_weight(session, event)
    print(
        f"\nrecord page: {total / 1024:.1f} KB transferred in {len(sizes)} requests (gzip on), "
        f"{len(elsewhere)} requests elsewhere  target < {PAGE_TARGET_KB:g} KB, 0 elsewhere  "
        f"{'ok' if total / 1024 < PAGE_TARGET_KB and not elsewhere else 'MISS'}"
    )
    for u, size in sizes:
        print(f"  {size / 1024:7.1f} KB  {u.replace(base, '')}")
    emit(**figures, page_kb=round(total / 1024, 1), page_elsewhere=len(elsewhere), loader=loader)
    if elsewhere:
        print("  elsewhere:", *elsewhere, sep="\n    ")


if __name__ == "__main__":
    sys.exit(main())
