"""Benchmark: how long every ``shinpan`` command takes to its first output.

    .venv/bin/python bench/cli.py [--runs 5] [--only NAME]

Sets up a SQLite file in a temporary directory (an event with 64 players, round 1 paired,
rulings waiting for confirmation), then runs every command as a judge types it, each
``--runs`` times with fresh arguments where it writes, and measures from the start of the
process to the first byte it writes (stdout or stderr). ``serve`` is stopped (by its pid)
once it has spoken. The floor, run in turns with the commands, is a bare Python process of
the same interpreter printing one line. Target: every command's median under 0.25 s.
The guideline cache lives in the temporary directory and is filled by a first, untimed run.

shinpan's bytecode is compiled first (``compileall``, into ``src/``'s ``__pycache__``), as
pip compiles an installed package's: a fresh clone has none, and where the environment sets
``PYTHONDONTWRITEBYTECODE`` (as this machine's shells do) no run writes it, so every command
would compile the sixty-odd modules it imports from source, every time (about a fifth of
``event list``'s instructions, measured with callgrind).

Beside the wall time, each run's CPU time (user + system, the process's own rusage, to its
end: for ``serve``, to its stop) is shown as its least and its median over the runs: on a
loaded machine the wall time waits for the other processes, the least CPU time hardly does.

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from figures import emit

ROOT = Path(__file__).resolve().parents[1]
SHINPAN = ROOT / ".venv" / "bin" / "shinpan"
PYTHON = ROOT / ".venv" / "bin" / "python"
TARGET = 0.25
PLAYERS = 64
# Commands whose first output is the finished document: the time is WeasyPrint laying out
# the pages, not the command's start. Shown, not held to the target.
RENDERING = {"report dq pdf"}


def cpu_of_children() -> float:
    """The CPU time (user + system) of the children this process has waited for, so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def first_output(command: list[str], env: dict[str, str], *, stop: bool = False) -> tuple[float, int, str]:
    """(seconds to the first byte written, exit code or -1 when stopped, what it said first)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env
    )
    assert proc.stdout is not None and proc.stderr is not None
    ready, _, _ = select.select([proc.stdout, proc.stderr], [], [], 60)
    elapsed = time.perf_counter() - started
    said = os.read(ready[0].fileno(), 200).decode("utf-8", "replace") if ready else ""
    if stop:
        proc.terminate()  # the server this run started, by its pid
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return elapsed, -1, said
    proc.communicate(timeout=120)
    return elapsed, proc.returncode, said


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def setup(tmp: Path, runs: int) -> dict[str, object]:
    """The database the commands work on, and the files they read."""
    from shinpan.files.csvio import PairingRow, PlayerRow
    from shinpan.services import accounts, events, recording
    from shinpan.store.db import Database

    db = Database(str(tmp / "bench.sqlite3"))
    numbers = [f"P{i:04d}" for i in range(1, PLAYERS + 1)]
    rows = [PlayerRow(n, f"選手 {n}", "せんしゅ", None) for n in numbers]
    pairs = [PairingRow(t + 1, numbers[2 * t], numbers[2 * t + 1]) for t in range(PLAYERS // 2)]
    main = events.create_event(db, name="本戦", head_judge="HJ", head_judge_level=2)
    events.import_players(db, main, rows)
    events.import_pairings(db, main, 1, pairs)
    pending = [  # slow play, first offence: a warning, waiting for the head judge (D11)
        recording.record(db, main, recording.RecordInput(numbers[i % PLAYERS], "ingame.slow-play")).rulings[
            0
        ]["number"]
        for i in range(3 * (runs + 1))
    ]
    cheated = numbers[-1]  # a disqualification, for the DQ report (D14)
    recording.record(db, main, recording.RecordInput(cheated, "severe.cheating"))
    per_run = []  # an event each run can pair, report results in and end a round of
    for _ in range(runs + 1):
        e = events.create_event(db, name="予選", head_judge="HJ", head_judge_level=2)
        events.import_players(db, e, rows)
        per_run.append(e)
    accounts.add_user(db, "bench-user", "bench-password", 2)
    db.close()
    players_csv = tmp / "players.csv"
    players_csv.write_text(
        "number,name,reading\n" + "".join(f"N{i:04d},新人 {i},しんじん\n" for i in range(200)),
        encoding="utf-8",
    )
    pairings_csv = tmp / "pairings.csv"
    pairings_csv.write_text(
        "table,a,b\n" + "".join(f"{p.table},{p.player_a},{p.player_b}\n" for p in pairs), encoding="utf-8"
    )
    scenario = tmp / "scenario.json"
    scenario.write_text(
        json.dumps(
            {"players": numbers[:4], "events": [{"player": numbers[0], "infraction": "ingame.slow-play"}]}
        ),
        encoding="utf-8",
    )
    return {
        "main": main,
        "pending": pending,
        "per_run": per_run,
        "players_csv": players_csv,
        "pairings_csv": pairings_csv,
        "scenario": scenario,
    }


Args = Callable[[int], list[str]]


def commands(tmp: Path, ctx: dict[str, object]) -> dict[str, tuple[Args, bool]]:
    """Every command as a judge runs it: name → (arguments for run n, stop it once it speaks)."""
    db = ["--db", str(tmp / "bench.sqlite3")]
    main = str(ctx["main"])
    pending: list[int] = ctx["pending"]  # type: ignore[assignment]
    per_run: list[int] = ctx["per_run"]  # type: ignore[assignment]
    guideline = ROOT / "src" / "shinpan" / "guideline" / "data" / "rel3-ja-1998.yaml"
    ev = ["--event", main]

    def fresh(n: int) -> str:
        return f"{os.getpid()}-{n}-{time.monotonic_ns()}"

    return {
        "--help": (lambda n: ["--help"], False),
        "rules": (lambda n: ["rules"], False),
        "rules QUERY": (lambda n: ["rules", "遅刻"], False),  # tardiness: an answer, not the not-found error
        "rules show": (lambda n: ["rules", "show", "ingame.slow-play", "--offense", "2"], False),
        "guideline check": (lambda n: ["guideline", "check", str(guideline)], False),
        "guideline schema": (lambda n: ["guideline", "schema"], False),
        "replay": (lambda n: ["replay", str(ctx["scenario"])], False),
        "event list": (lambda n: ["event", "list", *db], False),
        "event create": (
            lambda n: [
                "event",
                "create",
                "--name",
                f"大会 {fresh(n)}",
                "--head-judge",
                "HJ",
                "--head-judge-level",
                "2",
                *db,
            ],
            False,
        ),
        "judge add": (
            lambda n: ["judge", "add", *ev, "--name", f"J{fresh(n)}", "--role", "floor_judge", *db],
            False,
        ),
        "players import": (
            lambda n: ["players", "import", str(ctx["players_csv"]), "--event", str(per_run[n]), *db],
            False,
        ),
        "pairings import": (
            lambda n: [
                "pairings",
                "import",
                str(ctx["pairings_csv"]),
                "--event",
                str(per_run[n]),
                "--round",
                "1",
                *db,
            ],
            False,
        ),
        "round start": (lambda n: ["round", "start", "--event", str(per_run[n]), *db], False),
        "result": (
            lambda n: [
                "result",
                "--event",
                str(per_run[n]),
                "--round",
                "1",
                "--table",
                "1",
                "--match",
                "a",
                *db,
            ],
            False,
        ),
        "round end": (lambda n: ["round", "end", "--event", str(per_run[n]), "--round", "1", *db], False),
        "record": (
            lambda n: ["record", "ingame.extra-cards-drawn", *ev, "--player", "P0003", "--yes", *db],
            False,
        ),
        "confirm": (lambda n: ["confirm", str(pending[3 * n]), *ev, *db], False),
        "void": (lambda n: ["void", str(pending[3 * n + 1]), *ev, "--reason", "bench", *db], False),
        "deviate": (
            lambda n: [
                "deviate",
                str(pending[3 * n + 2]),
                *ev,
                "--reason",
                "bench",
                "--penalty",
                "notice",
                *db,
            ],
            False,
        ),
        "standings": (lambda n: ["standings", *ev, *db], False),
        "history": (lambda n: ["history", *ev, "--player", "P0001", *db], False),
        "deadlines": (lambda n: ["deadlines", *ev, *db], False),
        "verify": (lambda n: ["verify", *db], False),
        "rebuild --check": (lambda n: ["rebuild", "--check", *db], False),
        "export": (lambda n: ["export", *ev, *db], False),
        "backup": (lambda n: ["backup", str(tmp / f"backup-{fresh(n)}.sqlite3"), *db], False),
        "report penalties": (lambda n: ["report", "penalties", *ev, "-f", "csv", *db], False),
        "report player": (lambda n: ["report", "player", *ev, "--player", "P0001", "-f", "json", *db], False),
        "report stats": (lambda n: ["report", "stats", "-f", "json", *db], False),
        "report dq": (lambda n: ["report", "dq", *ev, "--format", "json", *db], False),
        "report dq pdf": (lambda n: ["report", "dq", *ev, "-o", str(tmp / f"dq-{n}.pdf"), *db], False),
        "user add": (
            lambda n: ["user", "add", "--name", f"U{fresh(n)}", "--password", "bench-pass", *db],
            False,
        ),
        "db grant": (lambda n: ["db", "grant", *db], False),
        "serve": (lambda n: ["serve", "--port", str(free_port()), *db], True),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", action="append", help="only this command (repeatable)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="shinpan-bench-") as name:
        tmp = Path(name)
        env = {**os.environ, "SHINPAN_CACHE": str(tmp / "cache"), "SHINPAN_HOME": str(tmp / "home")}
        ctx = setup(tmp, args.runs)
        todo = commands(tmp, ctx)
        if args.only:
            todo = {k: v for k, v in todo.items() if k in args.only}
        compileall.compile_dir(ROOT / "src" / "shinpan", quiet=1)  # as an installation has it
        first_output([str(SHINPAN), "rules"], env)  # fills the guideline cache: not timed
        floor_cmd = [str(PYTHON), "-c", "print('ready')"]
        floors: list[float] = []
        print(
            f"shinpan commands to first output, median (max) of {args.runs} runs; target < {TARGET} s;"
            " CPU time (user + system) to the end, least (median)"
        )
        print(f"  {'command':20} {'median':>7} {'max':>7} {'cpu':>7} {'(med)':>7}  exit  first words")
        worst = 0.0
        medians: dict[str, float] = {}
        cpu_least: dict[str, float] = {}
        floor_cpu: list[float] = []
        for label, (make, stop) in todo.items():
            times = []
            cpus = []
            for n in range(args.runs):
                before = cpu_of_children()
                floors.append(first_output(floor_cmd, env)[0])
                between = cpu_of_children()
                elapsed, code, said = first_output([str(SHINPAN), *make(n)], env, stop=stop)
                cpus.append(cpu_of_children() - between)
                floor_cpu.append(between - before)
                times.append(elapsed)
            median = statistics.median(times)
            medians[label] = round(median, 4)
            cpu_least[label] = round(min(cpus), 4)
            cpu = f"{min(cpus):7.3f} {statistics.median(cpus):7.3f}"
            words = " ".join(said.split())[:40]
            if label in RENDERING:
                print(
                    f"  {label:20} {median:7.3f} {max(times):7.3f} {cpu}  {code:4d}  {words}"
                    "  (the document: not a start)"
                )
                continue
            worst = max(worst, median)
            mark = "ok" if median < TARGET else "OVER"
            print(
                f"  {label:20} {median:7.3f} {max(times):7.3f} {cpu}  {code:4d}  {words}  {mark}", flush=True
            )
        floor = statistics.median(floors)
        print(
            f"  {'(bare python)':20} {floor:7.3f} {max(floors):7.3f}"
            f" {min(floor_cpu):7.3f} {statistics.median(floor_cpu):7.3f}"
        )
        print(
            f"slowest median {worst:.3f} s ({worst / floor:.1f}x bare python): "
            f"{'ok' if worst < TARGET else 'OVER'}"
        )
        emit(
            commands=medians,
            floor_s=round(floor, 4),
            slowest_s=round(worst, 4),
            cpu_least=cpu_least,
            floor_cpu_least=round(min(floor_cpu), 4),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
