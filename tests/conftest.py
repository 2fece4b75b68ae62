"""Fixtures for the ledger tests: a database on SQLite and on PostgreSQL, an event, a clock.

Every ledger and service test takes ``db`` (a migrated :class:`Database`) or ``db_url``
(a URL for the CLI and for other processes) and so runs twice: on a fresh SQLite file and
in a fresh schema of the PostgreSQL database ``test`` on 127.0.0.1:5432 (user postgres,
trust auth). Without that server the PostgreSQL variants are skipped, except under CI
(the ``CI`` environment variable), where they fail: CI must test both.
"""

from __future__ import annotations

import atexit
import gc
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db_support import (  # noqa: F401 (PG_ADMIN, require_postgres and pg_admin_execute: for the tests)
    PG_ADMIN,
    drop_pooled_schemas,
    migrated_sqlite,
    pg_admin_execute,
    pg_url,
    postgres_schema,
    require_postgres,
)
from shinpan.engine.event_rules import Role
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.services import events, recording
from shinpan.store.db import Database

# -- the suite's own data, cache and guideline folders -------------------------------------
# shinpan keeps keys, databases and held guidelines in the user's data folder
# (SHINPAN_HOME, else $XDG_DATA_HOME/shinpan, else ~/.local/share/shinpan), what it can make
# again in the cache (SHINPAN_CACHE, else $XDG_CACHE_HOME/shinpan, else ~/.cache/shinpan) and
# guideline files in SHINPAN_GUIDELINES (else <data>/shinpan/guidelines). The suite reads and
# writes none of the user's: every one is a folder of its own for this process (and the
# processes it starts, which inherit the environment), set before shinpan is imported.
# ``REAL_FOLDERS`` are the user's, looked at before and after the session (`hermetic` below).


def _real_folders() -> tuple[Path, ...]:
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "shinpan"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shinpan"
    named = [os.environ.get(v) for v in ("SHINPAN_HOME", "SHINPAN_CACHE", "SHINPAN_GUIDELINES")]
    return (data, cache, data / "guidelines", *(Path(n) for n in named if n))


REAL_FOLDERS = _real_folders()
HERMETIC_ROOT = Path(tempfile.mkdtemp(prefix="shinpan-tests-"))
atexit.register(shutil.rmtree, HERMETIC_ROOT, True)
HERMETIC_ENV = {
    "XDG_DATA_HOME": str(HERMETIC_ROOT / "data"),
    "XDG_CACHE_HOME": str(HERMETIC_ROOT / "cache"),
    "SHINPAN_HOME": str(HERMETIC_ROOT / "data" / "shinpan"),
    "SHINPAN_CACHE": str(HERMETIC_ROOT / "cache" / "shinpan"),
    "SHINPAN_GUIDELINES": str(HERMETIC_ROOT / "data" / "shinpan" / "guidelines"),
}
os.environ.update(HERMETIC_ENV)
os.environ.pop("SHINPAN_DATABASE_URL", None)


def folder_listing(folders: tuple[Path, ...] = REAL_FOLDERS) -> dict[str, tuple[int, int] | None]:
    """Every file and folder under ``folders`` with its size and modification time (None:
    the folder is not there)."""
    found: dict[str, tuple[int, int] | None] = {}
    for top in folders:
        if not top.exists():
            found[str(top)] = None
            continue
        for path in (top, *sorted(top.rglob("*"))):
            with suppress(OSError):  # gone while listed
                st = path.lstat()
                found[str(path)] = (st.st_size, st.st_mtime_ns)
    return found


@pytest.fixture(scope="session", autouse=True)
def hermetic() -> Iterator[None]:
    """The suite fails if anything of the user's own data, cache or guideline folders
    changed while it ran (a test that wrote there, or left something there)."""
    before = folder_listing()
    yield
    after = folder_listing()
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        pytest.fail(f"the tests changed the user's own folders: {changed[:10]}")


# pytest-xdist's workers run with COLUMNS=80, and the command line's console keeps the
# width it was made with: the CLI tests give their own width, so none is set here.
os.environ.pop("COLUMNS", None)

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
PYTHON = BIN / "python"
SHINPAN = BIN / "shinpan"

BACKENDS = ["sqlite", "postgres"]

# The clock every service call in these tests reads: the first day of a fictitious event.
T0 = datetime(2024, 6, 1, 10, 0, tzinfo=UTC)
HEAD_JUDGE = "HJ"
FLOOR_JUDGE = "FJ"


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker ends in time, and the log ends clean.

    A worker tells the controller it has finished when this hook returns; the controller
    then closes the worker's channel, and execnet gives the worker 5 s to be done before it
    sends the worker SIGINT. The worker was still collecting garbage then: pytest runs full
    collections as it unconfigures, each walking the few hundred thousand objects the
    worker's tests left alive (3 s apiece on a loaded machine, measured), and the SIGINT
    landed in hypothesis's garbage-collection callback, a ``KeyboardInterrupt`` traceback
    at the end of the run. So a worker collects here, while the controller waits for it,
    and freezes what survives (``gc.freeze``): the collections after it have nothing to walk.
    """
    drop_pooled_schemas()  # before a worker says it has finished: nothing left in ``test``
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.collect()
        gc.freeze()


# -- the order the workers take the tests in ----------------------------------------------
# scripts/test runs the suite on two workers with ``--dist worksteal``: each worker takes half
# of the tests in collection order and, when out of tests, half of what the other has not
# started. The modules with the longest tests come first, so that the run does not end with
# one worker on a long test and the other idle. The order within a module is kept, and so is
# the grouping by database that pytest makes for the module-scoped fixtures.
LONGEST_FIRST = (  # by their longest test, measured one process each (2026-12-07, loaded)
    "test_openapi_fuzz.py",  # 8 parts, 10–60 s each, and one whole run per database (~35 s)
    "test_tournament_pairing.py",  # one property 19–43 s
    "test_calls_browser.py",  # 23–29 s for each database
    "test_tournament_standings.py",  # three properties 13–25 s
    "test_paths_agree.py",  # 12 s through the JSON API on PostgreSQL
    "test_properties.py",  # six properties 5–13 s
    "test_web_browser.py",  # 16 walks 4–9 s, 90 s in all
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable


@contextmanager
def core_of(db: Database) -> Iterator[Any]:
    """SQLAlchemy's connection to the test's database, in a transaction that commits: for
    the tests that migrate to an old revision or compare the schema with Alembic (the store
    itself runs on the drivers)."""
    from shinpan.store.migrate import core_engine

    engine = core_engine(db.url)
    try:
        with engine.connect() as conn, conn.begin():
            yield conn
    finally:
        engine.dispose()


# -- the databases --------------------------------------------------------------------------


@dataclass(frozen=True)
class Backend:
    """Where one test's database lives."""

    name: str  # sqlite | postgres
    url: str
    path: Path | None = None  # the SQLite file
    schema: str | None = None  # the PostgreSQL schema

    @property
    def is_postgres(self) -> bool:
        return self.name == "postgres"


def new_backend(name: str, tmp_path: Path, *, migrated: bool = False) -> Iterator[Backend]:
    """A fresh database of the kind ``name``, empty or already ``migrated`` to this code's
    schema with no rows (a generator: closing it drops or pools the schema;
    ``tests/db_support.py`` says how)."""
    if name == "sqlite":
        path = tmp_path / "shinpan.sqlite3"
        if migrated:
            migrated_sqlite(path)
        yield Backend("sqlite", f"sqlite:///{path}", path=path)
        return
    with postgres_schema(migrated=migrated) as schema:
        yield Backend("postgres", pg_url(schema), schema=schema)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """A fresh database: a SQLite file, or a PostgreSQL schema. Empty, unless the test takes
    ``db`` too: then already migrated (what ``db`` would make of it, made once a process)."""
    yield from new_backend(request.param, tmp_path, migrated="db" in request.fixturenames)


@pytest.fixture
def db_url(backend: Backend) -> str:
    """The URL of a fresh database, for the CLI (``--db``) and for other processes."""
    return backend.url


@pytest.fixture
def db(backend: Backend) -> Iterator[Database]:
    """A fresh database, migrated; its connections are closed afterwards."""
    database = Database(backend.url)
    try:
        yield database
    finally:
        database.close()


@pytest.fixture
def other_backend(backend: Backend, tmp_path: Path) -> Iterator[Backend]:
    """A second fresh database of the same kind (to import into, to compare with)."""
    yield from new_backend(backend.name, tmp_path / "other")


# -- the clock ---------------------------------------------------------------------------


@dataclass
class Clock:
    """A fixed clock; services take ``now=clock.now``."""

    now: datetime = T0

    def advance(self, minutes: float = 0, seconds: float = 0) -> datetime:
        self.now = self.now + timedelta(minutes=minutes, seconds=seconds)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


# -- an event ----------------------------------------------------------------------------


@dataclass
class EventSetup:
    """An event made by :func:`make_event`: its id and who is in it."""

    db: Database
    id: int
    players: list[str]
    clock: Clock = field(default_factory=Clock)
    floor_judge: str = FLOOR_JUDGE

    def record(self, player: str, infraction: str, **kw: Any) -> recording.Recorded:
        """Record as the floor judge at the clock's time; keyword arguments go to RecordInput."""
        judge = kw.pop("judge", self.floor_judge)
        command_id = kw.pop("command_id", None)
        inp = recording.RecordInput(player=player, infraction=infraction, **kw)
        return recording.record(self.db, self.id, inp, judge=judge, command_id=command_id, now=self.clock.now)

    def pair(self, round_no: int, tables: list[tuple[str, str | None]]) -> None:
        rows = [PairingRow(n, a, b) for n, (a, b) in enumerate(tables, start=1)]
        events.import_pairings(self.db, self.id, round_no, rows, now=self.clock.now)


def player_rows(n: int, prefix: str = "P") -> list[PlayerRow]:
    return [PlayerRow(f"{prefix}{i:03d}", f"選手 {i}", "せんしゅ", None) for i in range(1, n + 1)]


def make_event(
    db: Database,
    *,
    players: int = 8,
    pair: bool = True,
    clock: Clock | None = None,
    name: str = "テスト大会",
) -> EventSetup:
    """An REL 3 event with a level-2 head judge, a floor judge, ``players`` players and,
    unless ``pair=False``, round 1 paired P001–P002 at table 1, P003–P004 at table 2, …"""
    clock = clock or Clock()
    event_id = events.create_event(
        db, name=name, head_judge=HEAD_JUDGE, head_judge_level=2, starts_on="2024-06-01", now=clock.now
    )
    events.add_judge(db, event_id, name=FLOOR_JUDGE, level=1, role=Role.floor_judge, now=clock.now)
    rows = player_rows(players)
    if rows:
        events.import_players(db, event_id, rows, now=clock.now)
    setup = EventSetup(db, event_id, [r.number for r in rows], clock)
    if pair and len(rows) >= 2:
        numbers = setup.players
        setup.pair(
            1,
            [
                (numbers[i], numbers[i + 1] if i + 1 < len(numbers) else None)
                for i in range(0, len(numbers), 2)
            ],
        )
    return setup


@pytest.fixture
def new_event(db: Database, clock: Clock) -> Callable[..., EventSetup]:
    """``new_event(players=8, pair=True)``: an event in the test's database, on its clock."""

    def build(**kw: Any) -> EventSetup:
        kw.setdefault("clock", clock)
        return make_event(db, **kw)

    return build


@pytest.fixture
def ev(new_event: Callable[..., EventSetup]) -> EventSetup:
    """The usual event: 8 players, round 1 paired."""
    return new_event()


# -- running the command -----------------------------------------------------------------


def run_shinpan(
    *args: str, db: str | None = None, timeout: float = 60, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``shinpan ARGS... [--db URL]`` in a new process, stdin not a terminal."""
    command = [str(SHINPAN), *args] + (["--db", db] if db is not None else [])
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    env.pop("SHINPAN_DATABASE_URL", None)
    return subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env, **kw
    )


def run_cli(*args: str, db: str | None = None) -> subprocess.CompletedProcess[str]:
    """``shinpan ARGS... [--db URL]`` in this process (fast); the same result shape as
    :func:`run_shinpan`. An exception that escapes the command shows as a traceback on stderr."""
    from typer.testing import CliRunner

    from shinpan.cli import app

    command = [*args] + (["--db", db] if db is not None else [])
    result = CliRunner().invoke(app, command, env={"SHINPAN_DATABASE_URL": None, "NO_COLOR": "1"})
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "Traceback:\n" + "".join(traceback.format_exception(result.exception))
    gc.collect()  # the command's engine and its connections go now, not at some later collection
    return subprocess.CompletedProcess(["shinpan", *command], result.exit_code, result.stdout, stderr)


# -- a judge recording as fast as they can, in another process ------------------------------

# argv: URL EVENT PREFIX COUNT SEED [PLAYERS...]; COUNT 0 records until killed (or 2 minutes
# pass). Prints "ready",
# waits for a line on stdin ("go"), then prints one line per saved record, only after
# record() returned: "N[,M...] COMMAND_ID".
RECORDER = r"""
import random, sys, time
from shinpan.services.recording import RecordInput, preview, record
from shinpan.store.db import Database

url, event_id, prefix, count, seed, *players = sys.argv[1:]
infractions = ["ingame.slow-play", "ingame.extra-cards-drawn", "pregame.tardiness",
               "ingame.looking-at-extra-cards", "ingame.cards-off-table"]
rng = random.Random(int(seed))
db = Database(url)
preview(db, int(event_id), RecordInput(player=players[0], infraction=infractions[0]), judge="FJ")  # warm up
print("ready", flush=True)
if sys.stdin.readline().strip() != "go":  # every recorder starts at once, or not at all
    sys.exit(0)
i, stop = 0, time.monotonic() + 120  # never outlive a test run, whatever happens to it
while (int(count) == 0 or i < int(count)) and time.monotonic() < stop:
    command_id = f"{prefix}-{i}"
    inp = RecordInput(player=rng.choice(players), infraction=rng.choice(infractions))
    saved = record(db, int(event_id), inp, judge="FJ", command_id=command_id)
    numbers = ",".join(str(r["number"]) for r in saved.rulings)
    sys.stdout.write(f"{numbers} {command_id}\n")  # one write: a kill cannot split the line
    sys.stdout.flush()
    i += 1
"""


class Recorder:
    """A process running :data:`RECORDER`; its lines are read as they come."""

    def __init__(
        self, url: str, event_id: int, prefix: str, count: int, seed: int, players: list[str]
    ) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.proc = subprocess.Popen(
            [str(PYTHON), "-c", RECORDER, url, str(event_id), prefix, str(count), str(seed), *players],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.saved: list[tuple[list[int], str]] = []  # (ruling numbers, command id), as reported
        self._ended = False

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.endswith("\n"):  # a line cut short by the kill was not reported
                self.lines.put(line[:-1])
        self.lines.put(None)

    def _next(self, timeout: float) -> str | None:
        """The next line (a saved record is kept in ``saved``); None at the end of output."""
        line = self.lines.get(timeout=timeout)
        if line is None:
            self._ended = True
        elif line != "ready":
            assert line.count(" ") == 1, f"not a report of a saved record: {line!r}"
            numbers, command_id = line.split(" ")
            self.saved.append(([int(n) for n in numbers.split(",") if n], command_id))
        return line

    def wait_ready(self, timeout: float = 30) -> None:
        try:
            line = self._next(timeout)
        except queue.Empty:
            self.kill()
            raise AssertionError("the recorder did not start in time") from None
        if line != "ready":
            self.proc.wait(10)
            raise AssertionError(f"the recorder failed to start: {line!r}\n{self.stderr()}")

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.close()

    def wait_saved(self, count: int = 1, timeout: float = 30) -> None:
        """Until the process has reported ``count`` saved records."""
        deadline = time.monotonic() + timeout
        while len(self.saved) < count and not self._ended:
            try:
                self._next(max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the recorder saved {len(self.saved)} in {timeout} s") from None
        assert len(self.saved) >= count, self.stderr()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()  # SIGKILL: no cleanup, no flush, no rollback in the process
        self.proc.wait(30)

    def finish(self, timeout: float) -> list[tuple[list[int], str]]:
        """Wait for the process to end (killed or done) and collect what it reported saved."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the recorder ran longer than {timeout} s") from None
        self._reader.join(10)
        while not self._ended:
            self._next(10)
        return self.saved

    def stderr(self) -> str:
        if self.proc.poll() is None or not self.proc.stderr:
            return ""
        return self.proc.stderr.read()


@pytest.fixture
def recorders() -> Iterator[Callable[..., Recorder]]:
    """``recorders(url, event_id, prefix, count, seed, players)``: start a :class:`Recorder`;
    any still running when the test ends is killed."""
    started: list[Recorder] = []

    def start(url: str, event_id: int, prefix: str, count: int, seed: int, players: list[str]) -> Recorder:
        started.append(Recorder(url, event_id, prefix, count, seed, players))
        return started[-1]

    yield start
    for recorder in started:
        recorder.kill()
