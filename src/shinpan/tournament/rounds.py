"""How many Swiss rounds an event of a given size should play, when a round may end, and
when the next one may be paired."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from shinpan.engine.event_rules import RoundState
from shinpan.errors import InvalidInput
from shinpan.tournament.formats import AtTime

# The Magic Tournament Rules, Appendix E ("Recommended Number of Rounds in Swiss Tournaments"),
# as (the most players, the rounds of Swiss):
#   2 → 1, 3–4 → 2, 5–8 → 3, 9–16 → 4, 17–32 → 5, 33–64 → 6, 65–128 → 7,
#   129–226 → 8, 227–409 → 9, 410 and more → 10.
# Appendix E runs 4 and 5–8 players as 2 and 3 rounds of single elimination, and 9–16 as 4
# rounds before a drafted Top 8 (5 in other formats); the Swiss here plays as many rounds.
# 2 and 3 players are not in the table: one round decides two players, two rounds three.
RECOMMENDED = ((1, 0), (2, 1), (4, 2), (8, 3), (16, 4), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9))
MOST_ROUNDS = 10  # 410 players and more


def recommended_rounds(players: int) -> int:
    """The rounds of Swiss recommended for ``players``: the MTR Appendix E table above
    (2 → 1, 3–4 → 2, 5–8 → 3, 9–16 → 4, … 227–409 → 9, 410+ → 10); none for fewer than two."""
    for most, rounds in RECOMMENDED:
        if players <= most:
            return rounds
    return MOST_ROUNDS


# -- T5, T8: a round ends with every table resolved --------------------------------------------


class OpenTable(StrEnum):
    """What a table still without a result becomes when its round is ended: said for each
    table by the person ending the round."""

    draw = "draw"  # the match a draw
    both_lose = "both_lose"  # a loss for both (T8), where the event counts a match at time so


class EndRefused(StrEnum):
    """Why a round may not end as asked."""

    unresolved = "unresolved"  # tables without a result, and nothing said for them
    not_in_format = "not_in_format"  # a choice the format does not give (T8; none in a playoff, T10)
    not_open = "not_open"  # a choice for a table that is not open in the round


@dataclass(frozen=True)
class EndRefusal:
    why: EndRefused
    tables: tuple[int, ...]


def choices_at_end(rule: AtTime, *, playoff: bool) -> tuple[OpenTable, ...]:
    """What an open table may become when its round ends: a draw, and a loss for both in an
    event that counts a match at time so (T8); nothing in a playoff, whose matches always
    have a winner the scorekeeper reports (T10)."""
    if playoff:
        return ()
    return (OpenTable.both_lose, OpenTable.draw) if rule is AtTime.both_lose else (OpenTable.draw,)


def why_no_end(
    open_tables: Collection[int], chosen: Mapping[int, OpenTable], allowed: Collection[OpenTable]
) -> EndRefusal | None:
    """A started round ends only with every table resolved: each table still without a result
    has one reported first, or its outcome said here (``chosen``, from ``allowed``), so that
    the next round can always be paired. None: the round may end."""
    stray = tuple(sorted(t for t in chosen if t not in open_tables))
    if stray:
        return EndRefusal(EndRefused.not_open, stray)
    wrong = tuple(sorted(t for t, c in chosen.items() if c not in allowed))
    if wrong:
        return EndRefusal(EndRefused.not_in_format, wrong)
    unresolved = tuple(sorted(t for t in open_tables if t not in chosen))
    if unresolved:
        return EndRefusal(EndRefused.unresolved, unresolved)
    return None


class PairRefused(StrEnum):
    """Why the next round may not be paired yet (T5)."""

    unfinished = "unfinished"  # matches of the round before without a result
    not_ended = "not_ended"  # the round before has not been ended


@dataclass(frozen=True)
class PairRefusal:
    why: PairRefused
    tables: tuple[int, ...]  # the tables without a result (``unfinished``)


def why_no_pairing(state: RoundState, unfinished: Sequence[int]) -> PairRefusal | None:
    """T5: the next round is paired only once the round before is over: every match of it
    with a result (``unfinished``: the tables still without one, as listed), then the round
    ended. Before round 1 is paired (``none``) nothing waits. None: it may be paired."""
    if unfinished:
        return PairRefusal(PairRefused.unfinished, tuple(unfinished))
    if state not in (RoundState.ended, RoundState.none):
        return PairRefusal(PairRefused.not_ended, ())
    return None


_OPEN_WORDS = {
    "draw": OpenTable.draw,
    "引き分け": OpenTable.draw,
    "both-lose": OpenTable.both_lose,
    "both_lose": OpenTable.both_lose,
    "両者敗北": OpenTable.both_lose,
}


def parse_open_table(text: str) -> tuple[int, OpenTable]:
    """One open table's outcome as typed: ``3=draw`` (引き分け) or ``3=both-lose`` (両者敗北)."""
    table, _, word = text.replace("＝", "=").partition("=")
    chosen = _OPEN_WORDS.get(word.strip().lower())
    number = table.strip()
    if chosen is None or not number.isascii() or not number.isdigit() or not 1 <= int(number) <= 2**31 - 1:
        raise InvalidInput(
            "write each open table as its number and what it becomes: 3=draw (引き分け) or 3=both-lose (両者敗北), not {value}",
            field="open_table",
            value=text,
        )
    return int(number), chosen
