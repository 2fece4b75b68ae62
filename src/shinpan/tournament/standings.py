"""Standings: match points and the tiebreakers of the event's chain, compared exactly (T1–T3, T9).

The rules, in the order the code applies them:

- match points: a win 3, a draw 1, a loss 0; a bye is a match won 2–0 (it counts in ``wins``);
- a match decided by a match-loss penalty or by a player leaving (``by_penalty``, D22), and a
  match reported as a result without duels, count 2–0 for the winner (0–2 for the loser; a
  draw reported without duels 1–1);
- MWP(p) = max(1/3, match points / (3 × rounds p played, byes included));
- GWP(p) = max(1/3, game points / (3 × duels p played)): a duel won 3, drawn 1, lost 0, a bye
  two duels won; a duel lost by a penalty is a duel played;
- OMW(p) = the mean of MWP over p's opponents, one per match (a bye is no opponent; 0 with
  none); OGW(p) the same with GWP;
- a match at time counted as a loss for both (``both_lose``, T8): a match played and lost by
  each, 0 points each; the duels already decided still count for GWP;
- OOMW(p) = the mean of OMW over p's opponents, one per match (T9);
- rank by points, then the event's chain (:mod:`shinpan.tournament.tiebreakers`; by default
  OMW, GW, OGW); players equal on points and the whole chain share a rank (1, 2, 2, 4) and
  are listed by participant id (``seeded`` never ties);
- dropped, withdrawn and ejected players keep their place; a disqualified player is listed
  after the ranked ones without a rank; everyone's matches count in their opponents' tiebreakers.

A player who has played nothing has MWP and GWP 0 (there is nothing to floor).
Unfinished matches (``result`` None) count for nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm

from shinpan.tournament.model import Entrant, Played, PlayerState, Standing
from shinpan.tournament.tiebreakers import DEFAULT_CHAIN, Chain, Tiebreaker, seeded_places

FLOOR = Fraction(1, 3)
BOTH_LOSE = "both_lose"
RESULTS = frozenset({"a", "b", "draw", BOTH_LOSE})


@dataclass
class _Record:
    """One player's matches as the rules count them."""

    points: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rounds: int = 0
    game_points: int = 0
    duels: int = 0
    opponents: list[str] = field(default_factory=list)

    def mwp(self) -> Fraction:
        return max(FLOOR, Fraction(self.points, 3 * self.rounds)) if self.rounds else Fraction(0)

    def gwp(self) -> Fraction:
        return max(FLOOR, Fraction(self.game_points, 3 * self.duels)) if self.duels else Fraction(0)


def participant_order(player: str) -> tuple[int, int, str]:
    """The order of participant ids among exact ties: numeric ids by number, then the others."""
    if player.isascii() and player.isdigit():
        return (0, int(player), player)
    return (1, 0, player)


def _duel_scores(match: Played) -> tuple[int, int, int, int]:
    """(duels won by a, by b, drawn, played) of a match between two players, as the tiebreakers count them."""
    if match.by_penalty or (not match.duels and match.result != BOTH_LOSE):
        return {"a": (2, 0, 0, 2), "b": (0, 2, 0, 2), "draw": (1, 1, 0, 2)}[match.result or "draw"]
    won_a = won_b = drawn = 0
    for winner in match.duels:
        if winner is None:
            drawn += 1
        elif winner == match.a:
            won_a += 1
        elif winner == match.b:
            won_b += 1
        else:
            raise ValueError(f"duel winner {winner!r} plays neither side of {match.a} v {match.b}")
    return (won_a, won_b, drawn, len(match.duels))


def _records(matches: Iterable[Played]) -> dict[str, _Record]:
    records: dict[str, _Record] = {}
    for match in matches:
        if match.b is None:
            bye = records.setdefault(match.a, _Record())
            bye.points += 3
            bye.wins += 1
            bye.rounds += 1
            bye.game_points += 6
            bye.duels += 2
            continue
        if match.result is None:
            continue
        if match.result not in RESULTS:
            raise ValueError(
                f"result {match.result!r} of {match.a} v {match.b} is not a, b, draw or both_lose"
            )
        won_a, won_b, drawn, played = _duel_scores(match)
        sides = ((match.a, match.b, "a", won_a), (match.b, match.a, "b", won_b))
        for player, opponent, side, won in sides:
            record = records.setdefault(player, _Record())
            record.rounds += 1
            record.opponents.append(opponent)
            record.game_points += 3 * won + drawn
            record.duels += played
            if match.result == "draw":
                record.points += 1
                record.draws += 1
            elif match.result == side:
                record.points += 3
                record.wins += 1
            else:
                record.losses += 1
    return records


def _mean(values: list[Fraction]) -> Fraction:
    """The exact mean (0 of nothing), summed over a common denominator: one Fraction, not one per addition."""
    if not values:
        return Fraction(0)
    common = lcm(*(v.denominator for v in values))
    return Fraction(sum(v.numerator * (common // v.denominator) for v in values), common * len(values))


def standings(
    entrants: Sequence[Entrant],
    matches: Sequence[Played],
    chain: Chain = DEFAULT_CHAIN,
    seed: int | None = None,
) -> list[Standing]:
    """Every entrant, best first, ranked by points and then ``chain``; the caller passes the
    matches (and statuses) up to the round asked about. ``seed`` (the event's, from the
    ledger) draws the ``seeded`` order: needed when the chain names it, shown whenever given."""
    if Tiebreaker.seeded in chain and seed is None:
        raise ValueError("the chain names seeded: the event's seed is needed")
    records = _records(matches)
    mwp = {player: record.mwp() for player, record in records.items()}
    gwp = {player: record.gwp() for player, record in records.items()}
    omw = {player: _mean([mwp[o] for o in record.opponents]) for player, record in records.items()}
    seeded = seeded_places(seed, (e.player for e in entrants)) if seed is not None else {}
    lines = []
    for entrant in entrants:
        record = records.get(entrant.player, _Record())
        lines.append(
            Standing(
                rank=None,
                player=entrant.player,
                points=record.points,
                wins=record.wins,
                losses=record.losses,
                draws=record.draws,
                mwp=mwp.get(entrant.player, Fraction(0)),
                omw=omw.get(entrant.player, Fraction(0)),
                gw=gwp.get(entrant.player, Fraction(0)),
                ogw=_mean([gwp[o] for o in record.opponents]),
                status=entrant.status,
                oomw=_mean([omw[o] for o in record.opponents]),
                seeded=seeded.get(entrant.player),
            )
        )

    def key(line: Standing) -> tuple[int | Fraction, ...]:
        return score(line, chain)

    lines.sort(key=lambda s: participant_order(s.player))
    lines.sort(key=key, reverse=True)  # stable: exact ties stay in participant order
    ranked = [s for s in lines if s.status is not PlayerState.disqualified]
    shown = [s for s in lines if s.status is PlayerState.disqualified]
    result: list[Standing] = []
    for position, line in enumerate(ranked, start=1):
        rank = position
        if result and key(result[-1]) == key(line):
            rank = result[-1].rank or position
        result.append(replace(line, rank=rank))
    return result + shown


def tiebreaker(line: Standing, key: Tiebreaker) -> Fraction | int:
    """One key of the chain for one line, the higher the better (a seeded place counts down)."""
    if key is Tiebreaker.seeded:
        if line.seeded is None:
            raise ValueError(f"{line.player} has no seeded place: the event's seed is needed")
        return -line.seeded
    value: Fraction = {
        Tiebreaker.omw: line.omw,
        Tiebreaker.gw: line.gw,
        Tiebreaker.ogw: line.ogw,
        Tiebreaker.oomw: line.oomw,
    }[key]
    return value


def score(line: Standing, chain: Chain = DEFAULT_CHAIN) -> tuple[int | Fraction, ...]:
    """What ranks a player, the higher the better: points, then the chain's keys in order."""
    return (line.points, *(tiebreaker(line, key) for key in chain))
