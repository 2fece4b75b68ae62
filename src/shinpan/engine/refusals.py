"""What the head judge's corrections may not do (D11, D16): confirm, deviate, void.

Each check is pure and returns the reason it refuses (None: it may), as
:func:`shinpan.engine.event_rules.why_no_drop` does; the services say the reason to the
judge in their words. The ruling is asked as it stands now (:class:`AsItStands`): its
state, what it penalises, and its penalties beside the guideline's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from shinpan.engine.event_rules import RulingState
from shinpan.engine.ruling import Trigger


@dataclass(frozen=True)
class AsItStands:
    """One ruling as a correction finds it (its penalties after any deviation)."""

    state: RulingState
    trigger: Trigger
    offense: int | None
    follow_up: bool
    penalties: tuple[str, ...]  # the components as they stand
    guideline_penalties: tuple[str, ...]  # what the guideline gave

    @property
    def penalises_nobody(self) -> bool:
        """D16: a record's ruling with no penalty and no offence (facts determined, an
        outside advisor only): there is nothing to deviate from."""
        return (
            self.offense is None
            and not self.follow_up
            and self.trigger is Trigger.record
            and not self.guideline_penalties
        )


class ConfirmRefused(StrEnum):
    """Why a ruling may not be confirmed."""

    not_waiting = "not_waiting"  # it waits for no confirmation (recorded, confirmed, voided)


def why_no_confirm(state: RulingState) -> ConfirmRefused | None:
    """D11: the head judge confirms only a ruling that waits for it (one over the event's
    confirmation threshold, not yet confirmed nor voided)."""
    return None if state is RulingState.pending else ConfirmRefused.not_waiting


class DeviationRefused(StrEnum):
    """Why a ruling's penalties may not be replaced by these."""

    voided = "voided"  # the ruling counts no more (D16)
    penalises_nobody = "penalises_nobody"  # nothing to deviate from (D16): record a violation instead
    guideline_own = "guideline_own"  # back to the penalties the ruling gives anyway, which it has
    unchanged = "unchanged"  # the penalties it has now (a deviation's): nothing would change


def why_unchanged(
    guideline: Sequence[str], current: Sequence[str], new: Sequence[str]
) -> DeviationRefused | None:
    """D11, D16: a deviation departs from what the ruling gives. One to the penalties it has
    now changes nothing: the guideline's own (``guideline_own``) or a deviation's
    (``unchanged``); one back to the guideline's after a deviation is a change. The order of
    the components does not matter."""
    if sorted(new) != sorted(current):
        return None
    if sorted(new) == sorted(guideline):
        return DeviationRefused.guideline_own
    return DeviationRefused.unchanged


def why_no_deviate(ruling: AsItStands, penalties: Sequence[str]) -> DeviationRefused | None:
    """D11, D16: the head judge may replace a live ruling's penalties by other ones; not a
    voided ruling's, nor one that penalises nobody."""
    if ruling.state is RulingState.voided:
        return DeviationRefused.voided
    if ruling.penalises_nobody:
        return DeviationRefused.penalises_nobody
    return why_unchanged(ruling.guideline_penalties, ruling.penalties, penalties)


class VoidRefused(StrEnum):
    """Why the record a ruling came from may not be voided."""

    no_reason = "no_reason"  # a void needs a written reason
    voided = "voided"  # already voided


def why_no_void(state: RulingState, reason: str) -> VoidRefused | None:
    """D1, D16: a void says why (a reason of more than blanks), and voids a live ruling once."""
    if not reason.strip():
        return VoidRefused.no_reason
    if state is RulingState.voided:
        return VoidRefused.voided
    return None
