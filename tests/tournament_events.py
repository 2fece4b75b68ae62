"""Random Swiss events for hypothesis: 8–300 players, rounds paired by `pair_round`, random
results (duels, draws, results without duels, unfinished matches), match losses by penalty,
ejections and disqualifications during a match (D22: a match loss), drops and withdrawals
between rounds. Each round is kept as it was paired, for the properties to check.

``formats()`` draws events in either match format (T7) and either rule for a match at time
(T8): then some matches end at time, decided as the rule says (by the format's functions).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from shinpan.tournament import Entrant, Pairing, Played, PlayerState, pair_round
from shinpan.tournament.formats import AtTime, MatchFormat, at_time, duels_to_win, duels_won
from support import examples

SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class PairedRound:
    round_no: int
    entrants: list[Entrant]  # statuses when the round was paired
    before: list[Played]  # every match of the earlier rounds
    seed: int
    pairings: list[Pairing]


@dataclass(frozen=True)
class Event:
    rounds: list[PairedRound]
    entrants: list[Entrant]  # statuses at the end
    matches: list[Played]
    ends: list[tuple[list[Entrant], list[Played]]]  # statuses and matches at the end of each round
    match_format: MatchFormat = MatchFormat.bo3
    time_rule: AtTime | None = None  # None: no match ends at time (the first events drawn)
    seed: int = 0


@st.composite
def events(draw: st.DrawFn, smallest: int = 8, largest: int = 300) -> Event:
    players = draw(st.integers(smallest, largest))
    rounds = draw(st.integers(1, 9))
    return play(players, rounds, draw(st.integers(0, 2**32 - 1)))


@st.composite
def formats(draw: st.DrawFn, smallest: int = 8, largest: int = 300) -> Event:
    """An event in a drawn format and time rule, some of its matches ended at time."""
    players = draw(st.integers(smallest, largest))
    rounds = draw(st.integers(1, 7))
    match_format = draw(st.sampled_from(MatchFormat))
    rule = draw(st.sampled_from(AtTime))
    return play(players, rounds, draw(st.integers(0, 2**32 - 1)), match_format=match_format, time_rule=rule)


def play(
    players: int,
    rounds: int,
    seed: int,
    *,
    match_format: MatchFormat = MatchFormat.bo3,
    time_rule: AtTime | None = None,
) -> Event:
    rng = random.Random(seed)
    # ids whose order as text differs from their order as numbers ("9" < "10"), and a few names
    ids = [str(n) for n in rng.sample(range(1, 5000), players)]
    ids[: players // 10] = [f"P-{n}" for n in ids[: players // 10]]
    status = dict.fromkeys(ids, PlayerState.active)
    matches: list[Played] = []
    paired: list[PairedRound] = []
    ends = []
    for round_no in range(1, rounds + 1):
        for player, now in status.items():
            if now is PlayerState.active and round_no > 1:
                roll = rng.random()
                status[player] = (
                    PlayerState.dropped if roll < 0.04 else PlayerState.withdrawn if roll < 0.05 else now
                )
        entrants = [Entrant(p, s) for p, s in status.items()]
        round_seed = rng.randrange(2**32)
        pairings = pair_round(round_no, entrants, matches, round_seed)
        paired.append(PairedRound(round_no, entrants, list(matches), round_seed, pairings))
        matches += [_result(rng, round_no, p, status, match_format, time_rule) for p in pairings]
        ends.append(([Entrant(p, s) for p, s in status.items()], list(matches)))
    return Event(
        paired, [Entrant(p, s) for p, s in status.items()], matches, ends, match_format, time_rule, seed
    )


def _result(
    rng: random.Random,
    round_no: int,
    pairing: Pairing,
    status: dict[str, PlayerState],
    match_format: MatchFormat = MatchFormat.bo3,
    time_rule: AtTime | None = None,
) -> Played:
    a, b = pairing.a, pairing.b
    if b is None:
        return Played(round_no, a, None, "a")
    duels = _duels(rng, a, b, duels_to_win(match_format))
    if time_rule is not None and rng.random() < 0.2:  # time ran out before anyone won
        needed = duels_to_win(match_format)
        so_far: list[str | None] = []
        for duel in duels:
            if max(duels_won((*so_far, duel), a, b)) >= needed:
                break
            so_far.append(duel)
        return Played(round_no, a, b, at_time(time_rule, *duels_won(so_far, a, b)), tuple(so_far))
    roll = rng.random()
    if roll < 0.12:  # a match loss by penalty, an ejection or a disqualification (D22)
        loser = rng.choice((a, b))
        if roll < 0.03:
            status[loser] = PlayerState.ejected
        elif roll < 0.05:
            status[loser] = PlayerState.disqualified
        return Played(round_no, a, b, "b" if loser == a else "a", duels[: rng.randrange(3)], by_penalty=True)
    if roll < 0.22:  # reported as a result only
        return Played(round_no, a, b, rng.choice(("a", "b", "a", "b", "draw")))
    if roll < 0.25:
        return Played(round_no, a, b, None, duels[:1])
    won_a, won_b = duels.count(a), duels.count(b)
    return Played(round_no, a, b, "a" if won_a > won_b else "b" if won_b > won_a else "draw", duels)


def _duels(rng: random.Random, a: str, b: str, needed: int = 2) -> tuple[str | None, ...]:
    """Duels until one side has ``needed`` (at most 2 × needed − 1), now and then a drawn one
    (or one lost by a penalty)."""
    duels: list[str | None] = []
    while len(duels) < 2 * needed - 1 and max(duels.count(a), duels.count(b)) < needed:
        duels.append(None if rng.random() < 0.06 else rng.choice((a, b)))
    return tuple(duels)
