"""A ruling for a player who has left the event (D14, D17, D22): recorded, warned, applied to nothing.

A player who dropped, withdrew, or was ejected or disqualified may still be penalised for
what they did (a judge records it; it counts, D1), but they play no more matches: the match
they were playing ended when they left (D22), and no later one is paired (D14). Such a
ruling therefore applies nothing to any match (:func:`shinpan.engine.effects.plan_ruling`)
and sets no deadline (no remedy is owed at a table they no longer sit at); it carries the
reason ``left_<status>``, so the preview, the record's answer and the ruling say it.

The services ask the ledger how a player stands; the replay (``shinpan replay``) works it out
from the player's live rulings with :func:`left_by`, as the ledger's projections do (D17: an
ejection or a disqualification waiting for the head judge changes no status yet; a
deviation is the head judge's own, so it does at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from shinpan.engine.event_rules import STATUS_CODES, Status, left_as, status_codes_now, status_of
from shinpan.engine.ruling import Ruling

if TYPE_CHECKING:  # the services read these rules without loading the guideline's classes
    from shinpan.guideline.rulebook import Rulebook
    from shinpan.guideline.terms import Act

LEFT_REASONS: dict[Status, str] = {s: f"left_{s.value}" for s in Status if s is not Status.active}


def as_left(ruling: Ruling, status: Status | None) -> Ruling:
    """The ruling as it stands for a player who has left as ``status`` (None: still playing):
    with the reason ``left_<status>`` and without deadlines; otherwise unchanged."""
    reason = LEFT_REASONS.get(status) if status is not None else None
    if reason is None:
        return ruling
    reasons = ruling.explanation.reasons
    if reason not in reasons:
        ruling = replace(ruling, explanation=replace(ruling.explanation, reasons=(*reasons, reason)))
    return replace(ruling, dues=())


def noted_leaving(rulings: Sequence[Ruling], left: Mapping[str, Status]) -> tuple[Ruling, ...]:
    """The rulings, each of a player in ``left`` (player → how they left) :func:`as_left`."""
    return tuple(as_left(r, left.get(r.player)) for r in rulings)


def left_by(book: Rulebook, live: Iterable[Ruling]) -> Status | None:
    """D14, D17: how a player has left the event from their live rulings alone (no drop,
    no confirmation: what a scenario can say), or None while they still play."""
    return left_as(status_of(acting_now(book, r) for r in live))


def acting_now(book: Rulebook, r: Ruling) -> tuple[Act, ...]:
    """D17: what of a live ruling changes its player's status now (a deviation is the head
    judge's own; anything else waiting for them ejects or disqualifies nobody yet). A status
    only rises (:func:`status_after`), so a player's is these folded over their rulings in
    any order, and one more ruling folds in alone. Only the codes that change a status;
    kept by the rulebook for each set of codes, as few as the guideline's steps."""
    pending = r.needs_head_judge and r.deviation is None
    key = ("acting_now", r.penalties, r.effects, pending)
    found = book.memo.get(key)
    if isinstance(found, tuple):
        return found
    now = status_codes_now(book.acts([*r.penalties, *r.effects]), pending=pending)
    made = tuple(a for a in now if a in STATUS_CODES)  # (most rulings: none)
    book.memo[key] = made
    return made


def left_reason(ruling: Ruling) -> str | None:
    """The ``left_<status>`` reason a ruling carries, if its player had left the event."""
    return next((code for code in ruling.explanation.reasons if code in LEFT_REASONS.values()), None)
