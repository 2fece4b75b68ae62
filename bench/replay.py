"""Benchmark: `shinpan replay` on a large event, against the I/O floor of the same run.

    .venv/bin/python bench/replay.py [--players 10000] [--events 50000] [--seed 1998] [--runs 5]

Generates (seeded, deterministic) an event of 10,000 players and 50,000 records — a mix of
infractions weighted the way a large event sees them, facts where they are asked, drafts,
deviations, missed deadlines and voids — writes it to a temporary file and times
`.venv/bin/shinpan replay FILE` (output to a file) and the floor, one after the other
``--runs`` times, so that both see the same load (best of each). The floor is a bare
``python -c`` process that json-parses the same file and writes as many ruling-shaped JSON
objects as the real run produced, each with a real explanation and source line of median length.
Prints both times and their ratio, and each run's own ratio; the target is at most 2x.

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from figures import emit

ROOT = Path(__file__).resolve().parents[1]
SHINPAN = ROOT / ".venv" / "bin" / "shinpan"
TARGET = 2.0
# As an installed shinpan runs: its modules compiled once (a sandbox may set
# PYTHONDONTWRITEBYTECODE, which would compile every module of every run from source).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

# How often each infraction is recorded at a large event (relative weights).
WEIGHTS: dict[str, int] = {
    "ingame.slow-play": 120,
    "ingame.looking-at-extra-cards": 90,
    "ingame.extra-cards-drawn": 80,
    "ingame.misapplied-card-text": 70,
    "pregame.tardiness": 60,
    "pregame.insufficient-shuffle": 50,
    "ingame.cards-off-table": 40,
    "ingame.disagreement-on-facts": 40,
    "pregame.shuffle-cut": 35,
    "pregame.first-player-draw": 30,
    "pregame.slow-start": 30,
    "pregame.mulligan": 25,
    "deck.deck-decklist-mismatch": 25,
    "deck.lost-or-mixed-cards": 20,
    "players.no-life-record": 20,
    "cards.marked-no-pattern": 20,
    "cards.undeclared-swap": 15,
    "ingame.improper-notes": 15,
    "players.advice": 12,
    "players.wrong-opponent": 10,
    "deck.decklist-recording": 10,
    "deck.illegal-decklist": 8,
    "severe.disobeying-judge": 8,
    "severe.unsporting-conduct": 8,
    "cards.marked-pattern": 5,
    "ingame.early-withdrawal": 5,
    "deck.illegal-deck": 4,
    "cards.unapproved-proxy": 3,
    "general.uncategorized": 6,
    "severe.collusion": 1,
    "severe.cheating": 1,
    "draft.standard": 60,
    "draft.excessive": 4,
    "draft.exclusion": 1,
}
DEADLINES = {  # remedies a replay can miss (tardiness's wait for the table's time, D23: none in a replay)
    "players.no-life-record": 1,
    "cards.marked-no-pattern": 1,
    "ingame.early-withdrawal": 1,
}
INTENT = {
    "pregame.slow-start",
    "pregame.insufficient-shuffle",
    "ingame.extra-cards-drawn",
    "ingame.looking-at-extra-cards",
    "ingame.slow-play",
}
KINDS = ["talking", "noise", "too-fast", "too-slow", "other"]
COMPONENTS = ["caution", "notice", "warning1", "warning2", "duel_loss", "match_loss"]


def scenario(players: int, events: int, seed: int) -> dict[str, object]:
    """A valid scenario: every missed and void points where the contract allows."""
    rng = random.Random(seed)
    ids = [f"P{n:05d}" for n in range(players)]
    # Most players collect a few infractions, some several, a few many (up to ~25).
    player_weights = [6.0 if n % 20 == 0 else 3.0 if n % 20 < 4 else 1.0 for n in range(players)]
    names, weights = list(WEIGHTS), list(WEIGHTS.values())
    drafts = [f"draft-{n}" for n in range(1, 9)]
    out: list[dict[str, object]] = []
    open_dues: dict[int, int] = {}  # event index -> deadlines left to miss
    voidable: list[int] = []  # infraction and missed events not voided yet

    def infraction() -> dict[str, object]:
        player = rng.choices(ids, player_weights)[0]
        rule = rng.choices(names, weights)[0]
        event: dict[str, object] = {"player": player, "infraction": rule}
        facts: dict[str, object] = {}
        if rule == "general.uncategorized":
            event["penalties"] = rng.sample(COMPONENTS, rng.randint(1, 2))
        elif rule == "draft.standard":
            event["draft"] = rng.choice(drafts)
            facts["kind"] = rng.choice(KINDS)
            if rng.random() < 0.1:
                facts["same_as_previous"] = rng.random() < 0.5
        elif rule in ("draft.excessive", "draft.exclusion"):
            event["draft"] = rng.choice(drafts)
        elif rule in INTENT and rng.random() < 0.03:
            facts["intentional"] = True
        elif rule == "ingame.disagreement-on-facts" and rng.random() < 0.4:
            facts["facts_determined"] = True
        elif rule == "deck.lost-or-mixed-cards" and rng.random() < 0.5:
            facts["mixed_into"] = rng.choice([p for p in rng.sample(ids, 2) if p != player])
        elif rule == "deck.decklist-recording" and rng.random() < 0.5:
            facts["recorded_by"] = rng.choice(
                [p for p in (rng.choice(ids), "a friend") if p != player]
            )  # D18
        elif rule == "players.advice" and rng.random() < 0.7:
            advisor = rng.choice([p for p in rng.sample(ids, 2) if p != player] + ["a spectator"])
            facts["advisor"] = advisor
            if rng.random() < 0.3:
                facts["advisor_only"] = True
        if facts:
            event["facts"] = facts
        nobody = facts.get("facts_determined") or (
            facts.get("advisor") == "a spectator" and facts.get("advisor_only")
        )
        if rule != "general.uncategorized" and not nobody and rng.random() < 0.01:  # D16
            event["deviation"] = {"penalties": ["duel_loss"], "reason": "the head judge's call"}
        return event

    follow_ups: dict[int, list[int]] = {}
    withdrawn: set[object] = set()  # a player's missed early withdrawal withdraws them: no deadline after
    while len(out) < events:
        index = len(out)
        roll = rng.random()
        if roll < 0.03 and open_dues:
            target = rng.choice(list(open_dues))
            open_dues[target] -= 1
            if not open_dues[target]:
                del open_dues[target]
            out.append({"missed": target})
            if out[target].get("infraction") == "ingame.early-withdrawal":
                gone_player = out[target]["player"]
                withdrawn.add(gone_player)
                for due in [d for d in open_dues if out[d]["player"] == gone_player]:
                    del open_dues[due]
            voidable.append(index)
            follow_ups.setdefault(target, []).append(index)
        elif roll < 0.04 and voidable:
            target = voidable.pop(rng.randrange(len(voidable)))
            open_dues.pop(target, None)
            for gone in follow_ups.pop(target, []):  # D16: voided with their record
                if gone in voidable:
                    voidable.remove(gone)
            out.append({"void": target})
        else:
            event = infraction()
            out.append(event)
            voidable.append(index)
            left = DEADLINES.get(str(event["infraction"]), 0)
            if left and not event.get("facts") and event["player"] not in withdrawn:
                open_dues[index] = left
    return {"players": ids, "events": out}


FLOOR = """
import json, sys
scenario = json.load(open(sys.argv[1], encoding="utf-8"))
n, explanation, source, explained = int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6] == "1"
rulings = [
    {"event": i, "player": "P00000", "rule": "ingame.slow-play", "offense": 1,
     "penalties": ["warning1"], "effects": [], "follow_up": False, "needs_head_judge": True,
     "voided": False, "source": source}
    for i in range(n)
]
if explained:
    for r in rulings:
        r["explanation"] = explanation
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write(json.dumps({"rulings": rulings}, ensure_ascii=False) + "\\n")
"""


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=ENV)
    return time.perf_counter() - start


def interleaved(runs: int, first: list[str], second: list[str]) -> tuple[list[float], list[float]]:
    """Both commands ``runs`` times, one after the other, so that both see the same load."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(runs):
        a.append(timed(first))
        b.append(timed(second))
    return a, b


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=1998)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="shinpan-bench-") as tmp:
        scenario_file = Path(tmp) / "scenario.json"
        scenario_file.write_text(
            json.dumps(scenario(args.players, args.events, args.seed), ensure_ascii=False), encoding="utf-8"
        )
        size = scenario_file.stat().st_size / 1e6
        ratios: dict[str, float] = {}
        print(f"scenario: {args.players} players, {args.events} events ({size:.1f} MB), seed {args.seed}")
        for flags in ([], ["--explain"]):
            out = Path(tmp) / "rulings.json"
            extra = " ".join(flags)
            replay_cmd = ["sh", "-c", f'"{SHINPAN}" replay {extra} "{scenario_file}" > "{out}"']
            timed(replay_cmd)  # once untimed: the output tells the floor what to write
            rulings = json.loads(out.read_text(encoding="utf-8"))["rulings"]
            # The floor writes the same shape: a real explanation (when asked for) and source
            # line of median length, every time.
            by_length = sorted(rulings, key=lambda r: len(r.get("explanation", "")))
            median = by_length[len(by_length) // 2] if by_length else {}
            explanation, source = median.get("explanation", ""), median.get("source", "")
            floor_out = Path(tmp) / "floor.json"
            floor_cmd = [sys.executable, "-c", FLOOR, str(scenario_file), str(floor_out)]
            floor_cmd += [str(len(rulings)), explanation, source, "1" if flags else "0"]
            replay_times, floor_times = interleaved(args.runs, replay_cmd, floor_cmd)
            ratio = min(replay_times) / min(floor_times)
            ratios["explain" if flags else "plain"] = round(ratio, 3)
            pairs = sorted(r / f for r, f in zip(replay_times, floor_times, strict=True))
            label = "shinpan replay " + (extra + " " if extra else "") + "FILE > OUT"
            print(f"-- {label}")
            print(f"rulings:  {len(rulings)} ({sum(r['voided'] for r in rulings)} voided)")
            print(
                f"replay:   {min(replay_times):.3f} s  (best of {args.runs}; worst {max(replay_times):.3f} s)"
            )
            print(
                f"floor:    {min(floor_times):.3f} s  (best of {args.runs}; worst {max(floor_times):.3f} s: "
                f"python -c parse + write {len(rulings)} rulings)"
            )
            print(f"ratio:    {ratio:.2f}x  (target <= {TARGET:.0f}x: {'ok' if ratio <= TARGET else 'OVER'})")
            print(
                f"each run: {', '.join(f'{x:.2f}' for x in pairs)}  (replay / floor of the same run, sorted)"
            )
        emit(ratio=ratios["plain"], ratio_explain=ratios["explain"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
