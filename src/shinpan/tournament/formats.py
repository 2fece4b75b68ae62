"""Match formats and a match at time (RULES T7, T8): when duels decide a match.

- **best of three** (``bo3``, マッチ戦, the default): the first player to win two duels wins;
- **best of one** (``bo1``, 1本先取): the first duel won decides the match.

A drawn duel decides nothing; the match goes on while time allows.

When a table's time runs out with the match unfinished, the event's rule decides:

- **decided by duels** (``duels``, the default): more duels won wins; equal is a draw;
- **a loss for both** (``both-lose``, 両者敗北): a match loss for each player.

In a playoff (T10) there is neither a draw nor a loss for both: the scorekeeper reports
the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from shinpan.errors import Conflict, InvalidInput
from shinpan.tournament.tiebreakers import DEFAULT_CHAIN, Chain, parse_chain

Outcome = Literal["a", "b", "draw", "both_lose"]


class MatchFormat(StrEnum):
    bo3 = "bo3"
    bo1 = "bo1"


class AtTime(StrEnum):
    duels = "duels"
    both_lose = "both-lose"


def duels_to_win(match_format: MatchFormat) -> int:
    """How many duels a player must win to win the match (T7)."""
    return 1 if match_format is MatchFormat.bo1 else 2


def final_scores(match_format: MatchFormat, *, playoff: bool = False) -> tuple[str, ...]:
    """The scores a finished match's slip says (T7), as a scorekeeper taps them: a player
    with the duels to win and the other with fewer; in best of three, 1-1-1 too (two duels
    each way and a drawn one: a draw), except in a playoff, whose matches always have a
    winner (T10). Anything else is typed."""
    if match_format is MatchFormat.bo1:
        return ("1-0", "0-1")
    return ("2-0", "2-1", "1-2", "0-2") + (() if playoff else ("1-1-1",))


def duels_won(duels: Sequence[str | None], a: str, b: str) -> tuple[int, int]:
    """(duels won by a, by b) of a match's duels in order; a drawn duel (None) is neither's."""
    return (sum(1 for w in duels if w == a), sum(1 for w in duels if w == b))


def decided(match_format: MatchFormat, won_a: int, won_b: int) -> Literal["a", "b"] | None:
    """Who has won the match by duels (T7), or None while it goes on."""
    needed = duels_to_win(match_format)
    if won_a >= needed:
        return "a"
    if won_b >= needed:
        return "b"
    return None


def at_time(rule: AtTime, won_a: int, won_b: int) -> Outcome:
    """What a match unfinished at time is (T8), from the duels won as they stand."""
    if rule is AtTime.both_lose:
        return "both_lose"
    if won_a > won_b:
        return "a"
    if won_b > won_a:
        return "b"
    return "draw"


@dataclass(frozen=True)
class EventFormat:
    """How an event plays its matches and ranks its players (T7–T9).

    ``seed`` draws the ``seeded`` order (T9), once, when the event is given its format; None
    for an event that never chose one (the default chain does not need it).
    """

    match_format: MatchFormat = MatchFormat.bo3
    at_time: AtTime = AtTime.duels
    chain: Chain = DEFAULT_CHAIN
    seed: int | None = None


DEFAULT_FORMAT = EventFormat()


def parse_format(match_format: str | None, time_out: str | None, tiebreakers: str | None) -> EventFormat:
    """An event's format as an organiser wrote it (each part optional: the default)."""
    try:
        played = MatchFormat(match_format.strip().lower()) if match_format else MatchFormat.bo3
    except ValueError:
        raise InvalidInput(
            "the match format is bo3 (best of three) or bo1 (best of one), not {value}",
            field="format",
            value=match_format,
        ) from None
    try:
        rule = AtTime(time_out.strip().lower()) if time_out else AtTime.duels
    except ValueError:
        raise InvalidInput(
            "a match at time is decided by duels (duels) or a loss for both (both-lose), not {value}",
            field="time_out",
            value=time_out,
        ) from None
    chain = parse_chain(tiebreakers) if tiebreakers else DEFAULT_CHAIN
    return EventFormat(played, rule, chain)


def check_format_change(rounds_paired: int) -> None:
    """The format may change only before round 1 is paired (T7–T9): refused after."""
    if rounds_paired > 0:
        raise Conflict(
            "the format is set before round 1 is paired; round {round} is already paired", round=rounds_paired
        )
