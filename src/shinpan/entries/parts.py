"""The parts entries are made of: a guideline, a head judge, a registered player, a
table's pairing, a ruling as recorded with its deadlines, a record as the judge entered it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from shinpan.entries.reading import Fields, unless_none


@dataclass(frozen=True)
class GuidelineRef:
    """The guideline an event runs under, or a record was decided by; an event's entry also
    keeps the SHA-256 of the file's text (entries written before it have none)."""

    id: str
    version: str
    sha256: str | None = None

    def body(self) -> dict[str, Any]:
        return {"id": self.id, "version": self.version, **unless_none(sha256=self.sha256)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("id"), f.text("version"), f.opt_text("sha256"))


@dataclass(frozen=True)
class HeadJudge:
    name: str
    level: int | None
    account: str | None = None  # the uid of the account holding the seat; None: to be claimed

    def body(self) -> dict[str, Any]:
        return {"name": self.name, "level": self.level, "account": self.account}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("name"), f.opt_whole("level"), f.opt_text("account"))


@dataclass(frozen=True)
class Registration:
    """One player as imported: id, name, its reading, club, and the handle the player
    registered (shown on the players' pages of an event that shows handles, T12); a body
    without a handle is written as before."""

    number: str
    name: str
    reading: str | None = None
    club: str | None = None
    handle: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "reading": self.reading,
            "club": self.club,
            **unless_none(handle=self.handle),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.text("number"), f.text("name"), f.opt_text("reading"), f.opt_text("club"), f.opt_text("handle")
        )


@dataclass(frozen=True)
class Pairing:
    """One table of a round: players a and b (None: a bye, won by a at once)."""

    table: int
    a: str
    b: str | None = None

    def body(self) -> dict[str, Any]:
        return {"table": self.table, "a": self.a, "b": self.b}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("table"), f.text("a"), f.opt_text("b"))


@dataclass(frozen=True)
class Consequence:
    """What missing a deadline brings: the follow-up's penalties and effects (D7)."""

    penalties: tuple[str, ...] = ()
    effects: tuple[str, ...] = ()

    def body(self) -> dict[str, Any]:
        return {"penalties": list(self.penalties), "effects": list(self.effects)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.texts("penalties"), f.texts("effects"))


@dataclass(frozen=True)
class DueRemedy:
    """A ruling's deadline: the remedy to carry out, by when, and what missing it brings."""

    position: int
    due_kind: str
    minutes: int | None
    due_at: str | None
    round: int | None
    table: int | None
    remedy_ja: str
    remedy_en: str
    on_miss: Consequence

    def body(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "due_kind": self.due_kind,
            "minutes": self.minutes,
            "due_at": self.due_at,
            "round": self.round,
            "table": self.table,
            "remedy_ja": self.remedy_ja,
            "remedy_en": self.remedy_en,
            "on_miss": self.on_miss.body(),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("position"),
            f.text("due_kind"),
            f.opt_whole("minutes"),
            f.opt_text("due_at"),
            f.opt_whole("round"),
            f.opt_whole("table"),
            f.text("remedy_ja"),
            f.text("remedy_en"),
            Consequence.read(Fields(f.mapping("on_miss"), f"{f.where}: on_miss")),
        )


@dataclass(frozen=True)
class RecordedRuling:
    """One ruling as the ledger keeps it: the decision as it was made, with its words."""

    number: int
    player: str
    rule: str
    offense: int | None
    penalties: tuple[str, ...]
    guideline_penalties: tuple[str, ...]
    effects: tuple[str, ...]
    follow_up: bool
    needs_head_judge: bool
    deviation_reason: str | None
    draft: str | None
    scope: str
    kind: str | None
    trigger: str
    recorded_as: str | None
    discretion: bool
    source: str
    explanation_ja: str
    explanation_en: str
    cause: int | None = None  # an additional ruling (D3, D6): the ruling that triggered it
    dues: tuple[DueRemedy, ...] = ()

    def body(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "rule": self.rule,
            "offense": self.offense,
            "penalties": list(self.penalties),
            "guideline_penalties": list(self.guideline_penalties),
            "effects": list(self.effects),
            "follow_up": self.follow_up,
            "needs_head_judge": self.needs_head_judge,
            "deviation_reason": self.deviation_reason,
            "draft": self.draft,
            "scope": self.scope,
            "kind": self.kind,
            "trigger": self.trigger,
            "recorded_as": self.recorded_as,
            "discretion": self.discretion,
            "source": self.source,
            "explanation_ja": self.explanation_ja,
            "explanation_en": self.explanation_en,
            "cause": self.cause,
            "dues": [d.body() for d in self.dues],
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("number"),
            f.text("player"),
            f.text("rule"),
            f.opt_whole("offense"),
            f.texts("penalties"),
            f.texts("guideline_penalties"),
            f.texts("effects"),
            f.flag("follow_up"),
            f.flag("needs_head_judge"),
            f.opt_text("deviation_reason"),
            f.opt_text("draft"),
            f.opt_text("scope") or "",
            f.opt_text("kind"),
            f.text("trigger"),
            f.opt_text("recorded_as"),
            f.flag("discretion", default=False),
            f.text("source"),
            f.text("explanation_ja"),
            f.text("explanation_en"),
            f.opt_whole("cause"),
            f.parts("dues", DueRemedy.read, optional=True),
        )


@dataclass(frozen=True)
class AskedDeviation:
    """A deviation the judge asked for in the record itself (D11, D12)."""

    penalties: tuple[str, ...]
    reason: str

    def body(self) -> dict[str, Any]:
        return {"penalties": list(self.penalties), "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.texts("penalties"), f.text("reason"))


@dataclass(frozen=True)
class RecordAsked:
    """The record as the judge entered it (ids normalised, D18). ``facts`` are the answers
    to the infraction's questions, as JSON."""

    player: str
    infraction: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    draft: str | None = None
    penalties: tuple[str, ...] | None = None
    deviation: AskedDeviation | None = None
    round: int | None = None
    table: int | None = None
    note: str = ""
    given_at: str | None = None  # D21: as the judge's device gave it; left out when it gave none
    call: int | None = None  # T14: the judge call the ruling was recorded from; left out when none
    deck_check: int | None = None  # T13: the deck check (its first entry) the ruling cites; left out without

    def body(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "infraction": self.infraction,
            "facts": dict(self.facts),
            "draft": self.draft,
            "penalties": list(self.penalties) if self.penalties is not None else None,
            "deviation": self.deviation.body() if self.deviation else None,
            "round": self.round,
            "table": self.table,
            "note": self.note,
            **unless_none(given_at=self.given_at, call=self.call, deck_check=self.deck_check),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        penalties = f.texts("penalties") if f.value.get("penalties") is not None else None
        return cls(
            f.text("player"),
            f.text("infraction"),
            f.mapping("facts"),
            f.opt_text("draft"),
            penalties,
            f.part("deviation", AskedDeviation.read, optional=True),
            f.opt_whole("round"),
            f.opt_whole("table"),
            f.opt_text("note") or "",
            f.opt_text("given_at"),
            f.opt_whole("call"),
            f.opt_whole("deck_check"),
        )


@dataclass(frozen=True)
class DeadlineRef:
    """One deadline of a ruling: its number and the deadline's position among its dues."""

    ruling: int
    position: int

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "position": self.position}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("ruling"), f.whole("position"))
