"""Reports of decklists and deck checks (T13): the deck checks per round (who, when, how long,
what was found, the rulings they led to); one player's list as an A4 sheet in Japanese with the
judges' box (checked in round, counts, judge); every list as CSV and JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from shinpan.errors import NotFound
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import EventHeader, EventReport, event_header, local_time, people
from shinpan.services import deckchecks, decklists
from shinpan.services.codes import player_codes
from shinpan.services.context import stamp
from shinpan.services.deck_shapes import CheckJson, ShownListJson
from shinpan.services.heads import read_heads
from shinpan.store.db import Database
from shinpan.store.decks import current_lists
from shinpan.store.public import published
from shinpan.tournament.deckcheck import ILLEGAL_DECK, ILLEGAL_DECKLIST, LOST_OR_MIXED, MISMATCH, RECORDING
from shinpan.tournament.decks import section_label

PROPOSED_JA = {
    ILLEGAL_DECK: "実際のデッキのレギュレーション違反",
    ILLEGAL_DECKLIST: "デッキリストのみのレギュレーション違反",
    RECORDING: "デッキリストの不正記録",
    MISMATCH: "デッキとデッキリストが異なる",
    LOST_OR_MIXED: "カードの紛失・混在",
}


def proposed_ja(rule: str | None) -> str:
    return PROPOSED_JA.get(rule or "", rule or "なし")


@dataclass(frozen=True)
class DeckChecksReport(EventReport):
    """Every deck check of the event (or of one round)."""

    kind: ClassVar[str] = "deckchecks"
    stem: ClassVar[str] = "deckchecks"
    event: EventHeader
    checks: tuple[CheckJson, ...]
    generated_at: str
    round: int | None = None
    names: dict[str, str] = field(default_factory=dict)
    heads: tuple[LedgerHead, ...] = ()

    def proposed(self, rule: str | None) -> str:
        """An infraction T13 proposes, as a Japanese judge names it."""
        return proposed_ja(rule)

    @property
    def file_tail(self) -> str:
        return f"-round-{self.round}" if self.round else ""

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "generated_at": self.generated_at,
            "round": self.round,
            "checks": [dict(c) for c in self.checks],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = [
            "回戦 / round", "卓 / table", "選手 / player", "ジャッジ / judge",
            f"開始 / started ({self.time_zone})", "時間(分) / minutes", "不足 / missing", "余分 / extra",
            "他者のカード / foreign", "提案 / proposed", "裁定 / rulings",
        ]  # fmt: skip
        rows: list[list[str]] = []
        for c in self.checks:
            rulings = c.get("rulings", [])
            for p in c["players"]:
                cited = [f"#{r['number']} {r['rule']}" for r in rulings if r["player"] == p["player"]]
                rows.append(
                    [
                        str(c["round"]), str(c["table"]), p["player"], c["judge"],
                        local_time(c["started_at"], self.time_zone), str(c["minutes"]) if c["ended_at"] else "",
                        "; ".join(f"{m['name']}×{m['count']}" for m in p["missing"]),
                        "; ".join(f"{m['name']}×{m['count']}" for m in p["extra"]),
                        "; ".join(f"{m['name']}×{m['count']} ({m['from']})" for m in p["foreign"]),
                        p["proposed"] or "", "; ".join(cited),
                    ]
                )  # fmt: skip
        return header, rows


def deck_checks_report(
    db: Database, event_id: int, round_no: int | None = None, *, now: datetime | None = None
) -> DeckChecksReport:
    with db.read() as conn:
        event = event_header(conn, event_id)
        names = {n: p.name for n, p in people(conn, event_id).items()}
        heads = read_heads(conn, [event_id])
    found = tuple(deckchecks.checks(db, event_id, round_no))
    return DeckChecksReport(event, found, stamp(now), round_no, names, heads)


@dataclass(frozen=True)
class DecklistSheet(EventReport):
    """One player's registered list, as an A4 sheet in Japanese with the judges' box."""

    kind: ClassVar[str] = "decklist"
    stem: ClassVar[str] = "decklist"
    event: EventHeader
    player: str
    player_name: str
    shown: ShownListJson
    checks: tuple[CheckJson, ...]
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()

    def proposed(self, rule: str | None) -> str:
        """An infraction T13 proposes, as a Japanese judge names it."""
        return proposed_ja(rule)

    @property
    def file_tail(self) -> str:
        return f"-{self.player}"

    def sections(self) -> list[tuple[str, list[dict[str, Any]], int]]:
        return [
            (section_label(s), [dict(c) for c in cards], sum(c["count"] for c in cards))
            for s, cards in self.shown["sections"].items()
        ]

    def columns(self) -> list[list[tuple[str, str, str]]]:
        """The list as lines in two columns, for one A4 page: ("section", label, total) and
        ("card", count, name)."""
        lines: list[tuple[str, str, str]] = []
        for label, cards, total in self.sections():
            lines.append(("section", label, str(total)))
            lines += [("card", str(c["count"]), str(c["name"])) for c in cards]
        half = (len(lines) + 1) // 2
        return [lines[:half], lines[half:]]

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "event": self.event.as_json(),
            "generated_at": self.generated_at,
            "player": self.player,
            "player_name": self.player_name,
            "decklist": dict(self.shown),
            "checks": [dict(c) for c in self.checks],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["セクション / section", "枚数 / count", "カード名 / name"]
        return header, [[s, str(c["count"]), c["name"]] for s, cards, _ in self.sections() for c in cards]


def decklist_sheet(db: Database, event_id: int, player: str, *, now: datetime | None = None) -> DecklistSheet:
    shown = decklists.show(db, event_id, player)
    with db.read() as conn:
        event = event_header(conn, event_id)
        name = people(conn, event_id, [player]).get(player)
        heads = read_heads(conn, [event_id])
    checks = tuple(c for c in deckchecks.checks(db, event_id) if player in c["seated"])
    return DecklistSheet(event, player, name.name if name else "", shown, checks, stamp(now), heads)


@dataclass(frozen=True)
class AllDecklists(EventReport):
    """Every player's current list (CSV: one line per card; JSON: by player)."""

    kind: ClassVar[str] = "decklists"
    stem: ClassVar[str] = "decklists"
    event: EventHeader
    lists: tuple[dict[str, Any], ...]
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"report": self.kind, "event": self.event.as_json(), "generated_at": self.generated_at,
                "decklists": list(self.lists)}  # fmt: skip

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["選手 / player", "版 / version", "セクション / section", "枚数 / count", "カード名 / name",
                  "問題 / problems"]  # fmt: skip
        rows = [
            [x["player"], str(x["version"]), s, str(c[0]), c[1], str(len(x["problems"]))]
            for x in self.lists
            for s, cards in x["sections"].items()
            for c in cards
        ]
        return header, rows


def all_decklists(db: Database, event_id: int, *, now: datetime | None = None) -> AllDecklists:
    with db.read() as conn:
        event = event_header(conn, event_id)
        found = current_lists(conn, event_id)
        heads = read_heads(conn, [event_id])
    lists = tuple(
        {
            "player": p,
            "version": row.version,
            "sections": row.sections,
            "problems": row.problems,
            "digest": row.digest,
            "submitted_by": row.submitted_by,
            "submitted_at": row.submitted_at,
        }
        for p, (row, _) in sorted(found.items())
    )
    if not lists:
        raise NotFound("no decklist is registered at event {event}", event=event_id)
    return AllDecklists(event, lists, stamp(now), heads)


@dataclass(frozen=True)
class RegistrationSlip:
    number: str
    name: str
    code: str


@dataclass(frozen=True)
class RegistrationSlips(EventReport):
    """Each player's registration code on a slip the desk hands out (T13: a player submits
    their own decklist with it on the players' pages), ten to an A4 page."""

    kind: ClassVar[str] = "registration_slips"
    stem: ClassVar[str] = "registration-codes"
    event: EventHeader
    slips: tuple[RegistrationSlip, ...]
    address: str | None
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"report": self.kind, "event": self.event.as_json(), "generated_at": self.generated_at,
                "address": self.address,
                "slips": [{"player": s.number, "name": s.name, "code": s.code} for s in self.slips]}  # fmt: skip

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["選手番号 / player id", "選手 / player", "登録コード / registration code"]
        return header, [[s.number, s.name, s.code] for s in self.slips]


def registration_slips(
    db: Database, event_id: int, base_url: str = "", *, now: datetime | None = None
) -> RegistrationSlips:
    with db.read() as conn:
        event = event_header(conn, event_id)
        found = people(conn, event_id)
        codes = player_codes(db, conn, event_id, list(found))
        shown = published(conn, event_id)
        heads = read_heads(conn, [event_id])
    address = (
        f"{base_url.rstrip('/')}/p/{shown.token}/decklist" if shown is not None and shown.token else None
    )
    slips = tuple(RegistrationSlip(n, p.name, codes[n]) for n, p in sorted(found.items()))
    return RegistrationSlips(event, slips, address, stamp(now), heads)
