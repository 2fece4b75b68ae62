"""The playoff's bracket for the venue wall (T10): each round's matches with both players'
seeds, names and readings, the winner marked; the final placings once the final is played.

Pure: :mod:`shinpan.reports.venue` reads the bracket through the services and hands over
plain rows; :func:`shinpan.reports.render` writes it as JSON, HTML or PDF like every report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.ledger_head import LedgerHead
from shinpan.tournament.playoff import stage_name

People = Mapping[str, tuple[str, str]]  # participant id -> (name, reading)


@dataclass(frozen=True)
class BracketSeat:
    player: str
    seed: int
    name: str
    reading: str

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "seed": self.seed, "name": self.name, "reading": self.reading}


@dataclass(frozen=True)
class BracketMatch:
    """One playoff match: ``b`` None when ``a`` goes on without playing."""

    table: int | None
    a: BracketSeat | None
    b: BracketSeat | None
    winner: str | None
    third_place: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "a": self.a.as_json() if self.a else None,
            "b": self.b.as_json() if self.b else None,
            "winner": self.winner,
            "third_place": self.third_place,
        }


@dataclass(frozen=True)
class BracketRound:
    round: int
    title_ja: str
    title_en: str
    matches: tuple[BracketMatch, ...]


def round_titles(rounds_left: int) -> tuple[str, str]:
    """What a playoff round is called by how many rounds remain after it (0: the final):
    the core's :func:`shinpan.tournament.playoff.stage_name`."""
    return stage_name(2 ** (rounds_left + 1), 0)


@dataclass(frozen=True)
class WallBracket:
    """The bracket as it stands, for the wall."""

    kind: ClassVar[str] = "bracket"
    event_name: str
    rounds: tuple[BracketRound, ...]
    placings: tuple[tuple[int, BracketSeat], ...]  # once the final is decided
    generated_at: str
    time_zone: str = DEFAULT_TIME_ZONE
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_stem(self) -> str:
        return "playoff-bracket"

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event_name,
            "generated_at": self.generated_at,
            "rounds": [
                {"round": r.round, "title": r.title_en, "matches": [m.as_json() for m in r.matches]}
                for r in self.rounds
            ],
            "placings": [{"place": place, **seat.as_json()} for place, seat in self.placings],
        }

    def csv_table(self) -> None:
        return None


def wall_bracket(
    event_name: str,
    size: int,
    first_round: int,
    rounds: Sequence[Sequence[Mapping[str, Any]]],
    placings: Sequence[tuple[int, str]],
    people: People,
    *,
    generated_at: str,
    time_zone: str = DEFAULT_TIME_ZONE,
) -> WallBracket:
    """The bracket from the services' rounds (``Bracket.as_json()['rounds'][i]['matches']``)."""
    seeds: dict[str, int] = {}
    for bouts in rounds:
        for m in bouts:
            for side, seed in zip(("a", "b"), m["seeds"], strict=False):
                if m[side]:
                    seeds[m[side]] = seed

    def seat(player: str | None) -> BracketSeat | None:
        if player is None:
            return None
        name, reading = people.get(player, ("", ""))
        return BracketSeat(player, seeds.get(player, 0), name, reading)

    total = size.bit_length() - 1  # rounds in the bracket
    laid_out = []
    for i, bouts in enumerate(rounds):
        ja, en = stage_name(size, i)
        matches = tuple(
            BracketMatch(m["table"], seat(m["a"]), seat(m["b"]), m["winner"], m["third_place"]) for m in bouts
        )
        laid_out.append(BracketRound(first_round + i, ja, en, matches))
    final_decided = len(rounds) == total and any(m["winner"] for m in rounds[-1] if not m["third_place"])
    shown = (
        tuple((place, s) for place, player in placings[:size] if (s := seat(player))) if final_decided else ()
    )
    return WallBracket(event_name, tuple(laid_out), shown, generated_at, time_zone)
