"""Benchmark: decklists (T13) at a large event.

    .venv/bin/python bench/decks.py [--players 2000] [--db URL]

Sets up an event of ``--players`` players in a SQLite file in a temporary directory (or the
database at ``--db``), then times:

- importing one CSV of every player's list of 75 cards (60 main as 15 fours, 15 side as
  singles: 30 lines each), read (``decklist_files.parse_batch``) and registered in one command
  (``services.decklists.import_lists``): target under 10 s for 2,000 lists;
- a deck check's comparison of a presented deck with its list (``tournament.deckcheck.compare``,
  the opponent's list beside it): target under 20 ms (the median of 200, and the worst);
- a whole check through the services (start, count, end with the findings): shown.

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from figures import emit
from shinpan.files.csvio import PlayerRow
from shinpan.files.decklists import parse_batch
from shinpan.services import deck_rules, deckchecks, decklists, events, rounds
from shinpan.store.db import Database
from shinpan.tournament.deckcheck import compare
from shinpan.tournament.decks import Decklist

IMPORT_TARGET = 10.0
COMPARE_TARGET = 0.020


def csv_of(players: list[str]) -> bytes:
    lines = ["player,section,count,name"]
    for n, p in enumerate(players):
        lines += [f"{p},main,4,カード{(n + i) % 400}" for i in range(15)]
        lines += [f"{p},side,1,サイド{(n + i) % 300}" for i in range(15)]
    return ("\n".join(lines) + "\n").encode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        db = Database(url)
        e = events.create_event(db, name="デッキ計測", head_judge="HJ", head_judge_level=2)
        players = [f"{i:05d}" for i in range(1, args.players + 1)]
        events.import_players(db, e, [PlayerRow(p, f"選手{p}", "せんしゅ", None) for p in players])
        deck_rules.set_rules(db, e)
        data = csv_of(players)

        began = time.perf_counter()
        lists = parse_batch(data, "bench.csv")
        read = time.perf_counter() - began
        done = decklists.import_lists(db, e, {p: (d, "csv", "bench.csv", "x") for p, d in lists.items()})
        took = time.perf_counter() - began
        assert len(done) == args.players and not any(d.problems for d in done)
        verdict = "ok" if took < IMPORT_TARGET else "OVER"
        print(
            f"import {args.players} lists of 75 cards: {took:.2f} s (read {read:.2f} s) — target {IMPORT_TARGET} s: {verdict}"
        )

        listed, opponent = lists[players[0]], lists[players[1]]
        presented = Decklist({s: cards[:-1] for s, cards in listed.sections.items()})
        times = []
        for _ in range(200):
            t0 = time.perf_counter()
            found = compare(listed, presented, {players[1]: opponent})
            times.append(time.perf_counter() - t0)
        assert not found.matches
        worst, median = max(times), statistics.median(times)
        verdict = "ok" if worst < COMPARE_TARGET else "OVER"
        print(
            f"compare a deck with its list: median {median * 1000:.2f} ms, worst {worst * 1000:.2f} ms — target 20 ms: {verdict}"
        )

        from shinpan.files.csvio import PairingRow

        events.import_pairings(db, e, 1, [PairingRow(1, players[0], players[1])])
        rounds.start_round(db, e)
        t0 = time.perf_counter()
        deckchecks.start(db, e, 1, 1)
        deckchecks.count(db, e, 1, 1, players[0], presented)
        ended = deckchecks.end(db, e, 1, 1)
        whole = time.perf_counter() - t0
        print(f"a whole check (start, count, end) through the services: {whole * 1000:.1f} ms "
              f"(proposed {ended['players'][0]['proposed']})")  # fmt: skip
        db.close()
        emit(
            import_s=round(took, 3), compare_worst_ms=round(worst * 1000, 3), check_ms=round(whole * 1000, 2)
        )


if __name__ == "__main__":
    main()
