"""Benchmark: the tournament core pairing and ranking a large Swiss event, round after round.

    .venv/bin/python bench/pairing.py [--players 2000] [--rounds 11] [--seed 1998]

Plays a seeded event: each round paired by `pair_round` from everything before it, results
drawn at random (duels, draws, results without duels, match losses by penalty), a few drops
between rounds; times `pair_round` and `standings` for every round. Targets: a
round of 2,000 players paired in under 5 s, its standings in under 1 s. Pure core only: no
database, no I/O (the services' own cost comes on top).

Not collected by pytest: ``bench/`` is outside ``testpaths``.
"""

from __future__ import annotations

import argparse
import random
import time

from figures import emit
from shinpan.tournament import (
    Entrant,
    Pairing,
    Played,
    PlayerState,
    pair_round,
    recommended_rounds,
    standings,
)

PAIR_TARGET = 5.0
STANDINGS_TARGET = 1.0


def result(rng: random.Random, round_no: int, pairing: Pairing) -> Played:
    a, b = pairing.a, pairing.b
    if b is None:
        return Played(round_no, a, None, "a")
    roll = rng.random()
    if roll < 0.03:
        return Played(round_no, a, b, rng.choice("ab"), by_penalty=True)
    if roll < 0.10:
        return Played(round_no, a, b, rng.choice(("a", "b", "draw")))
    duels = rng.choice(((a, a), (b, b), (a, b, a), (b, a, b), (a, b, None), (a, None)))
    won_a, won_b = duels.count(a), duels.count(b)
    return Played(round_no, a, b, "a" if won_a > won_b else "b" if won_b > won_a else "draw", duels)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=0, help="default: the recommended rounds + 1")
    parser.add_argument("--seed", type=int, default=1998)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    status = {str(1000 + n): PlayerState.active for n in range(args.players)}
    history: list[Played] = []
    rounds = args.rounds or recommended_rounds(args.players) + 1
    worst_pair = worst_standings = 0.0
    print(f"{args.players} players, {rounds} rounds")
    for round_no in range(1, rounds + 1):
        for player in status:
            if round_no > 1 and rng.random() < 0.02:
                status[player] = PlayerState.dropped
        entrants = [Entrant(p, s) for p, s in status.items()]
        started = time.perf_counter()
        pairings = pair_round(round_no, entrants, history, rng.randrange(2**32))
        paired = time.perf_counter() - started
        history += [result(rng, round_no, p) for p in pairings]
        started = time.perf_counter()
        standings(entrants, history)
        ranked = time.perf_counter() - started
        met = [frozenset((m.a, m.b)) for m in history if m.b is not None]
        print(
            f"round {round_no:2}: {len(pairings):4} tables  pair {paired:6.3f} s  "
            f"standings {ranked:6.3f} s  rematches so far {len(met) - len(set(met))}"
        )
        worst_pair, worst_standings = max(worst_pair, paired), max(worst_standings, ranked)
    print(
        f"slowest round: pair {worst_pair:.3f} s (target {PAIR_TARGET} s), "
        f"standings {worst_standings:.3f} s (target {STANDINGS_TARGET} s)"
    )
    emit(pair_s=round(worst_pair, 4), standings_s=round(worst_standings, 4))


if __name__ == "__main__":
    main()
