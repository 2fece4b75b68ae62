"""What every service needs: the clock, the event and its guideline, who is acting."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from shinpan.engine.clock import DEFAULT_TIME_ZONE
from shinpan.engine.event_rules import Action, Role, may
from shinpan.errors import Forbidden, InvalidInput, NotFound
from shinpan.files import guidelines
from shinpan.store.connection import Connection
from shinpan.store.rounds import Round, round_of
from shinpan.store.settings import event_settings, judge_role

if TYPE_CHECKING:  # the guideline loads when an event's is first asked for
    from shinpan.guideline import Rulebook

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def stamp(moment: datetime | None = None) -> str:
    """A moment as the ledger writes it: UTC, microseconds, ISO 8601 (:data:`TIME_FORMAT`;
    ``isoformat`` writes it three times faster than ``strftime``)."""
    utc = (moment or datetime.now(UTC)).astimezone(UTC)
    return utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def parse_stamp(value: str) -> datetime:
    """A moment the ledger wrote (``fromisoformat`` reads it 50 times faster than ``strptime``)."""
    moment = datetime.fromisoformat(value)
    if moment.utcoffset() != timedelta(0):
        raise ValueError(f"not a time as the ledger writes it: {value!r}")
    return moment


def later(value: str, minutes: int) -> str:
    return stamp(parse_stamp(value) + timedelta(minutes=minutes))


@cache
def zone_of(name: str | None) -> ZoneInfo:
    """An event's time zone; an unknown name (a database from elsewhere) as Japan's."""
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def moment(stamp: str) -> datetime:
    """A ledger stamp (``2026-12-02T08:43:56.524880Z``, UTC) as a datetime."""
    return datetime.fromisoformat(stamp)


def local_time(stamp: str | None, zone: str | None = DEFAULT_TIME_ZONE, *, style: str = "full") -> str:
    """A ledger stamp (UTC) as a person at the event reads it, in the event's time zone: the
    one place times are written for people (screens, reports, CSV). ``full``:
    ``2026-12-02 17:43:56``; ``short``: ``12-02 17:43``; ``clock``: ``17:43``."""
    if not stamp:
        return ""
    if style == "full" and len(stamp) > 19 and stamp[-1] == "Z" and stamp[16] == ":":
        # Zones move by whole minutes: each minute is worked out once (a report of 20,000
        # rulings holds 20,000 different stamps, a few hundred different minutes).
        minute = _local_minute(stamp[:16], zone)
        if minute:
            return minute + stamp[16:19]
    return _local_time(stamp, zone, style)


@lru_cache(maxsize=1 << 16)
def _local_time(stamp: str, zone: str | None, style: str) -> str:
    local = moment(stamp).astimezone(zone_of(zone))
    formats = {"full": "%Y-%m-%d %H:%M:%S", "short": "%m-%d %H:%M", "clock": "%H:%M"}
    return local.strftime(formats[style])


@lru_cache(maxsize=1 << 14)
def _local_minute(minute: str, zone: str | None) -> str:
    """``2026-12-02T08:43`` (UTC) as ``2026-12-02 17:43`` in the zone; empty where the zone's
    offset is not whole minutes (local mean time, before 1900)."""
    local = moment(minute + ":00Z").astimezone(zone_of(zone))
    offset = local.utcoffset()
    if offset is None or offset.seconds % 60:
        return ""
    return local.strftime("%Y-%m-%d %H:%M")


def rulebook_for(guideline_id: str, version: str) -> Rulebook:
    """The guideline an event runs under: one the installation holds (published files never
    change; see :mod:`shinpan.files.guidelines`)."""
    return guidelines.rulebook_for(guideline_id, version)


_BOOKS = guidelines._BOOKS  # the rulebooks built in this process, by id and version


@dataclass(frozen=True)
class Event:
    """An event as services need it."""

    id: int
    name: str
    rel: int
    guideline_id: str
    guideline_version: str
    head_judge: str
    confirmation_threshold: str
    current_round: int
    time_zone: str = DEFAULT_TIME_ZONE  # every time shown for the event is in it

    @property
    def book(self) -> Rulebook:
        return rulebook_for(self.guideline_id, self.guideline_version)

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Event:
        """From the event's settings by their column names (see :mod:`shinpan.store.settings`)."""
        get = row.__getitem__
        return cls(
            id=get("event_id"),
            name=get("name"),
            rel=get("rel"),
            guideline_id=get("guideline_id"),
            guideline_version=get("guideline_version"),
            head_judge=get("head_judge"),
            confirmation_threshold=get("confirmation_threshold"),
            current_round=get("current_round"),
            time_zone=get("time_zone"),
        )


_CURRENT = "shinpan.event"


def load_event(conn: Connection, event_id: int) -> Event:
    """The event, as read in this transaction (a command reads it once, see :func:`holding`)."""
    held = conn.info.get(_CURRENT)
    if isinstance(held, Event) and held.id == event_id:
        return held
    found = event_settings(conn, event_id)
    if found is None:
        raise NotFound("no event {event}", event=event_id)
    return Event.of(found._asdict())


MAX_REASON = 500  # characters: a reason given with a command (a table's extra time, a corrected result)


def check_reason(reason: str | None) -> None:
    """Refused when the reason given with a command is longer than :data:`MAX_REASON`."""
    if reason is not None and len(reason) > MAX_REASON:
        raise InvalidInput("the reason has at most {limit} characters", field="reason", limit=MAX_REASON)


def paired_round(conn: Connection, event_id: int, round_no: int) -> Round:
    """The round ``round_no`` of the event; refused (404) when it has not been paired."""
    row = round_of(conn, event_id, round_no)
    if row is None:
        raise NotFound("round {round} is not paired", round=round_no)
    return row


def role_of(conn: Connection, event_id: int, judge: str) -> Role:
    return authorized(event_id, judge, judge_role(conn, event_id, judge), None)


def authorized(event_id: int, judge: str, role: str | None, action: Action | None) -> Role:
    """The judge's role, once it allows ``action`` (D11; None: any role)."""
    if role is None:
        raise NotFound("{judge} is not a judge of event {event}", judge=judge, event=event_id)
    found = Role(role)
    if action is not None and not may(found, action):
        raise Forbidden("{judge} ({role}) may not {action}", judge=judge, role=found.value, action=action)
    return found


def require(conn: Connection, event: Event, actor: str | None, action: Action) -> str:
    """The acting judge's name, once their role allows ``action`` (D11); default: head judge."""
    name = actor or event.head_judge
    authorized(event.id, name, role_of(conn, event.id, name).value, action)
    return name


@contextmanager
def holding(conn: Connection, event: Event) -> Iterator[None]:
    """Within one write transaction, :func:`load_event` answers from ``event`` (read under
    the event's lock, so nothing else can change it meanwhile)."""
    conn.info[_CURRENT] = event
    try:
        yield
    finally:
        conn.info.pop(_CURRENT, None)
