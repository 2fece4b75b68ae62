"""The entries of rulings: recorded, confirmed, deviated from, voided; their deadlines,
statements and appeals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.parts import DeadlineRef, GuidelineRef, RecordAsked, RecordedRuling
from shinpan.entries.reading import Fields, Kind, unless_none


@dataclass(frozen=True)
class RulingsRecorded(Kind):
    """Rulings given together: a record's, a missed deadline's follow-up (``follow_up_of``),
    or additional rulings a correction re-derived (``rederived_after``, D16)."""

    kind: ClassVar[str] = "ruling.recorded"
    rulings: tuple[RecordedRuling, ...]
    round: int | None = None
    table: int | None = None
    given_at: str | None = None  # D21: when given at the table; None in entries made before D21
    record: RecordAsked | None = None
    guideline: GuidelineRef | None = None
    follow_up_of: DeadlineRef | None = None
    rederived_after: int | None = None

    def body(self) -> dict[str, Any]:
        return {
            **unless_none(
                record=self.record.body() if self.record else None,
                guideline=self.guideline.body() if self.guideline else None,
                follow_up_of=self.follow_up_of.body() if self.follow_up_of else None,
                rederived_after=self.rederived_after,
                given_at=self.given_at,
            ),
            "round": self.round,
            "table": self.table,
            "rulings": [r.body() for r in self.rulings],
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.parts("rulings", RecordedRuling.read),
            f.opt_whole("round"),
            f.opt_whole("table"),
            f.opt_text("given_at"),
            f.part("record", RecordAsked.read, optional=True),
            f.part("guideline", GuidelineRef.read, optional=True),
            f.part("follow_up_of", DeadlineRef.read, optional=True),
            f.opt_whole("rederived_after"),
        )


@dataclass(frozen=True)
class RulingsConfirmed(Kind):
    """The head judge confirms rulings that waited for it (D11, D17)."""

    kind: ClassVar[str] = "ruling.confirmed"
    rulings: tuple[int, ...]

    def body(self) -> dict[str, Any]:
        return {"rulings": list(self.rulings)}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.wholes("rulings"))


@dataclass(frozen=True)
class RulingDeviated(Kind):
    """The head judge's other penalties for one ruling, with the written reason (D11, D12)."""

    kind: ClassVar[str] = "ruling.deviated"
    ruling: int
    penalties: tuple[str, ...]
    reason: str
    needs_head_judge: bool
    explanation_ja: str
    explanation_en: str
    effects: tuple[str, ...] | None = None  # D16: the effects left, when the deviation took some away

    def body(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "penalties": list(self.penalties),
            "reason": self.reason,
            "needs_head_judge": self.needs_head_judge,
            "explanation_ja": self.explanation_ja,
            "explanation_en": self.explanation_en,
            **unless_none(effects=list(self.effects) if self.effects is not None else None),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("ruling"),
            f.texts("penalties"),
            f.text("reason"),
            f.flag("needs_head_judge"),
            f.text("explanation_ja"),
            f.text("explanation_en"),
            f.texts("effects") if f.has("effects") else None,
        )


@dataclass(frozen=True)
class RulingsVoided(Kind):
    """Rulings that count for nothing from now (D1, D16); ``rederived_after``: additional
    rulings no longer called for after that ruling's correction."""

    kind: ClassVar[str] = "ruling.voided"
    rulings: tuple[int, ...]
    reason: str
    rederived_after: int | None = None

    def body(self) -> dict[str, Any]:
        return {
            "rulings": list(self.rulings),
            "reason": self.reason,
            **unless_none(rederived_after=self.rederived_after),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.wholes("rulings"), f.opt_text("reason") or "", f.opt_whole("rederived_after"))


@dataclass(frozen=True)
class DeadlineDone(DeadlineRef, Kind):
    """A ruling's remedy carried out in time: the deadline it met, written as a reference to it."""

    kind: ClassVar[str] = "deadline.done"


@dataclass(frozen=True)
class StatementTaken(Kind):
    """A statement from someone involved (player, opponent, witness, judge)."""

    kind: ClassVar[str] = "statement"
    ruling: int | None
    author: str
    author_role: str
    text: str

    def body(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "author": self.author,
            "author_role": self.author_role,
            "text": self.text,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.opt_whole("ruling"), f.text("author"), f.text("author_role"), f.text("text"))


@dataclass(frozen=True)
class AppealFiled(Kind):
    kind: ClassVar[str] = "appeal.filed"
    ruling: int
    by: str
    reason: str

    def body(self) -> dict[str, Any]:
        return {"ruling": self.ruling, "by": self.by, "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("ruling"), f.text("by"), f.text("reason"))


@dataclass(frozen=True)
class AppealDecided(Kind):
    """The head judge's final decision on an appeal (the appeal's entry number)."""

    kind: ClassVar[str] = "appeal.decided"
    appeal: int
    ruling: int
    outcome: str  # upheld | overturned | changed
    reason: str

    def body(self) -> dict[str, Any]:
        return {"appeal": self.appeal, "ruling": self.ruling, "outcome": self.outcome, "reason": self.reason}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("appeal"), f.whole("ruling"), f.text("outcome"), f.text("reason"))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (
    RulingsRecorded,
    RulingsConfirmed,
    RulingDeviated,
    RulingsVoided,
    DeadlineDone,
    StatementTaken,
    AppealFiled,
    AppealDecided,
)
