"""T5, T8, T10, the rule alone (pure): a started round ends with every table resolved; each
table still without a result is said as the round ends, as a draw, or as a loss for both
(両者敗北) where the event counts a match at time so; a playoff's matches are won, so nothing
but a winner is reported there. The service that records the choice:
``tests/test_round_end.py``."""

from __future__ import annotations

import pytest

from shinpan.errors import InvalidInput
from shinpan.tournament.formats import AtTime
from shinpan.tournament.results import Score, parse_score
from shinpan.tournament.rounds import (
    EndRefusal,
    EndRefused,
    OpenTable,
    choices_at_end,
    parse_open_table,
    why_no_end,
)

DRAW, BOTH = OpenTable.draw, OpenTable.both_lose


def test_what_an_open_table_may_become_follows_the_format() -> None:
    assert choices_at_end(AtTime.duels, playoff=False) == (DRAW,)
    assert choices_at_end(AtTime.both_lose, playoff=False) == (BOTH, DRAW)
    assert choices_at_end(AtTime.both_lose, playoff=True) == ()  # a playoff's matches are won
    assert choices_at_end(AtTime.duels, playoff=True) == ()


@pytest.mark.parametrize(
    ("open_tables", "chosen", "allowed", "refused"),
    [
        ((), {}, (DRAW,), None),  # every result in
        ((3, 7), {3: DRAW, 7: DRAW}, (DRAW,), None),  # each open table said
        ((3, 7), {3: BOTH, 7: DRAW}, (BOTH, DRAW), None),
        ((3, 7), {3: DRAW}, (DRAW,), EndRefusal(EndRefused.unresolved, (7,))),  # never left open
        ((3,), {3: BOTH}, (DRAW,), EndRefusal(EndRefused.not_in_format, (3,))),  # no 両者敗北 here
        ((3,), {3: DRAW}, (), EndRefusal(EndRefused.not_in_format, (3,))),  # a playoff
        ((3,), {3: DRAW, 4: DRAW}, (DRAW,), EndRefusal(EndRefused.not_open, (4,))),  # 4 has its result
    ],
)
def test_a_round_ends_only_with_every_table_resolved(
    open_tables: tuple[int, ...],
    chosen: dict[int, OpenTable],
    allowed: tuple[OpenTable, ...],
    refused: EndRefusal | None,
) -> None:
    assert why_no_end(open_tables, chosen, allowed) == refused


def test_an_open_tables_outcome_is_typed_in_either_language() -> None:
    assert parse_open_table("3=draw") == (3, DRAW)
    assert parse_open_table("12＝両者敗北") == (12, BOTH)
    assert parse_open_table("4=both-lose") == (4, BOTH)
    assert parse_score("0-0", at_time=True) == Score(0, 0)  # at time before any duel ended (T8)
    for bad in ("3", "=draw", "x=draw", "3=win", "0=draw"):
        with pytest.raises(InvalidInput):
            parse_open_table(bad)


def test_an_open_table_is_any_table_number_the_event_can_hold() -> None:
    # T5: the table's number as the pairing gave it, from the first table to the largest
    # number kept (a 32-bit table number); nothing outside that is a table.
    assert parse_open_table("1=draw") == (1, DRAW)
    assert parse_open_table(f"{2**31 - 1}=draw") == (2**31 - 1, DRAW)
    assert parse_open_table(" 7 = Both-Lose ") == (7, BOTH)
    for bad in (f"{2**31}=draw", f"{2**32 - 1}=draw", "-1=draw", "٣=draw"):
        with pytest.raises(InvalidInput):
            parse_open_table(bad)


def test_a_mistyped_open_table_is_refused_with_both_forms_shown() -> None:
    # T8: 引き分け (a draw) or 両者敗北 (a loss for both); the refusal points at the field and
    # repeats what was typed, so the scorekeeper sees what to write instead.
    with pytest.raises(InvalidInput) as refused:
        parse_open_table("3=win")
    assert refused.value.field == "open_table"
    assert refused.value.params == {"value": "3=win"}
    assert str(refused.value) == (
        "write each open table as its number and what it becomes:"
        " 3=draw (引き分け) or 3=both-lose (両者敗北), not 3=win"
    )
