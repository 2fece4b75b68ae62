"""What the services hand out about a ruling, an event and a match: one named shape per idea.

An event is listed as :class:`EventListed`. A ruling has three shapes, each named here once:

- :class:`RulingDecided`, as decided: what the ledger wrote when it was given (a record's
  answer, a missed deadline's follow-up);
- :class:`RulingListed`, as listed: as it stands now (its penalties after any deviation,
  its state), in the feed, the queue, a player's history and the JSON API, and
  :class:`RulingInFeed` with the player's name (made by :class:`shinpan.views.rulings.RulingView`);
- as reported: :class:`shinpan.reports.rulings.ReportedRuling`, for paper and CSV.

Each is a ``TypedDict``: at run time the plain dict the JSON API, the CLI's ``--json`` and
the pages have always had (the same keys in the same order, so the JSON stays byte for byte
what it was); to the type checker a named shape whose keys are read only, so nothing
changes a ruling on its way out. A function that builds one from a typed record is here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from shinpan.engine.event_rules import RulingState

if TYPE_CHECKING:
    from typing_extensions import ReadOnly

    from shinpan.entries import (
        AppealDecided,
        AttendanceMarked,
        Pairing,
        PlayerCorrected,
        PlayerDropped,
        RulingDeviated,
    )
    from shinpan.entries.parts import RecordedRuling
    from shinpan.store.appeals import AppealHeard, GivenStatement
    from shinpan.store.events import EventSummary
    from shinpan.store.matches import MatchRecord
    from shinpan.views.players import PlayerJson

__all__ = [
    "AppealDecidedJson",
    "AppealListed",
    "AttendanceJson",
    "DeviationJson",
    "DueJson",
    "DuelJson",
    "EventListed",
    "MatchListed",
    "PairingJson",
    "PlayerCorrectedJson",
    "PlayerDroppedJson",
    "PlayerHistory",
    "RoundMatches",
    "RulingDecided",
    "RulingInFeed",
    "RulingListed",
    "StatementListed",
    "appeal_decided_json",
    "appeal_listed",
    "attendance_json",
    "deviation_json",
    "dropped_json",
    "event_listed",
    "match_listed",
    "pairing_json",
    "player_corrected_json",
    "ruling_decided",
    "statement_listed",
]


class DueJson(TypedDict):
    """A ruling's deadline as it was given: the remedy, by when, what missing it brings."""

    position: ReadOnly[int]
    due_kind: ReadOnly[str]
    minutes: ReadOnly[int | None]
    due_at: ReadOnly[str | None]
    round: ReadOnly[int | None]
    table: ReadOnly[int | None]
    remedy_ja: ReadOnly[str]
    remedy_en: ReadOnly[str]
    on_miss: ReadOnly[dict[str, list[str]]]  # the penalties and effects a miss brings


class RulingDecided(TypedDict):
    """A ruling as decided: what the ledger wrote when it was given."""

    number: ReadOnly[int]
    player: ReadOnly[str]
    rule: ReadOnly[str]
    offense: ReadOnly[int | None]
    penalties: ReadOnly[list[str]]
    guideline_penalties: ReadOnly[list[str]]
    effects: ReadOnly[list[str]]
    follow_up: ReadOnly[bool]
    needs_head_judge: ReadOnly[bool]
    deviation_reason: ReadOnly[str | None]
    draft: ReadOnly[str | None]
    scope: ReadOnly[str]
    kind: ReadOnly[str | None]
    trigger: ReadOnly[str]
    recorded_as: ReadOnly[str | None]
    discretion: ReadOnly[bool]
    source: ReadOnly[str]
    explanation_ja: ReadOnly[str]
    explanation_en: ReadOnly[str]
    cause: ReadOnly[int | None]
    dues: ReadOnly[list[DueJson]]


def ruling_decided(r: RecordedRuling) -> RulingDecided:
    """The ruling as the ledger's entry says it: :meth:`RecordedRuling.body`, the words the
    ledger keeps, under this shape's name (its keys are the body's, in the body's order)."""
    return cast("RulingDecided", r.body())


class RulingListed(TypedDict):
    """A ruling as listed: as it stands now, as the CLI's JSON and the API give it.
    ``awaiting_status``: the status it gives its player once the head judge confirms it (D17)."""

    number: ReadOnly[int]
    entry: ReadOnly[int]
    player: ReadOnly[str]
    rule: ReadOnly[str]
    offense: ReadOnly[int | None]
    penalties: ReadOnly[list[str]]
    guideline_penalties: ReadOnly[list[str]]
    effects: ReadOnly[list[str]]
    follow_up: ReadOnly[bool]
    needs_head_judge: ReadOnly[bool]
    state: ReadOnly[RulingState]
    deviation_reason: ReadOnly[str | None]
    draft: ReadOnly[str | None]
    trigger: ReadOnly[str]
    recorded_as: ReadOnly[str | None]
    round: ReadOnly[int | None]
    table: ReadOnly[int | None]
    judge: ReadOnly[str]
    recorded_at: ReadOnly[str]
    source: ReadOnly[str]
    explanation_ja: ReadOnly[str]
    explanation_en: ReadOnly[str]
    awaiting_status: ReadOnly[str | None]


class RulingInFeed(RulingListed):
    """A ruling as listed, with its player's name (None: not on the event's roster)."""

    player_name: ReadOnly[str | None]


class EventListed(TypedDict):
    """An event as the list of events gives it (:class:`EventSummary`'s fields), with the
    role the asking person holds there."""

    id: ReadOnly[int]
    name: ReadOnly[str]
    starts_on: ReadOnly[str | None]
    rel: ReadOnly[int]
    head_judge: ReadOnly[str]
    players: ReadOnly[int]
    rulings: ReadOnly[int]
    current_round: ReadOnly[int]
    role: ReadOnly[str]


def event_listed(e: EventSummary, role: str) -> EventListed:
    return {
        "id": e.id,
        "name": e.name,
        "starts_on": e.starts_on,
        "rel": e.rel,
        "head_judge": e.head_judge,
        "players": e.players,
        "rulings": e.rulings,
        "current_round": e.current_round,
        "role": role,
    }


class DuelJson(TypedDict):
    duel: ReadOnly[int]
    winner: ReadOnly[str | None]


class MatchListed(TypedDict):
    """A match with its duels, as a player's history and the scorekeeper's view give it."""

    round: ReadOnly[int]
    table: ReadOnly[int]
    player_a: ReadOnly[str]
    player_b: ReadOnly[str | None]
    result: ReadOnly[str | None]
    result_ruling: ReadOnly[int | None]
    extensions: ReadOnly[int]
    duels: ReadOnly[list[DuelJson]]


def match_listed(m: MatchRecord, duel_winners: dict[int, str | None]) -> MatchListed:
    return {
        "round": m.round,
        "table": m.table_no,
        "player_a": m.player_a,
        "player_b": m.player_b,
        "result": m.result,
        "result_ruling": m.result_ruling,
        "extensions": m.extensions,
        "duels": [{"duel": n, "winner": w} for n, w in sorted(duel_winners.items())],
    }


class PlayerHistory(TypedDict):
    """Everything a player has in the event: who they are, their rulings (voided too) and matches."""

    player: ReadOnly[PlayerJson]
    rulings: ReadOnly[list[RulingListed]]
    matches: ReadOnly[list[MatchListed]]


class RoundMatches(TypedDict):
    """A round's matches with their duels (the scorekeeper's view)."""

    round: ReadOnly[int]
    matches: ReadOnly[list[MatchListed]]


class AppealListed(TypedDict):
    """An appeal with the ruling appealed against, as the desk lists it."""

    entry: ReadOnly[int]
    ruling: ReadOnly[int]
    by: ReadOnly[str]
    reason: ReadOnly[str]
    outcome: ReadOnly[str | None]
    decision_reason: ReadOnly[str | None]
    player: ReadOnly[str]
    player_name: ReadOnly[str | None]
    rule: ReadOnly[str]
    penalties: ReadOnly[list[str]]
    state: ReadOnly[str]


def appeal_listed(a: AppealHeard) -> AppealListed:
    return {
        "entry": a.appeal.entry_seq,
        "ruling": a.appeal.ruling,
        "by": a.appeal.by,
        "reason": a.appeal.reason,
        "outcome": a.appeal.outcome,
        "decision_reason": a.appeal.decision_reason,
        "player": a.player,
        "player_name": a.player_name,
        "rule": a.rule,
        "penalties": list(a.penalties),
        "state": a.state,
    }


class StatementListed(TypedDict):
    """A statement of someone involved (D14)."""

    ruling: ReadOnly[int | None]
    author: ReadOnly[str]
    author_role: ReadOnly[str]
    text: ReadOnly[str]


def statement_listed(s: GivenStatement) -> StatementListed:
    return {"ruling": s.ruling, "author": s.author, "author_role": s.author_role, "text": s.text}


# -- what a command recorded, as its entry's body says it ----------------------------------------


class DeviationJson(TypedDict):
    """The head judge's other penalties for one ruling (``effects``: only when a deviation
    took some away, D16)."""

    ruling: ReadOnly[int]
    penalties: ReadOnly[list[str]]
    reason: ReadOnly[str]
    needs_head_judge: ReadOnly[bool]
    explanation_ja: ReadOnly[str]
    explanation_en: ReadOnly[str]
    effects: ReadOnly[NotRequired[list[str]]]


def deviation_json(d: RulingDeviated) -> DeviationJson:
    """The keys of :meth:`RulingDeviated.body`."""
    out: DeviationJson = {
        "ruling": d.ruling,
        "penalties": list(d.penalties),
        "reason": d.reason,
        "needs_head_judge": d.needs_head_judge,
        "explanation_ja": d.explanation_ja,
        "explanation_en": d.explanation_en,
    }
    return out if d.effects is None else {**out, "effects": list(d.effects)}


class AppealDecidedJson(TypedDict):
    appeal: ReadOnly[int]
    ruling: ReadOnly[int]
    outcome: ReadOnly[str]
    reason: ReadOnly[str]


def appeal_decided_json(d: AppealDecided) -> AppealDecidedJson:
    return {"appeal": d.appeal, "ruling": d.ruling, "outcome": d.outcome, "reason": d.reason}


class PlayerCorrectedJson(TypedDict):
    player: ReadOnly[str]
    name: ReadOnly[str]
    reading: ReadOnly[str | None]
    club: ReadOnly[str | None]


def player_corrected_json(c: PlayerCorrected) -> PlayerCorrectedJson:
    return {"player": c.player, "name": c.name, "reading": c.reading, "club": c.club}


class AttendanceJson(TypedDict):
    player: ReadOnly[str]
    present: ReadOnly[bool]


def attendance_json(m: AttendanceMarked) -> AttendanceJson:
    return {"player": m.player, "present": m.present}


class PlayerDroppedJson(TypedDict):
    player: ReadOnly[str]
    round: ReadOnly[int]


def dropped_json(d: PlayerDropped) -> PlayerDroppedJson:
    return {"player": d.player, "round": d.round}


class PairingJson(TypedDict):
    """One table of a round as the ledger keeps it (``b`` None: a bye)."""

    table: ReadOnly[int]
    a: ReadOnly[str]
    b: ReadOnly[str | None]


def pairing_json(p: Pairing) -> PairingJson:
    return {"table": p.table, "a": p.a, "b": p.b}
