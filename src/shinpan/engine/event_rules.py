"""What rulings do to the event, and who may do what: D10, D11, D14, D15.

Pure decisions the ledger and the web app apply: where a loss lands, a player's status
after a ruling, who may be paired, who may confirm or deviate, and whether an event may
run under a guideline at all.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from shinpan.guideline.terms import Act

if TYPE_CHECKING:  # every service reads the rules: they load no guideline classes
    from shinpan.guideline.model import Guideline
    from shinpan.guideline.rulebook import Rulebook

DISQUALIFICATION = Act("disqualification")  # what a component does (its declared meaning)
EJECTION = Act("ejection")


class Status(StrEnum):
    """A player's standing in the event (D14)."""

    active = "active"
    dropped = "dropped"  # left between rounds on their own: never paired again
    withdrawn = "withdrawn"
    ejected = "ejected"
    disqualified = "disqualified"


class RulingState(StrEnum):
    """Where a ruling stands (D11, D16): the ledger's projection and the JSON say the value."""

    pending = "pending"  # waits for the head judge's confirmation
    confirmed = "confirmed"  # the head judge confirmed it
    recorded = "recorded"  # needed no confirmation
    voided = "voided"  # a correction voided it: it counts no more


class DeadlineState(StrEnum):
    """Where a remedy's deadline stands (D7, D9, D21): the deadlines table and the JSON say the value."""

    pending = "pending"  # open: the remedy is still owed
    done = "done"  # a judge saw the remedy done
    missed = "missed"  # not done in time: what missing it brings was recorded
    cancelled = "cancelled"  # its ruling was voided


class RoundState(StrEnum):
    """Where a round stands (D21): the rounds table and the JSON say the value."""

    none = "none"  # no round paired yet: what the clock and the standings say before round 1 (never stored)
    paired = "paired"  # paired, its clock not started
    started = "started"  # its clock runs
    ended = "ended"


# The heavier status wins: a disqualified player who also withdrew is disqualified.
_STATUS_ORDER = (Status.active, Status.dropped, Status.withdrawn, Status.ejected, Status.disqualified)
_STATUS_OF = {
    Act("withdrawn"): Status.withdrawn,
    EJECTION: Status.ejected,
    DISQUALIFICATION: Status.disqualified,
}
STATUS_CODES = frozenset(_STATUS_OF)  # what penalties and effects do that can change a status


def left_as(status: Status | None, dropped: bool = False) -> Status | None:
    """D14, D22: how a player has left the event (dropped, withdrawn, ejected, disqualified),
    or None while they still play: one who left is paired no more, and the match they were
    playing was ended when they left."""
    if status is not None and status is not Status.active:
        return status
    return Status.dropped if dropped else None


def status_after(codes: Iterable[Act], current: Status = Status.active) -> Status:
    """D14: the status once these penalties and effects apply to a player."""
    status = current
    for code in codes:
        new = _STATUS_OF.get(code)
        if new is not None and _STATUS_ORDER.index(new) > _STATUS_ORDER.index(status):
            status = new
    return status


def status_of(rulings_codes: Iterable[Iterable[Act]], *, dropped: bool = False) -> Status:
    """D14: a player's status from the codes of their live rulings; a player who dropped
    stays out whatever becomes of their rulings."""
    status = Status.dropped if dropped else Status.active
    for codes in rulings_codes:
        status = status_after(codes, status)
    return status


# D17: what waits for the head judge's confirmation before it changes a status.
AWAITS_CONFIRMATION = frozenset({EJECTION, DISQUALIFICATION})


def status_codes_now(codes: Iterable[Act], *, pending: bool) -> list[Act]:
    """D17: the codes of a ruling that change the player's status now: a ruling waiting
    for the head judge ejects or disqualifies nobody yet (its `withdrawn` applies at once)."""
    return [c for c in codes if not (pending and c in AWAITS_CONFIRMATION)]


def status_once_confirmed(acts: Iterable[Act], state: RulingState) -> Status | None:
    """D17: the status a ruling waiting for the head judge (``state`` "pending") gives its
    player once confirmed (ejected, disqualified), from what its penalties and effects do
    (``acts``, their meanings); None for a ruling that waits for nothing or changes no status.
    The one answer of the desk, the JSON API, the CLI and the DQ report."""
    if state != RulingState.pending:
        return None
    meanings = list(acts)
    now = status_codes_now(meanings, pending=True)
    status = status_after(a for a in meanings if a not in now)
    return None if status is Status.active else status


def ends_match(status: Status) -> bool:
    """D22: leaving the event (ejected, disqualified, withdrawn) during a match loses it."""
    return status is not Status.active


def may_be_paired(status: Status) -> bool:
    """D14, D17: ejected, disqualified, withdrawn and dropped players get no further
    pairings (an ejection or disqualification waiting for the head judge changes no
    status yet: that player is still paired)."""
    return status is Status.active


def may_mark_attendance(current_round: int) -> bool:
    """Attendance is taken before round 1 is paired; a player still absent then drops
    before it (never paired), and one who comes later is added as a late entrant."""
    return current_round == 0


def may_drop(status: Status) -> bool:
    """Only a player still in the event can drop from it."""
    return status is Status.active


class DropRefused(StrEnum):
    """Why a player may not drop now."""

    left = "left"  # already out of the event (dropped, withdrawn, ejected, disqualified)
    playing = "playing"  # their match of the round has no result yet


def why_no_drop(status: Status, playing: bool) -> DropRefused | None:
    """A player drops between matches: only one still in the event (:func:`may_drop`), and
    not while a match of theirs is unfinished (its result is reported, or the table paired
    again, first); None: they may drop."""
    if not may_drop(status):
        return DropRefused.left
    if playing:
        return DropRefused.playing
    return None


def where_ruling_lands(
    asked: tuple[int | None, int | None], playing: tuple[int, int] | None, current_round: int
) -> tuple[int | None, int | None]:
    """The round and table a ruling is recorded at: where the judge said (``asked``, round
    and table, either given); else the unfinished match the player is playing; else the
    current round at no table (no round before round 1 is paired)."""
    if asked != (None, None):
        return asked
    if playing is not None:
        return playing
    return (current_round or None), None


def counting_scope(book: Rulebook, rule: str, draft: str | None, counted: bool) -> str:
    """D1, D6: where a ruling's offence counts: within its draft ("" when none was said) for
    an infraction the guideline counts per draft, else in the whole event (""). A ruling
    that counts toward nothing has no scope ("")."""
    infraction = book.infractions.get(rule)
    per_draft = infraction is not None and infraction.counting.value == "draft"
    return (draft or "") if counted and per_draft else ""


# What a ruling does is asked of its meanings (``Rulebook.acts(codes)``), never of its codes: a
# guideline file may call its disqualification anything.


def disqualifies(acts: Iterable[Act], *, voided: bool) -> bool:
    """D14: whether a ruling disqualifies the player: what its penalties do (``acts``) holds a
    disqualification; a voided one disqualifies nobody (D16: as if never recorded)."""
    return not voided and DISQUALIFICATION in acts


def needs_investigation(
    acts: Iterable[Act], guideline_acts: Iterable[Act] = (), *, voided: bool = False
) -> bool:
    """D14: a disqualification needs an investigation report with statements: one the
    ruling gives, or one the guideline gave and the head judge deviated from. A voided
    ruling needs none (D16). The one test of the desk's panel and the DQ report."""
    return disqualifies(acts, voided=voided) or (not voided and DISQUALIFICATION in guideline_acts)


def ejects(acts: Iterable[Act], *, voided: bool) -> bool:
    """D14: whether a ruling ejects the player (what its penalties do holds an ejection;
    a voided one ejects nobody)."""
    return not voided and EJECTION in acts


def next_duel(decided: Collection[int]) -> int:
    """D10: the number of a match's next duel: the first one not decided yet (a voided
    penalty duel leaves its number free)."""
    return next(n for n in range(1, len(decided) + 2) if n not in decided)


class Lands(StrEnum):
    """D10: where a loss lands."""

    current = "current"
    next = "next"


def duel_loss_lands(duel_in_progress: bool) -> Lands:
    """D10: a duel loss applies to the current duel, or the next one if none is in progress."""
    return Lands.current if duel_in_progress else Lands.next


def match_loss_lands(match_ended: bool) -> Lands:
    """D10: a match loss applies to the current match, or the next one if it has ended."""
    return Lands.next if match_ended else Lands.current


class Role(StrEnum):
    """Who works at the event (D11)."""

    head_judge = "head_judge"
    floor_judge = "floor_judge"
    scorekeeper = "scorekeeper"
    viewer = "viewer"


class Action(StrEnum):
    """What a judge does at an event, as the roles' permissions name it (D11)."""

    read = "read"
    record = "record"
    confirm = "confirm"
    deviate = "deviate"
    void = "void"
    appeal = "appeal"
    report = "report"
    statement = "statement"
    manage = "manage"
    results = "results"
    deadline = "deadline"
    export = "export"
    invite = "invite"
    extend = "extend"
    edit_pairings = "edit_pairings"
    end_sessions = "end_sessions"
    roster = "roster"
    decklist = "decklist"
    deckcheck = "deckcheck"


# D11: what each role may do. The web app and the services ask here and nowhere else.
PERMISSIONS: dict[Role, frozenset[Action]] = {
    Role.head_judge: frozenset(Action),
    Role.floor_judge: frozenset(
        {Action.read, Action.record, Action.deadline, Action.statement, Action.extend, Action.deckcheck}
    ),
    Role.scorekeeper: frozenset({Action.read, Action.results, Action.export, Action.roster, Action.decklist}),
    Role.viewer: frozenset({Action.read}),
}


def may(role: Role, action: Action) -> bool:
    """D11: whether a role may take an action (only the head judge confirms and deviates)."""
    return action in PERMISSIONS[role]


@dataclass(frozen=True)
class HistoryScope:
    """Whose rulings a reader of a player's history across events reads: an
    organiser every event's, anyone else those of the events they may ``report`` at; voided
    rulings only of the events whose corrections they see (a seat there: its rulings' pages
    show what was voided and why)."""

    organiser: bool
    events: frozenset[int]  # read even when not an organiser
    corrections: frozenset[int]  # voided rulings shown

    @property
    def reads_any(self) -> bool:
        return self.organiser or bool(self.events)

    def reads(self, event_id: int) -> bool:
        return self.organiser or event_id in self.events

    def sees_voided(self, event_id: int) -> bool:
        return event_id in self.corrections


def history_scope(seats: Iterable[tuple[int, Role]], *, organiser: bool) -> HistoryScope:
    """What a person with these seats (event, role) reads of players' histories."""
    held = list(seats)
    return HistoryScope(
        organiser,
        frozenset(e for e, role in held if may(role, Action.report)),
        frozenset(e for e, role in held if may(role, Action.read)),
    )


def scope_problems(guideline: Guideline, rel: int, head_judge_level: int | None) -> list[str]:
    """D15: why an event at ``rel`` with this head judge may not run under ``guideline``."""
    problems = []
    if rel != guideline.rel:
        problems.append(
            f"the guideline {guideline.id} is for REL {guideline.rel}, the event declares REL {rel}"
        )
    if head_judge_level is None:
        problems.append(
            f"REL {guideline.rel} under {guideline.id} needs a head judge "
            f"certified level {guideline.min_head_judge_level} or above"
        )
    elif head_judge_level < guideline.min_head_judge_level:
        problems.append(
            f"the head judge is certified level {head_judge_level}; REL {guideline.rel} under "
            f"{guideline.id} needs level {guideline.min_head_judge_level} or above"
        )
    return problems


class ThresholdRefused(StrEnum):
    """Why an event may not take this confirmation threshold."""

    lowered = "lowered"  # below the guideline's (a code that is not one of its ranked components)


def why_no_threshold(guideline: Guideline, threshold: str) -> ThresholdRefused | None:
    """D11: an event's confirmation threshold may be raised from the guideline's, not lowered
    (a code that is not one of its ranked components is lower than any); None: it may."""
    severity = {c.code: c.severity or 0 for c in guideline.components}
    if severity.get(threshold, 0) >= severity[guideline.confirmation_threshold]:
        return None
    return ThresholdRefused.lowered
