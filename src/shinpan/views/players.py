"""A player as a search, the desk and a player's history show them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from shinpan.store.players import PlayerRecord


class PlayerJson(TypedDict):
    """A player as a search and a player's history give them (the keys of :class:`PlayerView`)."""

    number: str
    name: str
    reading: str
    club: str | None
    status: str
    table: int | None
    seat: str | None
    opponent: str | None
    opponent_name: str | None


@dataclass(frozen=True)
class PlayerView:
    """A player as a search shows them: with their seat in the current round, if paired."""

    number: str
    name: str
    reading: str
    club: str | None
    status: str
    table: int | None = None
    seat: str | None = None  # "a" or "b"
    opponent: str | None = None
    opponent_name: str | None = None

    @classmethod
    def of(cls, row: PlayerRecord) -> PlayerView:
        """The player as the roster has them (no seat)."""
        return cls(row.number, row.name, row.reading, row.club, row.status)

    def as_json(self) -> PlayerJson:
        return {
            "number": self.number,
            "name": self.name,
            "reading": self.reading,
            "club": self.club,
            "status": self.status,
            "table": self.table,
            "seat": self.seat,
            "opponent": self.opponent,
            "opponent_name": self.opponent_name,
        }
