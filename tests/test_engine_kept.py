"""What a rulebook keeps for the engine (docs/mutation.md, "Plans kept by a rulebook") gives
what a fresh rulebook works out: D17's codes acting now are kept for each set of codes and
each answer to "waiting for the head judge", never one for another."""

from __future__ import annotations

from shinpan.engine import Deviation, Record, Ruling, decide, explain
from shinpan.engine.event_rules import DISQUALIFICATION, EJECTION, Status, status_of
from shinpan.engine.leaving import acting_now, left_by
from shinpan.files.guidelines import default_guideline
from shinpan.guideline import Rulebook
from shinpan.guideline.model import Meaning
from shinpan.guideline.terms import Act

WITHDRAWN = Act("withdrawn")


def fresh() -> Rulebook:
    return Rulebook(default_guideline())


def _rulings(book: Rulebook) -> list[Ruling]:
    eject = book.code_for[Meaning.ejection]
    withdraw = book.code_for[Meaning.withdrawn]
    pending = Ruling("A", "severe.cheating", 1, (eject,), needs_head_judge=True)
    deviated = Ruling(
        "A", "severe.cheating", 1, (eject,), needs_head_judge=True, deviation=Deviation((eject,), "r")
    )
    confirmed_now = Ruling("A", "severe.cheating", 1, (eject,))
    with_effect = Ruling("A", "severe.cheating", 1, (eject,), (withdraw,), needs_head_judge=True)
    disqualified_now = Ruling("A", "severe.cheating", 1, (book.code_for[Meaning.disqualification],))
    return [pending, deviated, confirmed_now, with_effect, disqualified_now]


def test_d17_codes_acting_now_kept_by_a_rulebook_are_those_a_fresh_one_works_out() -> None:
    kept = fresh()
    pending, deviated, confirmed_now, with_effect, disqualified_now = _rulings(kept)
    # One rulebook asked in turn (each answer kept), against a fresh one for each question.
    assert acting_now(kept, pending) == acting_now(fresh(), pending) == ()
    assert acting_now(kept, deviated) == acting_now(fresh(), deviated) == (EJECTION,)
    assert acting_now(kept, confirmed_now) == acting_now(fresh(), confirmed_now) == (EJECTION,)
    assert acting_now(kept, with_effect) == acting_now(fresh(), with_effect) == (WITHDRAWN,)
    assert acting_now(kept, disqualified_now) == acting_now(fresh(), disqualified_now) == (DISQUALIFICATION,)
    assert acting_now(kept, pending) == ()  # asked again, after the others
    assert left_by(kept, [pending]) is None
    assert left_by(kept, [pending, with_effect]) is Status.withdrawn
    assert status_of(acting_now(kept, r) for r in [pending, deviated]) is Status.ejected


def test_a_rulebook_works_out_the_codes_acting_now_once_for_each_set() -> None:
    book = fresh()
    confirmed_now = _rulings(book)[2]
    first = acting_now(book, confirmed_now)
    again = Ruling("B", "severe.cheating", 2, confirmed_now.penalties)
    assert first == (EJECTION,)
    assert acting_now(book, again) is first


def test_d17_a_ruling_that_changes_no_status_acts_on_nothing_now() -> None:
    book = fresh()
    warning = book.unrelated_warnings.counted_component or ""
    assert book.acts([warning]) == ("",)  # a code the engine applies nothing for
    assert acting_now(book, Ruling("A", "ingame.slow-play", 1, (warning,))) == ()
    assert left_by(book, [Ruling("A", "ingame.slow-play", 1, (warning,))]) is None


def _records() -> list[Record]:
    """Rulings that differ in one thing each: rule, offence number, reasons (a deviation,
    an intent), the infraction recorded, the unrelated warnings counted (D3)."""
    dev = Deviation(("caution",), "r")
    return [
        Record("A", "ingame.slow-play"),
        Record("A", "ingame.slow-play"),
        Record("A", "ingame.slow-play"),
        Record("A", "ingame.slow-play"),
        Record("B", "ingame.slow-play", deviation=dev),
        Record("B", "pregame.mulligan"),
        Record("C", "ingame.slow-play", facts={"intentional": True}),
        Record("D", "ingame.extra-cards-drawn", facts={"intentional": True}),
        Record("E", "pregame.mulligan"),
        Record("E", "pregame.shuffle-cut"),
        Record("E", "pregame.first-player-draw"),
        Record("F", "pregame.mulligan"),
        Record("F", "pregame.shuffle-cut"),
        Record("F", "ingame.slow-play"),
    ]


def test_explanations_kept_by_a_rulebook_are_those_a_fresh_one_puts_together() -> None:
    kept = fresh()
    history: dict[str, list[Ruling]] = {}
    made: list[Ruling] = []
    for n, record in enumerate(_records()):
        for ruling in decide(kept, record, history, set("ABCDEF"), ref=f"#{n}"):
            history.setdefault(ruling.player, []).append(ruling)
            made.append(ruling)
    assert {r.rule for r in made} >= {"general.unrelated-warnings", "severe.cheating"}
    words = {lang: [explain(kept, r, lang) for r in made] for lang in ("en", "ja")}
    for lang, kept_words in words.items():
        assert kept_words == [explain(fresh(), r, lang) for r in made]
