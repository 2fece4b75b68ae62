"""What every report shares: the event's header, the guideline's words, times as people read them.

Reports only read. They take what the ledger and its projections say and put it in the
order and words an organiser, a head judge or a player reads; nothing here decides a rule.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.errors import NotFound
from shinpan.guideline import Rulebook
from shinpan.services.context import local_time as local_time  # the one place times are written for people
from shinpan.services.context import moment, rulebook_for, zone_of
from shinpan.store import reports as store
from shinpan.store.connection import Connection
from shinpan.tournament.standings import participant_order

GENERAL = "general"  # the category of the general rules (D3, D4)
# A ruling's state as a CSV says it: Japanese, then English.
STATE_WORDS = {
    "pending": "承認待ち / pending", "confirmed": "承認済み / confirmed",
    "recorded": "記録済み / recorded", "voided": "取消 / voided",
}  # fmt: skip
# A player's status and an appeal's outcome, as a report says them: Japanese, then English.
STATUS_WORDS = {
    "active": ("参加中", "active"), "dropped": ("ドロップ", "dropped"), "withdrawn": ("棄権", "withdrawn"),
    "ejected": ("退場", "ejected"), "disqualified": ("失格", "disqualified"),
}  # fmt: skip
OUTCOMES = {
    "upheld": ("上訴を退け、裁定を維持", "appeal denied, the ruling stands"),
    "overturned": ("上訴を認め、裁定を取消", "appeal granted, the ruling is voided"),
    "changed": ("上訴により罰則を変更", "the penalty was changed on appeal"),
}  # fmt: skip
# Time zones a Japanese reader names in words; any other by its name.
ZONE_WORDS = {"Asia/Tokyo": "日本時間"}
# When a remedy is due, as a slip tells the player: Japanese, then English.
DUE_WORDS = {
    "minutes": ("時間内", "in time"),
    "end_of_match": ("マッチの終了時まで", "by the end of the match"),
    "end_of_round": ("ラウンドの終了時まで", "by the end of the round"),
    "before_next_match": ("次のマッチまで", "before the next match"),
}  # fmt: skip


@contextmanager
def bulk() -> Iterator[None]:
    """Make many small records (a report's rulings, its CSV rows) without the cyclic garbage
    collector stopping again and again to scan them: they hold no cycles (a third of the
    time of a 20,000-ruling CSV went to those scans). Afterwards what was made counts as
    old (``freeze`` then ``unfreeze`` moves every object to the oldest generation, which a
    full collection still scans later), so the first allocation after does not scan it all
    at once; the collector then runs as before."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def zone_label(zone: str | None = DEFAULT_TIME_ZONE) -> str:
    """The zone as column headers and page footers name it (``Asia/Tokyo``): its name, which
    stays right across a change to or from summer time, unlike an abbreviation."""
    return zone_of(zone).key


def zone_words(zone: str | None = DEFAULT_TIME_ZONE) -> tuple[str, str]:
    """The zone in Japanese and English: ``日本時間``, ``Asia/Tokyo``."""
    label = zone_label(zone)
    return ZONE_WORDS.get(label, label), label


# The time zones of Japan: an event held there prints its paper in Japanese only (T12: the
# event's language), unless both languages are asked for.
JAPANESE_ZONES = frozenset({"Asia/Tokyo", "Japan"})


def paper_language(time_zone: str | None) -> str:
    """The language an event's paper is printed in when none is asked: ``ja`` (Japanese only)
    for an event held in Japan (its time zone), else ``both`` (Japanese with English beside it)."""
    return "ja" if zone_label(time_zone) in JAPANESE_ZONES else "both"


def shared_zone(headers: Iterable[EventHeader]) -> str:
    """The zone of a report over several events: theirs if they share one, else Japan's."""
    zones = {h.time_zone for h in headers}
    return zones.pop() if len(zones) == 1 else DEFAULT_TIME_ZONE


def minutes_between(start: str, end: str) -> float:
    return (moment(end) - moment(start)).total_seconds() / 60


# -- the event ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EventHeader:
    """The event a report is about, as its first lines say it."""

    id: int
    name: str
    starts_on: str | None
    ends_on: str | None
    venue: str | None
    rel: int
    head_judge: str
    guideline_id: str
    guideline_version: str
    time_zone: str = DEFAULT_TIME_ZONE

    @property
    def book(self) -> Rulebook:
        return rulebook_for(self.guideline_id, self.guideline_version)

    @property
    def dates(self) -> str:
        if self.starts_on and self.ends_on and self.ends_on != self.starts_on:
            return f"{self.starts_on} – {self.ends_on}"
        return self.starts_on or ""

    def as_json(self) -> dict[str, object]:
        return asdict(self)


def _header(r: store.EventRecord) -> EventHeader:
    return EventHeader(*r)  # the record's columns in the header's order (its id is ``event_id``)


class EventReport:
    """A report about one event: times in the event's zone; its file named
    ``<stem>-event-<id>`` and what :attr:`file_tail` adds (a round, a player, a ruling). A
    frozen dataclass under it gives the fields; the stem is the subclass's."""

    stem: ClassVar[str]
    event: EventHeader

    @property
    def time_zone(self) -> str:
        return self.event.time_zone

    @property
    def file_stem(self) -> str:
        return f"{self.stem}-event-{self.event.id}{self.file_tail}"

    @property
    def file_tail(self) -> str:
        return ""


def event_header(conn: Connection, event_id: int) -> EventHeader:
    found = store.event(conn, event_id)
    if found is None:
        raise NotFound("no event {event}", event=event_id)
    return _header(found)


def event_headers(conn: Connection, event_ids: Sequence[int] | None = None) -> list[EventHeader]:
    """Every event (or those listed), oldest first."""
    return [_header(r) for r in store.events(conn, event_ids)]


# -- people ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    number: str
    name: str
    reading: str
    status: str


def people(conn: Connection, event_id: int, numbers: Iterable[str] | None = None) -> dict[str, Person]:
    """The event's players by number (all of them, or those listed)."""
    return {n: Person(*p) for n, p in store.players(conn, event_id, numbers).items()}


def player_order(number: str) -> tuple[int, int, str]:
    """Players in id order, numeric ids by value: 2 before 10 (the tournament core's order)."""
    return participant_order(number)


# -- the guideline's words ------------------------------------------------------------------


def is_reported(book: Rulebook, codes: Iterable[str]) -> bool:
    """Whether the official report lists a ruling with these components (cautions do not)."""
    return any(c in book.components and book.components[c].reported for c in codes)


def abbreviations(book: Rulebook, codes: Sequence[str]) -> str:
    """The penalty in the source's abbreviations: ``警1+デ敗``."""
    labels = []
    for code in codes:
        c = book.components.get(code) or book.effects.get(code)
        labels.append((c.abbr or c.name.ja) if c is not None else code)
    return "+".join(labels)


def category(book: Rulebook, rule: str) -> tuple[str, str, str]:
    """A rule's category: id, Japanese and English name (the general rules are ``general``)."""
    inf = book.infractions.get(rule)
    if inf is None:
        return GENERAL, "一般規定", "General rules"
    for c in book.guideline.categories:
        if c.id == inf.category:
            return c.id, c.name.ja, c.name.en
    return inf.category, inf.category, inf.category


def rule_order(book: Rulebook, rule: str) -> int:
    """The guideline's own order of its rules: general rules first, then each infraction."""
    key = (book.guideline.id, book.guideline.version)
    if key not in _POSITIONS:
        _POSITIONS[key] = {rule: n for n, rule in enumerate(book.rule_ids())}
    positions = _POSITIONS[key]
    return positions.get(rule, len(positions))


_POSITIONS: dict[tuple[str, str], dict[str, int]] = {}


T = TypeVar("T")


def in_pages(items: tuple[T, ...], per_page: int) -> list[tuple[T, ...]]:
    """``items`` cut into sheets of ``per_page``, in order (the last may hold fewer)."""
    return [items[n : n + per_page] for n in range(0, len(items), per_page)]


class OneSlip(Protocol):
    """One slip on a sheet: what it says in the report's JSON."""

    def as_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=OneSlip)


class SlipSheets(Generic[S]):
    """Slips cut into A4 pages with cut lines (penalty slips, result slips): their pages,
    their time zone and their JSON, one way for every kind. A frozen dataclass under it
    gives the fields; the kind and the slips to a page are the subclass's."""

    kind: ClassVar[str]
    per_page: ClassVar[int]
    event: EventHeader
    round: int | None  # the round whose slips these are (None: penalty slips chosen by number)
    slips: tuple[S, ...]
    generated_at: str

    @property
    def time_zone(self) -> str:
        return self.event.time_zone

    @property
    def pages(self) -> list[tuple[S, ...]]:
        """The slips in pages of :attr:`per_page`, in order."""
        return in_pages(self.slips, self.per_page)

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "round": self.round,
            "generated_at": self.generated_at,
            "slips": [s.as_json() for s in self.slips],
        }
