"""Benchmark: the event penalty report of a large event, as CSV and as PDF; its statistics page.

    .venv/bin/python bench/reports.py [--players 10000] [--rulings 20000] [--seed 1998] [--dir DIR]

Builds (seeded) an event of 10,000 players over four rounds with 20,000 rulings — a mix of
infractions weighted the way a large event sees them, the head judge confirming most of
what waits for them, deviating from some and voiding others — quickly but validly: the
same service steps as ``shinpan record`` (engine decision, ``append_rulings`` through the
ledger's Appender, effects), a few thousand rulings per transaction instead of one each;
the chain is verified afterwards. Then times the penalty report (gathering and rendering)
as CSV (target ≤ 0.5 s) and as PDF (target ≤ 5 s), and the head judge's statistics page
(``GET /events/{id}/reports/stats`` through the web app, signed in), best of ``--runs``,
and prints each figure against its target with the load average it was measured under
(the machine is shared: run it when it is quiet, two or three times, and give the range).

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from figures import emit
from shinpan.engine import Record, decide
from shinpan.engine.event_rules import Role
from shinpan.entries import GuidelineRef, RulingsConfirmed, RulingsRecorded
from shinpan.files.csvio import PairingRow, PlayerRow
from shinpan.reports import penalty_report, render
from shinpan.services import events, integrity
from shinpan.services.context import load_event, stamp
from shinpan.services.corrections import deviate_in, void_in
from shinpan.services.recording import RecordInput, append_rulings, live_history, next_number
from shinpan.store.connection import Connection, Statement
from shinpan.store.db import Database
from shinpan.store.ledger import Appender

CSV_TARGET, PDF_TARGET, STATS_TARGET = 0.5, 5.0, 0.5
HEAD_JUDGE_SECRET = "bench-head-judge"
ROUNDS = 4
HEAD_JUDGE = "山田 一郎"
FLOOR_JUDGES = ("佐藤 花子", "高橋 健", "田中 愛", "伊藤 拓海", "渡辺 結衣", "中村 大輔")
# How often each infraction is recorded at a large event (relative weights; no facts needed).
WEIGHTS = {
    "ingame.slow-play": 120, "ingame.looking-at-extra-cards": 90, "ingame.extra-cards-drawn": 80,
    "ingame.misapplied-card-text": 70, "pregame.tardiness": 60, "pregame.insufficient-shuffle": 50,
    "ingame.cards-off-table": 40, "pregame.shuffle-cut": 35, "pregame.first-player-draw": 30,
    "pregame.slow-start": 30, "pregame.mulligan": 25, "deck.deck-decklist-mismatch": 25,
    "players.no-life-record": 20, "cards.marked-no-pattern": 20, "cards.undeclared-swap": 15,
    "ingame.improper-notes": 15, "players.wrong-opponent": 10, "deck.illegal-decklist": 8,
    "severe.disobeying-judge": 8, "severe.unsporting-conduct": 8, "cards.marked-pattern": 5,
    "deck.illegal-deck": 4, "cards.unapproved-proxy": 3, "severe.cheating": 1,
}  # fmt: skip
FAMILY = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田"]
FAMILY_KANA = ["さとう", "すずき", "たかはし", "たなか", "いとう", "わたなべ", "やまもと", "なかむら",
               "こばやし", "かとう", "よしだ", "やまだ"]  # fmt: skip
GIVEN = ["翔太", "美咲", "大輔", "陽菜", "健", "愛", "拓海", "結衣"]
GIVEN_KANA = ["しょうた", "みさき", "だいすけ", "ひな", "けん", "あい", "たくみ", "ゆい"]


_PLAYERS = Statement("SELECT number FROM players WHERE event_id = :e")
_ACTIVE = Statement("SELECT number FROM players WHERE event_id = :e AND status = 'active'")
_PENDING = Statement("SELECT number FROM rulings WHERE event_id = :e AND state = 'pending'")


def build(db: Database, n_players: int, n_rulings: int, rng: random.Random) -> int:
    """The event: players, four rounds paired one after another, rulings recorded in batches."""
    start = datetime(2026, 2, 1, 0, 30, tzinfo=UTC)
    event_id = events.create_event(
        db,
        name="大規模大会 2026 (bench)",
        head_judge=HEAD_JUDGE,
        head_judge_level=3,
        starts_on="2026-02-01",
        now=start,
    )
    for judge in FLOOR_JUDGES:
        events.add_judge(db, event_id, name=judge, level=1, role=Role.floor_judge, now=start)
    rows = [
        PlayerRow(
            f"{n:05d}",
            f"{FAMILY[n % 12]} {GIVEN[n // 12 % 8]}{n}",
            f"{FAMILY_KANA[n % 12]} {GIVEN_KANA[n // 12 % 8]}",
            None,
        )
        for n in range(1, n_players + 1)
    ]
    events.import_players(db, event_id, rows, now=start)
    per_round = n_rulings // ROUNDS
    for round_no in range(1, ROUNDS + 1):
        at = start + timedelta(hours=round_no)
        with db.read() as conn:
            active = _ACTIVE.scalars(conn, {"e": event_id})
        rng.shuffle(active)
        pairs = [
            PairingRow(t + 1, active[2 * t], active[2 * t + 1] if 2 * t + 1 < len(active) else None)
            for t in range((len(active) + 1) // 2)
        ]
        events.import_pairings(db, event_id, round_no, pairs, now=at)
        count = per_round if round_no < ROUNDS else n_rulings - per_round * (ROUNDS - 1)
        record_round(db, event_id, round_no, pairs, count, at, rng)
        events.end_round(db, event_id, round_no, now=at + timedelta(minutes=55))
    return event_id


def record_round(
    db: Database,
    event_id: int,
    round_no: int,
    pairs: list[PairingRow],
    count: int,
    at: datetime,
    rng: random.Random,
) -> None:
    names, weights = list(WEIGHTS), list(WEIGHTS.values())
    made = 0
    while made < count:
        with db.write(event_id) as conn:
            event = load_event(conn, event_id)
            participants = set(_PLAYERS.scalars(conn, {"e": event_id}))
            guideline = GuidelineRef(event.guideline_id, event.guideline_version)
            batch_end = min(count, made + 2500)
            while made < batch_end:
                pair = rng.choice(pairs)
                player = pair.player_a if pair.player_b is None or rng.random() < 0.5 else pair.player_b
                rule = rng.choices(names, weights)[0]
                moment = at + timedelta(seconds=3000 * made / count)
                ap = Appender(conn, event_id, rng.choice(FLOOR_JUDGES), stamp(moment))
                decided = decide(
                    event.book,
                    Record(player=player, infraction=rule),
                    {player: live_history(conn, event_id, player)},
                    participants,
                    first_number=next_number(conn, event_id),
                )
                asked = RecordInput(player=player, infraction=rule).asked()
                why = RulingsRecorded((), record=asked, guideline=guideline)
                made += len(append_rulings(ap, event, decided, why, round_no, pair.table))
            head_judge_decides(conn, event_id, moment, rng)


def head_judge_decides(conn: Connection, event_id: int, now: datetime, rng: random.Random) -> None:
    """Confirm most of what waits; deviate from 1 in 50, void 1 in 100."""
    waiting = _PENDING.scalars(conn, {"e": event_id})
    ap = Appender(conn, event_id, HEAD_JUDGE, stamp(now + timedelta(minutes=4)))
    for number in waiting:
        roll = rng.random()
        if roll < 0.02:
            deviate_in(ap, number, ["notice"], "状況を考慮して通告に軽減")
        elif roll < 0.03:
            void_in(ap, number, "別の選手と取り違えた")
    left = _PENDING.scalars(conn, {"e": event_id})
    for start in range(0, int(len(left) * 0.95), 50):
        ap.append(RulingsConfirmed(tuple(sorted(left[start : start + 50]))), refs=[])


def best_of(runs: int, work: Callable[[], int]) -> tuple[float, float, int]:
    """The best wall-clock time of ``runs``, the CPU time of that run, and what it returned."""
    best, cpu, size = float("inf"), 0.0, 0
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        size = work()
        took = time.perf_counter() - began
        if took < best:
            best, cpu = took, time.process_time() - began_cpu
    return best, cpu, size


def stats_page(db: Database, event_id: int) -> Callable[[], int]:
    """The statistics page as the head judge opens it: through the web app, signed in."""
    from fastapi.testclient import TestClient

    from shinpan.services import accounts
    from shinpan.web.app import create_app

    holder = accounts.add_user(db, HEAD_JUDGE, HEAD_JUDGE_SECRET, 3)
    events.claim_seat(db, event_id, HEAD_JUDGE, holder.uid)
    client = TestClient(create_app(db), base_url="http://127.0.0.1")
    login = client.get("/login").text
    token = login.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    signed = client.post(
        "/login",
        data={"name": HEAD_JUDGE, "password": HEAD_JUDGE_SECRET, "csrf_token": token, "next": "/"},
        follow_redirects=False,
    )
    assert signed.status_code == 303, signed.text
    client.get(f"/events/{event_id}/reports")  # the app's first page: templates and fonts load once

    def open_page() -> int:
        page = client.get(f"/events/{event_id}/reports/stats")
        assert page.status_code == 200, page.text[:200]
        return len(page.content)

    return open_page


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rulings", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1998)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--dir", type=Path, default=None, help="Where the database goes (default: a temp dir)."
    )
    args = parser.parse_args()
    where = args.dir or Path(tempfile.mkdtemp(prefix="shinpan-bench-reports-"))
    where.mkdir(parents=True, exist_ok=True)
    db = Database(str(where / "reports.sqlite3"))
    try:
        began = time.perf_counter()
        event_id = build(db, args.players, args.rulings, random.Random(args.seed))
        built = time.perf_counter() - began
        check = integrity.verify(db, event_id)
        report = penalty_report(db, event_id)
        total = len(report.rulings) + report.left_out
        print(
            f"event: {args.players} players, {total} rulings ({len(report.rulings)} in the report, "
            f"{report.voided} voided), built in {built:.1f} s; chain verified: {check.ok}"
        )
        page = stats_page(db, event_id)
        works: list[tuple[str, float, Callable[[], int]]] = [
            (
                "penalty report CSV",
                CSV_TARGET,
                lambda: len(render(penalty_report(db, event_id), "csv").content),
            ),
            (
                "penalty report PDF",
                PDF_TARGET,
                lambda: len(render(penalty_report(db, event_id), "pdf").content),
            ),
            ("statistics page", STATS_TARGET, page),
        ]
        fast = True
        figures: dict[str, float] = {}
        for name, target, work in works:
            load = os.getloadavg()[0]
            wall, cpu, size = best_of(args.runs, work)
            fast = fast and wall <= target
            figures[name] = round(wall, 3)
            print(
                f"{name}: {wall:.2f} s (CPU {cpu:.2f} s, {size / 1e6:.1f} MB)  target ≤ {target:g} s  "
                f"{'ok' if wall <= target else 'SLOW'}  (load {load:.1f} on {os.cpu_count()} CPUs)"
            )
        emit(
            csv_s=figures["penalty report CSV"],
            pdf_s=figures["penalty report PDF"],
            stats_s=figures["statistics page"],
            verified=check.ok,
        )
        return 0 if check.ok and fast else 1
    finally:
        db.close()
        if args.dir is None:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
