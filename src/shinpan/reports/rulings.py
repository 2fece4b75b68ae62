"""A ruling as every report shows it: who issued it, who confirmed, deviated or voided it, and why.

The rulings table holds a ruling as it stands; the ledger holds what happened to it. A
:class:`ReportedRuling` puts both together: the confirmations, deviations and voids come
from their ``ruling.confirmed``, ``ruling.deviated`` and ``ruling.voided`` entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields
from typing import Any, NamedTuple

from shinpan.engine.event_rules import RulingState
from shinpan.engine.explain import penalty_text
from shinpan.guideline import Rulebook
from shinpan.reports.common import EventHeader, abbreviations, bulk, category, is_reported
from shinpan.store import reports as store
from shinpan.store.connection import Connection

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
    after: int | None = None  # a void the correction of this ruling made (D16)


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
    effects: tuple[str, ...]
    effects_ja: str
    effects_en: str
    remedy_ja: str
    remedy_en: str
    state: RulingState
    reported: bool
    judge: str
    recorded_at: str
    confirmations: tuple[Act, ...] = ()
    deviations: tuple[Act, ...] = ()
    void: Act | None = None

    @property
    def voided(self) -> bool:
        return self.state == RulingState.voided

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
    for a in store.acts_on_rulings(conn, event_id):
        if a.kind == "ruling.confirmed":
            for n in a.rulings:
                acts.confirmed[n].append(Act(a.judge, a.at))
        elif a.kind == "ruling.deviated":
            acts.deviated[a.rulings[0]].append(_deviation(book, a.judge, a.at, a.reason, a.penalties))
        else:
            for n in a.rulings:
                acts.voided[n] = Act(a.judge, a.at, a.reason, after=a.after)
    return acts


def _deviation(book: Rulebook, judge: str, at: str, reason: str, new: tuple[str, ...]) -> Act:
    return Act(judge, at, reason or "", new, penalty_text(book, new, "ja"), penalty_text(book, new, "en"))


def _guideline_remedy(book: Rulebook, rule: str, offense: int | None) -> tuple[str, str]:
    inf = book.infractions.get(rule)
    if inf is None or offense is None:
        return "", ""
    remedies = book.remedies(inf, book.step(inf, offense))
    return " / ".join(r.text.ja for r in remedies), " / ".join(r.text.en for r in remedies)


def _missed_remedies(
    conn: Connection, event_id: int, rows: list[store.RulingRecord], recorded: dict[int, store.RecordedEntry]
) -> dict[int, tuple[str, str]]:
    """D7: the remedy a follow-up ruling punishes, from the deadline it closed."""
    missed: dict[int, tuple[int, int]] = {}
    for r in rows:
        entry = recorded.get(r.entry_seq)
        if r.follow_up and entry is not None and entry.follow_up_of is not None:
            missed[r.number] = entry.follow_up_of
    if not missed:
        return {}
    texts = {
        (d.ruling, d.position): (d.remedy_ja, d.remedy_en)
        for d in store.deadlines_of(conn, event_id, {m[0] for m in missed.values()})
    }
    out = {}
    for number, key in missed.items():
        ja, en = texts.get(key, ("", ""))
        out[number] = (f"期限内に実行されず: {ja}", f"not done in time: {en}")
    return out


def _recorded_deviations(
    book: Rulebook, rows: list[store.RulingRecord], acts: _Acts, recorded: dict[int, store.RecordedEntry]
) -> dict[int, Act]:
    """Deviations made when the ruling was recorded (the head judge recording it)."""
    found: dict[int, Act] = {}
    for r in rows:
        if not r.deviation_reason:
            continue
        reason, penalties = r.deviation_reason, r.penalties
        if r.number in acts.deviated:  # later deviations rewrote the row: the entry says what was recorded
            entry = recorded.get(r.entry_seq)
            made = entry.rulings.get(r.number) if entry is not None else None
            if made is None or not made.deviation_reason:
                continue
            reason, penalties = made.deviation_reason, made.penalties
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
        self.listed: dict[tuple[str, ...], bool] = {}

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
    with bulk():
        return _read_rulings(conn, event, player, numbers)


def _read_rulings(
    conn: Connection, event: EventHeader, player: str | None, numbers: Collection[int] | None
) -> list[ReportedRuling]:
    book = event.book
    rows = store.rulings(conn, event.id, player=player, numbers=numbers)
    subjects = {r.player for r in rows}
    names = store.player_names(conn, event.id, subjects if len(subjects) <= MANY_PLAYERS else None)
    acts = _acts(conn, event.id, book)
    # The entries that recorded follow-ups (D7) and rulings deviated from since.
    wanted = {r.entry_seq for r in rows if r.follow_up or (r.deviation_reason and r.number in acts.deviated)}
    recorded = store.as_recorded(conn, event.id, wanted) if wanted else {}
    missed = _missed_remedies(conn, event.id, rows, recorded)
    at_record = _recorded_deviations(book, rows, acts, recorded)
    words = _Words(book)
    confirmed = {n: tuple(made) for n, made in acts.confirmed.items()}
    deviated = {n: tuple(made) for n, made in acts.deviated.items()}
    for n, first in at_record.items():  # a deviation made when it was recorded comes first
        deviated[n] = (first, *deviated.get(n, ()))
    said: dict[tuple[Any, ...], _Said] = {}
    return [
        _ruling(words, said, r, names.get(r.player, ""), confirmed, deviated, acts.voided, missed)
        for r in rows
    ]


_FIELDS = tuple(f.name for f in fields(ReportedRuling))


class _Said(NamedTuple):
    """What the guideline says of a ruling's rule, offence, penalties and effects."""

    name_ja: str
    name_en: str
    category: str
    abbr: str
    ja: str
    en: str
    given_abbr: str
    effects_ja: str
    effects_en: str
    remedy_ja: str
    remedy_en: str
    reported: bool


def _said(words: _Words, r: store.RulingRecord) -> _Said:
    """Worked out once for each combination (an event repeats a few hundred)."""
    abbr, ja, en = words.penalties(r.penalties)
    name_ja, name_en, category_id = words.rule(r.rule)
    effects_ja, effects_en = words.effects(r.effects)
    remedy_ja, remedy_en = words.remedy(r.rule, r.offense)
    reported = words.reported(r.penalties) or words.reported(r.guideline_penalties)
    given = words.penalties(r.guideline_penalties)[0]
    return _Said(
        name_ja,
        name_en,
        category_id,
        abbr,
        ja,
        en,
        given,
        effects_ja,
        effects_en,
        remedy_ja,
        remedy_en,
        reported,
    )


def _ruling(
    words: _Words,
    said: dict[tuple[Any, ...], _Said],
    r: store.RulingRecord,
    name: str,
    confirmed: dict[int, tuple[Act, ...]],
    deviated: dict[int, tuple[Act, ...]],
    voided: dict[int, Act],
    missed: dict[int, tuple[str, str]],
) -> ReportedRuling:
    """One ruling as reports show it. A report of 20,000 rulings makes 20,000 of these: the
    words come from :func:`_said`'s table, and the ruling is made without the generated
    ``__init__`` of a frozen dataclass (which sets each of its 31 fields through
    ``object.__setattr__``: a fifth of the time of such a report), its fields in their order."""
    number, penalties, given, rule = r.number, r.penalties, r.guideline_penalties, r.rule
    key = (rule, r.offense, penalties, given, r.effects)
    k = said.get(key)
    if k is None:
        k = said[key] = _said(words, r)
    remedy_ja, remedy_en = missed.get(number, (k.remedy_ja, k.remedy_en))
    made = _new(ReportedRuling)
    made.__dict__.update(
        zip(
            _FIELDS,
            (
                number,
                r.entry_seq,
                r.player,
                name,
                r.round,
                r.table_no,
                rule,
                k.name_ja,
                k.name_en,
                k.category,
                r.offense,
                r.follow_up,
                r.trigger,
                penalties,
                k.abbr,
                k.ja,
                k.en,
                given,
                k.given_abbr,
                r.effects,
                k.effects_ja,
                k.effects_en,
                remedy_ja,
                remedy_en,
                r.state,
                k.reported,
                r.judge,
                r.recorded_at,
                confirmed.get(number, ()),
                deviated.get(number, ()),
                voided.get(number),
            ),
            strict=True,
        )
    )
    return made


_new = object.__new__
