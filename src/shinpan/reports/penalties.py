"""The event penalty report: every ruling the guideline reports, the way an organiser reads it.

A ruling is in the report when any of its penalties, or of the guideline's penalties for
it, is a component the guideline marks ``reported``: cautions and draft warnings stay
out. Voided rulings stay in, marked, with the reason and who voided them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan.errors import InvalidInput
from shinpan.guideline import Rulebook
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import (
    STATE_WORDS,
    EventHeader,
    EventReport,
    bulk,
    event_header,
    local_time,
    player_order,
    rule_order,
    zone_label,
)
from shinpan.reports.rulings import Act, ReportedRuling, read_rulings
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store.db import Database

GROUPINGS = ("round", "player", "infraction")
_LAST = 1 << 30  # rulings with no round or table come last


@dataclass(frozen=True)
class Group:
    """The rulings of one round, one player or one infraction."""

    key: str
    label_ja: str
    label_en: str
    rulings: tuple[ReportedRuling, ...]

    def label(self, lang: str) -> str:
        return self.label_en if lang == "en" else self.label_ja


@dataclass(frozen=True)
class PenaltyReport(EventReport):
    kind: ClassVar[str] = "penalties"
    stem: ClassVar[str] = "penalties"
    event: EventHeader
    group_by: str
    groups: tuple[Group, ...]
    left_out: int  # rulings the report does not list: cautions, draft warnings, no penalty
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def rulings(self) -> list[ReportedRuling]:
        return [r for g in self.groups for r in g.rulings]

    @property
    def voided(self) -> int:
        return sum(1 for r in self.rulings if r.voided)

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "group_by": self.group_by,
            "generated_at": self.generated_at,
            "rulings_count": len(self.rulings),
            "voided_count": self.voided,
            "left_out": self.left_out,
            "groups": [
                {
                    "key": g.key,
                    "label_ja": g.label_ja,
                    "label_en": g.label_en,
                    "rulings": [r.as_json() for r in g.rulings],
                }
                for g in self.groups
            ],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        zone = self.time_zone
        with bulk():
            return csv_header(zone), [csv_row(r, zone) for r in self.rulings]


def penalty_report(
    db: Database, event_id: int, group_by: str = "round", *, now: datetime | None = None
) -> PenaltyReport:
    """The official penalty report of an event, grouped by round, player or infraction."""
    if group_by not in GROUPINGS:
        raise InvalidInput("group the report by round, player or infraction", field="group")
    with db.read() as conn:
        event = event_header(conn, event_id)
        everything = read_rulings(conn, event)
        heads = read_heads(conn, [event_id])
    with bulk():
        listed = [r for r in everything if r.reported]
        groups = group_rulings(event.book, listed, group_by)
    return PenaltyReport(event, group_by, groups, len(everything) - len(listed), stamp(now), heads)


def _by_round(r: ReportedRuling) -> tuple[int, int, int]:
    return (r.round if r.round is not None else _LAST, r.table if r.table is not None else _LAST, r.number)


def group_rulings(book: Rulebook, listed: Sequence[ReportedRuling], group_by: str) -> tuple[Group, ...]:
    """Sort and group: by round (then table), by player id, or in the guideline's order."""
    key: Callable[[ReportedRuling], Any]
    if group_by == "round":
        key = _by_round
    elif group_by == "player":
        key = lambda r: (player_order(r.player), r.number)  # noqa: E731
    else:
        key = lambda r: (rule_order(book, r.rule), _by_round(r))  # noqa: E731
    groups: list[Group] = []
    current: list[ReportedRuling] = []
    current_key: str | None = None
    for r in sorted(listed, key=key):
        k = _group_key(r, group_by)
        if k != current_key and current:
            groups.append(_group(current, group_by))
            current = []
        current_key = k
        current.append(r)
    if current:
        groups.append(_group(current, group_by))
    return tuple(groups)


def _group_key(r: ReportedRuling, group_by: str) -> str:
    if group_by == "round":
        return str(r.round) if r.round is not None else "none"
    return r.player if group_by == "player" else r.rule


def _group(rulings: list[ReportedRuling], group_by: str) -> Group:
    first = rulings[0]
    key = _group_key(first, group_by)
    if group_by == "round":
        if first.round is None:
            ja, en = "ラウンド外", "Outside any round"
        else:
            ja, en = f"第{first.round}ラウンド", f"Round {first.round}"
    elif group_by == "player":
        ja = en = f"{first.player} {first.player_name}".strip()
    else:
        ja, en = first.infraction_ja, first.infraction_en
    return Group(key, ja, en, tuple(rulings))


# -- CSV: one line per ruling, every column an organiser files ----------------------------

CSV_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("number", "裁定番号", "ruling"),
    ("round", "ラウンド", "round"),
    ("table", "卓", "table"),
    ("player", "選手番号", "player id"),
    ("player_name", "選手名", "player name"),
    ("infraction_ja", "違反", "infraction (Japanese)"),
    ("infraction_en", "違反(英語)", "infraction (English)"),
    ("offense", "回数", "offence"),
    ("follow_up", "期限超過の追加裁定", "follow-up"),
    ("penalty_abbr", "罰則(略号)", "penalty (abbreviation)"),
    ("penalties_ja", "罰則", "penalty (Japanese)"),
    ("penalties_en", "罰則(英語)", "penalty (English)"),
    ("guideline_abbr", "ガイドラインの罰則(略号)", "guideline penalty (abbreviation)"),
    ("remedy_ja", "追加措置", "remedy (Japanese)"),
    ("remedy_en", "追加措置(英語)", "remedy (English)"),
    ("judge", "記録したジャッジ", "issued by"),
    ("recorded_at", "記録時刻", "issued at"),
    ("confirmed_by", "確認したジャッジ", "confirmed by"),
    ("confirmed_at", "確認時刻", "confirmed at"),
    ("deviations", "逸脱と理由", "deviations and reasons"),
    ("state", "状態", "state"),
    ("void_reason", "取消理由", "void reason"),
    ("voided_by", "取消したジャッジ", "voided by"),
    ("voided_at", "取消時刻", "voided at"),
)
_TIMES = {"recorded_at", "confirmed_at", "voided_at"}


def csv_header(zone: str) -> list[str]:
    label = zone_label(zone)
    return [f"{ja} / {en} ({label})" if key in _TIMES else f"{ja} / {en}" for key, ja, en in CSV_COLUMNS]


def deviation_text(d: Act, zone: str) -> str:
    when = local_time(d.at, zone)
    return f"{d.penalties_ja} / {d.penalties_en}; 理由 reason: {d.reason} ({d.judge} {when})"


def csv_row(r: ReportedRuling, zone: str) -> list[str]:
    """A ruling as its CSV line, in the order of :data:`CSV_COLUMNS`; times in the event's zone.
    Written out column by column: a report of 20,000 rulings makes 20,000 of these."""
    confirmed, void = r.confirmations[0] if r.confirmations else None, r.void
    return [
        str(r.number),
        "" if r.round is None else str(r.round),
        "" if r.table is None else str(r.table),
        r.player,
        r.player_name,
        r.infraction_ja,
        r.infraction_en,
        "" if r.offense is None else str(r.offense),
        "はい / yes" if r.follow_up else "",
        r.penalty_abbr,
        r.penalties_ja,
        r.penalties_en,
        r.guideline_abbr,
        r.remedy_ja,
        r.remedy_en,
        r.judge,
        local_time(r.recorded_at, zone),
        confirmed.judge if confirmed else "",
        local_time(confirmed.at, zone) if confirmed else "",
        " | ".join(deviation_text(d, zone) for d in r.deviations) if r.deviations else "",
        STATE_WORDS.get(r.state, r.state),
        void.reason if void else "",
        void.judge if void else "",
        local_time(void.at, zone) if void else "",
    ]
