"""Statistics for judges to learn from: for one event, or across events.

Counts are of the rulings that stand (voided ones are counted apart): by category, by
infraction, by round and by the judge who issued them. Then how often each judge's rulings
were later deviated from or voided, how long rulings waited for the head judge (from the
recording to the first ``ruling.confirmed`` or ``ruling.deviated`` entry), and which
remedies' deadlines were missed; and the judge calls (:mod:`shinpan.reports.call_stats`).
"""

from __future__ import annotations

import statistics as pystats
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan.engine.event_rules import RulingState
from shinpan.ledger_head import LedgerHead
from shinpan.reports.call_stats import CallStats, call_stats
from shinpan.reports.common import (
    GENERAL,
    EventHeader,
    category,
    event_header,
    event_headers,
    minutes_between,
    people,
    rule_order,
    shared_zone,
)
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store import reports as store
from shinpan.store.connection import Connection
from shinpan.store.db import Database

TALLY_NAMES = {"category": ("カテゴリ別", "by category"), "infraction": ("違反別", "by infraction"),
               "round": ("ラウンド別", "by round"), "judge": ("ジャッジ別", "by issuing judge")}  # fmt: skip


@dataclass(frozen=True)
class Tally:
    key: str
    label_ja: str
    label_en: str
    count: int

    def label(self, lang: str) -> str:
        return self.label_en if lang == "en" else self.label_ja


@dataclass(frozen=True)
class JudgeRecord:
    """How a judge's rulings fared: recorded, later deviated from, voided."""

    judge: str
    recorded: int
    deviated: int
    voided: int

    @property
    def deviated_percent(self) -> float:
        return round(100 * self.deviated / self.recorded, 1) if self.recorded else 0.0

    @property
    def voided_percent(self) -> float:
        return round(100 * self.voided / self.recorded, 1) if self.recorded else 0.0


@dataclass(frozen=True)
class Waiting:
    """Minutes from recording to the head judge's confirmation."""

    confirmed: int
    pending: int
    median_minutes: float | None
    mean_minutes: float | None
    max_minutes: float | None


@dataclass(frozen=True)
class MissedDeadline:
    event_id: int
    ruling: int
    player: str
    player_name: str
    rule: str
    infraction_ja: str
    infraction_en: str
    remedy_ja: str
    remedy_en: str
    due_kind: str
    round: int | None
    table: int | None
    closed_at: str | None

    def infraction(self, lang: str) -> str:
        return self.infraction_en if lang == "en" else self.infraction_ja

    def remedy(self, lang: str) -> str:
        return self.remedy_en if lang == "en" else self.remedy_ja


@dataclass(frozen=True)
class Statistics:
    kind: ClassVar[str] = "stats"
    events: tuple[EventHeader, ...]
    scope: int | None  # the event, or None: every event listed
    total: int
    voided: int
    by_category: tuple[Tally, ...]
    by_infraction: tuple[Tally, ...]
    by_round: tuple[Tally, ...]
    by_judge: tuple[Tally, ...]
    judges: tuple[JudgeRecord, ...]
    waiting: Waiting
    missed: tuple[MissedDeadline, ...]
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)
    calls: CallStats | None = None  # judge calls (T14)

    @property
    def time_zone(self) -> str:
        return shared_zone(self.events)

    @property
    def file_stem(self) -> str:
        return f"stats-event-{self.scope}" if self.scope is not None else "stats-all-events"

    @property
    def tallies(self) -> dict[str, tuple[Tally, ...]]:
        return {
            "category": self.by_category,
            "infraction": self.by_infraction,
            "round": self.by_round,
            "judge": self.by_judge,
        }

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["events"] = [e.as_json() for e in self.events]
        out["judges"] = [
            asdict(j) | {"deviated_percent": j.deviated_percent, "voided_percent": j.voided_percent}
            for j in self.judges
        ]
        return {"report": self.kind, **out}

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["集計 / tally", "項目 / label", "項目(英語) / label (English)", "件数 / count"]
        rows = [
            [" / ".join(TALLY_NAMES.get(name, (name, name))), t.label_ja, t.label_en, str(t.count)]
            for name, ts in self.tallies.items()
            for t in ts
        ]
        return header, rows


def statistics(
    db: Database,
    event_id: int | None = None,
    *,
    event_ids: Sequence[int] | None = None,
    now: datetime | None = None,
) -> Statistics:
    """Statistics of one event, or of every event (or of those listed in ``event_ids``)."""
    categories: Counter[tuple[str, str, str]] = Counter()
    infractions: Counter[tuple[str, str, str]] = Counter()
    rounds: Counter[int | None] = Counter()
    issued: Counter[str] = Counter()
    deviated: Counter[str] = Counter()
    voided: Counter[str] = Counter()
    waits: list[float] = []
    pending = 0
    missed: list[MissedDeadline] = []
    order: dict[str, int] = {}
    with db.read() as conn:
        headers = [event_header(conn, event_id)] if event_id is not None else event_headers(conn, event_ids)
        for event in headers:
            book = event.book
            for n, c in enumerate(book.guideline.categories):
                order.setdefault(c.id, n)
            rows = store.tallies(conn, event.id)
            decided: dict[int, str] = {}
            changed: set[int] = set()
            for act in store.acts_on_rulings(conn, event.id, ("ruling.confirmed", "ruling.deviated")):
                for n in act.rulings:
                    decided.setdefault(n, act.at)
                if act.kind == "ruling.deviated":
                    changed.update(act.rulings)
            for r in rows:
                issued[r.judge] += 1
                if r.state == RulingState.voided:
                    voided[r.judge] += 1
                    continue
                deviated[r.judge] += r.number in changed
                cat = category(book, r.rule)
                categories[cat] += 1
                infractions[(r.rule, book.rule_name(r.rule, "ja"), book.rule_name(r.rule, "en"))] += 1
                order.setdefault(r.rule, rule_order(book, r.rule))
                rounds[r.round] += 1
                if r.number in decided:
                    waits.append(minutes_between(r.recorded_at, decided[r.number]))
                elif r.state == RulingState.pending:
                    pending += 1
            missed += _missed(conn, event)
        heads = read_heads(conn, [h.id for h in headers])
        calls = call_stats(conn, [h.id for h in headers])
    return Statistics(
        events=tuple(headers),
        scope=event_id,
        total=sum(issued.values()) - sum(voided.values()),
        voided=sum(voided.values()),
        by_category=_sorted(categories, lambda k: (k[0] == GENERAL, order.get(k[0], 0), k[0])),
        by_infraction=_sorted(infractions, lambda k: (-infractions[k], order.get(k[0], 0))),
        by_round=tuple(
            Tally("none", "ラウンド外", "no round", n)
            if r is None
            else Tally(str(r), f"第{r}ラウンド", f"R{r}", n)
            for r, n in sorted(rounds.items(), key=lambda item: (item[0] is None, item[0] or 0))
        ),
        by_judge=tuple(
            Tally(j, j, j, issued[j] - voided[j])
            for j in sorted(issued, key=lambda j: (-(issued[j] - voided[j]), j))
            if issued[j] - voided[j]
        ),
        judges=tuple(
            JudgeRecord(j, issued[j], deviated[j], voided[j])
            for j in sorted(issued, key=lambda j: (-issued[j], j))
        ),
        waiting=_waiting(waits, pending),
        missed=tuple(missed),
        generated_at=stamp(now),
        heads=heads,
        calls=calls,
    )


def _sorted(counts: Counter[tuple[str, str, str]], key: Any) -> tuple[Tally, ...]:
    return tuple(Tally(k[0], k[1], k[2], counts[k]) for k in sorted(counts, key=key))


def _waiting(waits: list[float], pending: int) -> Waiting:
    if not waits:
        return Waiting(0, pending, None, None, None)
    return Waiting(
        len(waits),
        pending,
        round(pystats.median(waits), 1),
        round(pystats.fmean(waits), 1),
        round(max(waits), 1),
    )


def _missed(conn: Connection, event: EventHeader) -> list[MissedDeadline]:
    book = event.book
    rows = store.missed_deadlines(conn, event.id)
    names = people(conn, event.id, {m.deadline.player for m in rows}) if rows else {}
    return [
        MissedDeadline(
            event_id=event.id,
            ruling=d.ruling,
            player=d.player,
            player_name=names[d.player].name if d.player in names else "",
            rule=rule,
            infraction_ja=book.rule_name(rule, "ja"),
            infraction_en=book.rule_name(rule, "en"),
            remedy_ja=d.remedy_ja,
            remedy_en=d.remedy_en,
            due_kind=d.due_kind,
            round=d.round,
            table=d.table_no,
            closed_at=d.closed_at,
        )
        for d, rule in rows
    ]
