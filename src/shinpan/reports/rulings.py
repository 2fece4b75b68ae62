"""A ruling as every report shows it: who issued it, who confirmed, deviated or voided it, and why.

The rulings table holds a ruling as it stands; the ledger holds what happened to it. A
:class:`ReportedRuling` puts both together: the confirmations, deviations and voids come
from their ``ruling.confirmed``, ``ruling.deviated`` and ``ruling.voided`` entries.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import select

from shinpan.engine.explain import penalty_text
from shinpan.entries import RulingDeviated, RulingsConfirmed, RulingsRecorded, RulingsVoided
from shinpan.guideline import Rulebook
from shinpan.reports.common import (
    EventHeader,
    Person,
    abbreviations,
    category,
    entries_at,
    entries_of,
    is_reported,
    people,
)
from shinpan.store.connection import Connection
from shinpan.store.schema import deadlines, rulings

ACTS = ("ruling.confirmed", "ruling.deviated", "ruling.voided")
MANY_PLAYERS = 500  # above this, read every player of the event rather than list them


@dataclass(frozen=True)
class Act:
    """A judge's act on a ruling: its confirmation, a deviation, its void."""

    judge: str
    at: str
    reason: str = ""
    penalties: tuple[str, ...] = ()  # a deviation's new penalties
    penalties_ja: str = ""
    penalties_en: str = ""


@dataclass(frozen=True)
class ReportedRuling:
    """One ruling with everything a report says about it."""

    number: int
    entry: int
    player: str
    player_name: str
    round: int | None
    table: int | None
    rule: str
    infraction_ja: str
    infraction_en: str
    category: str
    offense: int | None
    follow_up: bool
    trigger: str
    penalties: tuple[str, ...]
    penalty_abbr: str
    penalties_ja: str
    penalties_en: str
    guideline_penalties: tuple[str, ...]
    guideline_abbr: str
    effects_ja: str
    effects_en: str
    remedy_ja: str
    remedy_en: str
    state: str
    reported: bool
    judge: str
    recorded_at: str
    confirmations: tuple[Act, ...] = ()
    deviations: tuple[Act, ...] = ()
    void: Act | None = None

    @property
    def voided(self) -> bool:
        return self.state == "voided"

    @property
    def confirmation(self) -> Act | None:
        return self.confirmations[0] if self.confirmations else None

    def infraction(self, lang: str) -> str:
        return self.infraction_en if lang == "en" else self.infraction_ja

    def penalty(self, lang: str) -> str:
        return self.penalties_en if lang == "en" else self.penalties_ja

    def remedy(self, lang: str) -> str:
        return self.remedy_en if lang == "en" else self.remedy_ja

    def as_json(self) -> dict[str, Any]:
        return asdict(self) | {"voided": self.voided}


@dataclass
class _Acts:
    """What the ledger says happened to the event's rulings after they were recorded."""

    confirmed: dict[int, list[Act]] = field(default_factory=lambda: defaultdict(list))
    deviated: dict[int, list[Act]] = field(default_factory=lambda: defaultdict(list))
    voided: dict[int, Act] = field(default_factory=dict)


def _acts(conn: Connection, event_id: int, book: Rulebook) -> _Acts:
    acts = _Acts()
    for e in entries_of(conn, event_id, ACTS):
        match e.body:
            case RulingsConfirmed(rulings=numbers):
                for n in numbers:
                    acts.confirmed[n].append(Act(e.actor, e.recorded_at))
            case RulingDeviated() as b:
                acts.deviated[b.ruling].append(
                    _deviation(book, e.actor, e.recorded_at, b.reason, b.penalties)
                )
            case RulingsVoided() as b:
                for n in b.rulings:
                    acts.voided[n] = Act(e.actor, e.recorded_at, b.reason)
    return acts


def _deviation(book: Rulebook, judge: str, at: str, reason: str, new: tuple[str, ...]) -> Act:
    return Act(judge, at, reason or "", new, penalty_text(book, new, "ja"), penalty_text(book, new, "en"))


def _guideline_remedy(book: Rulebook, rule: str, offense: int | None) -> tuple[str, str]:
    inf = book.infractions.get(rule)
    if inf is None or offense is None:
        return "", ""
    remedies = book.remedies(inf, book.step(inf, offense))
    return " / ".join(r.text.ja for r in remedies), " / ".join(r.text.en for r in remedies)


def _missed_remedies(conn: Connection, event_id: int, rows: Sequence[Any]) -> dict[int, tuple[str, str]]:
    """D7: the remedy a follow-up ruling punishes, from the deadline it closed."""
    if not rows:
        return {}
    recorded = entries_at(conn, event_id, {r.entry_seq for r in rows})
    missed: dict[int, tuple[int, int]] = {}
    for r in rows:
        said = recorded[r.entry_seq].body if r.entry_seq in recorded else None
        of = said.follow_up_of if isinstance(said, RulingsRecorded) else None
        if of:
            missed[r.number] = (of.ruling, of.position)
    texts = {
        (d.ruling, d.position): (d.remedy_ja, d.remedy_en)
        for d in conn.execute(
            select(deadlines).where(
                deadlines.c.event_id == event_id, deadlines.c.ruling.in_({m[0] for m in missed.values()})
            )
        )
    }
    out = {}
    for number, key in missed.items():
        ja, en = texts.get(key, ("", ""))
        out[number] = (f"期限内に実行されず: {ja}", f"not done in time: {en}")
    return out


def _recorded_deviations(
    conn: Connection, event_id: int, book: Rulebook, rows: Sequence[Any], acts: _Acts
) -> dict[int, Act]:
    """Deviations made when the ruling was recorded (the head judge recording it)."""
    found: dict[int, Act] = {}
    later = [r for r in rows if r.deviation_reason and r.number in acts.deviated]
    bodies = entries_at(conn, event_id, {r.entry_seq for r in later})
    for r in rows:
        if not r.deviation_reason:
            continue
        reason, penalties = r.deviation_reason, tuple(json.loads(r.penalties))
        if r.number in acts.deviated:  # later deviations rewrote the row: the entry says what was recorded
            entry = bodies.get(r.entry_seq)
            said = entry.body if entry else None
            made = [
                m for m in (said.rulings if isinstance(said, RulingsRecorded) else ()) if m.number == r.number
            ]
            if not made or not made[0].deviation_reason:
                continue
            reason, penalties = str(made[0].deviation_reason), made[0].penalties
        found[r.number] = _deviation(book, r.judge, r.recorded_at, reason, penalties)
    return found


class _Words:
    """The guideline's words for codes and rules, worked out once per report (they repeat)."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book
        self.penalty_words: dict[tuple[str, ...], tuple[str, str, str]] = {}
        self.effect_words: dict[tuple[str, ...], tuple[str, str]] = {}
        self.rule_words: dict[str, tuple[str, str, str]] = {}
        self.remedy_words: dict[tuple[str, int | None], tuple[str, str]] = {}
        self.parsed: dict[str, tuple[str, ...]] = {}
        self.listed: dict[tuple[str, ...], bool] = {}

    def codes(self, stored: str) -> tuple[str, ...]:
        """A column of codes as stored (JSON), read once per distinct value."""
        if stored not in self.parsed:
            self.parsed[stored] = tuple(json.loads(stored))
        return self.parsed[stored]

    def reported(self, codes: tuple[str, ...]) -> bool:
        if codes not in self.listed:
            self.listed[codes] = is_reported(self.book, codes)
        return self.listed[codes]

    def penalties(self, codes: tuple[str, ...]) -> tuple[str, str, str]:
        """Abbreviations, Japanese and English."""
        if codes not in self.penalty_words:
            book = self.book
            self.penalty_words[codes] = (
                abbreviations(book, codes),
                penalty_text(book, codes, "ja"),
                penalty_text(book, codes, "en"),
            )
        return self.penalty_words[codes]

    def effects(self, codes: tuple[str, ...]) -> tuple[str, str]:
        if codes not in self.effect_words:
            labels = [(self.book.label(e, "ja"), self.book.label(e, "en")) for e in codes]
            self.effect_words[codes] = (", ".join(ja for ja, _ in labels), ", ".join(en for _, en in labels))
        return self.effect_words[codes]

    def rule(self, rule: str) -> tuple[str, str, str]:
        """Japanese name, English name, category."""
        if rule not in self.rule_words:
            book = self.book
            self.rule_words[rule] = (
                book.rule_name(rule, "ja"),
                book.rule_name(rule, "en"),
                category(book, rule)[0],
            )
        return self.rule_words[rule]

    def remedy(self, rule: str, offense: int | None) -> tuple[str, str]:
        key = (rule, offense)
        if key not in self.remedy_words:
            self.remedy_words[key] = _guideline_remedy(self.book, rule, offense)
        return self.remedy_words[key]


def read_rulings(
    conn: Connection,
    event: EventHeader,
    *,
    player: str | None = None,
    numbers: Collection[int] | None = None,
) -> list[ReportedRuling]:
    """The event's rulings (one player's, or those numbered), in number order, voided ones too."""
    book = event.book
    query = select(rulings).where(rulings.c.event_id == event.id)
    if player is not None:
        query = query.where(rulings.c.player == player)
    if numbers is not None:
        query = query.where(rulings.c.number.in_(sorted(numbers)))
    rows = conn.execute(query.order_by(rulings.c.number)).all()
    subjects = {r.player for r in rows}
    names = people(conn, event.id, subjects if len(subjects) <= MANY_PLAYERS else None)
    acts = _acts(conn, event.id, book)
    missed = _missed_remedies(conn, event.id, [r for r in rows if r.follow_up])
    at_record = _recorded_deviations(conn, event.id, book, rows, acts)
    words = _Words(book)
    return [_ruling(words, r, names.get(r.player), acts, missed, at_record) for r in rows]


def _ruling(
    words: _Words,
    r: Any,
    person: Person | None,
    acts: _Acts,
    missed: dict[int, tuple[str, str]],
    at_record: dict[int, Act],
) -> ReportedRuling:
    penalties = words.codes(r.penalties)
    given = words.codes(r.guideline_penalties)
    abbr, ja, en = words.penalties(penalties)
    name_ja, name_en, category_id = words.rule(r.rule)
    effects_ja, effects_en = words.effects(words.codes(r.effects))
    remedy = missed.get(r.number) or words.remedy(r.rule, r.offense)
    deviations = ([at_record[r.number]] if r.number in at_record else []) + acts.deviated.get(r.number, [])
    return ReportedRuling(
        number=r.number,
        entry=r.entry_seq,
        player=r.player,
        player_name=person.name if person else "",
        round=r.round,
        table=r.table_no,
        rule=r.rule,
        infraction_ja=name_ja,
        infraction_en=name_en,
        category=category_id,
        offense=r.offense,
        follow_up=bool(r.follow_up),
        trigger=r.trigger,
        penalties=penalties,
        penalty_abbr=abbr,
        penalties_ja=ja,
        penalties_en=en,
        guideline_penalties=given,
        guideline_abbr=words.penalties(given)[0],
        effects_ja=effects_ja,
        effects_en=effects_en,
        remedy_ja=remedy[0],
        remedy_en=remedy[1],
        state=r.state,
        reported=words.reported(penalties) or words.reported(given),
        judge=r.judge,
        recorded_at=r.recorded_at,
        confirmations=tuple(acts.confirmed.get(r.number, ())),
        deviations=tuple(deviations),
        void=acts.voided.get(r.number),
    )
