"""What the ledger's entries say: one frozen type per kind of entry.

Every change to an event is an entry (:mod:`shinpan.store.ledger`); its body is one of the
types below, the way beancount's ``core/data.py`` names every directive. Each type knows its
``kind``, writes the JSON body the ledger has always written (:meth:`body`: the hash chain
covers those bytes, so a type never changes what it writes for what it holds) and is read
back from a body with :func:`parse`, which refuses a malformed one with
:class:`MalformedBody` naming the kind and the field, never a KeyError.

Keys an entry leaves out when they have nothing to say (a duel's ``cause_ruling``, a
round's ``seed``, …) are left out here too; ``None`` stands for them in the fields.

Pure: no I/O, nothing of the store or the web. The engine's planner returns these types
(:mod:`shinpan.engine.effects`), the services build them, the projector applies them.
"""

from __future__ import annotations

from shinpan.entries import calls, decks, event, imported, public, results, rulings, tournament
from shinpan.entries.calls import CallClaimed, CallEscalated, CallRaised, CallResolved
from shinpan.entries.decks import (
    CheckFinding,
    DeckCheckCounted,
    DeckCheckEnded,
    DeckCheckStarted,
    DeckCorrected,
    DecklistCorrected,
    DecklistRegistered,
    DecklistsLocked,
    DecklistsPublished,
    DeckRulesSet,
    ListProblem,
)
from shinpan.entries.event import (
    AttendanceMarked,
    DuelResult,
    EventCreated,
    EventReopened,
    EventSealed,
    JudgeAdded,
    JudgeClaimed,
    JudgeSeated,
    LossCarried,
    LossSettled,
    MatchExtended,
    MatchResult,
    PairingEdited,
    PlayerCorrected,
    PlayerDropped,
    PlayersImported,
    RoundEnded,
    RoundPaired,
    RoundStarted,
    StatusChanged,
    TimeExtended,
)
from shinpan.entries.imported import EventImported
from shinpan.entries.parts import (
    AskedDeviation,
    Consequence,
    DeadlineRef,
    DueRemedy,
    GuidelineRef,
    HeadJudge,
    Pairing,
    RecordAsked,
    RecordedRuling,
    Registration,
)
from shinpan.entries.public import EventPublished
from shinpan.entries.reading import Fields, Kind, MalformedBody
from shinpan.entries.results import ReportedDuel, ResultReported, WinnerReportConfirmed, WinnerReported
from shinpan.entries.rulings import (
    AppealDecided,
    AppealFiled,
    DeadlineDone,
    RulingDeviated,
    RulingsConfirmed,
    RulingsRecorded,
    RulingsVoided,
    StatementTaken,
)
from shinpan.entries.tournament import FormatSet, PlayoffStarted

EntryBody = (
    EventCreated
    | JudgeAdded
    | JudgeClaimed
    | JudgeSeated
    | PlayersImported
    | PlayerDropped
    | StatusChanged
    | PlayerCorrected
    | AttendanceMarked
    | RoundPaired
    | PairingEdited
    | RoundStarted
    | TimeExtended
    | RoundEnded
    | DuelResult
    | MatchResult
    | MatchExtended
    | LossCarried
    | LossSettled
    | ResultReported
    | RulingsRecorded
    | RulingsConfirmed
    | RulingDeviated
    | RulingsVoided
    | DeadlineDone
    | StatementTaken
    | AppealFiled
    | AppealDecided
    | FormatSet
    | PlayoffStarted
    | EventSealed
    | EventReopened
    | EventPublished
    | WinnerReported
    | WinnerReportConfirmed
    | EventImported
    | CallRaised
    | CallClaimed
    | CallEscalated
    | CallResolved
    | DeckCheckCounted
    | DeckCheckEnded
    | DeckCheckStarted
    | DeckCorrected
    | DeckRulesSet
    | DecklistCorrected
    | DecklistRegistered
    | DecklistsLocked
    | DecklistsPublished
)

# The kinds of every topic, each listed once in its module: what :func:`parse` reads, what the
# projector applies and an import replays (tests/test_entries.py holds both registries to them).
TOPICS: dict[str, tuple[type[EntryBody], ...]] = {
    "event": event.KINDS,
    "tournament": tournament.KINDS,
    "results": results.KINDS,
    "rulings": rulings.KINDS,
    "calls": calls.KINDS,
    "decks": decks.KINDS,
    "public": public.KINDS,
    "imported": imported.KINDS,
}
KINDS: dict[str, type[EntryBody]] = {t.kind: t for topic in TOPICS.values() for t in topic}


def parse(kind: str, body: object) -> EntryBody:
    """The typed entry of ``kind`` a body says; :class:`MalformedBody` when it is not one."""
    made = KINDS.get(kind)
    if made is None:
        raise MalformedBody(f"{kind!r} is not a kind of entry shinpan writes")
    return made.from_body(body)


__all__ = [
    "KINDS",
    "TOPICS",
    "AppealDecided",
    "AppealFiled",
    "AskedDeviation",
    "AttendanceMarked",
    "CallClaimed",
    "CallEscalated",
    "CallRaised",
    "CallResolved",
    "CheckFinding",
    "Consequence",
    "DeadlineDone",
    "DeadlineRef",
    "DeckCheckCounted",
    "DeckCheckEnded",
    "DeckCheckStarted",
    "DeckCorrected",
    "DeckRulesSet",
    "DecklistCorrected",
    "DecklistRegistered",
    "DecklistsLocked",
    "DecklistsPublished",
    "DueRemedy",
    "DuelResult",
    "EntryBody",
    "EventCreated",
    "EventImported",
    "EventPublished",
    "EventReopened",
    "EventSealed",
    "Fields",
    "FormatSet",
    "GuidelineRef",
    "HeadJudge",
    "JudgeAdded",
    "JudgeClaimed",
    "JudgeSeated",
    "Kind",
    "ListProblem",
    "LossCarried",
    "LossSettled",
    "MalformedBody",
    "MatchExtended",
    "MatchResult",
    "Pairing",
    "PairingEdited",
    "PlayerCorrected",
    "PlayerDropped",
    "PlayersImported",
    "PlayoffStarted",
    "RecordAsked",
    "RecordedRuling",
    "Registration",
    "ReportedDuel",
    "ResultReported",
    "RoundEnded",
    "RoundPaired",
    "RoundStarted",
    "RulingDeviated",
    "RulingsConfirmed",
    "RulingsRecorded",
    "RulingsVoided",
    "StatementTaken",
    "StatusChanged",
    "TimeExtended",
    "WinnerReportConfirmed",
    "WinnerReported",
    "parse",
]
