"""One subject's ruling from their own offence count: the guideline's ladder, its step's
plan worked out once per rulebook, and the deadlines an offence opens (D1, D2, D5, D6, D7,
D9, D12). :mod:`shinpan.engine.decide` asks it for every ruling it makes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shinpan.engine.facts import NEVER_SAME_KIND, Facts
from shinpan.engine.ruling import Due, Explanation, Ruling, Trigger
from shinpan.guideline.model import Counting, Infraction
from shinpan.guideline.rulebook import Rulebook

DRAFT_DEFAULT = "draft"
# Members read for every ruling, looked up once: Python 3.11 finds an enum member on its
# class through the enum's metaclass, about 0.1 µs each time.
_BY_DRAFT = Counting.draft
_RECORDED, _EXCLUDED = Trigger.record, Trigger.draft_exclusion


def _live_counted(history: Sequence[Ruling], rule: str, draft: str | None) -> list[Ruling]:
    """D1/D5: the earlier offences of a rule that count; ``draft`` scopes draft counting."""
    return [
        r
        for r in history
        if r.rule == rule
        and r.offense is not None
        and not r.follow_up
        and (draft is None or r.draft == draft)
    ]


def dues_of(book: Rulebook, inf: Infraction, offense: int) -> tuple[Due, ...]:
    """The deadlines an offence opens, in the order they fall (D7, D9)."""
    dues = []
    for remedy in book.remedies(inf, book.step(inf, offense)):
        d = remedy.deadline
        if d is None:
            continue
        miss = d.on_miss
        dues.append(
            Due(
                when=d.when.value,
                minutes=d.minutes,
                remedy=remedy.text.ja,
                remedy_en=remedy.text.en,
                penalties=tuple(miss.penalties) if miss else (),
                effects=tuple(miss.effects) if miss else (),
                has_consequence=miss is not None,
                clock=d.runs_on.value if d.runs_on is not None else "",
            )
        )
    return tuple(dues)


@dataclass(frozen=True)
class _Plan:
    """What one step of one infraction gives, worked out once per rulebook."""

    penalties: tuple[str, ...]
    if_same: tuple[str, ...]
    effects: tuple[str, ...]
    discretion: bool
    dues: tuple[Due, ...]
    remedies: tuple[str, ...]
    remedies_en: tuple[str, ...]
    step_source: str
    needs_head_judge: bool  # for ``penalties`` alone


def _plan(book: Rulebook, inf: Infraction, offense: int) -> _Plan:
    index = min(offense, len(inf.ladder))
    key = ("plan", inf.id, index)
    found = book.memo.get(key)
    if isinstance(found, _Plan):
        return found
    step = inf.ladder[index - 1]
    effects = tuple(dict.fromkeys([*inf.effects, *step.effects]))
    remedies = book.remedies(inf, step)
    plan = _Plan(
        penalties=tuple(step.penalties),
        if_same=tuple(step.if_same_as_previous),
        effects=effects,
        discretion=step.discretion or any(book.effects[e].discretionary for e in effects),
        dues=dues_of(book, inf, offense),
        remedies=tuple(r.text.ja for r in remedies),
        remedies_en=tuple(r.text.en for r in remedies),
        step_source=step.source,
        needs_head_judge=book.needs_head_judge(tuple(step.penalties)),
    )
    book.memo[key] = plan
    return plan


def _on_ladder(
    book: Rulebook,
    inf: Infraction,
    player: str,
    history: Sequence[Ruling],
    facts: Facts,
    draft: str | None,
    recorded_as: str | None,
    ref: str | None,
    number: int | None = None,
    *,
    cause: Ruling | None = None,
) -> Ruling:
    """One subject's ruling from their own offence count (D1, D2, D5, D12); with a
    ``cause``, the draft exclusion that ruling's penalty added (D6)."""
    scope = (draft or DRAFT_DEFAULT) if inf.counting is _BY_DRAFT else None
    earlier = _live_counted(history, inf.id, scope)
    offense = len(earlier) + 1
    plan = _plan(book, inf, offense)
    penalties = plan.penalties
    reasons = ["ladder"] if cause is None else ["draft_exclusion", "ladder"]
    if inf.all_offenses:
        reasons.append("all_offenses")
    elif offense > len(inf.ladder):
        reasons.append("past_last_step")
    same: bool | None = None
    if plan.if_same:
        previous = earlier[-1] if earlier else None
        if facts.same_as_previous is not None:
            same = facts.same_as_previous
            reasons.append("same_as_previous_judge")
        else:  # D19: without a kind, or of kind `other`, never the same by kind
            same = (
                previous is not None
                and facts.kind not in (None, NEVER_SAME_KIND)
                and previous.kind == facts.kind
            )
            reasons.append("same_as_previous_kind")
        if same:
            penalties += plan.if_same
    if recorded_as is not None:
        reasons.insert(0, "intent_established")
    # Who, which rule, which offence and what penalties by position: a call with more than
    # 15 keywords builds a dict of them first (CPython), a third of this function's time.
    return Ruling(
        player,
        inf.id,
        offense,
        penalties,
        effects=plan.effects,
        needs_head_judge=plan.needs_head_judge
        if penalties is plan.penalties
        else book.needs_head_judge(penalties),
        guideline_penalties=penalties,
        discretion=plan.discretion,
        recorded_as=recorded_as,
        draft=scope or draft,
        kind=facts.kind,
        dues=plan.dues,
        explanation=Explanation(
            reasons=tuple(reasons),
            counted=tuple([r.ref or "" for r in earlier]) if earlier else (),
            step_source=plan.step_source,
            source=inf.source,
            remedies=plan.remedies,
            remedies_en=plan.remedies_en,
            same_as_previous=same,
        ),
        ref=ref,
        trigger=_RECORDED if cause is None else _EXCLUDED,
        number=number,
        cause=None if cause is None else cause.number,
    )
