"""The entries of how an event plays and ranks (T7–T9): its format, set at creation or
before round 1 is paired."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shinpan.entries.reading import Fields, Kind


@dataclass(frozen=True)
class FormatSet(Kind):
    """The event's match format (``bo3``/``bo1``), what a match at time is (``duels``/
    ``both-lose``), its tiebreaker chain after points (``omw,gw,ogw``), and the seed its
    ``seeded`` order is drawn from."""

    kind: ClassVar[str] = "event.format"
    match_format: str
    time_out: str
    tiebreakers: str
    seed: int

    def body(self) -> dict[str, Any]:
        return {
            "format": self.match_format,
            "time_out": self.time_out,
            "tiebreakers": self.tiebreakers,
            "seed": self.seed,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(f.text("format"), f.text("time_out"), f.text("tiebreakers"), f.whole("seed"))


@dataclass(frozen=True)
class PlayoffStarted(Kind):
    """The playoff after the Swiss (T10): its first round's number, its size, whether a
    third-place match is played, its entrants in seed order (1 first), and the seed that broke
    a tie across the cut line."""

    kind: ClassVar[str] = "playoff.started"
    round: int
    size: int
    third_place: bool
    entrants: tuple[str, ...]
    seed: int

    def body(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "size": self.size,
            "third_place": self.third_place,
            "entrants": list(self.entrants),
            "seed": self.seed,
        }

    @classmethod
    def read(cls, f: Fields) -> Self:
        return cls(
            f.whole("round"), f.whole("size"), f.flag("third_place"), f.texts("entrants"), f.whole("seed")
        )


# This topic's kinds: each is parsed (:data:`shinpan.entries.KINDS`), projected and re-imported.
KINDS = (FormatSet, PlayoffStarted)
