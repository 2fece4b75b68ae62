"""The scorekeeper's results (T11): one entry per report, a correction beside what it corrects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind, unless_none


@dataclass(frozen=True)
class ReportedDuel:
    """A duel as reported: its winner (a player id), None for a drawn duel."""

    duel: int
    winner: str | None

    def body(self) -> dict[str, Any]:
        return {"duel": self.duel, "winner": self.winner}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("duel"), f.opt_text("winner"))


@dataclass(frozen=True)
class ResultReported(Kind):
    """A table's result as the scorekeeper reported it (a slip's score, a duel, a result
    without duels). ``duels``: the duels it sets by hand; ``whole``: they are every duel
    reported by hand (earlier ones go; a penalty's stay); ``result``: the match's result
    after it (None: still being played); ``at_time``: reported at time (T8). A correction
    names the entry it ``corrects`` and says why (``reason``)."""

    kind: ClassVar[str] = "result.reported"
    round: int
    table: int
    duels: tuple[ReportedDuel, ...]
    whole: bool
    result: str | None
    at_time: bool = False
    shown: str | None = None  # the result as the report gave it (2-1, a, …)
    corrects: int | None = None
    reason: str | None = None

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "duels": [d.body() for d in self.duels],
            "whole": self.whole,
            "result": self.result,
            "at_time": self.at_time,
            **unless_none(shown=self.shown, corrects=self.corrects, reason=self.reason),
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("round"),
            f.whole("table"),
            f.parts("duels", ReportedDuel.read),
            f.flag("whole"),
            f.opt_text("result"),
            f.flag("at_time", False),
            f.opt_text("shown"),
            f.opt_whole("corrects"),
            f.opt_text("reason"),
        )


@dataclass(frozen=True)
class WinnerReported(Kind):
    """A winner's report from the players' pages (T11, T12): the score a player entered for
    a table with the code printed on its slip (``score`` as on the slip: 2-0, 2-1, 1-1-1;
    ``at_time``: the match was unfinished at time). It counts for nothing until the
    scorekeeper confirms it (:class:`WinnerReportConfirmed`)."""

    kind: ClassVar[str] = "winner.reported"
    round: int
    table: int
    score: str
    at_time: bool = False

    def body(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "score": self.score, "at_time": self.at_time}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("round"), f.whole("table"), f.text("score"), f.flag("at_time", False))


@dataclass(frozen=True)
class WinnerReportConfirmed(Kind):
    """The scorekeeper confirmed the winner's report of entry ``report``: the result entry
    that follows it in the same command is what counts (T11)."""

    kind: ClassVar[str] = "winner.confirmed"
    report: int

    def body(self) -> dict[str, Any]:
        return {"report": self.report}

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.whole("report"))


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (ResultReported, WinnerReported, WinnerReportConfirmed)
