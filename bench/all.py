"""Every bench of ``bench/``, each run a given number of times; the README's speed table.

    bench/all [--runs 3] [--no-postgres] [--only NAME ...] [--skip NAME ...] [--out FILE]

(``bench/all`` runs this file with the project's ``.venv/bin/python``.) Runs each bench as
its own process, one after another, ``--runs`` times (3 by default), reads the figures each
printed (``bench/figures.py``), and prints in Markdown the machine it ran on (CPU, cores,
RAM, OS, Python, SQLite and PostgreSQL versions, the load average before and after, the date
and the commit) and the README's speed table: each figure's median over the runs (the range
beside it), its target, met or missed. Errors are summed over every run, not a median.

Bounded in time: each bench run has its own limit (``BENCHES``, scaled by ``--patience``); one that overruns is
stopped (its process group, by its pid) and its figures count as missing. Everything talks to
127.0.0.1 only; ``--no-postgres`` leaves PostgreSQL out (the load and calls benches run on
SQLite only). Run it on an idle machine: the figures are what this machine gives.

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import parse

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
PG = "postgresql://postgres@127.0.0.1:5432/postgres"

# name → (arguments, seconds one run may take at most)
BENCHES: dict[str, tuple[list[str], float]] = {
    "ledger": (["ledger.py", "--big", "2000"], 300),
    "load": (["load.py", "--seconds", "20"], 900),
    "reports": (["reports.py"], 600),
    "replay": (["replay.py", "--runs", "3"], 600),
    "cli": (["cli.py", "--runs", "3"], 600),
    "pairing": (["pairing.py"], 600),
    "decks": (["decks.py"], 300),
    "calls": (["calls.py", "--seconds", "20"], 900),
    "web": (["web.py"], 600),
}
WITH_DB = {"load", "calls"}  # take --db sqlite|both
READ_ONLY = ("event list", "standings", "history", "rules QUERY")


@dataclass
class Row:
    """One line of the table: a figure, how it is read from a bench's figures, its target."""

    what: str
    bench: str
    pick: Callable[[dict[str, Any]], Any]
    target: str
    met: Callable[[float], bool]
    unit: str = ""
    worst: bool = False  # counted over every run (errors): their sum, not the median


def _get(*path: str) -> Callable[[dict[str, Any]], Any]:
    def pick(figures: dict[str, Any]) -> Any:
        value: Any = figures
        for key in path:
            if not isinstance(value, dict):
                return None
            if key.endswith("*"):  # a label's start: "SQLite*" finds "SQLite, one process"
                value = next((v for k, v in value.items() if k.startswith(key[:-1])), None)
            else:
                value = value.get(key)
        return value

    return pick


def _load_rows(db: str) -> list[Row]:
    at = f"{db}*"
    return [
        Row(f"big event at a pairing, {db}: judges' record p99", "load", _get(at, "record p99 ms"), "< 50 ms", lambda v: v < 50, " ms"),
        Row(f"big event at a pairing, {db}: judges' search p99", "load", _get(at, "search p99 ms"), "< 50 ms", lambda v: v < 50, " ms"),
        Row(f"big event at a pairing, {db}: phone page p99", "load", _get(at, "phone page p99 ms"), "< 100 ms", lambda v: v < 100, " ms"),
        Row(f"big event at a pairing, {db}: phone table p99", "load", _get(at, "phone table p99 ms"), "< 100 ms", lambda v: v < 100, " ms"),
        Row(f"big event at a pairing, {db}: a ruling on every stream p99", "load", _get(at, "stream p99 ms"), "< 200 ms", lambda v: v < 200, " ms"),
        Row(f"big event at a pairing, {db}: errors (all runs)", "load", _get(at, "errors"), "0", lambda v: v == 0, worst=True),
    ]  # fmt: skip


def _calls_rows(db: str) -> list[Row]:
    at = f"{db}*"
    return [
        Row(f"judge calls, {db}: a claim on every stream p99", "calls", _get(at, "claim_stream_p99_ms"), "< 200 ms", lambda v: v < 200, " ms"),
        Row(f"judge calls, {db}: judges' record p99", "calls", _get(at, "record_p99_ms"), "< 50 ms", lambda v: v < 50, " ms"),
        Row(f"judge calls, {db}: errors (all runs)", "calls", _get(at, "errors"), "0", lambda v: v == 0, worst=True),
    ]  # fmt: skip


def rows(postgres: bool) -> list[Row]:
    dbs = ["SQLite", "PostgreSQL"] if postgres else ["SQLite"]
    read_only = [
        Row(f"`shinpan {c}` to its first output", "cli", _get("commands", c), "< 0.15 s", lambda v: v < 0.15, " s")
        for c in READ_ONLY
    ]  # fmt: skip
    return [
        Row("rulings recorded per second, services / raw `sqlite3` INSERT+COMMIT (WAL, synchronous=FULL)", "ledger", _get("throughput_ratio"), "≥ 0.5", lambda v: v >= 0.5),
        Row("one recording with 2,000 vs 100 earlier rulings", "ledger", _get("growth_ratio"), "≤ 1.3×", lambda v: v <= 1.3, "×"),
        *[row for db in dbs for row in _load_rows(db)],
        Row("penalty report of 20,000 rulings, CSV", "reports", _get("csv_s"), "≤ 0.5 s", lambda v: v <= 0.5, " s"),
        Row("penalty report of 20,000 rulings, PDF", "reports", _get("pdf_s"), "≤ 5 s", lambda v: v <= 5, " s"),
        Row("statistics page of that event", "reports", _get("stats_s"), "≤ 0.5 s", lambda v: v <= 0.5, " s"),
        Row("`shinpan replay` of 10,000 players / 50,000 records vs its I/O floor", "replay", _get("ratio"), "≤ 2×", lambda v: v <= 2, "×"),
        Row("the same with `--explain`", "replay", _get("ratio_explain"), "≤ 2×", lambda v: v <= 2, "×"),
        *read_only,
        Row("slowest command to its first output (a PDF's rendering apart)", "cli", _get("slowest_s"), "< 0.25 s", lambda v: v < 0.25, " s"),
        Row("pairing a round of 2,000 players (slowest round)", "pairing", _get("pair_s"), "< 5 s", lambda v: v < 5, " s"),
        Row("standings of 2,000 players (slowest round)", "pairing", _get("standings_s"), "< 1 s", lambda v: v < 1, " s"),
        Row("importing 2,000 decklists", "decks", _get("import_s"), "< 10 s", lambda v: v < 10, " s"),
        Row("comparing a deck with its list (worst of 200)", "decks", _get("compare_worst_ms"), "< 20 ms", lambda v: v < 20, " ms"),
        *[row for db in dbs for row in _calls_rows(db)],
        Row("web: player search / bare endpoint", "web", _get("search_of_bare"), "≥ 0.3", lambda v: v >= 0.3),
        Row("web: record endpoint / the services' own rate", "web", _get("record_of_services"), "≥ 0.5", lambda v: v >= 0.5),
        Row("web: record p99 at a steady 100 req/s", "web", _get("record_p99_ms"), "< 20 ms", lambda v: v < 20, " ms"),
        Row("web: search p99 at a steady 100 req/s", "web", _get("search_p99_ms"), "< 20 ms", lambda v: v < 20, " ms"),
        Row("web: record page, total transfer", "web", _get("page_kb"), "< 100 KB", lambda v: v < 100, " KB"),
    ]  # fmt: skip


# -- running -------------------------------------------------------------------------------------


def run_bench(name: str, args: argparse.Namespace) -> tuple[dict[str, Any], float, str]:
    """One run of one bench: (its figures, seconds it took, how it ended)."""
    argv, limit = BENCHES[name]
    command = [str(PYTHON), str(ROOT / "bench" / argv[0]), *argv[1:]]
    if name in WITH_DB:
        command += ["--db", "both" if args.postgres else "sqlite"]
    started = time.monotonic()
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
    )
    try:
        out, _ = proc.communicate(timeout=limit * args.patience)
        ended = f"exit {proc.returncode}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)  # the bench's own group (and its servers), by its pid
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
        ended = f"stopped after {limit * args.patience:.0f} s"
    took = time.monotonic() - started
    if args.log:
        with args.log.open("a", encoding="utf-8") as log:
            log.write(f"\n### {name} ({ended}, {took:.0f} s): {' '.join(command)}\n{out}")
    return parse(out), took, ended


def _shell(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=10, cwd=ROOT).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine(postgres: bool) -> dict[str, str]:
    cpu = next(
        (
            ln.split(":", 1)[1].strip()
            for ln in _read("/proc/cpuinfo").splitlines()
            if ln.startswith("model name")
        ),
        platform.processor() or platform.machine(),
    )
    mem = next(
        (ln.split()[1] for ln in _read("/proc/meminfo").splitlines() if ln.startswith("MemTotal")), "0"
    )
    os_name = next(
        (
            ln.split("=", 1)[1].strip('"')
            for ln in _read("/etc/os-release").splitlines()
            if ln.startswith("PRETTY_NAME")
        ),
        platform.platform(),
    )
    pg = "not measured (--no-postgres)"
    if postgres:
        try:
            import psycopg

            with psycopg.connect(PG, connect_timeout=5) as conn:
                row = conn.execute("SHOW server_version").fetchone()
                pg = str(row[0]) if row else "?"
        except Exception as e:  # shown, not fatal
            pg = f"unreachable ({type(e).__name__})"
    commit = _shell(["git", "rev-parse", "--short", "HEAD"])
    if _shell(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with uncommitted changes)"
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "RAM": f"{int(mem) / 1024 / 1024:.1f} GiB",
        "OS": f"{os_name} ({platform.release()})",
        "Python": platform.python_version(),
        "SQLite": sqlite3.sqlite_version,
        "PostgreSQL": pg,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
    }


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _number(value: float, unit: str) -> str:
    text = f"{value:.0f}" if abs(value) >= 100 else f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}"
    return text + unit


def table(results: dict[str, list[dict[str, Any]]], postgres: bool, runs: int) -> tuple[str, int]:
    """The Markdown table and how many targets were missed."""
    lines = [
        f"| what | bench | median of {runs} (range) | target | |",
        "|---|---|---|---|---|",
    ]
    missed = 0
    for row in rows(postgres):
        if row.bench not in results:
            continue
        values = [v for f in results[row.bench] if isinstance(v := row.pick(f), int | float)]
        if not values:
            lines.append(
                f"| {row.what} | `bench/{row.bench}.py` | no figure (see the log) | {row.target} | missed |"
            )
            missed += 1
            continue
        value = sum(values) if row.worst else statistics.median(values)
        shown = f"{value:g}" if row.worst else _number(value, row.unit)
        if len(values) > 1 and not row.worst:
            shown += f" ({_number(min(values), row.unit)}–{_number(max(values), row.unit)})"
        if len(values) < runs:
            shown += f", {len(values)} of {runs} runs"
        ok = row.met(value) and len(values) == runs
        missed += not ok
        lines.append(
            f"| {row.what} | `bench/{row.bench}.py` | **{shown}** | {row.target} | {'met' if ok else 'missed'} |"
        )
    return "\n".join(lines), missed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of each bench (3)")
    parser.add_argument("--no-postgres", dest="postgres", action="store_false", help="SQLite only")
    parser.add_argument(
        "--only", action="append", choices=sorted(BENCHES), help="only this bench (repeatable)"
    )
    parser.add_argument(
        "--skip", action="append", choices=sorted(BENCHES), default=[], help="leave a bench out"
    )
    parser.add_argument("--patience", type=float, default=1.0, help="scale every bench's time limit (1)")
    parser.add_argument("--log", type=Path, default=None, help="append every bench's own output here")
    parser.add_argument("--out", type=Path, default=None, help="also write the Markdown here")
    args = parser.parse_args()
    names = [n for n in (args.only or BENCHES) if n not in args.skip]
    before = os.getloadavg()
    results: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    for turn in range(1, args.runs + 1):
        for name in names:  # in turns: a busy minute spoils one run of each, not three of one
            figures, took, ended = run_bench(name, args)
            print(f"run {turn}/{args.runs} {name}: {ended}, {took:.0f} s", file=sys.stderr, flush=True)
            results[name].append(figures)
    after = os.getloadavg()
    facts = machine(args.postgres)
    facts["load average"] = f"{before[0]:.2f} before, {after[0]:.2f} after ({os.cpu_count()} cores)"
    body, missed = table(results, args.postgres, args.runs)
    text = "\n".join(
        [
            f"Measured by `bench/all --runs {args.runs}"
            + ("" if args.postgres else " --no-postgres")
            + "`"
            + (f" (only {', '.join(names)})" if args.only or args.skip else "")
            + ":",
            "",
            *(f"- {k}: {v}" for k, v in facts.items()),
            "",
            body,
            "",
            f"{missed} target(s) missed." if missed else "Every target met.",
        ]
    )
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
