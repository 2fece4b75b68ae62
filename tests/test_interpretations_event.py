"""Rules of the event decided once in the pure core and called by the services: D17's
status once the head judge confirms, the confirmation threshold (D11), where a ruling lands
without a round, the per-draft counting scope (D1, D6), no drop while a match is unfinished.
Each asked of the shipped guideline and, where codes matter, of one with every code renamed.
Pure: one of the tests mutation testing runs (the type check of codes against meanings is in
tests/test_codes_and_meanings.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fixtures.make_renamed_guideline import RENAMED
from shinpan.engine.event_rules import (
    DropRefused,
    Status,
    ThresholdRefused,
    counting_scope,
    status_once_confirmed,
    where_ruling_lands,
    why_no_drop,
    why_no_threshold,
)
from shinpan.files.guidelines import default_guideline, load_guideline
from shinpan.guideline import Rulebook
from shinpan.guideline.model import Guideline
from support import BOOK

RENAMED_BOOK = Rulebook(load_guideline(Path(__file__).parent / "fixtures" / "renamed_guideline.yaml"))


# --- D17: what a ruling waiting for the head judge does once confirmed


@pytest.mark.parametrize("book", [BOOK, RENAMED_BOOK], ids=["shipped", "renamed"])
@pytest.mark.parametrize(
    ("codes", "state", "status"),
    [
        (["warning3", "disqualification"], "pending", Status.disqualified),
        (["warning2", "ejection"], "pending", Status.ejected),
        (["ejection", "disqualification"], "pending", Status.disqualified),  # the heavier wins
        (["warning3", "disqualification"], "confirmed", None),  # already done: nothing waits
        (["warning3", "disqualification"], "voided", None),
        (["warning2", "match_loss"], "pending", None),  # a loss applies at once: nothing waits
        (["warning1", "withdrawn"], "pending", None),  # withdrawn applies at once (D17)
    ],
)
def test_d17_a_pending_ruling_says_what_it_will_do_once_confirmed(
    book: Rulebook, codes: list[str], state: str, status: Status | None
) -> None:
    named = [RENAMED[c] for c in codes] if book is RENAMED_BOOK else codes
    assert status_once_confirmed(book.acts(named), state) is status


def test_d17_is_asked_of_meanings_never_of_codes() -> None:
    # The renamed file's disqualification is `expulsion`: by its code it does nothing.
    assert status_once_confirmed(["expulsion"], "pending") is None
    assert status_once_confirmed(RENAMED_BOOK.acts(["expulsion"]), "pending") is Status.disqualified


# --- D11: the confirmation threshold may be raised, not lowered


@pytest.mark.parametrize(
    ("threshold", "allowed"),
    [
        ("warning1", True),  # the guideline's own
        ("warning2", True),
        ("disqualification", True),
        ("notice", False),  # lower
        ("caution", False),
        ("no_such_component", False),
        ("withdrawn", False),  # an effect ranks nowhere
    ],
)
def test_d11_the_threshold_may_be_raised_not_lowered(threshold: str, allowed: bool) -> None:
    assert why_no_threshold(default_guideline(), threshold) is (None if allowed else ThresholdRefused.lowered)


@pytest.mark.parametrize("threshold", ["draft_warning", "draft_exclusion", "no_such_component", "withdrawn"])
def test_d11_what_ranks_nowhere_is_lower_than_even_the_lowest_threshold(threshold: str) -> None:
    """D11: with the threshold at the lowest rank (a caution), a component outside the ranks,
    an effect or an unknown code is still lower: never a threshold."""
    lowest = replace(default_guideline(), confirmation_threshold="caution")
    assert may_set_threshold(lowest, "caution") and may_set_threshold(lowest, "notice")
    assert not may_set_threshold(lowest, threshold)


def test_d11_the_renamed_guideline_ranks_its_own_codes() -> None:
    g = RENAMED_BOOK.guideline
    assert g.confirmation_threshold == "caution1"
    assert may_set_threshold(g, "caution2") and not may_set_threshold(g, "reminder")
    assert not may_set_threshold(g, "warning2")  # the shipped code is not one of its components


# --- where a ruling lands when the judge names no round


@pytest.mark.parametrize(
    ("asked", "playing", "current", "lands"),
    [
        ((None, None), None, 0, (None, None)),  # before round 1: no round
        ((None, None), None, 3, (3, None)),  # between matches: the current round, no table
        ((None, None), (3, 7), 3, (3, 7)),  # playing: that match
        ((None, None), (2, 4), 3, (2, 4)),  # a match of an earlier round still unfinished
        ((2, None), (3, 7), 3, (2, None)),  # the judge said the round
        ((None, 5), (3, 7), 3, (None, 5)),  # the judge said the table
        ((1, 5), None, 3, (1, 5)),
    ],
)
def test_a_ruling_lands_where_the_judge_said_else_the_match_being_played(
    asked: tuple[int | None, int | None],
    playing: tuple[int, int] | None,
    current: int,
    lands: tuple[int | None, int | None],
) -> None:
    assert where_ruling_lands(asked, playing, current) == lands


# --- D1, D6: the scope an offence counts in


def test_d6_a_draft_infraction_counts_within_its_draft() -> None:
    assert counting_scope(BOOK, "draft.standard", "draft-2", counted=True) == "draft-2"
    assert counting_scope(BOOK, "draft.standard", None, counted=True) == ""  # no draft said


def test_d1_other_infractions_count_in_the_whole_event() -> None:
    assert counting_scope(BOOK, "ingame.slow-play", "draft-2", counted=True) == ""
    assert counting_scope(BOOK, "no.such-rule", "draft-2", counted=True) == ""


def test_a_ruling_that_counts_toward_nothing_has_no_scope() -> None:
    assert counting_scope(BOOK, "draft.standard", "draft-2", counted=False) == ""


# --- a player drops between matches


@pytest.mark.parametrize(
    ("status", "playing", "refused"),
    [
        (Status.active, False, None),
        (Status.active, True, DropRefused.playing),
        (Status.dropped, False, DropRefused.left),
        (Status.withdrawn, False, DropRefused.left),
        (Status.ejected, True, DropRefused.left),  # out already: that comes first
        (Status.disqualified, False, DropRefused.left),
    ],
)
def test_no_drop_while_a_match_is_unfinished_nor_after_leaving(
    status: Status, playing: bool, refused: DropRefused | None
) -> None:
    assert why_no_drop(status, playing) is refused


def may_set_threshold(g: Guideline, threshold: str) -> bool:
    """D11: whether an event under ``g`` may take this threshold (no reason refuses it)."""
    return why_no_threshold(g, threshold) is None
