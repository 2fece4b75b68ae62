"""D14: which rulings are disqualifications, asked once (``reports.dq.is_disqualification``)
by the disqualification report, the head judge's desk and a player's history, on SQLite and
on PostgreSQL.

A disqualification is what the event's guideline says acts as one, whatever the file calls
it; one the guideline gave and the head judge deviated from still needs its report; a voided
ruling is none (D16: as if it had never been recorded).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import EventSetup
from shinpan import reports
from shinpan.errors import NotFound
from shinpan.files.guidelines import default_guideline, load_guideline
from shinpan.guideline import Rulebook
from shinpan.reports.dq import disqualifications
from shinpan.services import context, corrections
from test_component_meanings import renamed

CHEATING = "severe.cheating"  # 警3+失: a disqualification


def cheated(ev: EventSetup, player: str) -> int:
    return int(ev.record(player, CHEATING).rulings[0]["number"])


def in_the_report(ev: EventSetup) -> list[int]:
    return [c.ruling.number for c in reports.dq_report(ev.db, ev.id).cases]


def on_the_desk(ev: EventSetup) -> list[int]:
    return [d.number for d in disqualifications(ev.db, ev.id)]


def test_d14_a_voided_disqualification_is_in_no_report_and_not_on_the_desk(ev: EventSetup) -> None:
    mistaken = cheated(ev, "P001")
    kept = cheated(ev, "P003")
    corrections.void(ev.db, ev.id, mistaken, "別の選手と取り違えた")
    assert in_the_report(ev) == [kept]
    assert on_the_desk(ev) == [kept]
    with pytest.raises(NotFound):
        reports.dq_report(ev.db, ev.id, mistaken)
    assert reports.history_of_player(ev.db, ev.id, "P001").disqualifications == 0
    assert reports.history_of_player(ev.db, ev.id, "P003").disqualifications == 1


def test_d14_a_disqualification_the_head_judge_deviated_from_still_needs_its_report(ev: EventSetup) -> None:
    number = cheated(ev, "P001")
    corrections.deviate(ev.db, ev.id, number, ["warning2", "ejection"], "故意の証拠が弱い")
    assert in_the_report(ev) == [number]
    assert on_the_desk(ev) == [number]
    history = reports.history_of_player(ev.db, ev.id, "P001")
    assert (history.disqualifications, history.ejections) == (0, 1)


def test_d17_the_desk_shows_a_disqualification_waiting_for_the_head_judge(ev: EventSetup) -> None:
    number = cheated(ev, "P001")
    (waiting,) = disqualifications(ev.db, ev.id)
    assert (waiting.number, waiting.state, waiting.awaiting_status) == (number, "pending", "disqualified")
    corrections.confirm(ev.db, ev.id, [number])
    (confirmed,) = disqualifications(ev.db, ev.id)
    assert (confirmed.state, confirmed.awaiting_status) == ("confirmed", None)


def test_d14_a_guideline_that_calls_its_disqualification_otherwise_still_reports_it(
    new_event: Callable[..., EventSetup], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = Rulebook(load_guideline(renamed(tmp_path, "disqualification", "expulsion")))
    shipped = default_guideline()
    assert (book.guideline.id, book.guideline.version) == (shipped.id, shipped.version)
    assert "disqualification" not in book.components and book.acts(["expulsion"]) == ("disqualification",)
    # The events run under this file: every path asks the same registry of guidelines.
    monkeypatch.setitem(context._BOOKS, (shipped.id, shipped.version), book)
    ev = new_event()
    number = cheated(ev, "P001")
    (waiting,) = disqualifications(ev.db, ev.id)
    assert waiting.penalties == ("warning3", "expulsion") and waiting.awaiting_status == "disqualified"
    corrections.confirm(ev.db, ev.id, [number])
    (case,) = reports.dq_report(ev.db, ev.id).cases
    assert case.ruling.number == number and case.ruling.penalties == ("warning3", "expulsion")
    assert case.decision.outcome == "confirmed" and case.player_status == "disqualified"
    assert reports.history_of_player(ev.db, ev.id, "P001").disqualifications == 1
