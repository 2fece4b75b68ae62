"""T5, T8, T10: a started round ends with every table resolved, so the next round can always
be paired. Each table still without a result is reported first, or its outcome is said as the
round ends: a draw, or a loss for both (両者敗北) where the event counts a match at time so;
in a playoff, whose matches are won, nothing but a winner reported. The rule alone, pure:
``tests/test_interpretations_round_end.py``."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import HEAD_JUDGE, EventSetup
from shinpan.errors import Conflict
from shinpan.services import events, formats, playoff, rounds, swiss
from shinpan.services.results import Wanted, report_result
from shinpan.services.scoresheet import round_sheet
from shinpan.store.rounds import round_of
from shinpan.tournament.rounds import OpenTable
from test_ledger_services import consistent

DRAW, BOTH = OpenTable.draw, OpenTable.both_lose


# -- the service: the choice is recorded as each table's result ------------------------------------


def both_lose_event(new_event: Any) -> EventSetup:
    ev: EventSetup = new_event(players=8, pair=False)
    formats.set_format(ev.db, ev.id, match_format="bo1", time_out="both-lose", actor=HEAD_JUDGE)
    ev.pair(1, [("P001", "P002"), ("P003", "P004"), ("P005", "P006"), ("P007", "P008")])
    rounds.start_round(ev.db, ev.id)
    return ev


def test_a_round_with_open_tables_is_not_ended_until_each_is_resolved(new_event: Any) -> None:
    ev = both_lose_event(new_event)
    report_result(ev.db, ev.id, 1, 1, Wanted(score="1-0"))
    report_result(ev.db, ev.id, 1, 2, Wanted(score="0-1"))
    with pytest.raises(Conflict, match="tables 3, 4"):
        events.end_round(ev.db, ev.id)
    with pytest.raises(Conflict, match="tables 4"):
        events.end_round(ev.db, ev.id, open_tables={3: BOTH})
    with pytest.raises(Conflict, match="tables 1"):
        events.end_round(ev.db, ev.id, open_tables={1: DRAW, 3: BOTH, 4: DRAW})
    with ev.db.read() as conn:
        row = round_of(conn, ev.id, 1)
        assert row is not None and row.state.value == "started"  # nothing was written

    assert events.end_round(ev.db, ev.id, open_tables={3: BOTH, 4: DRAW}) == 1
    sheet = round_sheet(ev.db, ev.id, 1)
    assert [r.result for r in sheet.rows] == ["a", "b", "both_lose", "draw"]
    swiss.pair_next_round(ev.db, ev.id, seed=3)  # never a round left unpairable
    consistent(ev.db)


def test_a_loss_for_both_only_where_the_format_counts_one(new_event: Any) -> None:
    ev: EventSetup = new_event(players=4)
    rounds.start_round(ev.db, ev.id)
    with pytest.raises(Conflict, match="tables 1"):
        events.end_round(ev.db, ev.id, open_tables={1: BOTH, 2: DRAW})
    assert events.end_round(ev.db, ev.id, open_tables={1: DRAW, 2: DRAW}) == 1
    assert [r.result for r in round_sheet(ev.db, ev.id, 1).rows] == ["draw", "draw"]


def test_a_playoff_round_ends_once_every_winner_is_reported(new_event: Any) -> None:
    ev: EventSetup = new_event(players=4)
    rounds.start_round(ev.db, ev.id)
    for table in (1, 2):
        report_result(ev.db, ev.id, 1, table, Wanted(score="2-0"))
    events.end_round(ev.db, ev.id)
    playoff.start_playoff(ev.db, ev.id, 4)
    rounds.start_round(ev.db, ev.id)
    with pytest.raises(Conflict, match="tables 1"):
        events.end_round(ev.db, ev.id, open_tables={1: DRAW, 2: DRAW})
    for table in (1, 2):
        report_result(ev.db, ev.id, 2, table, Wanted(score="2-1"))
    assert events.end_round(ev.db, ev.id) == 2
