"""A penalty slip: one ruling on an A6 page a judge hands the player, with a QR code that
opens the ruling in the web app."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan.errors import InvalidInput, NotFound
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import EventHeader, event_header
from shinpan.reports.rulings import ReportedRuling, read_rulings
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store import reports as store
from shinpan.store.db import Database

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class DueRemedy:
    """A remedy with a deadline the ruling opened, as the player is told it."""

    remedy_ja: str
    remedy_en: str
    due_kind: str
    due_at: str | None
    state: str


@dataclass(frozen=True)
class Slip:
    kind: ClassVar[str] = "slip"
    event: EventHeader
    ruling: ReportedRuling
    dues: tuple[DueRemedy, ...]
    url: str
    qr_svg: str
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def time_zone(self) -> str:
        return self.event.time_zone

    @property
    def file_stem(self) -> str:
        return f"slip-event-{self.event.id}-ruling-{self.ruling.number}"

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


def ruling_url(base_url: str, event_id: int, number: int) -> str:
    """Where the web app shows a ruling."""
    base = base_url.strip().rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise InvalidInput("the base URL starts with http:// or https://", field="base_url")
    return f"{base}/events/{event_id}/rulings/{number}"


def qr_svg(text: str) -> str:
    """A QR code as an inline ``<svg>`` element (paths only, no styles)."""
    import qrcode  # loaded for a slip only
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    svg = buffer.getvalue().decode("utf-8")
    return svg[svg.index("<svg") :]


def penalty_slip(
    db: Database, event_id: int, number: int, base_url: str = DEFAULT_BASE_URL, *, now: datetime | None = None
) -> Slip:
    """The slip of one ruling, linking to ``base_url``'s page of it."""
    url = ruling_url(base_url, event_id, number)
    with db.read() as conn:
        event = event_header(conn, event_id)
        found = read_rulings(conn, event, numbers=[number])
        if not found:
            raise NotFound("no ruling {number} in event {event}", number=number, event=event_id)
        dues = tuple(
            DueRemedy(d.remedy_ja, d.remedy_en, d.due_kind, d.due_at, d.state)
            for d in store.deadlines_of(conn, event_id, [number])
        )
        heads = read_heads(conn, [event_id])
    return Slip(event, found[0], dues, url, qr_svg(url), stamp(now), heads)
