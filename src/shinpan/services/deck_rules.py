"""The event's deck rules (T13): set before round 1, read by every list and check; and when the
lists are locked (at round 1's start, at the event's time, or by hand)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import DeckRulesSet
from shinpan.errors import Conflict, InvalidInput
from shinpan.services.asked import Judged, by_judge, run_asked
from shinpan.services.context import parse_stamp
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.decks import round1_started_at, rules_row
from shinpan.store.ledger import Appender
from shinpan.tournament.decks import (
    DEFAULT_COPIES,
    DeckRules,
    RulesError,
    normalise,
    parse_sections,
    sections_text,
)

__all__ = ["event_rules", "locked_at", "rules_of", "rules_were_set", "set_rules"]


def rules_of(body: Mapping[str, Any]) -> DeckRules:
    """The deck rules an entry body says (the defaults for an empty one)."""
    if not body:
        return DeckRules()
    return DeckRules(
        required=bool(body["required"]),
        sections=parse_sections(str(body["sections"])),
        copies=int(body["copies"]),
        across=bool(body["across"]),
        limits={normalise(name): int(n) for name, n in body.get("limits", [])},
        unlimited=frozenset(normalise(n) for n in body.get("unlimited", [])),
        lock=str(body.get("lock", "round1")),
    )


def event_rules(conn: Connection, event_id: int) -> DeckRules:
    found = rules_row(conn, event_id)
    return rules_of(found[0]) if found is not None else DeckRules()


def rules_were_set(conn: Connection, event_id: int) -> bool:
    found = rules_row(conn, event_id)
    return found is not None and bool(found[0])


def locked_at(conn: Connection, event_id: int, now: datetime) -> str | None:
    """When the lists were locked (None: not yet): by hand, at round 1's start, or at the
    event's time (T13)."""
    found = rules_row(conn, event_id)
    by_hand = found[1] if found is not None else None
    rules = rules_of(found[0]) if found is not None else DeckRules()
    moments = [m for m in (by_hand,) if m]
    if rules.lock == "round1":
        started = round1_started_at(conn, event_id)
        if started:
            moments.append(started)
    elif parse_stamp(rules.lock) <= now:
        moments.append(rules.lock)
    return min(moments, key=parse_stamp) if moments else None


def _lock_value(lock: str) -> str:
    if lock == "round1":
        return lock
    try:
        parse_stamp(lock)
    except (ValueError, TypeError):
        raise InvalidInput(
            "the lock is round1 or a time with its offset, e.g. 2026-12-07T09:30:00+09:00", field="lock"
        ) from None
    return lock


def set_rules(
    db: Database,
    event_id: int,
    *,
    required: bool = True,
    sections: str = "main:60-,side:0-15",
    copies: int = DEFAULT_COPIES,
    across: bool = False,
    limits: Sequence[tuple[str, int]] = (),
    unlimited: Sequence[str] = (),
    lock: str = "round1",
    **asked: Unpack[Judged],
) -> DeckRules:
    """The event's deck rules, set before round 1 starts (T13)."""
    try:
        parsed = parse_sections(sections)
    except RulesError as e:
        raise InvalidInput(
            "the sections are written name:low-high, e.g. main:60-,side:0-15", field="sections"
        ) from e
    if not 1 <= copies <= 99:
        raise InvalidInput("the copy limit is a whole number from 1 to 99", field="copies")
    entry = DeckRulesSet(
        required, sections_text(parsed), copies, across, tuple(limits), tuple(unlimited), _lock_value(lock)
    )

    def act(conn: Connection, ap: Appender) -> DeckRules:
        if round1_started_at(conn, event_id) is not None:
            raise Conflict("round 1 has started: the deck rules can no longer change")
        ap.append(entry)
        return rules_of(entry.body())

    return run_asked(
        db, event_id, Action.manage, entry.body(), act, lambda *_: rules_of(entry.body()), **by_judge(asked)
    )
