"""The two words of a penalty the type checker keeps apart.

A component's (or an effect's) **code** is what its guideline file calls it: ``warning1``,
``disqualification`` in the shipped file, ``caution1``, ``expulsion`` or anything in another.
What it **does** to the event (an :class:`Act`) is the meaning the file declares for it
(``acts_as``: a :class:`shinpan.guideline.model.Meaning`'s value), or "" for nothing the
engine applies. Only :meth:`shinpan.guideline.Rulebook.acts` turns codes into acts; the
engine's rules take acts, so passing codes where acts are due fails ``mypy``.

Beside them, the words of a deadline's moment (:class:`When`, :class:`Clock`): the event's
clock (:mod:`shinpan.engine.clock`) decides on them without loading the guideline's classes.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType

ComponentCode = NewType("ComponentCode", str)
Act = NewType("Act", str)

NO_ACT = Act("")  # a component the engine applies nothing of (a warning, no_mulligan…)


class When(StrEnum):
    """The moments a deadline can fall on."""

    minutes = "minutes"
    end_of_match = "end_of_match"
    end_of_round = "end_of_round"
    before_next_match = "before_next_match"


class Clock(StrEnum):
    """What a deadline's moment is measured by (D21, D23): declared by the file for each
    deadline, never worked out from an infraction's id."""

    given = "given"  # minutes from the time the ruling was given at the table (D21)
    round_start = "round_start"  # minutes from the start of the player's round (D21)
    match_result = "match_result"  # the end of the match: when its result is in
    table_time = "table_time"  # the end of the match: when the table's time ends (D23, T5)
