"""What a command may not do, and why (D11, D16 of guideline/CATALOG.md, T5 of
tournament/RULES.md): pure checks that return the reason they refuse, which the services
then say to the judge.

Read `why_no_deviate(ruling(state=voided), ["notice"])` as "may the head judge give a voided
ruling a caution instead? No: it is voided".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shinpan.engine.event_rules import RoundState, RulingState
from shinpan.engine.refusals import (
    AsItStands,
    ConfirmRefused,
    DeviationRefused,
    VoidRefused,
    why_no_confirm,
    why_no_deviate,
    why_no_void,
    why_unchanged,
)
from shinpan.engine.ruling import Trigger
from shinpan.tournament.rounds import PairRefusal, PairRefused, why_no_pairing

SLOW_TWICE = AsItStands(
    RulingState.recorded,
    Trigger.record,
    offense=2,
    follow_up=False,
    penalties=("warning1", "duel_loss"),
    guideline_penalties=("warning1", "duel_loss"),
)
# facts determined, or an outside advisor alone: no offence, no penalty (D13)
NOBODY = AsItStands(RulingState.recorded, Trigger.record, None, False, (), ())


# --- D11 Confirming: only what waits for the head judge


def test_d11_a_ruling_waiting_for_the_head_judge_may_be_confirmed() -> None:
    assert why_no_confirm(RulingState.pending) is None


@pytest.mark.parametrize("state", [RulingState.recorded, RulingState.confirmed, RulingState.voided])
def test_d11_a_ruling_that_waits_for_nothing_is_not_confirmed(state: RulingState) -> None:
    assert why_no_confirm(state) is ConfirmRefused.not_waiting


# --- D11, D16 Deviating: other penalties for a live ruling that penalises someone


def test_d11_the_head_judge_may_give_a_ruling_other_penalties() -> None:
    assert why_no_deviate(SLOW_TWICE, ["warning1"]) is None
    assert why_no_deviate(replace(SLOW_TWICE, state=RulingState.pending), ["notice"]) is None
    assert why_no_deviate(replace(SLOW_TWICE, state=RulingState.confirmed), ["notice"]) is None


def test_d16_a_voided_ruling_is_not_deviated() -> None:
    assert (
        why_no_deviate(replace(SLOW_TWICE, state=RulingState.voided), ["notice"]) is DeviationRefused.voided
    )
    # voided comes first, even for a ruling that penalised nobody
    assert why_no_deviate(replace(NOBODY, state=RulingState.voided), ["notice"]) is DeviationRefused.voided


def test_d16_a_ruling_that_penalises_nobody_has_nothing_to_deviate_from() -> None:
    assert NOBODY.penalises_nobody
    assert why_no_deviate(NOBODY, ["notice"]) is DeviationRefused.penalises_nobody


@pytest.mark.parametrize(
    "ruling",
    [
        replace(NOBODY, offense=1),  # counted: an offence
        replace(NOBODY, follow_up=True),  # a missed deadline's follow-up (D7)
        replace(NOBODY, trigger=Trigger.unrelated_warnings),  # one shinpan added (D3)
        replace(NOBODY, trigger=Trigger.draft_exclusion),  # (D6)
        replace(NOBODY, trigger=Trigger.deadline_missed),
        replace(NOBODY, guideline_penalties=("notice",)),  # the guideline gave a penalty
    ],
    ids=["offence", "follow-up", "unrelated", "draft-exclusion", "deadline-missed", "penalty"],
)
def test_d16_any_offence_trigger_or_penalty_makes_a_ruling_deviable(ruling: AsItStands) -> None:
    assert not ruling.penalises_nobody
    assert why_no_deviate(ruling, ["notice"]) is None


def test_d16_a_deviation_to_the_guideline_s_own_penalties_changes_nothing() -> None:
    assert why_no_deviate(SLOW_TWICE, ["duel_loss", "warning1"]) is DeviationRefused.guideline_own


def test_d16_a_deviation_to_the_penalties_a_deviation_gave_changes_nothing() -> None:
    deviated = replace(SLOW_TWICE, penalties=("notice",))
    assert why_no_deviate(deviated, ["notice"]) is DeviationRefused.unchanged
    assert why_no_deviate(deviated, ["warning1", "duel_loss"]) is None  # back to the guideline's: a change


def test_d16_what_changes_is_the_set_of_components_in_any_order() -> None:
    assert why_unchanged(["a", "b"], ["a", "b"], ["b", "a"]) is DeviationRefused.guideline_own
    assert why_unchanged(["a"], ["b", "c"], ["c", "b"]) is DeviationRefused.unchanged
    assert why_unchanged(["a"], ["b"], ["b", "b"]) is None
    assert why_unchanged(["a"], ["b"], []) is None


# --- D1, D16 Voiding: with a reason, once


@pytest.mark.parametrize(
    "state", [RulingState.pending, RulingState.confirmed, RulingState.recorded], ids=lambda s: str(s)
)
def test_d16_a_live_ruling_is_voided_with_a_reason(state: RulingState) -> None:
    assert why_no_void(state, "recorded against the wrong player") is None


@pytest.mark.parametrize("reason", ["", "   ", "\n\t"])
def test_d16_a_void_needs_a_written_reason(reason: str) -> None:
    assert why_no_void(RulingState.recorded, reason) is VoidRefused.no_reason


def test_d16_a_voided_ruling_is_not_voided_again() -> None:
    assert why_no_void(RulingState.voided, "again") is VoidRefused.voided
    assert why_no_void(RulingState.voided, " ") is VoidRefused.no_reason  # the reason is said first


# --- T5 Pairing: only once the round before is over


def test_t5_the_next_round_is_paired_once_the_round_before_ended_with_every_result() -> None:
    assert why_no_pairing(RoundState.ended, []) is None


def test_t5_round_1_is_paired_with_nothing_before_it() -> None:
    assert why_no_pairing(RoundState.none, []) is None


@pytest.mark.parametrize("state", [RoundState.paired, RoundState.started])
def test_t5_a_round_not_ended_is_not_paired_after(state: RoundState) -> None:
    assert why_no_pairing(state, []) == PairRefusal(PairRefused.not_ended, ())


@pytest.mark.parametrize("state", [RoundState.started, RoundState.ended])
def test_t5_matches_without_a_result_come_first_naming_their_tables(state: RoundState) -> None:
    assert why_no_pairing(state, [3, 7]) == PairRefusal(PairRefused.unfinished, (3, 7))
