"""A player's history across every event in the database, for the head judge.

Player ids are per event, so the same person is recognised by name and reading, both
normalised the way player search compares them (:func:`shinpan.guideline.search.normalize`:
NFKC, katakana as hiragana, no spaces). Readings must agree when both events know one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from shinpan.engine.event_rules import HistoryScope, disqualifies, ejects
from shinpan.errors import InvalidInput, NotFound
from shinpan.guideline.search import normalize
from shinpan.ledger_head import LedgerHead
from shinpan.reports.common import STATE_WORDS, EventHeader, event_header, event_headers, shared_zone
from shinpan.reports.rulings import ReportedRuling, read_rulings
from shinpan.services.context import stamp
from shinpan.services.heads import read_heads
from shinpan.store import reports as store
from shinpan.store.connection import Connection
from shinpan.store.db import Database


@dataclass(frozen=True)
class Appearance:
    """The person at one event: their id there, their status, the rulings the report lists."""

    event: EventHeader
    number: str
    name: str
    reading: str
    status: str
    rulings: tuple[ReportedRuling, ...]

    @property
    def ejections(self) -> int:
        """Rulings that eject, by what their penalties do in the event's guideline (D14)."""
        book = self.event.book
        return sum(1 for r in self.rulings if ejects(book.acts(r.penalties), voided=r.voided))

    @property
    def disqualifications(self) -> int:
        """Rulings that disqualify, by what their penalties do in the event's guideline (D14)."""
        book = self.event.book
        return sum(1 for r in self.rulings if disqualifies(book.acts(r.penalties), voided=r.voided))

    def as_json(self) -> dict[str, Any]:
        return {
            "event": self.event.as_json(),
            "player": self.number,
            "name": self.name,
            "reading": self.reading,
            "status": self.status,
            "ejections": self.ejections,
            "disqualifications": self.disqualifications,
            "rulings": [r.as_json() for r in self.rulings],
        }


@dataclass(frozen=True)
class PlayerHistory:
    kind: ClassVar[str] = "history"
    name: str
    reading: str
    appearances: tuple[Appearance, ...]
    generated_at: str
    heads: tuple[LedgerHead, ...] = ()  # the ledger's head as it was (shinpan.services.heads)

    @property
    def rulings(self) -> list[tuple[Appearance, ReportedRuling]]:
        return [(a, r) for a in self.appearances for r in a.rulings]

    @property
    def ejections(self) -> int:
        return sum(a.ejections for a in self.appearances)

    @property
    def disqualifications(self) -> int:
        return sum(a.disqualifications for a in self.appearances)

    @property
    def time_zone(self) -> str:
        return shared_zone(a.event for a in self.appearances)

    @property
    def file_stem(self) -> str:
        return "player-history"

    def as_json(self) -> dict[str, Any]:
        return {
            "report": self.kind,
            "name": self.name,
            "reading": self.reading,
            "generated_at": self.generated_at,
            "events": len(self.appearances),
            "ejections": self.ejections,
            "disqualifications": self.disqualifications,
            "appearances": [a.as_json() for a in self.appearances],
        }

    def csv_table(self) -> tuple[list[str], list[list[str]]]:
        header = ["大会番号 / event", "大会 / event name", "日付 / date", "選手番号 / player", "選手名 / name",
                  "裁定番号 / ruling", "ラウンド / round", "違反 / infraction", "罰則 / penalty",
                  "状態 / state"]  # fmt: skip
        rows = [
            [
                str(a.event.id),
                a.event.name,
                a.event.dates,
                a.number,
                a.name,
                str(r.number),
                "" if r.round is None else str(r.round),
                r.infraction_ja,
                r.penalties_ja,
                STATE_WORDS.get(r.state, r.state),
            ]
            for a, r in self.rulings
        ]
        return header, rows


def same_person(name: str, reading: str, other_name: str, other_reading: str) -> bool:
    """Names equal once normalised, readings too when both are known; a name typed in kana
    only is compared with the reading."""
    typed = normalize(name)
    if typed == normalize(other_name):
        mine, theirs = normalize(reading), normalize(other_reading)
        return not mine or not theirs or mine == theirs
    return _KANA.fullmatch(typed) is not None and typed == normalize(other_reading)


_KANA = re.compile("[\u3041-\u309fー]+")  # hiragana (katakana is folded into it) and ー


def player_history(
    db: Database,
    name: str,
    reading: str = "",
    *,
    scope: HistoryScope | None = None,
    now: datetime | None = None,
) -> PlayerHistory:
    """Every event where someone of this name (and reading) played, oldest first; given a
    reader's ``scope``, only the events they read, voided rulings only where they see them."""
    with db.read() as conn:
        appearances = _appearances(conn, name, reading, scope)
        heads = read_heads(conn, [a.event.id for a in appearances])
    return PlayerHistory(name.strip(), reading.strip(), appearances, stamp(now), heads)


def history_of_player(
    db: Database,
    event_id: int,
    number: str,
    *,
    scope: HistoryScope | None = None,
    now: datetime | None = None,
) -> PlayerHistory:
    """The history of a player of this event: their name and reading, searched in every
    event (the reader's ``scope``: in those they read)."""
    with db.read() as conn:
        event_header(conn, event_id)
        player = store.players(conn, event_id, [number]).get(number)
        if player is None:
            raise NotFound("no player {player} in event {event}", player=number, event=event_id)
        appearances = _appearances(conn, player.name, player.reading, scope)
        heads = read_heads(conn, [a.event.id for a in appearances])
    return PlayerHistory(player.name.strip(), player.reading.strip(), appearances, stamp(now), heads)


def _appearances(
    conn: Connection, name: str, reading: str, scope: HistoryScope | None
) -> tuple[Appearance, ...]:
    if not normalize(name):
        raise InvalidInput("give the player's name", field="name")
    candidates = store.players_named(conn, normalize(name))
    found = [p for p in candidates if same_person(name, reading, p.name, p.reading)]
    if scope is not None:
        found = [p for p in found if scope.reads(p.event_id)]
    headers = {h.id: h for h in event_headers(conn, sorted({p.event_id for p in found}))}
    appearances = []
    for p in found:
        event = headers[p.event_id]
        shown = scope is None or scope.sees_voided(event.id)
        listed = tuple(
            r for r in read_rulings(conn, event, player=p.number) if r.reported and (shown or not r.voided)
        )
        appearances.append(Appearance(event, p.number, p.name, p.reading, p.status, listed))
    order = {h: n for n, h in enumerate(headers)}
    appearances.sort(key=lambda a: order[a.event.id])
    return tuple(appearances)
