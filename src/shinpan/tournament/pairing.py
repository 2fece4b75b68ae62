"""Swiss pairings (T4): the next round from the standings, by maximum-weight matching.

Who is paired: the ``active`` entrants only (D14, D17: dropped, withdrawn, ejected and
disqualified players are not). What a pairing must do, most important first:

1. the bye (an odd count) goes to a player who has not had one, while any player in the
   round has not had one (a hard rule: no other player is offered the bye);
2. no two players meet again while a pairing without that exists; when none does, as
   few rematches as possible;
3. the bye goes to the lowest-ranked player who may take it;
4. players meet players on the same match points, pairing down as little as possible: the
   sum of the squared differences of match points is the least possible;
5. among equals, the order drawn from the seed decides (``random.Random(seed)``), so a
   round is random within its point groups and the same inputs and seed give the same pairing.

These are one cost per candidate table, weighted so that each rule outweighs everything
below it; networkx's maximum-weight matching finds the pairing of least total cost. Round 1
(or any round where nobody has met yet) is the same computation on a field that is all
equal: a random pairing.

How, and how fast: the players are lined up by match points (ties in the seed's order).
The bye to the lowest-ranked taker and everyone else neighbour with neighbour in the line
is already the least cost when it repeats no pairing (the usual case: no matching at all).
When it would, a field of up to ``COMPLETE`` players is matched on every possible table;
a larger one is repaired stretch by stretch: the pairs around each rematch are matched
again, the stretch doubled while its answer still repeats a pairing (or, up to ``STRETCH``
players, pairs down more than neighbour with neighbour would). Only when a stretch of the
whole line cannot avoid a rematch is the whole field matched, on a window of the line
doubled up to every possible table, so a rematch is only ever kept when the complete graph
cannot avoid it either. bench/pairing.py times it (2,000 players: well under a second a round).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from shinpan.tournament.model import Entrant, Pairing, Played, PlayerState
from shinpan.tournament.standings import participant_order, score, standings

BYE = ""  # the bye's node in the matching graph (a participant id is never empty)
FIRST_WINDOW = 16  # places along the line a player may be paired across
COMPLETE = 48  # up to this many players, every possible table is a candidate
MARGIN = 2  # pairs either side of a rematch that a repair starts with
STRETCH = 96  # a repair widens to this many players to pair down no more than neighbours would


@dataclass(frozen=True)
class _Field:
    """The players of one round as the pairing sees them."""

    line: list[str]  # by match points, ties in the seed's order: who meets whom
    place: dict[str, int]  # each player's place in `line`
    ranked: list[str]  # by the standings, exact ties in the seed's order: tables and the bye
    points: dict[str, int]
    met: set[frozenset[str]]
    bye_takers: list[str]  # who may take the bye, lowest-ranked first


def pair_round(
    round_no: int, entrants: Sequence[Entrant], history: Sequence[Played], seed: int
) -> list[Pairing]:
    """Pair round ``round_no`` of the ``active`` entrants from the matches of earlier rounds.

    Matches of ``history`` from round ``round_no`` on are ignored (a round paired again is
    paired from what came before it). Tables are numbered 1.. from the top of the
    standings, the higher-ranked player as ``a``; the bye comes last, without a table.
    """
    before = [m for m in history if m.round < round_no]
    field = _field(entrants, before, random.Random(seed))
    if len(field.line) < 2:
        return [Pairing(None, p, None) for p in field.line]
    tables = _repaired(field) or _matched(field, field.line, field.bye_takers)
    return _numbered(field, tables)


def _field(entrants: Sequence[Entrant], before: list[Played], rng: random.Random) -> _Field:
    active = sorted({e.player for e in entrants if e.status is PlayerState.active}, key=participant_order)
    rng.shuffle(active)
    drawn = {player: n for n, player in enumerate(active)}
    lines = {s.player: s for s in standings(entrants, before)}
    ranked = sorted(active, key=lambda p: score(lines[p]), reverse=True)  # stable: ties in the drawn order
    line = sorted(active, key=lambda p: (-lines[p].points, drawn[p]))
    met = {frozenset((m.a, m.b)) for m in before if m.b is not None}
    had_bye = {m.a for m in before if m.b is None}
    without = [p for p in ranked if p not in had_bye]
    bye_takers = (without or ranked)[::-1] if len(active) % 2 else []
    return _Field(
        line=line,
        place={p: n for n, p in enumerate(line)},
        ranked=ranked,
        points={p: lines[p].points for p in active},
        met=met,
        bye_takers=bye_takers,
    )


def _repaired(field: _Field) -> list[tuple[str, str]] | None:
    """The bye to the lowest-ranked taker, the others neighbour with neighbour in the line.

    Where that repeats a pairing, a stretch of the line around it is paired by a matching,
    the stretch widened while its best pairing repeats one, or pairs down more than
    neighbour with neighbour would (up to ``STRETCH`` players). None when the field is small
    enough for one matching of every table, or no stretch short of the whole line will do.
    """
    line = list(field.line)
    tables: list[tuple[str, str]] = []
    if field.bye_takers:
        line.remove(field.bye_takers[0])
        tables.append((field.bye_takers[0], BYE))
    pairs = len(line) // 2
    neighbours = [(line[2 * k], line[2 * k + 1]) for k in range(pairs)]
    stretches = [(k - MARGIN, k + MARGIN + 1) for k, (a, b) in enumerate(neighbours) if _rematch(field, a, b)]
    if not stretches:
        return tables + neighbours
    if len(field.line) <= COMPLETE:
        return None
    solved: dict[tuple[int, int], list[tuple[str, str]]] = {}
    stretches = _merged(stretches, pairs)
    while True:
        grown = []
        for low, high in stretches:
            if (low, high) not in solved:
                solved[low, high] = _matched(field, line[2 * low : 2 * high], [])
            repeats = any(_rematch(field, a, b) for a, b in solved[low, high])
            floats = _pair_down(field, solved[low, high]) > _pair_down(field, neighbours[low:high])
            if repeats and (low, high) == (0, pairs):
                return None
            if repeats or (floats and 2 * (high - low) < STRETCH):
                grown.append((low - (high - low), high + (high - low)))
            else:
                grown.append((low, high))
        if (grown := _merged(grown, pairs)) == stretches:
            break
        stretches = grown
    covered = {k for low, high in stretches for k in range(low, high)}
    tables += [pair for k, pair in enumerate(neighbours) if k not in covered]
    for stretch in stretches:
        tables += solved[stretch]
    return tables


def _pair_down(field: _Field, tables: list[tuple[str, str]]) -> int:
    """How far ``tables`` pair down: the sum of the squared differences of match points."""
    return sum((field.points[a] - field.points[b]) ** 2 for a, b in tables)


def _merged(stretches: list[tuple[int, int]], pairs: int) -> list[tuple[int, int]]:
    """Stretches of pairs clipped to the line, overlapping or touching ones joined."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted((max(0, low), min(pairs, high)) for low, high in stretches):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def _rematch(field: _Field, a: str, b: str) -> bool:
    return frozenset((a, b)) in field.met


def _matched(field: _Field, players: list[str], bye_takers: list[str]) -> list[tuple[str, str]]:
    """The least-cost pairing of ``players`` (a stretch of the line, or all of it with the
    bye), by maximum-weight matching on a window of the line widened while it repeats a
    pairing or gives the bye to anyone but the lowest-ranked taker: a player the window
    keeps from the one opponent left to them could otherwise take the bye instead."""
    window = COMPLETE if len(players) <= COMPLETE else FIRST_WINDOW
    while True:
        tables = _matching(field, players, bye_takers, window)
        repeats = any(_rematch(field, a, b) for a, b in tables)
        bye_moved_up = bool(bye_takers) and (bye_takers[0], BYE) not in tables
        if window >= len(players) or not (repeats or bye_moved_up):
            return tables
        window *= 2


def _matching(field: _Field, players: list[str], bye_takers: list[str], window: int) -> list[tuple[str, str]]:
    import networkx as nx  # start-up: ~0.1 s to load: only when a round is paired, not for standings

    count = len(players)
    tables = count // 2 + 1
    spread = max(field.points[p] for p in players) - min(field.points[p] for p in players)
    # Each rule's unit outweighs the largest total of all the rules below it.
    most_seed_order = tables * count
    points = most_seed_order + 1
    most_points = points * tables * spread * spread + most_seed_order
    bye_rank = most_points + 1
    most_bye_rank = bye_rank * count + most_points
    rematch = most_bye_rank + 1
    top = rematch * tables + most_bye_rank + 1  # every weight positive: a complete pairing is the heaviest
    graph = nx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 : i + 1 + window]:
            cost = abs(field.place[b] - field.place[a])
            cost += points * (field.points[a] - field.points[b]) ** 2
            if _rematch(field, a, b):
                cost += rematch
            graph.add_edge(a, b, weight=top - cost)
    for rank, player in enumerate(bye_takers):
        graph.add_edge(player, BYE, weight=top - bye_rank * rank)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise AssertionError("a window of at least two places always has a complete pairing")
    return [(b, a) if a == BYE else (a, b) for a, b in matching]


def _numbered(field: _Field, tables: list[tuple[str, str]]) -> list[Pairing]:
    rank = {p: n for n, p in enumerate(field.ranked)}
    pairs = []
    bye = []
    for a, b in tables:
        if b == BYE:
            bye.append(Pairing(None, a, None))
            continue
        first, second = sorted((a, b), key=rank.__getitem__)
        pairs.append((first, second))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return [Pairing(n, a, b) for n, (a, b) in enumerate(pairs, start=1)] + bye
