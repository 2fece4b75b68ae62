"""What a guideline file declares for the engine, and how a file written before it could is read.

The engine acts on what a file declares, never on an infraction's id: which infraction a
``draft_exclusion`` component triggers (``role: draft_exclusion``, D6) and what each
deadline's moment is measured by (``clock``: ``round_start``, D21; ``table_time``, D23).

A file that declares none of these (no infraction has a ``role``, no deadline a ``clock``)
was written before they existed: the shipped REL 3 file is one, and a published file is
never edited (its content hash is in every ledger that runs under it). Such a file is read
as the catalogue's ids meant it when it was written (CATALOG.md, D6, D21, D23), here and
nowhere else: its ``draft.exclusion`` is the draft exclusion, its ``pregame.tardiness``'s
timed deadline runs from the round's start and its end-of-match deadline waits for the
table's time. A file that declares anything is read as it is, whatever its ids.
"""

from __future__ import annotations

from dataclasses import replace

from shinpan.guideline.model import Clock, Deadline, Guideline, Infraction, Remedy, Role, When

# The catalogue's ids, read only for a file that declares nothing (see above).
_ROLES = {"draft.exclusion": Role.draft_exclusion}
_CLOCKS = {"pregame.tardiness": {When.minutes: Clock.round_start, When.end_of_match: Clock.table_time}}


def declares(g: Guideline) -> bool:
    """Whether the file declares any role or any deadline's clock."""
    return any(i.role is not None for i in g.infractions) or any(
        d.clock is not None for i in g.infractions for d in _deadlines(i)
    )


def _deadlines(inf: Infraction) -> list[Deadline]:
    remedies = [*inf.remedies, *(r for step in inf.ladder for r in step.remedies)]
    return [r.deadline for r in remedies if r.deadline is not None]


def _clocked(remedies: list[Remedy], clocks: dict[When, Clock]) -> list[Remedy]:
    return [
        replace(r, deadline=replace(r.deadline, clock=clocks.get(r.deadline.when)))
        if r.deadline is not None
        else r
        for r in remedies
    ]


def _as_written(inf: Infraction) -> Infraction:
    clocks = _CLOCKS.get(inf.id, {})
    return replace(
        inf,
        role=_ROLES.get(inf.id),
        remedies=_clocked(inf.remedies, clocks),
        ladder=[replace(step, remedies=_clocked(step.remedies, clocks)) for step in inf.ladder],
    )


def with_declarations(g: Guideline) -> Guideline:
    """``g`` with what it declares; a file that declares nothing, read as the catalogue meant it."""
    if declares(g):
        return g
    return replace(g, infractions=[_as_written(i) for i in g.infractions])
