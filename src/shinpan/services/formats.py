"""An event's format (T7–T9): how it plays its matches, what a match at time is, how it
ranks after points. Chosen at creation or by the head judge before round 1 is paired; kept
as an ``event.format`` entry in the ledger, with the seed its ``seeded`` order is drawn from.
"""

from __future__ import annotations

import secrets
from typing import Unpack

from shinpan.engine.event_rules import Action
from shinpan.entries import FormatSet
from shinpan.errors import InvalidInput
from shinpan.services.asked import Asked, run_asked
from shinpan.services.context import load_event
from shinpan.store.connection import Connection
from shinpan.store.db import Database
from shinpan.store.ledger import Appender, Entry
from shinpan.tournament.formats import EventFormat, check_format_change, parse_format
from shinpan.tournament.tiebreakers import chain_text

# The format as read is the read side's (shinpan.views.standings); named here too for the
# commands and pages that set it and show it.
from shinpan.views.standings import FormatJson as FormatJson
from shinpan.views.standings import format_json as format_json
from shinpan.views.standings import read_format as read_format

SEED_LIMIT = 2**31  # a seed the ledger's readers (and PostgreSQL's integer) hold


def check_seed(seed: int | None) -> None:
    """A seed given (an import's, a scorekeeper's) is a whole number from 0 to 2**31 - 1: the
    event's seeded draw and each round's pairing draw alike."""
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise InvalidInput(
            "a seed is a whole number from 0 to {highest}", field="seed", highest=SEED_LIMIT - 1
        )


def format_entry(chosen: EventFormat, seed: int | None = None) -> FormatSet:
    """The entry that keeps a chosen format, with ``seed`` (an import's) or a newly drawn one."""
    check_seed(seed)
    return FormatSet(
        chosen.match_format.value,
        chosen.at_time.value,
        chain_text(chosen.chain),
        secrets.randbelow(SEED_LIMIT) if seed is None else seed,
    )


def open_format(
    conn: Connection, event_id: int, created: Entry, chosen: EventFormat, seed: int | None = None
) -> Entry:
    """The format chosen at creation, right after the event's first entry, in the same write."""
    appender = Appender(conn, event_id, created.actor, created.recorded_at, head=(created.seq, created.hash))
    return appender.append(format_entry(chosen, seed), refs=[created.seq])


def set_format(
    db: Database,
    event_id: int,
    *,
    match_format: str | None = None,
    time_out: str | None = None,
    tiebreakers: str | None = None,
    seed: int | None = None,
    **asked: Unpack[Asked],
) -> EventFormat:
    """The head judge changes the event's format before round 1 is paired; what is not
    given stays as it was. ``seed`` (an import's) instead of a newly drawn one."""

    def act(conn: Connection, ap: Appender) -> EventFormat:
        check_format_change(load_event(conn, event_id).current_round)
        now_set = read_format(conn, event_id)
        chosen = parse_format(
            match_format or now_set.match_format.value,
            time_out or now_set.at_time.value,
            tiebreakers or chain_text(now_set.chain),
        )
        ap.append(format_entry(chosen, seed))
        return read_format(conn, event_id)

    payload = {"format": match_format, "time_out": time_out, "tiebreakers": tiebreakers}
    return run_asked(
        db, event_id, Action.manage, payload, act, lambda conn, _entry: read_format(conn, event_id), **asked
    )
