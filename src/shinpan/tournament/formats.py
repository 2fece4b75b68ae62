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
from typing import Literal, NamedTuple, TypeVar

from shinpan.errors import N_, Conflict, InvalidInput
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


class ScoreOrder(StrEnum):
    """How a screen lists the scores a slip can say (T7)."""

    by_seat_a = "by_seat_a"  # seat a's duels won, most first: 2-0, 2-1, 1-2, 0-2 (the scorekeeper's buttons)
    by_winner = (
        "by_winner"  # seat a's wins, then seat b's the same way: 2-0, 2-1, 0-2, 1-2 (the winner's page)
    )


class OfferedScore(NamedTuple):
    """A score a screen offers, as a slip writes it (seat a's duels first), and whether the
    match ended at time (T8)."""

    score: str
    at_time: bool


# The usual scores of a match unfinished at time (T8), as a slip writes them.
_AT_TIME = {MatchFormat.bo1: ("0-0-1",), MatchFormat.bo3: ("1-0", "0-1", "1-1")}


def offered_scores(
    match_format: MatchFormat,
    *,
    playoff: bool = False,
    at_time: bool = True,
    order: ScoreOrder = ScoreOrder.by_seat_a,
) -> tuple[OfferedScore, ...]:
    """T7, T8, T10: the scores a screen offers for a match, one tap each: every finished
    score the format allows (a player with the duels to win and the other with fewer; in
    best of three 1-1-1 too, two duels each way and a drawn one), then, with ``at_time``,
    the usual ones at time. A playoff's match always has a winner (T10): no score that
    leaves the duels equal. Anything else is typed."""
    need = duels_to_win(match_format)
    a_wins = [f"{need}-{k}" for k in range(need)]
    b_wins = [f"{k}-{need}" for k in range(need)]
    finished = [*a_wins, *(b_wins if order is ScoreOrder.by_winner else reversed(b_wins))]
    if match_format is MatchFormat.bo3:
        finished.append("1-1-1")
    offered = [OfferedScore(s, False) for s in finished]
    if at_time:
        offered += [OfferedScore(s, True) for s in _AT_TIME[match_format]]
    if playoff:
        return tuple(o for o in offered if not _level(o.score))
    return tuple(offered)


def _level(score: str) -> bool:
    """Whether a score leaves both players with as many duels won (a draw's)."""
    a, b = score.split("-")[:2]
    return a == b


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


_NOT_A_FORMAT = N_("the match format is bo3 (best of three) or bo1 (best of one), not {value}")
_NOT_AT_TIME = N_("a match at time is decided by duels (duels) or a loss for both (both-lose), not {value}")
C = TypeVar("C", bound=StrEnum)


def _choice(kind: type[C], written: str | None, default: C, field: str, refusal: str) -> C:
    """One part of a format as an organiser wrote it (any case, spaces around), or its default."""
    if not written:
        return default
    try:
        return kind(written.strip().lower())
    except ValueError:
        raise InvalidInput(refusal, field=field, value=written) from None


def parse_format(match_format: str | None, time_out: str | None, tiebreakers: str | None) -> EventFormat:
    """An event's format as an organiser wrote it (each part optional: the default)."""
    played = _choice(MatchFormat, match_format, MatchFormat.bo3, "format", _NOT_A_FORMAT)
    rule = _choice(AtTime, time_out, AtTime.duels, "time_out", _NOT_AT_TIME)
    chain = parse_chain(tiebreakers) if tiebreakers else DEFAULT_CHAIN
    return EventFormat(played, rule, chain)


def check_format_change(rounds_paired: int) -> None:
    """The format may change only before round 1 is paired (T7–T9): refused after."""
    if rounds_paired > 0:
        raise Conflict(
            "the format is set before round 1 is paired; round {round} is already paired", round=rounds_paired
        )
