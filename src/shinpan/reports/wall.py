"""The venue wall: a round's pairings (by table, and by name in 50-on order) and the standings.

Pure: the caller reads the event and hands over plain rows (:class:`WallPairing`, one per
table; :class:`WallStanding`, one per player); :func:`pairings_by_table`,
:func:`pairings_by_name` and :func:`wall_standings` put them in the order the wall shows them, and
:func:`shinpan.reports.render` writes them as CSV, JSON, HTML or PDF like every report.
Words are Japanese first with English beside them; the tiebreakers are percentages on
paper and fractions (4 decimals) in JSON and CSV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, ClassVar

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.kana import gojuon_key
from shinpan.ledger_head import LedgerHead
from shinpan.tournament import Pairing, Standing
from shinpan.tournament.standings import participant_order

STATUS_WORDS = {
    "active": ("", ""),
    "dropped": ("ドロップ", "dropped"),
    "withdrawn": ("棄権", "withdrawn"),
    "ejected": ("退場", "ejected"),
    "disqualified": ("失格", "disqualified"),
}
PAIRING_COLUMNS = (
    ("卓", "table"),
    ("プレイヤー番号", "player id"),
    ("プレイヤー", "player"),
    ("フリガナ", "reading"),
    ("対戦相手番号", "opponent id"),
    ("対戦相手", "opponent"),
    ("対戦相手フリガナ", "opponent reading"),
)
STANDING_COLUMNS = (
    ("順位", "rank"),
    ("プレイヤー番号", "player id"),
    ("プレイヤー", "player"),
    ("フリガナ", "reading"),
    ("勝ち点", "points"),
    ("勝", "wins"),
    ("敗", "losses"),
    ("分", "draws"),
    ("対戦相手のマッチ勝率", "OMW"),
    ("ゲーム勝率", "GW"),
    ("対戦相手のゲーム勝率", "OGW"),
    ("状態", "status"),
)
# The tiebreakers in words (T9), each (Japanese, English): the standings show the event's chain.
CHAIN_WORDS = {
    "omw": ("対戦相手のマッチ勝率", "OMW"),
    "gw": ("ゲーム勝率", "GW"),
    "ogw": ("対戦相手のゲーム勝率", "OGW"),
    "oomw": ("対戦相手の平均OMW", "OOMW"),
    "seeded": ("シード順", "seeded"),
}
DEFAULT_KEYS = ("omw", "gw", "ogw")

People = Mapping[str, tuple[str, str]]  # participant id -> (name, reading)


@dataclass(frozen=True)
class WallPairing:
    """One table as the wall shows it; ``opponent`` None (and ``table`` None) for the bye."""

    table: int | None
    player: str
    name: str
    reading: str
    opponent: str | None
    opponent_name: str = ""
    opponent_reading: str = ""

    def seen_from_opponent(self) -> WallPairing:
        return WallPairing(
            self.table,
            self.opponent or "",
            self.opponent_name,
            self.opponent_reading,
            self.player,
            self.name,
            self.reading,
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "player": self.player,
            "name": self.name,
            "reading": self.reading,
            "opponent": self.opponent,
            "opponent_name": self.opponent_name,
            "opponent_reading": self.opponent_reading,
        }

    def csv_row(self) -> list[str]:
        table = "" if self.table is None else str(self.table)
        if self.opponent is None:
            return [table, self.player, self.name, self.reading, "", "不戦勝 / bye", ""]
        return [
            table,
            self.player,
            self.name,
            self.reading,
            self.opponent,
            self.opponent_name,
            self.opponent_reading,
        ]


@dataclass(frozen=True)
class WallStanding:
    """One player's line of the standings; ``rank`` None for a disqualified player."""

    rank: int | None
    player: str
    name: str
    reading: str
    points: int
    wins: int
    losses: int
    draws: int
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    status: str
    oomw: Fraction = Fraction(0)
    seeded: int | None = None  # the place in the seeded order (T9), when the chain names it

    def percents(self) -> tuple[str, str, str]:
        """OMW, GW and OGW as the wall prints them: 66.67%."""
        return (percent(self.omw), percent(self.gw), percent(self.ogw))

    def chain_values(self, chain: Sequence[str]) -> list[str]:
        """The chain's keys as the wall prints them, in order: 66.67%, ``seeded`` as a number."""
        return [self._value(key, percent) for key in chain]

    def _value(self, key: str, show: Any) -> str:
        if key == "seeded":
            return "" if self.seeded is None else str(self.seeded)
        return str(show({"omw": self.omw, "gw": self.gw, "ogw": self.ogw, "oomw": self.oomw}[key]))

    def status_words(self) -> tuple[str, str]:
        return STATUS_WORDS.get(self.status, (self.status, self.status))

    def as_json(self, chain: Sequence[str] = DEFAULT_KEYS) -> dict[str, Any]:
        row: dict[str, Any] = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "reading": self.reading,
            "points": self.points,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "omw": decimal(self.omw),
            "gw": decimal(self.gw),
            "ogw": decimal(self.ogw),
            "status": self.status,
        }
        if "oomw" in chain:
            row["oomw"] = decimal(self.oomw)
        if "seeded" in chain:
            row["seeded"] = self.seeded
        return row

    def csv_row(self, chain: Sequence[str] = DEFAULT_KEYS) -> list[str]:
        ja, en = self.status_words()
        if tuple(chain) != DEFAULT_KEYS:
            return [
                *self._csv_start(),
                *(self._value(key, lambda v: f"{decimal(v):.4f}") for key in chain),
                f"{ja} / {en}" if ja else "",
            ]
        return [
            *self._csv_start(),
            f"{decimal(self.omw):.4f}",
            f"{decimal(self.gw):.4f}",
            f"{decimal(self.ogw):.4f}",
            f"{ja} / {en}" if ja else "",
        ]

    def _csv_start(self) -> list[str]:
        return [
            "" if self.rank is None else str(self.rank),
            self.player,
            self.name,
            self.reading,
            str(self.points),
            str(self.wins),
            str(self.losses),
            str(self.draws),
        ]


def percent(value: Fraction) -> str:
    return f"{float(value * 100):.2f}%"


def decimal(value: Fraction) -> float:
    return round(float(value), 4)


def pairing_rows(pairings: Sequence[Pairing], people: People) -> list[WallPairing]:
    """The wall's rows of a round's pairings; ``people`` gives each id's name and reading."""

    def person(player: str | None) -> tuple[str, str]:
        return people.get(player, ("", "")) if player is not None else ("", "")

    return [WallPairing(p.table, p.a, *person(p.a), p.b, *person(p.b)) for p in pairings]


def standing_rows(lines: Sequence[Standing], people: People) -> list[WallStanding]:
    """The wall's rows of the standings, in their order; ``people`` gives each id's name and reading."""
    return [
        WallStanding(
            s.rank,
            s.player,
            *people.get(s.player, ("", "")),
            s.points,
            s.wins,
            s.losses,
            s.draws,
            s.omw,
            s.gw,
            s.ogw,
            str(s.status),
            s.oomw,
            s.seeded,
        )
        for s in lines
    ]


def name_order(line: WallPairing) -> tuple[Any, ...]:
    """A player's place in the 50-on list: by reading (the name when there is none), then id."""
    return (gojuon_key(line.reading or line.name), participant_order(line.player))


@dataclass(frozen=True)
class WallPairings:
    """A round's pairings for the wall: one line per table, or one per player by name."""

    kind: ClassVar[str] = "wall_pairings"
    event_name: str
    round: int
    order: str  # "table" or "name"
    lines: tuple[WallPairing, ...]
    generated_at: str
    time_zone: str = DEFAULT_TIME_ZONE  # the event's: times on the sheet are shown in it
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_stem(self) -> str:
        return f"pairings-round-{self.round}-by-{self.order}"

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event_name,
            "round": self.round,
            "order": self.order,
            "generated_at": self.generated_at,
            "pairings": [line.as_json() for line in self.lines],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        return [f"{ja} / {en}" for ja, en in PAIRING_COLUMNS], [line.csv_row() for line in self.lines]


def by_table(tables: Sequence[WallPairing]) -> list[WallPairing]:
    """One line a table, by table number, the bye last."""
    return sorted(tables, key=lambda t: (t.table is None, t.table or 0, participant_order(t.player)))


def by_name(tables: Sequence[WallPairing]) -> list[WallPairing]:
    """One line a player, both players of a table each under their own name, in 50-on order
    of their readings (:func:`shinpan.kana.gojuon_key`)."""
    both = [*tables, *(t.seen_from_opponent() for t in tables if t.opponent is not None)]
    return sorted(both, key=name_order)


PAIRING_ORDERS = {"table": by_table, "name": by_name}


def wall_pairings(
    order: str,
    event_name: str,
    round_no: int,
    tables: Sequence[WallPairing],
    *,
    generated_at: str,
    time_zone: str = DEFAULT_TIME_ZONE,
) -> WallPairings:
    """The round's pairings in one of :data:`PAIRING_ORDERS` (``table``, ``name``)."""
    lines = PAIRING_ORDERS[order](tables)
    return WallPairings(event_name, round_no, order, tuple(lines), generated_at, time_zone)


pairings_by_table = partial(wall_pairings, "table")
pairings_by_name = partial(wall_pairings, "name")


@dataclass(frozen=True)
class WallStandings:
    """The standings after a round, for the wall."""

    kind: ClassVar[str] = "wall_standings"
    event_name: str
    round: int
    lines: tuple[WallStanding, ...]
    generated_at: str
    time_zone: str = DEFAULT_TIME_ZONE  # the event's: times on the sheet are shown in it
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)
    chain: tuple[str, ...] = DEFAULT_KEYS  # the event's tiebreakers (T9), in order

    @property
    def file_stem(self) -> str:
        return f"standings-round-{self.round}"

    @property
    def chain_words(self) -> list[tuple[str, str]]:
        """The chain's keys in words, in order: (Japanese, English)."""
        return [CHAIN_WORDS[key] for key in self.chain]

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event_name,
            "round": self.round,
            "generated_at": self.generated_at,
            "tiebreakers": list(self.chain),
            "standings": [line.as_json(self.chain) for line in self.lines],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        columns = [*STANDING_COLUMNS[:8], *self.chain_words, STANDING_COLUMNS[-1]]
        return [f"{ja} / {en}" for ja, en in columns], [line.csv_row(self.chain) for line in self.lines]


def wall_standings(
    event_name: str,
    round_no: int,
    lines: Sequence[WallStanding],
    *,
    generated_at: str,
    time_zone: str = DEFAULT_TIME_ZONE,
    chain: Sequence[str] = DEFAULT_KEYS,
) -> WallStandings:
    """The standings as they stood at the end of ``round_no``, in the order given (best first),
    with the event's tiebreakers (``chain``, T9) in its order."""
    return WallStandings(event_name, round_no, tuple(lines), generated_at, time_zone, chain=tuple(chain))
