"""What a judge records, and the rulings the engine makes of it.

Plain immutable values: a :class:`Record` goes in, :class:`Ruling` values come out, each
with the :class:`Explanation` of why. Nothing here knows about storage or time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def value(cls: type[T]) -> type[T]:
    """A frozen dataclass as mypy checks it (a field assigned after construction is an
    error of the quality gate), hashed and compared as one, made without the runtime guard
    of ``frozen=True``: that guard sets every field through ``object.__setattr__`` and was
    a third of the instructions of ``shinpan replay`` (tens of thousands of rulings)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)


class Trigger(StrEnum):
    """Why a ruling exists."""

    record = "record"  # a judge recorded the infraction
    unrelated_warnings = "unrelated_warnings"  # D3
    draft_exclusion = "draft_exclusion"  # D6
    deadline_missed = "deadline_missed"  # D7


ADDITIONAL = frozenset({Trigger.unrelated_warnings, Trigger.draft_exclusion})


@dataclass(frozen=True)
class Deviation:
    """The head judge's departure from the guideline, with the written reason (D11)."""

    penalties: tuple[str, ...]
    reason: str


@value
class Record:
    """An infraction as a judge records it against a participant."""

    player: str
    infraction: str
    facts: Mapping[str, object] = field(default_factory=dict)
    draft: str | None = None
    penalties: tuple[str, ...] | None = None  # the judge's choice, general.uncategorized only
    deviation: Deviation | None = None


@dataclass(frozen=True)
class Due:
    """A remedy's deadline that a ruling opened, and what missing it brings (D7, D9)."""

    when: str  # minutes | end_of_match | end_of_round | before_next_match
    minutes: int | None
    remedy: str  # the remedy's text, Japanese
    remedy_en: str
    penalties: tuple[str, ...]
    effects: tuple[str, ...]
    has_consequence: bool
    clock: str = ""  # what the guideline declares its moment is measured by (D21, D23); "" none


@value
class Explanation:
    """Why a ruling is what it is, in terms a judge can read aloud.

    ``reasons`` are stable codes (see :mod:`shinpan.engine.explain` for their wording);
    ``counted`` are the references of the earlier rulings this offence number counted.
    """

    reasons: tuple[str, ...]
    counted: tuple[str, ...] = ()
    step_source: str = ""
    source: str = ""
    remedies: tuple[str, ...] = ()
    remedies_en: tuple[str, ...] = ()
    related: tuple[str, ...] = ()  # D3: the distinct rules whose warnings were counted
    same_as_previous: bool | None = None  # D5


@value
class Ruling:
    """One decision on one subject."""

    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    effects: tuple[str, ...] = ()
    follow_up: bool = False
    needs_head_judge: bool = False
    trigger: Trigger = Trigger.record
    guideline_penalties: tuple[str, ...] = ()
    deviation: Deviation | None = None
    discretion: bool = False
    recorded_as: str | None = None  # the infraction the judge picked, when D13 redirected it
    draft: str | None = None
    kind: str | None = None  # draft.standard's kind (D5)
    dues: tuple[Due, ...] = ()
    explanation: Explanation = field(default_factory=lambda: Explanation(reasons=()))
    ref: str | None = None  # set by whoever stores it: how later explanations cite it
    number: int | None = None  # its place in the event (the ledger's ruling number)
    cause: int | None = None  # an additional ruling (D3, D6): the number of the ruling that triggered it

    @property
    def additional(self) -> bool:
        """Whether shinpan added this ruling itself (D3, D6), rather than a judge recording it."""
        return self.trigger in ADDITIONAL

    @property
    def counted(self) -> bool:
        """Whether this ruling counts as an offence of its rule (D1, D4, D7, D13)."""
        return self.offense is not None and not self.follow_up
