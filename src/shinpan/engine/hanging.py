"""What hangs on a step's penalties, and goes when a deviation takes them away (D12, D16).

A step of the guideline can give, besides its penalties, effects and remedies of its own:
slow play's 1st offence gives a single warning and, "after the 1st warning", a time
extension of 3 turns at the judge's discretion (D12, D20). Those hang on the step's
penalties: a deviation that leaves none of them (the warning deviated to a caution) takes
the step's own effects and remedies with it. What every offence of the infraction gives,
and a deviation that keeps one of the step's penalties, stay.
"""

from __future__ import annotations

from collections.abc import Sequence

from shinpan.guideline.model import Step
from shinpan.guideline.rulebook import Rulebook


def _orphaned_step(book: Rulebook, rule: str, offense: int | None, new: Sequence[str]) -> Step | None:
    """The ruling's step when a deviation to ``new`` leaves none of its penalties."""
    inf = book.infractions.get(rule)
    if inf is None or offense is None or not inf.ladder:
        return None
    step = book.step(inf, offense)
    if not step.penalties or set(step.penalties) & set(new):
        return None
    return step


def effects_after_deviation(
    book: Rulebook, rule: str, offense: int | None, effects: Sequence[str], new: Sequence[str]
) -> tuple[str, ...]:
    """The ruling's effects once deviated to ``new``: without the step's own when they go."""
    step = _orphaned_step(book, rule, offense, new)
    if step is None or not step.effects:
        return tuple(effects)
    gone = set(step.effects)
    return tuple(e for e in effects if e not in gone)


def remedies_after_deviation(
    book: Rulebook, rule: str, offense: int | None, new: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """The step's own remedies (Japanese, English) that a deviation to ``new`` takes away."""
    step = _orphaned_step(book, rule, offense, new)
    return tuple((r.text.ja, r.text.en) for r in step.remedies) if step is not None else ()


def restored_effects(
    book: Rulebook, rule: str, offense: int | None, effects: Sequence[str]
) -> tuple[str, ...]:
    """The ruling's effects with its step's own back (an earlier deviation may have taken
    them): what a new deviation starts from."""
    inf = book.infractions.get(rule)
    if inf is None or offense is None or not inf.ladder:
        return tuple(effects)
    return (*effects, *(e for e in book.step(inf, offense).effects if e not in effects))
