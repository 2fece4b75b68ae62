"""Swiss pairings (issue 10): the next round from the standings, by maximum-weight matching.

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

Speed: the players are lined up by match points (ties in the seed's order) and pairing
them neighbour with neighbour is already the least cost when it repeats no pairing. When it
would, the matching runs on the tables between players at most ``window`` places apart
in that line; a rematch in its answer doubles the window, up to every possible table, so
a rematch is only ever kept when the complete graph cannot avoid it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from shinpan.tournament.model import Entrant, Pairing, Played, PlayerState
from shinpan.tournament.standings import participant_order, standing_key, standings

BYE = ""  # the bye's node in the matching graph (a participant id is never empty)
FIRST_WINDOW = 16


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
    tables = _neighbours(field) or _matched(field)
    return _numbered(field, tables)


def _field(entrants: Sequence[Entrant], before: list[Played], rng: random.Random) -> _Field:
    active = sorted({e.player for e in entrants if e.status is PlayerState.active}, key=participant_order)
    rng.shuffle(active)
    drawn = {player: n for n, player in enumerate(active)}
    lines = {s.player: s for s in standings(entrants, before)}
    ranked = sorted(active, key=lambda p: (*standing_key(lines[p]), drawn[p]))
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


def _neighbours(field: _Field) -> list[tuple[str, str]] | None:
    """Neighbour with neighbour in the line, the bye to the lowest-ranked taker: the least
    cost when it repeats no pairing (None when it would)."""
    line = list(field.line)
    tables: list[tuple[str, str]] = []
    if field.bye_takers:
        line.remove(field.bye_takers[0])
        tables.append((field.bye_takers[0], BYE))
    for a, b in zip(line[::2], line[1::2], strict=True):
        if frozenset((a, b)) in field.met:
            return None
        tables.append((a, b))
    return tables


def _matched(field: _Field) -> list[tuple[str, str]]:
    """The least-cost pairing by maximum-weight matching, on a widening window of the line."""
    count = len(field.line)
    window = FIRST_WINDOW
    while True:
        tables = _matching(field, window)
        if window >= count or not any(frozenset(t) in field.met for t in tables):
            return tables
        window *= 2


def _matching(field: _Field, window: int) -> list[tuple[str, str]]:
    count = len(field.line)
    spread = max(field.points.values()) - min(field.points.values())
    # Each rule's weight outweighs the largest total of all the rules below it.
    seed_order = count * (count // 2 + 1) + 1
    points = seed_order * ((count // 2 + 1) * spread * spread + 1)
    bye_rank = points * (count + 1)
    rematch = bye_rank * (count + 1)
    top = rematch * 2  # every weight positive: the largest matching is also the heaviest
    graph = nx.Graph()
    for i, a in enumerate(field.line):
        for b in field.line[i + 1 : i + 1 + window]:
            cost = field.place[b] - field.place[a]
            cost += points * (field.points[a] - field.points[b]) ** 2
            if frozenset((a, b)) in field.met:
                cost += rematch
            graph.add_edge(a, b, weight=top - cost)
    for rank, player in enumerate(field.bye_takers):
        graph.add_edge(player, BYE, weight=top - bye_rank * rank)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise AssertionError("a window of at least two places always has a complete pairing")
    return [(a, b) if b == BYE or a != BYE else (b, a) for a, b in matching]


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
