"""Deciding rulings: the guideline's interpretations D1–D15, here (and in
:mod:`shinpan.engine.ladder`, one subject's ruling from their offence count, and
:mod:`shinpan.engine.facts`, which checks what a record says) and nowhere else.

:func:`decide` takes the guideline, the live (non-voided) rulings of the players involved
and a new record, and returns the rulings it produces: one per subject (D8), plus the
additional rulings they trigger (D3 unrelated warnings, D6 draft exclusion).
:func:`follow_up` is the ruling when a remedy's deadline passes undone (D7, D9).
It costs time proportional to the involved players' own histories.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, replace

from shinpan.engine.facts import (
    NO_FACTS,
    RecordError,
    check_codes,
    check_deviation,
    check_deviation_changes,
    normalized,
    read_facts,
    subjects_of,
)
from shinpan.engine.hanging import effects_after_deviation, remedies_after_deviation
from shinpan.engine.ladder import _on_ladder
from shinpan.engine.ruling import Deviation, Due, Explanation, Record, Ruling, Trigger
from shinpan.guideline.model import Counting, Infraction, Meaning, Question
from shinpan.guideline.rulebook import Rulebook

History = Mapping[str, Sequence[Ruling]]


@dataclass(frozen=True)
class _D3:
    """What D3 and D6 look at, worked out once per rulebook."""

    component: str  # the single warning
    event_counted: frozenset[str]  # infractions counted per event (not D4, not D5)
    threshold: int
    counted: frozenset[str]  # infractions counted at all (D6 follows only these)
    exclusions: frozenset[str]  # the codes that exclude from a draft, if the draft exclusion rule exists


def _d3(book: Rulebook) -> _D3:
    found = book.memo.get("d3")
    if isinstance(found, _D3):
        return found
    rule = book.unrelated_warnings
    infractions = book.guideline.infractions
    made = _D3(
        component=rule.counted_component or "",  # the file names it (guideline.check)
        event_counted=frozenset(i.id for i in infractions if i.counting is Counting.event),
        threshold=rule.threshold or 3,
        counted=frozenset(i.id for i in infractions if i.counting is not Counting.none),
        exclusions=book.codes_acting_as(Meaning.draft_exclusion)
        if book.draft_exclusion is not None
        else frozenset(),
    )
    book.memo["d3"] = made
    return made


def _warned_rules(d3: _D3, history: Sequence[Ruling], leave_out: Ruling | None = None) -> list[str]:
    """D3: distinct event-counted infractions for which the player holds a warning1."""
    counted, warning = d3.event_counted, d3.component  # _counts_as_unrelated, inline: D3 reads every ruling
    return list(
        dict.fromkeys(
            [
                r.rule
                for r in history
                if r.rule in counted
                and r.offense is not None
                and warning in r.penalties
                and r is not leave_out
            ]
        )
    )


def _counts_as_unrelated(d3: _D3, r: Ruling) -> bool:
    return r.rule in d3.event_counted and r.offense is not None and d3.component in r.penalties


def triggered(book: Rulebook, current: Ruling, before: Sequence[Ruling]) -> list[Trigger]:
    """D3 then D6: the additional rulings ``current`` calls for, given the player's live
    rulings before it. D4 (general.uncategorized) triggers neither (D19); the rulings of D3
    never feed D3 (D20)."""
    return _triggered(_d3(book), current, before, len(before), None)


def _triggered(
    d3: _D3, current: Ruling, history: Sequence[Ruling], before: int, leave_out: Ruling | None
) -> list[Trigger]:
    """:func:`triggered`, given the ``before`` rulings' count; ``history`` holds them, and
    ``leave_out`` besides (a history that runs on to ``current``, not copied for each ruling)."""
    wanted: list[Trigger] = []
    if before + 1 >= d3.threshold and _counts_as_unrelated(d3, current):  # (too few rulings: not yet)
        warned = _warned_rules(d3, history, leave_out)
        if len(warned) + 1 >= d3.threshold and current.rule not in warned:
            wanted.append(Trigger.unrelated_warnings)
    if current.rule in d3.counted and not d3.exclusions.isdisjoint(current.penalties):  # D6: each component
        wanted += [Trigger.draft_exclusion for code in current.penalties if code in d3.exclusions]
    return wanted


def additional_ruling(
    book: Rulebook,
    why: Trigger,
    cause: Ruling,
    history: Sequence[Ruling],
    number: int,
    ref: str | None,
    before: Sequence[Ruling] | None = None,
) -> Ruling:
    """The additional ruling ``cause`` triggered (D3 or D6), counted in the player's live
    ``history`` (D20: general.unrelated-warnings is counted per player too). D3 names the
    warnings that came up to ``cause``: ``before`` it, when ``history`` runs on after it (a
    correction walks a history already made, D16)."""
    if why is Trigger.unrelated_warnings:
        d3 = _d3(book)
        warned = _warned_rules(d3, history if before is None else before, leave_out=cause)
        related = [*warned, cause.rule]
        return _unrelated_warnings(book, cause, history, list(dict.fromkeys(related)), ref, number)
    exclusion = book.draft_exclusion
    assert exclusion is not None  # D6 triggers only when the file declares it (_d3)
    return _on_ladder(
        book, exclusion, cause.player, history, NO_FACTS, cause.draft, None, ref, number, cause=cause
    )


class Numbers:
    """The numbers the next rulings take, in the order they are made."""

    def __init__(self, first: int) -> None:
        self.next = first

    def take(self) -> int:
        self.next += 1
        return self.next - 1


def _consequences(
    book: Rulebook, ruling: Ruling, history: list[Ruling], numbers: Numbers, ref: str | None
) -> list[Ruling]:
    """D6 and D3, followed through: the additional rulings a new ruling triggers, in order.
    ``history`` is the player's live rulings ending with ``ruling``; each new one joins it."""
    made: list[Ruling] = []
    for why in _triggered(_d3(book), ruling, history, len(history) - 1, ruling):
        extra = additional_ruling(book, why, ruling, history, numbers.take(), ref)
        history.append(extra)
        made.append(extra)
        made += _consequences(book, extra, history, numbers, ref)
    return made


def _unrelated_warnings(
    book: Rulebook,
    trigger: Ruling,
    history: Sequence[Ruling],
    related: list[str],
    ref: str | None,
    number: int,
) -> Ruling:
    rule = book.unrelated_warnings
    offense = sum(1 for r in history if r.rule == rule.id and r.counted) + 1
    penalties = tuple(rule.penalties)
    return Ruling(
        player=trigger.player,
        rule=rule.id,
        offense=offense,
        penalties=penalties,
        needs_head_judge=book.needs_head_judge(penalties),
        guideline_penalties=penalties,
        trigger=Trigger.unrelated_warnings,
        draft=trigger.draft,
        explanation=Explanation(
            reasons=("unrelated_warnings",),
            step_source=rule.source,
            source=rule.source,
            related=tuple(related),
        ),
        ref=ref,
        number=number,
        cause=trigger.number,
    )


def _uncategorized(book: Rulebook, record: Record, ref: str | None) -> Ruling:
    """D4: the judge's penalty; counts toward no counter and no other rule."""
    if not record.penalties:  # D19
        raise RecordError(
            "penalties", "a violation outside every category needs the penalties the judge chose (D4)"
        )
    penalties = check_codes(book, "penalties", record.penalties)
    rule = book.uncategorized
    return Ruling(
        player=record.player,
        rule=rule.id,
        offense=None,
        penalties=penalties,
        needs_head_judge=book.needs_head_judge(penalties),
        guideline_penalties=penalties,
        discretion=True,
        draft=record.draft,
        explanation=Explanation(reasons=("uncategorized",), step_source=rule.source, source=rule.source),
        ref=ref,
    )


def _deviate(book: Rulebook, ruling: Ruling, deviation: Deviation | None) -> Ruling:
    """D11: the head judge's penalties replace the guideline's; the offence still counts.
    One to exactly the guideline's penalties changes nothing and is refused (D16)."""
    if deviation is None:
        return ruling
    check_deviation_changes(ruling.penalties, ruling.penalties, deviation.penalties)
    new, x = deviation.penalties, ruling.explanation
    gone = remedies_after_deviation(book, ruling.rule, ruling.offense, new)  # D16: hung on the penalties
    return replace(
        ruling,
        penalties=new,
        effects=effects_after_deviation(book, ruling.rule, ruling.offense, ruling.effects, new),
        needs_head_judge=book.needs_head_judge(new),
        deviation=deviation,
        explanation=replace(
            x,
            reasons=(*x.reasons, "deviation"),
            remedies=tuple(r for r in x.remedies if r not in {ja for ja, _ in gone}),
            remedies_en=tuple(r for r in x.remedies_en if r not in {en for _, en in gone}),
        ),
    )


def decide(
    book: Rulebook,
    record: Record,
    history: History,
    participants: Container[str],
    *,
    ref: str | None = None,
    first_number: int | None = None,
) -> tuple[Ruling, ...]:
    """Every ruling a new record produces, given the players' live rulings in the event.

    Participant ids are compared normalized (D18): ``participants`` and ``history`` are
    keyed by normalized ids. The rulings are numbered from ``first_number`` (default: after
    the highest number in ``history``); an additional ruling names the one that caused it.
    ``ref`` is how later explanations will cite these rulings (see :attr:`Ruling.ref`).
    """
    record = normalized(record)
    if record.player not in participants:
        raise RecordError("player", "{name!r} is not a participant", name=record.player)
    if record.deviation is not None:
        check_deviation(book, record.deviation)
    if first_number is None:
        first_number = 1 + max((r.number or 0 for own in history.values() for r in own), default=0)
    numbers = Numbers(first_number)
    inf = book.infractions.get(record.infraction)
    if inf is None:
        return _general(book, record, ref, numbers)
    if record.penalties is not None:
        raise RecordError(
            "penalties", "only a violation outside every category takes chosen penalties; use a deviation"
        )
    return _on_infraction(book, inf, record, history, participants, ref, numbers)


def _general(book: Rulebook, record: Record, ref: str | None, numbers: Numbers) -> tuple[Ruling, ...]:
    """A record of a general rule (D4), or of no rule at all."""
    if record.infraction == book.uncategorized.id:
        if record.facts:
            raise RecordError("facts", "a violation outside every category takes no facts")
        made = _deviate(book, _uncategorized(book, record, ref), record.deviation)
        return (replace(made, number=numbers.take()),)
    if record.infraction == book.unrelated_warnings.id:
        raise RecordError("infraction", "this ruling is applied by shinpan itself (D3), not recorded")
    raise RecordError("infraction", "unknown infraction {rule!r}", rule=record.infraction)


def _on_infraction(
    book: Rulebook,
    inf: Infraction,
    record: Record,
    history: History,
    participants: Container[str],
    ref: str | None,
    numbers: Numbers,
) -> tuple[Ruling, ...]:
    """The rulings of a recorded infraction: D8 subjects, D13 conditions, then the ladder."""
    facts = read_facts(inf, record.facts, participants)

    if inf.no_offense_when is not None and getattr(facts, inf.no_offense_when):
        if record.deviation is not None:  # D16
            raise RecordError(
                "deviation",
                "a record that penalises nobody cannot be deviated; record a violation outside every category",
            )
        return (replace(_no_offense(inf, record, inf.no_offense_when, ref), number=numbers.take()),)
    recorded_as = None
    if facts.intentional and inf.intent_becomes is not None:
        recorded_as, inf = inf.id, book.infractions[inf.intent_becomes]

    subjects, venue_removal = subjects_of(inf, record, facts, participants)
    rulings: list[Ruling] = []
    if not subjects:  # the only subject is an advisor from outside the event
        if record.deviation is not None:  # D16
            raise RecordError(
                "deviation",
                "a record that penalises nobody cannot be deviated; record a violation outside every category",
            )
        rulings.append(replace(_outsider_only(book, inf, record, ref), number=numbers.take()))
    for n, player in enumerate(subjects):
        own = list(history.get(player, ()))
        if rulings:
            own += [r for r in rulings if r.player == player]
        ruling = _on_ladder(book, inf, player, own, facts, record.draft, recorded_as, ref, numbers.take())
        if n == 0:
            if record.deviation is not None:
                ruling = _deviate(book, ruling, record.deviation)
            if venue_removal:
                ruling = replace(ruling, effects=(*ruling.effects, _venue_removal(book)))
        rulings.append(ruling)
        own.append(ruling)
        rulings.extend(_consequences(book, ruling, own, numbers, ref))
    return tuple(rulings)


def _no_offense(inf: Infraction, record: Record, why: Question, ref: str | None) -> Ruling:
    """D13: e.g. a disagreement whose facts were determined: no penalty, no offence."""
    return Ruling(
        player=record.player,
        rule=inf.id,
        offense=None,
        penalties=(),
        draft=record.draft,
        explanation=Explanation(reasons=(why.value,), source=inf.source),
        ref=ref,
    )


def _venue_removal(book: Rulebook) -> str:
    """D8: the effect that removes a non-participant advisor from the venue."""
    code = book.code_for.get(Meaning.venue_removal)
    if code is None:
        raise RecordError("facts.advisor", "this guideline has no effect that removes someone from the venue")
    return code


def _outsider_only(book: Rulebook, inf: Infraction, record: Record, ref: str | None) -> Ruling:
    """D8: advice from a non-participant, with the advisor alone to blame: removal only."""
    return Ruling(
        player=record.player,
        rule=inf.id,
        offense=None,
        penalties=(),
        effects=(_venue_removal(book),),
        draft=record.draft,
        explanation=Explanation(reasons=("advisor_outsider_only",), source=inf.source),
        ref=ref,
    )


def follow_up(
    book: Rulebook, ruling: Ruling, due: Due, *, ref: str | None = None, number: int | None = None
) -> Ruling:
    """D7/D9: a missed deadline's ruling: same rule, same offence number, not counted again."""
    penalties = due.penalties
    return Ruling(
        player=ruling.player,
        rule=ruling.rule,
        offense=ruling.offense,
        penalties=penalties,
        effects=due.effects,
        follow_up=True,
        needs_head_judge=book.needs_head_judge(penalties),
        trigger=Trigger.deadline_missed,
        guideline_penalties=penalties,
        draft=ruling.draft,
        number=number,
        cause=ruling.number,
        explanation=Explanation(
            reasons=("deadline_missed",),
            counted=(ruling.ref or "",),
            step_source=ruling.explanation.step_source,
            source=ruling.explanation.source,
            remedies=(due.remedy,),
            remedies_en=(due.remedy_en,),
        ),
        ref=ref,
    )
