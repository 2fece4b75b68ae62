"""A ruling for a player who has left the event (D14, D22): it is recorded, and says so.

A player who dropped, withdrew, or was ejected or disqualified may still be penalised for
what they did (a judge records it; it counts, D1), but they play no more matches: the match
they were playing ended when they left (D22), and no later one is paired (D14). Their duel
and match losses therefore land on no match (:mod:`shinpan.engine.effects`), and each of
their rulings carries the reason ``left_<status>``, so the preview says it before saving
and the ruling keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from shinpan.engine.event_rules import Status
from shinpan.engine.ruling import Ruling

LEFT_REASONS: dict[Status, str] = {s: f"left_{s.value}" for s in Status if s is not Status.active}


def noted_leaving(rulings: Sequence[Ruling], left: Mapping[str, Status]) -> tuple[Ruling, ...]:
    """The rulings, those of a player in ``left`` (player → how they left) with the reason."""
    out = []
    for r in rulings:
        status = left.get(r.player)
        reason = LEFT_REASONS.get(status) if status is not None else None
        if reason is not None and reason not in r.explanation.reasons:
            r = replace(r, explanation=replace(r.explanation, reasons=(*r.explanation.reasons, reason)))
        out.append(r)
    return tuple(out)


def left_reason(ruling: Ruling) -> str | None:
    """The ``left_<status>`` reason a ruling carries, if its player had left the event."""
    return next((code for code in ruling.explanation.reasons if code in LEFT_REASONS.values()), None)
