"""Penalty slips: one ruling on an A6 page a judge hands the player, with a QR code that
opens the ruling in the web app (:func:`penalty_slip`); or many, four A6 slips to an A4
page with cut lines (:func:`penalty_slips`): a round's, or those the desk selected."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan import qr
from shinpan.engine.event_rules import DeadlineState
from shinpan.errors import InvalidInput, NotFound
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import DUE_WORDS, EventHeader, EventReport, SlipSheets, event_header
from shinpan.reports.rulings import ReportedRuling, read_rulings
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store import reports as store
from shinpan.store.connection import Connection
from shinpan.store.db import Database

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class DueRemedy:
    """A remedy with a deadline the ruling opened, as the player is told it."""

    remedy_ja: str
    remedy_en: str
    due_kind: str
    due_at: str | None
    state: DeadlineState

    @property
    def when_ja(self) -> str:
        """When it is due, in words (a time is written by the template)."""
        return DUE_WORDS.get(self.due_kind, ("", ""))[0]


@dataclass(frozen=True)
class Slip(EventReport):
    kind: ClassVar[str] = "slip"
    stem: ClassVar[str] = "slip"
    event: EventHeader
    ruling: ReportedRuling
    dues: tuple[DueRemedy, ...]
    url: str
    qr_svg: str
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_tail(self) -> str:
        return f"-ruling-{self.ruling.number}"

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "ruling": self.ruling.as_json(),
            "dues": [d.__dict__ for d in self.dues],
            "url": self.url,
            "generated_at": self.generated_at,
        }

    def csv_table(self) -> None:
        return None


def web_base(base_url: str) -> str:
    """The web app's address a slip's QR code starts with, without the trailing slash;
    refused unless it is an http:// or https:// address."""
    base = base_url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise InvalidInput("the base URL starts with http:// or https://", field="base_url")
    return base


def ruling_url(base_url: str, event_id: int, number: int) -> str:
    """Where the web app shows a ruling."""
    return f"{web_base(base_url)}/slip/{event_id}/{number}"


def qr_svg(text: str) -> str:
    """A QR code as an inline ``<svg>`` element (paths only, no styles)."""
    # Each code's own id: a page of slips holds many, and an id names one element.
    ident = "qr-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]
    return qr.qr_svg(text, box=10, border=2).replace('id="qr-path"', f'id="{ident}"')


def penalty_slip(
    db: Database, event_id: int, number: int, base_url: str = DEFAULT_BASE_URL, *, now: datetime | None = None
) -> Slip:
    """The slip of one ruling, linking to ``base_url``'s page of it."""
    ruling_url(base_url, event_id, number)  # a wrong base URL is refused before reading
    with db.read() as conn:
        event = event_header(conn, event_id)
        slips = _slips(conn, event, [number], base_url, stamp(now))
    return slips[0]


def _slips(
    conn: Connection, event: EventHeader, numbers: Sequence[int], base_url: str, now: str
) -> list[Slip]:
    found = {r.number: r for r in read_rulings(conn, event, numbers=numbers)}
    for number in numbers:
        if number not in found:
            raise NotFound("no ruling {number} in event {event}", number=number, event=event.id)
    dues: dict[int, list[DueRemedy]] = {}
    for d in store.deadlines_of(conn, event.id, numbers):
        dues.setdefault(d.ruling, []).append(
            DueRemedy(d.remedy_ja, d.remedy_en, d.due_kind, d.due_at, d.state)
        )
    heads = read_heads(conn, [event.id])
    made = []
    for number in numbers:
        url = ruling_url(base_url, event.id, number)
        made.append(Slip(event, found[number], tuple(dues.get(number, ())), url, qr_svg(url), now, heads))
    return made


SLIPS_PER_PAGE = 4  # A6 slips on an A4 page


@dataclass(frozen=True)
class PenaltySlips(SlipSheets[Slip]):
    """Many penalty slips, four to an A4 page with cut lines."""

    kind: ClassVar[str] = "slips"
    per_page: ClassVar[int] = SLIPS_PER_PAGE
    event: EventHeader
    round: int | None  # the round whose slips these are; None: selected by number
    slips: tuple[Slip, ...]
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def file_stem(self) -> str:
        if self.round is not None:
            return f"slips-event-{self.event.id}-round-{self.round}"
        numbers = [s.ruling.number for s in self.slips]
        return (
            f"slips-event-{self.event.id}-rulings-{numbers[0]}-{numbers[-1]}"
            if numbers
            else f"slips-event-{self.event.id}"
        )

    def csv_table(self) -> None:
        return None


def penalty_slips(
    db: Database,
    event_id: int,
    *,
    round_no: int | None = None,
    numbers: Sequence[int] | None = None,
    base_url: str = DEFAULT_BASE_URL,
    now: datetime | None = None,
) -> PenaltySlips:
    """The slips of the round's rulings that stand (``round_no``), or of the rulings
    numbered (``numbers``, in their order, each once)."""
    if (round_no is None) == (numbers is None):
        raise InvalidInput("say which slips: a round, or the rulings' numbers", field="rulings")
    ruling_url(base_url, event_id, 1)  # a wrong base URL is refused before reading
    with db.read() as conn:
        event = event_header(conn, event_id)
        if numbers is None:
            assert round_no is not None
            wanted = store.standing_in_round(conn, event_id, round_no)
        else:
            wanted = list(dict.fromkeys(numbers))
            if not wanted:
                raise InvalidInput("say which slips: a round, or the rulings' numbers", field="rulings")
        slips = _slips(conn, event, wanted, base_url, stamp(now))
        heads = read_heads(conn, [event_id])
    return PenaltySlips(event, round_no, tuple(slips), stamp(now), heads)
