"""Reading an event: players, a player's history, the rulings feed, matches."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypedDict

from shinpan.engine.event_rules import RulingState
from shinpan.errors import NotFound
from shinpan.services.context import load_event, stamp, zone_of

# Player search moved to shinpan.services.search (an index the ledger keeps current).
from shinpan.services.search import Roster as Roster
from shinpan.services.search import find_players as find_players
from shinpan.services.search import roster as roster
from shinpan.services.search import with_seats as with_seats
from shinpan.services.shapes import (
    AppealListed,
    MatchListed,
    RoundMatches,
    RulingInFeed,
    RulingListed,
    StatementListed,
    appeal_listed,
    match_listed,
    statement_listed,
)
from shinpan.store import appeals as stored_appeals
from shinpan.store import feed
from shinpan.store import matches as stored_matches
from shinpan.store import players as stored_players
from shinpan.store.db import Database
from shinpan.store.matches import MatchRecord
from shinpan.views.history import get_player as get_player
from shinpan.views.history import player_history as player_history
from shinpan.views.players import PlayerView
from shinpan.views.rulings import RulingView


def match_dict(m: MatchRecord, duel_winners: dict[int, str | None]) -> MatchListed:
    return match_listed(m, duel_winners)


def rulings_feed(
    db: Database,
    event_id: int,
    *,
    state: RulingState | None = None,
    limit: int = 100,
    before: int | None = None,
) -> list[RulingInFeed]:
    """The newest rulings first; ``state='pending'`` is the confirmation queue."""
    with db.read() as conn:
        book = load_event(conn, event_id).book
        rows = feed.feed(conn, event_id, state=state, limit=limit, before=before)
    return [RulingView.named(r, book).in_feed() for r in rows]


def rulings_recorded_today(
    db: Database, event_id: int, judge: str, now: datetime | None = None
) -> list[RulingInFeed]:
    """What ``judge`` recorded today (the event's day, in its time zone), newest first, each
    as it stands now: a record sent later from a phone that was offline is among them once
    it arrives (it is recorded then, by the judge who saved it)."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        local = (now or datetime.now(UTC)).astimezone(zone_of(event.time_zone))
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        rows = feed.judge_rulings(conn, event_id, judge, stamp(midnight))
    book = event.book
    return [RulingView.named(r, book).in_feed() for r in rows]


def added_by_correction(db: Database, event_id: int, entry: int) -> int | None:
    """D16: the ruling whose correction added the rulings of this entry, if one did."""
    from shinpan.store.reports import added_after  # start-up: most reads need no reports

    with db.read() as conn:
        return added_after(conn, event_id, entry)


def rederived_by(db: Database, event_id: int, number: int) -> tuple[list[int], list[int]]:
    """D16: the additional rulings a correction of this ruling voided, and those it added."""
    from shinpan.store.reports import rederived_by as found  # start-up

    with db.read() as conn:
        return found(conn, event_id, number)


class RederivedRuling(TypedDict):
    """An additional ruling a correction voided or added (D16), as the answer names it."""

    number: int
    player: str
    player_name: str | None
    rule: str
    penalties: list[str]


class Rederived(TypedDict):
    """What a correction voided and added of the additional rulings (D16)."""

    voided: list[RederivedRuling]
    added: list[RederivedRuling]


def rederived_since(
    db: Database, event_id: int, number: int, before: tuple[list[int], list[int]]
) -> Rederived:
    """D16: the additional rulings a correction of this ruling voided and added since
    ``before`` (:func:`rederived_by` read before it), each with its player, rule and penalties."""
    voided, added = rederived_by(db, event_id, number)

    def named(now: list[int], was: list[int]) -> list[RederivedRuling]:
        rows = [get_ruling(db, event_id, n) for n in now if n not in was]
        names = player_names(db, event_id, sorted({r["player"] for r in rows}))
        return [
            RederivedRuling(
                number=r["number"],
                player=r["player"],
                player_name=names.get(r["player"]),
                rule=r["rule"],
                penalties=list(r["penalties"]),
            )
            for r in rows
        ]

    return Rederived(voided=named(voided, before[0]), added=named(added, before[1]))


def get_ruling(db: Database, event_id: int, number: int) -> RulingListed:
    with db.read() as conn:
        book = load_event(conn, event_id).book
        row = feed.ruling(conn, event_id, number)
    if row is None:
        raise NotFound("no ruling {number} in event {event}", number=number, event=event_id)
    return RulingView.of(row, book).as_json()


def round_matches(db: Database, event_id: int, round_no: int | None = None) -> RoundMatches:
    """A round's matches with their duels (the scorekeeper's view); default: the current round."""
    with db.read() as conn:
        event = load_event(conn, event_id)
        number = round_no or event.current_round
        ms = stored_matches.round_matches(conn, event_id, number)
        winners: dict[int, dict[int, str | None]] = {}
        for d in stored_matches.round_duels(conn, event_id, number):
            winners.setdefault(d.table_no, {})[d.duel] = d.winner
    return {"round": number, "matches": [match_dict(m, winners.get(m.table_no, {})) for m in ms]}


def appeals_of(db: Database, event_id: int) -> list[AppealListed]:
    """The event's appeals, open first, each with the ruling appealed against."""
    with db.read() as conn:
        heard = stored_appeals.appeals_heard(conn, event_id)
    found = [appeal_listed(a) for a in heard]
    return sorted(found, key=lambda a: (a["outcome"] is not None, a["entry"]))


def statements_of(db: Database, event_id: int) -> list[StatementListed]:
    """Statements of the people involved (D14), in the order they were given."""
    with db.read() as conn:
        given = stored_appeals.statements(conn, event_id)
    return [statement_listed(s) for s in given]


def time_zone_of(db: Database, event_id: int) -> str:
    """The zone every time of the event is shown in."""
    with db.read() as conn:
        return load_event(conn, event_id).time_zone


def ledger_head(db: Database, event_id: int) -> int:
    """The number of the event's newest ledger entry (0 before the first)."""
    with db.read() as conn:
        return feed.ledger_head(conn, event_id)


def player_names(db: Database, event_id: int, numbers: list[str]) -> dict[str, str]:
    """Players' names by number (those the event has)."""
    with db.read() as conn:
        return stored_players.names(conn, event_id, numbers)


def involved(db: Database, event_id: int, ruling: RulingListed) -> list[PlayerView]:
    """The players a ruling concerns: its player, and the opponent at its table, who may
    appeal it (a judge records the appeal)."""
    with db.read() as conn:
        numbers = [ruling["player"]]
        if ruling["round"] is not None and ruling["table"] is not None:
            seats = stored_matches.seated(conn, event_id, ruling["round"], ruling["table"])
            if seats is not None:
                numbers += [p for p in seats if p and p != ruling["player"]]
        found = stored_players.players_numbered(conn, event_id, numbers)
    return [PlayerView.of(found[n]) for n in numbers if n in found]
