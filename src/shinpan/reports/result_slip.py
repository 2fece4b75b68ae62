"""Result slips: one per table of a round, eight to an A4 page with cut lines.

Each slip says the round and the table, both players with their readings and ids, has
boxes to write each duel's winner and the match's score, lines for both players'
signatures, and the match's code with a QR code (:mod:`shinpan.tournament.codes`): the
winner reports the result with it where the event allows (T11); a second QR code opens
the page where the table calls a judge (T14). The bye has no slip.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar
from urllib.parse import quote

from shinpan.errors import InvalidInput
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import EventHeader, SlipSheets, event_header
from shinpan.reports.slip import DEFAULT_BASE_URL, qr_svg, web_base
from shinpan.services.codes import match_codes
from shinpan.services.context import load_event, stamp
from shinpan.services.heads import read_heads
from shinpan.store import matches as stored_matches
from shinpan.store.db import Database
from shinpan.store.roster import names
from shinpan.tournament.formats import MatchFormat
from shinpan.views.standings import read_format

PER_PAGE = 8
DUELS = 3  # boxes for a best of three


@dataclass(frozen=True)
class Seat:
    """A player at the table as the slip names them."""

    number: str
    name: str
    reading: str


@dataclass(frozen=True)
class ResultSlip:
    """One table's slip."""

    table: int
    a: Seat
    b: Seat
    code: str
    url: str
    qr_svg: str
    call_url: str = ""  # T14: where the table calls a judge (a second QR code)
    call_qr_svg: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "a": self.a.__dict__,
            "b": self.b.__dict__,
            "code": self.code,
            "url": self.url,
            "call_url": self.call_url,
        }


@dataclass(frozen=True)
class ResultSlips(SlipSheets[ResultSlip]):
    """A round's result slips, eight to an A4 page with cut lines."""

    kind: ClassVar[str] = "result_slips"
    per_page: ClassVar[int] = PER_PAGE
    event: EventHeader
    round: int
    slips: tuple[ResultSlip, ...]
    generated_at: str
    duels: int = DUELS
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_stem(self) -> str:
        return f"result-slips-event-{self.event.id}-round-{self.round}"

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["卓 / table", "選手番号 / player id", "選手 / player", "フリガナ / reading",
                  "対戦相手番号 / opponent id", "対戦相手 / opponent", "対戦相手フリガナ / opponent reading",
                  "コード / code"]  # fmt: skip
        rows = [
            [str(s.table), s.a.number, s.a.name, s.a.reading, s.b.number, s.b.name, s.b.reading, s.code]
            for s in self.slips
        ]
        return header, rows


def report_url(base_url: str, event_id: int, round_no: int, table: int, code: str) -> str:
    """Where a player reports the match's result with its code (the QR code on the slip)."""
    return f"{web_base(base_url)}/events/{event_id}/report?round={round_no}&table={table}&code={quote(code)}"


def call_url(base_url: str, event_id: int, table: int) -> str:
    """Where the table's players call a judge (T14): the QR code beside the report's."""
    return f"{web_base(base_url)}/events/{event_id}/call?table={table}"


def result_slips(
    db: Database,
    event_id: int,
    round_no: int | None = None,
    base_url: str = DEFAULT_BASE_URL,
    *,
    tables: Sequence[int] | None = None,
    now: datetime | None = None,
) -> ResultSlips:
    """The slips of a round (default: the current one), every table's or those listed."""
    with db.read() as conn:
        event = event_header(conn, event_id)
        number = round_no or load_event(conn, event_id).current_round
        if number < 1:
            raise InvalidInput("no round is paired yet", field="round")
        paired = stored_matches.round_matches(conn, event_id, number)
        if not paired:
            raise InvalidInput("round {round} is not paired", field="round", round=number)
        played = [m for m in paired if m.player_b is not None]
        if tables is not None:
            wanted = set(tables)
            missing = sorted(wanted - {m.table_no for m in played})
            if missing:
                raise InvalidInput(
                    "round {round} has no table {table}", field="table", round=number, table=missing[0]
                )
            played = [m for m in played if m.table_no in wanted]
        people = names(conn, event_id)
        codes = match_codes(db, conn, event_id, number, [m.table_no for m in played])
        heads = read_heads(conn, [event_id])
        best_of_one = read_format(conn, event_id).match_format is MatchFormat.bo1

    def seat(player: str) -> Seat:
        p = people.get(player)
        return Seat(player, p.name if p else "", p.reading if p else "")

    slips = []
    for m in sorted(played, key=lambda m: m.table_no):
        assert m.player_b is not None
        url = report_url(base_url, event_id, number, m.table_no, codes[m.table_no])
        calling = call_url(base_url, event_id, m.table_no)
        slips.append(
            ResultSlip(
                m.table_no,
                seat(m.player_a),
                seat(m.player_b),
                codes[m.table_no],
                url,
                qr_svg(url),
                calling,
                qr_svg(calling),
            )
        )
    # The slip follows the format (T7): best of one has one duel to write.
    return ResultSlips(
        event, number, tuple(slips), stamp(now), duels=1 if best_of_one else DUELS, heads=heads
    )
