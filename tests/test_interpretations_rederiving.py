"""D16 of guideline/CATALOG.md: after a correction, the additional rulings are worked out
again. A void takes effect as if the voided record had never been made, a deviation as if the
record had been made with the head judge's penalties; then each affected player's additional
rulings (D3 unrelated warnings, D6 draft exclusion) are kept when their cause still calls for
them, voided when nothing does any more, and added when the corrected history now calls for
them, numbered after the event's last ruling. Offence numbers already given never change.

The replays read as in tests/test_interpretations.py. A deviation corrects a ruling already
made (the ledger's services); those tests build the player's history with ``decide``, put the
deviated ruling in its place, and ask :func:`rederive` what the correction does, as the
services do.
"""

from __future__ import annotations

from dataclasses import replace

from shinpan.engine import Deviation, Record, Ruling, Trigger, decide
from shinpan.engine.corrections import Rederived, rederive
from support import BOOK, play, rec, void

SLOW, SHUFFLE, EXTRA, INSUFFICIENT = (
    "ingame.slow-play",
    "pregame.shuffle-cut",
    "ingame.extra-cards-drawn",
    "pregame.insufficient-shuffle",
)
OFF_TABLE = "ingame.cards-off-table"  # 1st offence a notice, 2nd a single warning
UNRELATED = "general.unrelated-warnings"
EXCLUSION = "draft.exclusion"


def history(*records: str | Record) -> list[Ruling]:
    """Player A's rulings, one record after the other (event 0, 1, …); a record given by its
    infraction alone is recorded against A."""
    made: list[Ruling] = []
    for n, record in enumerate(records):
        record = Record("A", record) if isinstance(record, str) else record
        made += decide(BOOK, record, {"A": made}, {"A", "B"}, ref=f"event {n}")
    return made


def deviated(rulings: list[Ruling], number: int, penalties: tuple[str, ...]) -> list[Ruling]:
    """The history with ruling ``number`` deviated by the head judge to ``penalties``."""
    return [
        replace(r, penalties=penalties, deviation=Deviation(penalties, "seen again"))
        if r.number == number
        else r
        for r in rulings
    ]


def live(rulings: list[dict[str, object]], rule: str) -> list[tuple[object, object]]:
    """(event, offence) of the live rulings of one rule."""
    return [(r["event"], r["offense"]) for r in rulings if r["rule"] == rule and not r["voided"]]


def additional(found: tuple[Ruling, ...]) -> list[tuple[object, ...]]:
    """What a correction adds: (number, rule, offence, cause, ref) of each ruling."""
    return [(r.number, r.rule, r.offense, r.cause, r.ref) for r in found]


# --- Voids: the additional rulings that nothing calls for any more go with the correction


def test_d16_voiding_a_warning_voids_the_unrelated_warnings_ruling_it_made_possible() -> None:
    rulings = play(f"A: {SLOW}", f"A: {SHUFFLE}", f"A: {EXTRA}", f"A: {INSUFFICIENT}", void(0))
    assert [(r["event"], r["offense"], r["voided"]) for r in rulings if r["rule"] == UNRELATED] == [
        (2, 1, True),  # the third distinct warning is only the second now
        (3, 2, False),  # the fourth is the third now; its offence number stays
    ]


def test_d16_a_void_elsewhere_keeps_every_additional_ruling_one_record_made() -> None:
    """A deviated record that is both the third unrelated warning (D3) and a draft
    exclusion (D6) keeps both of its additional rulings, and what they caused, when another
    record of the player is voided."""
    rulings = play(
        f"A: {SLOW}",
        f"A: {SHUFFLE}",
        rec("A", EXTRA, deviation=(["warning1", "draft_exclusion"], "drew on purpose")),
        "A: pregame.tardiness",
        void(3),
    )
    assert [(r["event"], r["rule"], r["offense"], r["voided"]) for r in rulings] == [
        (0, SLOW, 1, False),
        (1, SHUFFLE, 1, False),
        (2, EXTRA, 1, False),
        (2, UNRELATED, 1, False),
        (2, EXCLUSION, 1, False),
        (2, UNRELATED, 2, False),  # the exclusion's single warning is a fourth id
        (3, "pregame.tardiness", 1, True),
        (3, UNRELATED, 3, True),
    ]


def test_d16_an_additional_ruling_whose_cause_is_no_longer_live_is_voided() -> None:
    made = history(SLOW, SHUFFLE, EXTRA)
    assert [(r.number, r.rule, r.cause) for r in made[2:]] == [(3, EXTRA, None), (4, UNRELATED, 3)]
    without_its_cause = [r for r in made if r.number != 3]
    assert rederive(BOOK, without_its_cause, first_number=5) == Rederived(void=(4,), add=())


# --- Deviations: the additional rulings follow the penalties the head judge gave


def test_d16_a_warning_deviated_to_a_notice_voids_the_additional_rulings_it_caused_and_theirs() -> None:
    """The draft exclusion that the extra cards' penalty called for (D6) was itself the
    fourth unrelated warning (D3); deviated to a single warning alone, the record calls for
    neither."""
    on_purpose = Deviation(("warning1", "draft_exclusion"), "drew on purpose")
    made = history(SLOW, SHUFFLE, Record("A", EXTRA, deviation=on_purpose))
    assert [(r.number, r.rule, r.offense, r.cause) for r in made[2:]] == [
        (3, EXTRA, 1, None),
        (4, UNRELATED, 1, 3),
        (5, EXCLUSION, 1, 3),
        (6, UNRELATED, 2, 5),
    ]
    again = rederive(BOOK, deviated(made, 3, ("warning1",)), first_number=7)
    assert again.void == (5, 6)
    assert again.add == ()


def test_d16_a_deviation_that_makes_an_earlier_record_the_third_warning_moves_the_ruling_there() -> None:
    """Cards off the table twice: a notice, then a warning that is the third unrelated one.
    The head judge makes the notice a warning: the first is now the third id, the second no
    longer a new one. The additional ruling moves to the first, counted as the player's first:
    the one it replaces counts for nothing."""
    made = history(SLOW, SHUFFLE, OFF_TABLE, OFF_TABLE)
    assert [(r.number, r.rule, r.offense, r.cause) for r in made[2:]] == [
        (3, OFF_TABLE, 1, None),
        (4, OFF_TABLE, 2, None),
        (5, UNRELATED, 1, 4),
    ]
    again = rederive(BOOK, deviated(made, 3, ("warning1",)), first_number=6, ref="event 4")
    assert again.void == (5,)
    assert additional(again.add) == [(6, UNRELATED, 1, 3, "event 4")]


def test_d16_an_additional_ruling_a_deviation_adds_is_counted_after_those_still_live() -> None:
    made = history(SLOW, SHUFFLE, EXTRA, OFF_TABLE)
    assert [(r.number, r.rule, r.offense) for r in made[3:]] == [(4, UNRELATED, 1), (5, OFF_TABLE, 1)]
    again = rederive(BOOK, deviated(made, 5, ("warning1",)), first_number=6, ref="event 4")
    assert again.void == ()
    assert additional(again.add) == [(6, UNRELATED, 2, 5, "event 4")]


def test_d16_every_additional_ruling_a_deviation_calls_for_is_added_in_order_numbered_on() -> None:
    """A notice deviated to a single warning and an exclusion from the draft: the third
    unrelated warning (D3), the draft exclusion (D6), and the fourth unrelated warning that
    the exclusion's single warning is."""
    made = history(SLOW, SHUFFLE, OFF_TABLE)
    again = rederive(BOOK, deviated(made, 3, ("warning1", "draft_exclusion")), first_number=4, ref="event 3")
    assert again.void == ()
    assert additional(again.add) == [
        (4, UNRELATED, 1, 3, "event 3"),
        (5, EXCLUSION, 1, 3, "event 3"),
        (6, UNRELATED, 2, 5, "event 3"),
    ]
    assert [r.trigger for r in again.add] == [
        Trigger.unrelated_warnings,
        Trigger.draft_exclusion,
        Trigger.unrelated_warnings,
    ]


def test_d16_an_additional_ruling_a_correction_adds_names_the_warnings_up_to_its_cause() -> None:
    """As if the notice had been a warning when it was recorded: the third unrelated warning
    is then the cards off the table, counted with the two before it, not with the extra
    cards drawn after it (whose own additional ruling stays)."""
    made = history(SLOW, SHUFFLE, OFF_TABLE, EXTRA)
    assert [(r.number, r.rule, r.cause, r.explanation.related) for r in made[3:]] == [
        (4, EXTRA, None, ()),
        (5, UNRELATED, 4, (SLOW, SHUFFLE, EXTRA)),
    ]
    again = rederive(BOOK, deviated(made, 3, ("warning1",)), first_number=6)
    assert again.void == ()
    assert [(r.number, r.offense, r.cause, r.explanation.related) for r in again.add] == [
        (6, 2, 3, (SLOW, SHUFFLE, OFF_TABLE))
    ]


def test_d4_d16_a_correction_derives_nothing_from_a_judge_s_own_exclusion_from_the_draft() -> None:
    """general.uncategorized counts toward nothing and triggers neither D3 nor D6 (D19),
    when a correction walks the history again as when it was recorded."""
    own = Record("A", "general.uncategorized", penalties=("warning1", "draft_exclusion"))
    made = history(SLOW, SHUFFLE, own)
    assert [r.rule for r in made] == [SLOW, SHUFFLE, "general.uncategorized"]
    assert rederive(BOOK, made, first_number=4) == Rederived(void=(), add=())
