"""Recording infractions.

:func:`record` counts the player's earlier offences and appends the new ruling in one
write transaction for the event (D1, D11), then applies what the ruling does (D10, D14,
D17). Corrections (confirm, deviate, void) are in :mod:`shinpan.services.corrections`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NotRequired, TypedDict, Unpack

from shinpan.engine import Deviation, Record, RecordError, Ruling, decide, explain
from shinpan.engine.clock import ClockError, deadline_runs_from, given_at, parse_given_at
from shinpan.engine.event_rules import Action, Status, counting_scope, left_as, where_ruling_lands
from shinpan.engine.explain import reason_text
from shinpan.engine.facts import PERSON_FACTS, normalized
from shinpan.engine.leaving import LEFT_REASONS, noted_leaving
from shinpan.engine.ruling import Due, Trigger
from shinpan.entries import (
    AskedDeviation,
    Consequence,
    DueRemedy,
    GuidelineRef,
    RecordAsked,
    RecordedRuling,
    RulingsRecorded,
)
from shinpan.errors import InvalidInput, NotFound
from shinpan.guideline import Rulebook
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.calls import citable_call
from shinpan.services.context import Event, later, load_event, parse_stamp, require, stamp
from shinpan.services.deckchecks import check_cited
from shinpan.services.effects import apply_ruling
from shinpan.services.shapes import RulingDecided, ruling_decided
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.feed import RulingRow, rulings_numbered
from shinpan.store.history import (
    BeforeRecord,
    CountedRuling,
    before_record,
    is_player,
    last_ruling_number,
    live_rulings,
    round_started_at,
)
from shinpan.store.ledger import Appender, Entry, read_entries
from shinpan.store.snapshots import player_standing


class DeviationAsked(TypedDict):
    penalties: list[str]
    reason: str


class RecordPayload(TypedDict):
    """A record as its command's fingerprint covers it (``given_at`` only when given)."""

    player: str
    infraction: str
    facts: dict[str, Any]  # the answers to the infraction's questions, as the judge gave them
    draft: str | None
    penalties: list[str] | None
    deviation: DeviationAsked | None
    round: int | None
    table: int | None
    note: str
    given_at: NotRequired[str]
    call: NotRequired[int]
    deck_check: NotRequired[int]


class RecordedJson(TypedDict):
    """What a recording did, as the API and the CLI's ``--json`` give it."""

    event: int
    entry: int
    rulings: list[RulingDecided]
    effects: list[dict[str, Any]]
    replayed: bool
    left: list[LeftJson]


class LeftJson(TypedDict):
    """A warning: the ruling's player had already left the event (D14, D22); it applies to
    no match and sets no deadline."""

    ruling: int
    player: str
    status: str  # dropped | withdrawn | ejected | disqualified
    ja: str
    en: str


def left_warnings(made: Sequence[RulingDecided]) -> list[LeftJson]:
    """The rulings whose player had already left the event, as their explanation says it."""
    out: list[LeftJson] = []
    for r in made:
        for status, code in LEFT_REASONS.items():
            ja = reason_text(code, "ja")
            if ja in r["explanation_ja"]:
                out.append(
                    LeftJson(
                        ruling=r["number"],
                        player=r["player"],
                        status=status.value,
                        ja=ja,
                        en=reason_text(code, "en"),
                    )
                )
    return out


@dataclass(frozen=True)
class RecordInput:
    """An infraction as a judge enters it."""

    player: str
    infraction: str
    facts: dict[str, Any] = field(default_factory=dict)
    draft: str | None = None
    penalties: tuple[str, ...] | None = None
    deviation: Deviation | None = None
    round: int | None = None
    table: int | None = None
    note: str = ""
    given_at: str | None = None  # D21: when the ruling was given at the table (ISO 8601, offset)
    call: int | None = None  # T14: the judge call it is recorded from (the call cites the ruling)
    deck_check: int | None = None  # T13: the deck check the ruling cites (its first entry)

    def normalized(self) -> RecordInput:
        """D18: the participant ids as every path compares them."""
        record = normalized(Record(self.player, self.infraction, self.facts))
        if record.player == self.player and record.facts == self.facts:
            return self  # already as every path compares them (the usual case)
        return replace(self, player=record.player, facts=dict(record.facts))

    def payload(self) -> RecordPayload:
        """The record as the command's fingerprint covers it."""
        out: RecordPayload = {
            "player": self.player,
            "infraction": self.infraction,
            "facts": self.facts,
            "draft": self.draft,
            "penalties": list(self.penalties) if self.penalties is not None else None,
            "deviation": (
                {"penalties": list(self.deviation.penalties), "reason": self.deviation.reason}
                if self.deviation
                else None
            ),
            "round": self.round,
            "table": self.table,
            "note": self.note,
        }
        if self.given_at is not None:
            out["given_at"] = self.given_at
        if self.call is not None:
            out["call"] = self.call
        if self.deck_check is not None:
            out["deck_check"] = self.deck_check
        return out

    def asked(self) -> RecordAsked:
        """The record as the ledger keeps it (the same as the command's payload)."""
        deviation = (
            AskedDeviation(self.deviation.penalties, self.deviation.reason) if self.deviation else None
        )
        return RecordAsked(
            self.player,
            self.infraction,
            self.facts,
            self.draft,
            self.penalties,
            deviation,
            self.round,
            self.table,
            self.note,
            self.given_at,
            self.call,
            self.deck_check,
        )


@dataclass(frozen=True)
class Recorded:
    """What a recording did: the ledger entry, the rulings, and whether it was a retry."""

    event_id: int
    entry: int
    rulings: list[RulingDecided]
    effects: list[
        dict[str, Any]
    ]  # each an entry the rulings made: its kind, and its body as the ledger wrote it
    replayed: bool = False

    def as_json(self) -> RecordedJson:
        return {
            "event": self.event_id,
            "entry": self.entry,
            "rulings": self.rulings,
            "effects": self.effects,
            "replayed": self.replayed,
            "left": left_warnings(self.rulings),
        }


class _Participants:
    """Membership in the event, asked of the database only for the names the record uses."""

    def __init__(self, conn: Connection, event_id: int, known: dict[str, bool]) -> None:
        self.conn, self.event_id = conn, event_id
        self.known = known  # what was read already (the names the record itself uses)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name not in self.known:
            self.known[name] = is_player(self.conn, self.event_id, name)
        return self.known[name]


def live_history(conn: Connection, event_id: int, player: str) -> list[Ruling]:
    """A player's rulings that count (not voided), as the engine reads them."""
    return _history(player, live_rulings(conn, event_id, player))


def _history(player: str, counted: Sequence[CountedRuling]) -> list[Ruling]:
    return [
        Ruling(
            player=player,
            rule=r.rule,
            offense=r.offense,
            penalties=r.penalties,
            follow_up=r.follow_up,
            draft=r.draft,
            kind=r.kind,
            ref=f"#{r.number}",
            number=r.number,
            trigger=Trigger(r.trigger),
            cause=r.cause,
        )
        for r in counted
    ]


def _named(inp: RecordInput) -> list[str]:
    names = [inp.player]
    for key in PERSON_FACTS:
        value = inp.facts.get(key)
        if isinstance(value, str) and value not in names:
            names.append(value)
    return names


def _before(conn: Connection, event: Event, inp: RecordInput) -> BeforeRecord:
    """What deciding the record reads, in one read."""
    return before_record(conn, event.id, inp.player, _named(inp))


def _decide(conn: Connection, event: Event, inp: RecordInput, before: BeforeRecord) -> tuple[Ruling, ...]:
    book = event.book
    participants = _Participants(conn, event.id, {name: name in before.players for name in before.rulings})
    if inp.player not in participants:
        raise NotFound(
            "no player {player} in event {event}", field="player", player=inp.player, event=event.id
        )
    history = {name: _history(name, before.rulings[name]) for name in _named(inp) if name in participants}
    record = Record(
        player=inp.player,
        infraction=inp.infraction,
        facts=inp.facts,
        draft=inp.draft,
        penalties=inp.penalties,
        deviation=inp.deviation,
    )
    try:
        made = decide(book, record, history, participants, first_number=before.last_number + 1)
    except RecordError as e:
        raise InvalidInput(e.template, field=e.field, **e.params) from None
    return noted_leaving(made, _left(conn, event.id, {r.player for r in made}))


def _left(conn: Connection, event_id: int, players: set[str]) -> dict[str, Status]:
    """D14, D22: how each of these players has left the event, for those who have."""
    left = {}
    for player in sorted(players):
        status = left_as(*player_standing(conn, event_id, player))
        if status is not None:
            left[player] = status
    return left


def with_threshold(event: Event, decided: Sequence[Ruling]) -> list[Ruling]:
    """D11 with the event's setting: which rulings wait for the head judge."""
    book = event.book
    return [
        replace(r, needs_head_judge=book.needs_head_judge(r.penalties, event.confirmation_threshold))
        for r in decided
    ]


def _where(event: Event, inp: RecordInput, before: BeforeRecord) -> tuple[int | None, int | None]:
    return where_ruling_lands((inp.round, inp.table), before.playing, event.current_round)


def _due_remedy(due: Due, position: int, given: str, round_no: int | None, table: int | None) -> DueRemedy:
    return DueRemedy(
        position,
        due.when,
        due.minutes,
        later(given, due.minutes) if due.minutes else None,
        round_no,
        table,
        due.remedy,
        due.remedy_en,
        Consequence(tuple(due.penalties), tuple(due.effects)),
    )


def ruling_json(
    book: Rulebook, r: Ruling, number: int, given: str, round_no: int | None, table: int | None
) -> RecordedRuling:
    """A ruling as the ledger keeps it: the decision as it was made, with its words."""
    scope = counting_scope(book, r.rule, r.draft, r.counted)
    return RecordedRuling(
        number=number,
        player=r.player,
        rule=r.rule,
        offense=r.offense,
        penalties=tuple(r.penalties),
        guideline_penalties=tuple(r.guideline_penalties),
        effects=tuple(r.effects),
        follow_up=r.follow_up,
        needs_head_judge=r.needs_head_judge,
        deviation_reason=r.deviation.reason if r.deviation else None,
        draft=r.draft,
        scope=scope,
        kind=r.kind,
        trigger=r.trigger.value,
        recorded_as=r.recorded_as,
        discretion=r.discretion,
        source=r.explanation.step_source,
        explanation_ja=explain(book, r, "ja"),
        explanation_en=explain(book, r, "en"),
        cause=r.cause,
        dues=tuple(_due_remedy(d, n, given, round_no, table) for n, d in enumerate(r.dues)),
    )


def _runs_from(conn: Connection, event_id: int, r: Ruling, given: str, round_no: int | None) -> str:
    """D21: the moment the ruling's timed deadlines count from, as the guideline declares it
    for them (the round's start is read only for a ruling whose deadline runs from it)."""
    clock = next((d.clock for d in r.dues if d.minutes and d.clock == "round_start"), None)
    if round_no is None or clock is None:
        return given
    started = round_started_at(conn, event_id, round_no)
    return stamp(deadline_runs_from(clock, parse_stamp(given), parse_stamp(started) if started else None))


def next_number(conn: Connection, event_id: int) -> int:
    return last_ruling_number(conn, event_id) + 1


def append_rulings(
    ap: Appender,
    event: Event,
    decided: Sequence[Ruling],
    why: RulingsRecorded,
    round_no: int | None,
    table: int | None,
    *,
    given: str | None = None,
    first: int | None = None,
) -> list[RulingDecided]:
    """Append one ``ruling.recorded`` entry for these rulings, then apply their effects.
    ``why`` says what they come from (a record, a missed deadline, a correction);
    ``given`` is when they were given at the table (D21; default: now); ``first`` is the
    next ruling number, when it was read in this transaction already."""
    first = next_number(ap.conn, event.id) if first is None else first
    moment = given or ap.now
    made = [
        ruling_json(
            event.book, r, first + n, _runs_from(ap.conn, event.id, r, moment, round_no), round_no, table
        )
        for n, r in enumerate(with_threshold(event, decided))
    ]
    if any(r.number is not None and r.number != first + n for n, r in enumerate(decided)):
        raise AssertionError("rulings decided with other numbers than the ledger gives them")
    ap.append(replace(why, rulings=tuple(made), round=round_no, table=table, given_at=moment))
    for r in made:
        apply_ruling(ap, r.number, r.player, [*r.penalties, *r.effects], pending=r.needs_head_judge)
    return [ruling_decided(r) for r in made]


def given_stamp(inp: RecordInput, now: str) -> str:
    """D21: the record's time at the table, checked against the ledger's clock."""
    try:
        value = parse_given_at(inp.given_at) if inp.given_at is not None else None
        return stamp(given_at(value, parse_stamp(now)))
    except ClockError as e:
        raise InvalidInput(_CLOCK_PROBLEMS[e.kind], field="given_at") from None


_CLOCK_PROBLEMS = {
    "format": "the time the ruling was given is not a time in ISO 8601 (e.g. 2026-12-05T10:15:00+09:00)",
    "offset": "the time the ruling was given needs its offset from UTC (e.g. +09:00)",
    "future": "the time the ruling was given lies in the future",
    "too_old": "the time the ruling was given lies more than 12 hours in the past",
}


def _recorded(event_id: int, conn: Connection, entry: Entry, replayed: bool) -> Recorded:
    effects = []
    for later_entry in read_entries(conn, event_id, after=entry.seq):
        if later_entry.refs != (entry.seq,):
            break
        effects.append({"kind": later_entry.kind, **later_entry.body.body()})
    made = [ruling_decided(r) for r in entry.of(RulingsRecorded).rulings]
    return Recorded(event_id, entry.seq, made, effects, replayed)


def preview(db: Database, event_id: int, inp: RecordInput, *, judge: str | None = None) -> list[Ruling]:
    """The rulings a record would make now, without saving anything."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        require(conn, event, judge, Action.record)
        inp = inp.normalized()
        return with_threshold(event, _decide(conn, event, inp, _before(conn, event, inp)))


def record(
    db: Database,
    event_id: int,
    inp: RecordInput,
    **asked: Unpack[Judged],
) -> Recorded:
    """Decide and save a record: one transaction, safe to retry with the same command id."""
    inp = inp.normalized()

    def check(conn: Connection, event: Event, name: str) -> None:
        if inp.deviation is not None:
            require(conn, event, name, Action.deviate)

    def act(conn: Connection, ap: Appender) -> Recorded:
        event = load_event(conn, event_id)
        if inp.deck_check is not None:
            check_cited(conn, event_id, inp.deck_check, inp)
        given = given_stamp(inp, ap.now)
        if inp.call is not None:
            citable_call(conn, event_id, inp.call)
        before = _before(conn, event, inp)
        decided = _decide(conn, event, inp, before)
        round_no, table = _where(event, inp, before)
        guideline = GuidelineRef(event.guideline_id, event.guideline_version)
        why = RulingsRecorded((), record=inp.asked(), guideline=guideline)
        made = append_rulings(
            ap, event, decided, why, round_no, table, given=given, first=before.last_number + 1
        )
        first, *effects = ap.appended
        return Recorded(event_id, first.seq, made, [{"kind": e.kind, **e.body.body()} for e in effects])

    return run_asked(
        db,
        event_id,
        Action.record,
        inp.payload(),
        act,
        lambda conn, entry: _recorded(event_id, conn, entry, True),
        check=check,
        **by_judge(asked),
    )


def rows_of(conn: Connection, event_id: int, numbers: Sequence[int]) -> list[RulingRow]:
    """The rulings of these numbers as they stand; :class:`NotFound` names those the event lacks."""
    found = rulings_numbered(conn, event_id, numbers)
    missing = sorted(set(numbers) - {r.number for r in found})
    if missing:
        raise NotFound(
            "no ruling {numbers} in event {event}", numbers=", ".join(map(str, missing)), event=event_id
        )
    return found
